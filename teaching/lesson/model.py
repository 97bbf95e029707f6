"""What a lesson step is (pure: no Streamlit): an idea, a small live example, one
question with its choices, and what the reveal says. The steps themselves are built
from the engine's numbers in ui.lesson.steps_*."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.config import Cell
from pooling.explain import argmax_cells
from teaching.numbers import fmt


@dataclass(frozen=True, eq=False)
class Grid:
    """One map of the example. values: (H, W); kind: value, gradient or count."""

    title: str
    values: np.ndarray
    kind: str = "value"
    marks: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Choice:
    text: str
    right: bool
    why: str  # said when this choice is picked: why it is right or where it goes wrong


@dataclass(frozen=True, eq=False)
class Step:
    """One teaching point. example: the maps shown before the question; reveal: the
    answer in full (markdown), shown once the learner has answered or asked for it;
    mistake: a common wrong belief this step answers, or None."""

    title: str
    idea: str
    example: tuple[Grid, ...]
    question: str
    choices: tuple[Choice, ...]
    reveal: str
    mistake: str | None = None

    def verdict(self, picked: int) -> str:
        """What is said when choice `picked` is picked: right or wrong in words first, so
        the verdict does not rest on the box's colour."""
        choice = self.choices[picked]
        return f"{'Right' if choice.right else 'Not quite'}: {choice.why}"

    @property
    def right_choice(self) -> int:
        return next(index for index, choice in enumerate(self.choices) if choice.right)

    @property
    def reveal_paragraphs(self) -> tuple[str, ...]:
        """The reveal's paragraphs (markdown, split at blank lines): what lecture mode
        shows one at a time, where the whole answer would not fit a projector."""
        return tuple(part.strip() for part in self.reveal.split("\n\n") if part.strip())


def routed(x, config: PoolConfig, upstream) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Forward and backward of one plane. x: (H, W); upstream: a number or (OH, OW).
    Returns y (OH, OW), dL/dx (H, W) and the argmax (OH, OW) or None."""
    x = np.asarray(x, dtype=float)
    result = forward(x, config)
    grad = np.broadcast_to(np.asarray(upstream, dtype=float), result.output.shape)
    return result.output, backward(result, grad), result.argmax


def winners(x: np.ndarray, argmax: np.ndarray | None) -> tuple[Cell, ...]:
    if argmax is None:
        return ()
    rows = np.unique(argmax_cells(argmax, x.shape[1]).reshape(-1, 2), axis=0)
    return tuple((int(row), int(col)) for row, col in rows)


def cell_name(cell) -> str:
    """(0, 1) -> 'x[0,1]': a cell of x, row then column, counted from 0."""
    return f"x[{int(cell[0])},{int(cell[1])}]"


def cell_list(grad: np.ndarray) -> str:
    """'x[0,1] gets 2.5' for every nonzero cell of a gradient map, in reading order."""
    cells = [f"{cell_name(cell)} gets {fmt(grad[tuple(cell)])}" for cell in np.argwhere(grad)]
    return ", ".join(cells) if cells else "no cell gets anything"


def vector(values) -> str:
    return "(" + ", ".join(fmt(v) for v in values) + ")"
