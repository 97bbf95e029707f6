"""The known mistakes of the exercises that count: which cells receive gradient, and
the output size (pure: NumPy, the standard library and the engine). Each is the
problem worked again by the engine under one wrong assumption. What a Mistake is:
teaching/exercises/mistakes.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.explain import coverage
from pooling.geometry import plane_geometry
from teaching.exercises.mistakes_gradient import Mistake, tie_rule_mistakes, winner_rule
from teaching.exercises.model import Problem

# -- which cells receive gradient ---------------------------------------------------------


def receiving_cells(x: np.ndarray, config: PoolConfig) -> frozenset:
    """The cells of x (H, W) that receive gradient when every window sends 1."""
    result = forward(x, config)
    grad_x = backward(result, np.ones(result.output.shape))
    return frozenset((int(r), int(c)) for r, c in np.argwhere(grad_x != 0))


def cells_mistakes(problem: Problem) -> list[Mistake]:
    """Another tie rule; every cell a window reads; ceil mode's or the padding's
    windows left out."""
    config, x = problem.config, problem.x
    found = tie_rule_mistakes(config, lambda other: receiving_cells(x, other))
    read = coverage(config, *x.shape) > 0
    found.append(
        Mistake(
            "every_cell",
            frozenset((int(r), int(c)) for r, c in np.argwhere(read)),
            "pick every cell a window reads",
            winner_rule(config),
        )
    )
    if config.ceil_mode:
        found.append(
            Mistake(
                "ceil_mode",
                receiving_cells(x, replace(config, ceil_mode=False)),
                "leave out the last windows, which ceil mode adds",
                "ceil mode keeps a last window that hangs over the edge when it starts "
                "inside the input or its left padding",
            )
        )
    if any(config.padding):
        found.append(
            Mistake(
                "no_padding",
                receiving_cells(x, replace(config, padding=0)),
                "leave out the padding",
                f"padding {config.padding[0]} makes the windows start at "
                f"−{config.padding[0]}, so they read other cells, the edges among them, "
                "and a padding cell (−∞) never wins",
            )
        )
    return found


# -- the output size ----------------------------------------------------------------------


def output_shape(problem: Problem, **changes) -> tuple[int, int]:
    """The engine's output size for the problem's input under its config with `changes`."""
    return plane_geometry(replace(problem.config, **changes), *problem.x.shape).output_shape


def size_mistakes(problem: Problem) -> list[Mistake]:
    """Padding left out, rounded the other way, another stride, the + 1 left out,
    height and width swapped."""
    config = problem.config
    kernel, stride, padding = config.kernel_size[0], config.stride[0], config.padding[0]
    rows, cols = problem.answer
    found = []
    if padding:
        found.append(
            Mistake(
                "no_padding",
                output_shape(problem, padding=0),
                "leave out the padding",
                f"padding {padding} adds {padding} cell{'s' * (padding != 1)} on each side: "
                f"H + 2·{padding}",
            )
        )
    found.append(
        Mistake(
            "rounding",
            output_shape(problem, ceil_mode=not config.ceil_mode),
            "round the division down" if config.ceil_mode else "round the division up",
            "ceil mode rounds up (then drops a window that would start past the input)"
            if config.ceil_mode
            else "without ceil mode the division rounds down",
        )
    )
    for other in dict.fromkeys((1, kernel)):
        if other != stride:
            found.append(
                Mistake(
                    "stride",
                    output_shape(problem, stride=other),
                    f"slide the window by {other} cell{'s' * (other != 1)}",
                    f"the stride is {stride}",
                )
            )
    found.append(
        Mistake(
            "plus_one",
            (rows - 1, cols - 1),  # the engine's count less the first window
            "leave out the + 1",
            "(H + 2p − k) / s counts the steps after the first window; + 1 counts that window too",
        )
    )
    found.append(
        Mistake(
            "transposed",
            (cols, rows),
            "swap height and width",
            "the output's height comes from the input's rows",
        )
    )
    return found
