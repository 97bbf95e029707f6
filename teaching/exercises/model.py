"""Seeded exercise problems (pure: no Streamlit). The same (kind, level, seed, number)
always gives the same problem, so a link gives a whole class the same set; every
answer is the engine's.

Kinds: "cells" (which input cells receive gradient), "value" (dL/dx at one cell),
"size" (the output size), "batch" (positions a batch reaches; a shared bias's
gradient under mean or sum; the cells of one window that receive gradient from at
least one example; the mean gradient a cell receives over the batch). Levels add one
idea each: one window, overlap, padding, ties, ceil mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from cnn.split_winners import split_routing, window_shares
from pooling import PoolConfig, backward, batch_gradients, forward
from pooling.config import Cell, Mode
from pooling.explain import coverage
from pooling.geometry import output_length, plane_geometry
from teaching.tolerances import close_enough

Kind = Literal["cells", "value", "size", "batch"]  # what a problem asks for
KINDS: dict[Kind, str] = {
    "cells": "Which cells get gradient",
    "value": "dL/dx at a cell",
    "size": "Output size",
    "batch": "A small batch",
}
LEVELS = {1: "One window", 2: "Overlap", 3: "Padding", 4: "Ties", 5: "Ceil mode"}
SET_SIZE = 10  # problems in a set
PADDING_CASES = [(3, 1, 1), (3, 2, 1), (2, 1, 1)]  # (kernel, stride, padding)
CEIL_CASES = [(3, 2, 1), (2, 2, 0), (3, 2, 0)]  # stride 2: ceil mode can add a window


@dataclass(frozen=True, eq=False)
class Problem:
    """x: (H, W), or (N, H, W) for a batch; grad_output: dL/dy shaped like y (or None
    when every y cell sends 1); cell: the cell asked about; reduction: the batch's;
    window: the window (row, col) of y a batch's window question is about.
    answer: frozenset of cells ("cells", a batch's window), a float ("value", "batch"),
    a whole number (a batch's count) or (OH, OW)."""

    kind: Kind
    level: int
    config: PoolConfig
    x: np.ndarray
    grad_output: np.ndarray
    answer: object
    cell: Cell | None = None
    reduction: str | None = None
    asks_count: bool = False  # batch: how many positions, not the bias gradient
    window: Cell | None = None

    @property
    def picks_cells(self) -> bool:
        """The answer is a set of cells picked on a plane of x."""
        return isinstance(self.answer, frozenset)

    @property
    def pick_plane(self) -> np.ndarray:
        """(H, W): the plane cells are picked on: x, or for a batch's window question 1
        on each cell the window reads (padding aside), 0 elsewhere."""
        if self.kind != "batch":
            return self.x
        height, width = self.x.shape[-2:]
        plane = np.zeros((height, width))
        cells = plane_geometry(self.config, height, width).window_cells(self.window, real_only=True)
        for cell in cells:
            plane[cell] = 1.0
        return plane

    @property
    def asks_mean(self) -> bool:
        """A batch's window question on the mean gradient at `cell` (not a bias's)."""
        return self.kind == "batch" and self.window is not None and self.cell is not None


def layer_for(level: int, rng: np.random.Generator, *, mode: Mode) -> PoolConfig:
    """A layer that needs the level's idea (and those before it)."""
    ties = str(rng.choice(["first", "last", "split"])) if level >= 4 else "first"
    if level == 1:
        return PoolConfig(mode, 2, ties=ties)
    if level == 2:
        kernel, stride = [(2, 1), (3, 1), (3, 2)][rng.integers(3)]
        return PoolConfig(mode, kernel, stride=stride, ties=ties)
    ceil = level >= 5
    cases = CEIL_CASES if ceil else PADDING_CASES
    kernel, stride, padding = cases[rng.integers(len(cases))]
    include = bool(rng.integers(2)) if mode == "avg" else True
    return PoolConfig(
        mode,
        kernel,
        stride=stride,
        padding=padding,
        count_include_pad=include,
        ceil_mode=ceil,
        ties=ties,
    )


def ceil_matters(config: PoolConfig, size: int) -> bool:
    """Ceil mode adds a last window along an axis of `size` cells."""
    k, s, p = config.kernel_size[0], config.stride[0], config.padding[0]
    return output_length(size, k, s, p, 1, True) > output_length(size, k, s, p, 1, False)


def input_grid(level: int, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Whole numbers: 0-3 at the ties level (so windows tie), else 0-9 without repeats
    inside a plane where that is possible."""
    if level == 4:
        return rng.integers(0, 4, shape).astype(float)
    cells, planes = int(np.prod(shape[-2:])), int(np.prod(shape[:-2]))
    drawn = [rng.permutation(max(10, cells))[:cells] % 10 for _ in range(planes)]
    return np.array(drawn).reshape(shape).astype(float)


def plane_size(level: int, config: PoolConfig) -> int:
    """One window's worth at level 1; 4 or 5 otherwise; in ceil mode, a size where
    ceil mode hangs a last window over the edge."""
    if level == 1:
        return config.kernel_size[0]
    if config.ceil_mode:
        return next(size for size in (5, 6, 7) if ceil_matters(config, size))
    return 5 if config.kernel_size[0] == 3 else 4


def make_problem(kind: Kind, level: int, seed: int, number: int) -> Problem:
    """Problem `number` (1..SET_SIZE) of the set (kind, level, seed)."""
    if kind not in KINDS or level not in LEVELS:
        raise ValueError(f"no exercises of kind {kind!r} at level {level}")
    rng = np.random.default_rng([seed, level, list(KINDS).index(kind), number])
    builders = {"cells": cells_problem, "value": value_problem, "size": size_problem}
    return builders.get(kind, batch_problem)(level, rng)


def cells_problem(level: int, rng: np.random.Generator) -> Problem:
    config = layer_for(level, rng, mode="max")
    size = plane_size(level, config)
    x = input_grid(level, rng, (size, size))
    result = forward(x, config)
    grad = np.ones(result.output.shape)
    receives = backward(result, grad) != 0
    cells = frozenset((int(r), int(c)) for r, c in zip(*np.nonzero(receives), strict=True))
    return Problem("cells", level, config, x, grad, cells)


def value_problem(level: int, rng: np.random.Generator) -> Problem:
    mode = "avg" if level in (3, 5) and rng.integers(2) else "max"
    config = layer_for(level, rng, mode=mode)
    size = plane_size(level, config)
    x = input_grid(level, rng, (size, size))
    result = forward(x, config)
    grad = rng.integers(1, 5, result.output.shape).astype(float)
    grad_x = backward(result, grad)
    # Ask about a cell that gets something, from as many windows as possible.
    counts = coverage(config, size, size)
    candidates = np.argwhere((grad_x != 0) & (counts == counts[grad_x != 0].max()))
    cell = tuple(int(v) for v in candidates[rng.integers(len(candidates))])
    return Problem("value", level, config, x, grad, float(grad_x[cell]), cell=cell)


def size_problem(level: int, rng: np.random.Generator) -> Problem:
    config = layer_for(level, rng, mode=str(rng.choice(["max", "avg"])))
    height, width = (int(v) for v in rng.integers(5, 12, 2))
    if level == 1:
        height, width = (2 * int(v) for v in rng.integers(2, 6, 2))
    if config.ceil_mode and not ceil_matters(config, height):
        height += 1  # stride 2: one more cell makes ceil mode count
    shape = plane_geometry(config, height, width).output_shape
    return Problem("size", level, config, np.zeros((height, width)), np.zeros(shape), shape)


def batch_problem(level: int, rng: np.random.Generator) -> Problem:
    """One of four batch questions: how many positions, a shared bias's dL/db, one
    window's cells that receive gradient, a cell's mean gradient over the batch."""
    asked = int(rng.integers(4))
    config = layer_for(level, rng, mode="max")
    if asked >= 2:
        return window_problem(level, config, rng, asks_mean=asked == 3)
    size = plane_size(level, config)
    examples = int(rng.integers(2, 4))
    x = input_grid(level, rng, (examples, size, size))
    reduction = str(rng.choice(["mean", "sum"]))
    shape = forward(x[0], config).output.shape
    grad = rng.integers(1, 4, (examples, *shape)).astype(float)
    result = batch_gradients(x[:, None], grad[:, None], config, reduction)
    per_example = result.per_example[:, 0]
    if rng.integers(2):
        reached = int((per_example != 0).any(axis=0).sum())
        return Problem("batch", level, config, x, grad, reached, asks_count=True)
    candidates = np.argwhere((per_example != 0).any(axis=0))
    cell = tuple(int(v) for v in candidates[rng.integers(len(candidates))])
    answer = float(result.reduced[0][cell])
    return Problem("batch", level, config, x, grad, answer, cell=cell, reduction=reduction)


WINDOW_EXAMPLES = (3, 4)  # a window question's batch: few enough to answer by hand
DRAWS = 50  # batches drawn until one has a window that different examples win


@dataclass(frozen=True)
class WindowBatch:
    """A batch drawn for a window question. x: (N, H, W); grad: (N, OH, OW) dL_n/dy;
    counts: (OH, OW, H, W), the examples whose window sends each cell gradient."""

    x: np.ndarray
    grad: np.ndarray
    counts: np.ndarray


def window_batch(level: int, config: PoolConfig, rng: np.random.Generator) -> WindowBatch:
    """A few examples of a small x with dL_n/dy of 1 to 3, drawn until some window is
    won by different cells in different examples (one winner everywhere would make the
    batch question the one-example question)."""
    size = plane_size(level, config)
    examples = int(rng.integers(WINDOW_EXAMPLES[0], WINDOW_EXAMPLES[1] + 1))
    shape = forward(np.zeros((size, size)), config).output.shape
    for _ in range(DRAWS):
        x = input_grid(level, rng, (examples, size, size))
        grad = rng.integers(1, 4, (examples, *shape)).astype(float)
        counts = (window_shares(x[:, None], config)[:, 0] != 0).sum(axis=0)
        if ((counts > 0).sum(axis=(2, 3)) >= 2).any():
            return WindowBatch(x, grad, counts)
    raise ValueError(f"no batch with different winners in {DRAWS} draws at level {level}")


def idea_mean(x: np.ndarray, grad: np.ndarray, config: PoolConfig) -> np.ndarray:
    """(H, W): the mean over the batch of what each cell gets under the first seed's
    idea, each window's dL_n/dy split evenly over every cell that won it in any example
    (cnn/split_winners.py). x: (N, H, W); grad: (N, OH, OW)."""
    routed = split_routing(window_shares(x[:, None], config), grad[:, None], "even")
    return routed[:, 0].mean(axis=0)


def window_problem(
    level: int, config: PoolConfig, rng: np.random.Generator, *, asks_mean: bool
) -> Problem:
    """A window that different examples win: the cells of it that receive gradient
    from at least one example, or (asks_mean) the mean over the batch of dL_n/dx at
    one of those cells, where the first seed's idea gives another number (batches are
    drawn again until some winner is such a cell)."""
    for _ in range(DRAWS):
        drawn = window_batch(level, config, rng)
        windows = np.argwhere((drawn.counts > 0).sum(axis=(2, 3)) >= 2)
        window = tuple(int(v) for v in windows[rng.integers(len(windows))])
        winners = [tuple(int(v) for v in cell) for cell in np.argwhere(drawn.counts[window] > 0)]
        if not asks_mean:
            answer = frozenset(winners)
            return Problem("batch", level, config, drawn.x, drawn.grad, answer, window=window)
        batch = drawn.x[:, None], drawn.grad[:, None]
        right = batch_gradients(*batch, config, "mean").reduced[0]
        idea = idea_mean(drawn.x, drawn.grad, config)
        # Apart beyond the answers' tolerance: a typed idea is then told from the right.
        telling = [cell for cell in winners if not close_enough(idea[cell], right[cell])]
        if telling:
            cell = telling[rng.integers(len(telling))]
            answer = float(right[cell])
            return Problem(
                "batch",
                level,
                config,
                drawn.x,
                drawn.grad,
                answer,
                cell=cell,
                reduction="mean",
                window=window,
            )
    raise ValueError(f"no batch where the idea differs in {DRAWS} draws at level {level}")
