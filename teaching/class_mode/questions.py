"""A class question and a student's answer to it (pure: NumPy, the standard library,
the engine and teaching/exercises).

A Question wraps an Exercises `Problem`, so the Exercises' checking and mistake
analysis apply to the class's answers unchanged. It comes from the Playground's layer
(`question_from_layer`) or from a seeded exercise (`question_from_exercise`), is kept
in the database as JSON (`to_json` / `from_json`, exact round trip), and each
student's answer is validated by `parse_answer` before it is stored: it is user input.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from numbers import Integral, Real
from typing import Literal, get_args

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.explain import shares
from teaching.exercises.answers import LARGEST, parse_number, parse_whole
from teaching.exercises.model import KINDS as EXERCISE_KINDS
from teaching.exercises.model import LEVELS, SET_SIZE, Problem, make_problem

Kind = Literal["cells", "value", "size", "batch"]
KINDS: dict[Kind, str] = {kind: EXERCISE_KINDS[kind] for kind in get_args(Kind)}
LARGEST_SIDE = 8  # the largest Playground grid a class question takes (8x8)
LARGEST_OUTPUT_SIDE = 64  # a typed output size is 1..64 on each side
FORMAT = 1  # the JSON layout's version


@dataclass(frozen=True, eq=False)
class Question:
    """kind: what is asked; problem: the Exercises' problem (x (H, W), grad_output
    (OH, OW), answer: a frozenset of (row, col), a float or (OH, OW)); source: where it
    comes from, in words ("the Playground's layer", "exercise set 42, problem 3")."""

    kind: Kind
    problem: Problem
    source: str

    @property
    def answer(self):
        return self.problem.answer

    @property
    def picks_cells(self) -> bool:
        """Answered by picking cells (a "cells" question, a batch's window question)."""
        return self.problem.picks_cells

    @property
    def grid_shape(self) -> tuple[int, int]:
        """(H, W) of x (of each example's x for a batch), the grid a cell answer is
        picked on."""
        return tuple(int(side) for side in self.problem.x.shape[-2:])


def _check_kind(kind) -> Kind:
    if kind not in KINDS:
        raise ValueError(f"a class question asks one of {', '.join(KINDS)}, not {kind!r}")
    return kind


def _grid(x) -> np.ndarray:
    grid = np.array(x, dtype=float)
    if grid.ndim != 2 or not (1 <= min(grid.shape) and max(grid.shape) <= LARGEST_SIDE):
        raise ValueError(
            f"a class question's grid is 1 to {LARGEST_SIDE} rows and columns, "
            f"not {'×'.join(map(str, grid.shape))}"
        )
    if not np.isfinite(grid).all():
        raise ValueError("a class question's grid holds finite numbers only")
    return grid


def _upstream(grad_output, shape: tuple[int, int]) -> np.ndarray:
    """dL/dy (OH, OW), every cell > 0: then "the cells that get gradient" are exactly the
    cells some window routes to, whatever the numbers."""
    grad = np.array(grad_output, dtype=float)
    if grad.shape != shape:
        raise ValueError(f"dL/dy must be shaped like y, {shape[0]}×{shape[1]}")
    if not np.isfinite(grad).all() or not (grad > 0).all():
        raise ValueError("a class question needs every dL/dy positive (no zero, no negative)")
    return grad


def most_windows_cell(x: np.ndarray, config: PoolConfig, grad_output: np.ndarray) -> tuple:
    """The cell that receives from the most windows (the first in reading order among
    equals): where overlapping windows add up, the most telling cell to ask about."""
    sending = (shares(x, config) != 0) & (grad_output[:, :, None, None] != 0)
    senders = sending.sum(axis=(0, 1))
    row, col = np.unravel_index(int(np.argmax(senders)), senders.shape)
    return int(row), int(col)


def _cell(cell, shape: tuple[int, int]) -> tuple[int, int]:
    row, col = (int(v) for v in cell)
    if not (0 <= row < shape[0] and 0 <= col < shape[1]):
        raise ValueError(f"cell ({row}, {col}) is outside the {shape[0]}×{shape[1]} grid")
    return row, col


def question_from_layer(kind: Kind, *, x, config: PoolConfig, grad_output, cell=None) -> Question:
    """A question on the Playground's layer: x (H, W) up to 8x8, dL/dy (OH, OW) > 0; for
    "value", dL/dx at `cell` (default: `most_windows_cell`)."""
    if _check_kind(kind) == "batch":
        raise ValueError("a batch question comes from an exercise set, not from one layer")
    grid = _grid(x)
    result = forward(grid, config)
    grad = _upstream(grad_output, result.output.shape)
    grad_x = backward(result, grad)
    asked = None
    if kind == "cells":
        answer = frozenset((int(r), int(c)) for r, c in np.argwhere(grad_x != 0))
    elif kind == "value":
        asked = most_windows_cell(grid, config, grad) if cell is None else _cell(cell, grid.shape)
        answer = float(grad_x[asked])
        if abs(answer) > LARGEST:
            raise ValueError("dL/dx at that cell is too large for a typed answer")
    else:
        answer = tuple(int(side) for side in result.output.shape)
    problem = Problem(kind, 0, config, grid, grad, answer, cell=asked)
    return Question(kind, problem, "the Playground's layer")


def question_from_exercise(kind: Kind, *, level: int, seed: int, number: int) -> Question:
    """Problem `number` (1..10) of the Exercises' set (kind, level, seed)."""
    _check_kind(kind)
    if level not in LEVELS:
        raise ValueError(f"the exercise levels are 1 to {len(LEVELS)}, not {level}")
    if not 1 <= number <= SET_SIZE:
        raise ValueError(f"a set has problems 1 to {SET_SIZE}, not {number}")
    if kind == "batch":
        number = window_number(level, seed, number)
    problem = make_problem(kind, level, seed, number)
    return Question(kind, problem, f"exercise set {seed} at level {level}, problem {number}")


def window_number(level: int, seed: int, number: int) -> int:
    """The batch set's first window question (the cells of one window, or a cell's
    mean gradient) at or after problem `number`, going round past the last: a class
    is asked those, where the first seed's idea is a mistake, never a count or a
    shared bias."""
    for step in range(SET_SIZE):
        candidate = (number - 1 + step) % SET_SIZE + 1
        if make_problem("batch", level, seed, candidate).window is not None:
            return candidate
    raise ValueError(f"exercise set {seed} at level {level} has no window question")


# -- JSON: the database's form --------------------------------------------------------------


def _answer_data(answer):
    if isinstance(answer, frozenset):
        return sorted([int(r), int(c)] for r, c in answer)
    if isinstance(answer, tuple):
        return [int(side) for side in answer]
    return float(answer)


def to_json(question: Question) -> str:
    """The question as JSON; `from_json` gives it back exactly (floats keep every bit)."""
    problem = question.problem
    data = {
        "format": FORMAT,
        "kind": question.kind,
        "source": question.source,
        "level": problem.level,
        "config": asdict(problem.config),
        "x": problem.x.tolist(),
        "grad_output": problem.grad_output.tolist(),
        "cell": None if problem.cell is None else list(problem.cell),
        "answer": _answer_data(problem.answer),
    }
    if problem.window is not None:  # a batch's window question (older rounds have none)
        data |= {"window": list(problem.window), "reduction": problem.reduction}
    return json.dumps(data, allow_nan=False, separators=(",", ":"))


def _config(data: dict) -> PoolConfig:
    pairs = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    return PoolConfig(**pairs)


def _window(data) -> tuple[int, int] | None:
    return None if data is None else (int(data[0]), int(data[1]))


def from_json(text: str) -> Question:
    """The Question `to_json` wrote; ValueError when the text is not one."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown question format {data.get('format')!r}")
        kind = _check_kind(data["kind"])
        x = np.array(data["x"], dtype=float)
        cell = None if data["cell"] is None else tuple(int(v) for v in data["cell"])
        problem = Problem(
            kind,
            int(data["level"]),
            _config(data["config"]),
            x,
            np.array(data["grad_output"], dtype=float),
            answer_from_data(kind, data["answer"]),
            cell=cell,
            reduction=data.get("reduction"),
            window=_window(data.get("window")),
        )
        return Question(kind, problem, str(data["source"]))
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a stored class question ({error})") from None


# -- a student's answer -----------------------------------------------------------------------


def parse_answer(question: Question, raw):
    """A student's answer, validated: "cells" a list of [row, col] inside x (at most
    H*W, no repeats) -> frozenset of (row, col); "value" a number or its text, finite,
    |v| <= 1e6 -> float; "size" two whole numbers (or their texts) 1..64 -> (OH, OW).
    A batch's window question takes cells or a number as its problem asks.
    ValueError with a reason fit for the page (never the raw text itself)."""
    if question.picks_cells:
        return _parse_cells(raw, question.grid_shape)
    if question.kind in ("value", "batch"):
        return _parse_value(raw)
    return _parse_size(raw)


def _whole(value) -> int | None:
    """An int from an int (never a bool) or a whole float; None otherwise."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return None
    if isinstance(value, Integral):
        return int(value)
    return int(value) if math.isfinite(value) and value == int(value) else None


def _parse_cells(raw, shape: tuple[int, int]) -> frozenset:
    rows, cols = shape
    if isinstance(raw, (str, bytes, dict)) or not isinstance(raw, (list, tuple, set, frozenset)):
        raise ValueError("An answer to this question is a set of picked cells.")
    if len(raw) > rows * cols:
        raise ValueError(f"Pick at most {rows * cols} cells: the grid has no more.")
    picked = set()
    for item in raw:
        pair = [_whole(v) for v in item] if isinstance(item, (list, tuple)) else []
        if len(pair) != 2 or None in pair:
            raise ValueError("Each picked cell is a (row, column) pair of whole numbers.")
        row, col = pair
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(f"Cell ({row}, {col}) is outside the {rows}×{cols} grid.")
        if (row, col) in picked:
            raise ValueError(f"Cell ({row}, {col}) is picked twice.")
        picked.add((row, col))
    return frozenset(picked)


def _parse_value(raw) -> float:
    if isinstance(raw, str):
        try:
            return parse_number(raw)
        except ValueError as reason:
            raise ValueError(f"The answer {reason}.") from None
    if isinstance(raw, bool) or not isinstance(raw, Real):
        raise ValueError("An answer to this question is a number.")
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError("The answer is not a finite number.")
    if abs(value) > LARGEST:
        raise ValueError("The answer is far larger than any gradient here.")
    return value


def _parse_size(raw) -> tuple[int, int]:
    if isinstance(raw, (str, bytes)) or not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise ValueError("An output size is two whole numbers: rows and columns.")
    sides = []
    for side in raw:
        try:
            whole = parse_whole(side) if isinstance(side, str) else _whole(side)
        except ValueError:
            whole = None
        if whole is None or not 1 <= whole <= LARGEST_OUTPUT_SIDE:
            raise ValueError(
                f"Each side of an output size is a whole number from 1 to {LARGEST_OUTPUT_SIDE}."
            )
        sides.append(whole)
    return sides[0], sides[1]


def answer_to_json(answer) -> str:
    """A parsed answer as JSON (cells sorted, so equal answers give equal text)."""
    return json.dumps(_answer_data(answer), allow_nan=False, separators=(",", ":"))


def answer_from_data(kind: Kind, data):
    """An answer from its JSON data (a batch's: cells when a list, else a number)."""
    if kind == "cells" or (kind == "batch" and isinstance(data, list)):
        return frozenset((int(r), int(c)) for r, c in data)
    if kind == "size":
        return int(data[0]), int(data[1])
    return float(data)


def answer_from_json(kind, text: str):
    """The answer `answer_to_json` wrote, for a question of `kind` (or a Question)."""
    kind = kind.kind if isinstance(kind, Question) else _check_kind(kind)
    return answer_from_data(kind, json.loads(text))
