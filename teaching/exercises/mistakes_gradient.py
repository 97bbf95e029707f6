"""The known mistakes of a gradient asked at one cell: dL/dx at a cell of one plane
(the "value" exercises) and a shared bias's dL/db over a batch (pure: NumPy, the
standard library and the engine). What a Mistake is: teaching/exercises/mistakes.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.explain import ledger
from teaching.exercises.model import Problem
from teaching.numbers import fmt
from teaching.words import TIE_WORDS

MistakeName = Literal[
    "left_out_window",
    "one_window",
    "nothing",
    "transposed",
    "tie_rule",
    "every_cell",
    "averaged_max",
    "divisor_padding",
    "divisor_side",
    "no_divisor",
    "max_of_average",
    "ceil_mode",
    "no_upstream",
    "sign",
    "reduction",
    "one_example",
    "left_out_example",
    "counted_twice",
    "split_over_winners",
    "split_by_wins",
    "winners_mean",
    "every_example",
    "whole_window",
    "no_padding",
    "rounding",
    "plus_one",
    "stride",
]


@dataclass(frozen=True)
class Mistake:
    """name: which mistake; answer: what it gives (a float, a frozenset of (row, col)
    cells, or (OH, OW), as Problem.answer); how: what it does, a clause that reads after
    "what you get if you"; truth: what is true instead, a clause."""

    name: MistakeName
    answer: object
    how: str
    truth: str


# -- dL/dx at one cell --------------------------------------------------------------------


def gradient_at(problem: Problem, config: PoolConfig, grad_output=None) -> float:
    """dL/dx at the problem's cell under `config` (the engine's), with `grad_output`
    (OH, OW) or the problem's own."""
    grad = problem.grad_output if grad_output is None else grad_output
    return float(backward(forward(problem.x, config), grad)[problem.cell])


def tie_rule_mistakes(config: PoolConfig, answer_under: Callable) -> list[Mistake]:
    """One mistake per other tie rule: the answer `answer_under(config)` gives with that
    rule in place of the layer's."""
    return [
        Mistake(
            "tie_rule",
            answer_under(replace(config, ties=rule)),
            f"break ties so that {TIE_WORDS[rule].rule}",
            f"here, on a tie, {TIE_WORDS[config.ties].rule}",
        )
        for rule in TIE_WORDS
        if rule != config.ties
    ]


def winner_rule(config: PoolConfig) -> str:
    """Where max pooling sends a window's dL/dy under this layer's own tie rule (one
    winner, or the tied cells as the rule says)."""
    return (
        "max pooling sends a window's dL/dy only to the cell holding its largest value; "
        f"on a tie, {TIE_WORDS[config.ties].rule}"
    )


def cell_words(cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def output_words(cell) -> str:
    return f"y[{cell[0]},{cell[1]}]"


def value_mistakes(problem: Problem) -> list[Mistake]:
    config = problem.config
    found = left_out_windows(problem)
    found += max_mistakes(problem) if config.mode == "max" else average_mistakes(problem)
    found += ceil_mistake(problem) + one_window(problem) + upstream_mistakes(problem)
    # Last: a swapped cell that happens to give the same number (often 0) is the less
    # likely reading of it.
    found.append(transposed_cell(problem, lambda p: gradient_at(p, p.config)))
    return [m for m in found if m is not None]


def left_out_windows(problem: Problem) -> list[Mistake]:
    """The ledger less one of its windows (where several send the cell something)."""
    lines = ledger(problem.x, problem.grad_output, problem.config, problem.cell)
    total = sum(line.amount for line in lines)
    return [
        Mistake(
            "left_out_window",
            total - line.amount,
            f"leave out the window of {output_words(line.output_cell)}, which sends "
            f"{fmt(line.amount)}",
            f"every window that reads {cell_words(problem.cell)} sends it its share, and "
            "overlapping windows add up",
        )
        for line in (lines if len(lines) > 1 else [])
    ]


def one_window(problem: Problem) -> list[Mistake]:
    """One window's amount alone (where several send the cell something); 0, none."""
    lines = ledger(problem.x, problem.grad_output, problem.config, problem.cell)
    where, count = cell_words(problem.cell), len(lines)
    found = [
        Mistake(
            "one_window",
            line.amount,
            f"count only the window of {output_words(line.output_cell)}",
            f"{count} windows send {where} something, and the amounts add up",
        )
        for line in (lines if count > 1 else [])
    ]
    found.append(
        Mistake(
            "nothing",
            0.0,
            f"think no window sends {where} anything",
            f"{count} window{'s' * (count != 1)} send{'s' * (count == 1)} it something",
        )
    )
    return found


def transposed_cell(problem: Problem, value_at: Callable[[Problem], float]) -> Mistake | None:
    """The question's row and column swapped: value_at(the problem asking that cell)."""
    row, col = problem.cell
    if row == col or col >= problem.x.shape[-2] or row >= problem.x.shape[-1]:
        return None
    return Mistake(
        "transposed",
        value_at(replace(problem, cell=(col, row))),
        f"read the cell ({col}, {row})",
        f"({row}, {col}) is row {row}, column {col}",
    )


def max_mistakes(problem: Problem) -> list[Mistake]:
    config = problem.config
    every = replace_config(config, mode="avg", divisor_override=1)
    found = tie_rule_mistakes(config, lambda other: gradient_at(problem, other))
    found.append(
        Mistake(
            "every_cell",
            gradient_at(problem, every),
            "give every cell of a window that window's whole dL/dy",
            winner_rule(config),
        )
    )
    found.append(
        Mistake(
            "averaged_max",
            gradient_at(problem, replace_config(config, mode="avg")),
            "share each window's dL/dy evenly among its cells, as average pooling does",
            winner_rule(config),
        )
    )
    return found


def average_mistakes(problem: Problem) -> list[Mistake]:
    config = problem.config
    side = config.kernel_size[0]
    found = []
    if any(config.padding):
        counted = config.count_include_pad
        found.append(
            Mistake(
                "divisor_padding",
                gradient_at(problem, replace_config(config, count_include_pad=not counted)),
                "divide by the real cells of each window only"
                if counted
                else "count the padding cells in the divisor",
                "this layer's divisor counts the padding cells a window covers"
                if counted
                else "this layer divides by the real cells of each window only",
            )
        )
    if side > 1:
        found.append(
            Mistake(
                "divisor_side",
                gradient_at(problem, replace_config(config, divisor_override=side)),
                f"divide by {side}, the window's side",
                f"a {side}×{side} window divides by the cells it counts, not by its side",
            )
        )
    found.append(
        Mistake(
            "no_divisor",
            gradient_at(problem, replace_config(config, divisor_override=1)),
            "give each cell the window's whole dL/dy, without dividing",
            "average pooling sends each cell dL/dy divided by the window's divisor",
        )
    )
    found.append(
        Mistake(
            "max_of_average",
            gradient_at(problem, replace_config(config, mode="max", ties="first")),
            "send all of each window's dL/dy to its largest cell, as max pooling does",
            "average pooling shares it among the window's cells",
        )
    )
    return found


def ceil_mistake(problem: Problem) -> list[Mistake]:
    """Ceil mode left out: the windows it adds send nothing (the others keep their
    dL/dy, the top-left block of the problem's)."""
    config = problem.config
    if not config.ceil_mode:
        return []
    floor = replace_config(config, ceil_mode=False)
    rows, cols = forward(problem.x, floor).output.shape
    return [
        Mistake(
            "ceil_mode",
            gradient_at(problem, floor, problem.grad_output[:rows, :cols]),
            "leave out the last windows, which ceil mode adds",
            "ceil mode keeps a last window that hangs over the edge when it starts inside "
            "the input or its left padding",
        )
    ]


def upstream_mistakes(problem: Problem) -> list[Mistake]:
    ones = np.ones_like(problem.grad_output)
    return [
        Mistake(
            "no_upstream",
            gradient_at(problem, problem.config, ones),
            "leave out dL/dy (as if every window sent 1)",
            "each window sends its share times its own dL/dy",
        ),
        sign_mistake(problem),
    ]


def sign_mistake(problem: Problem) -> Mistake:
    return Mistake(
        "sign",
        -float(problem.answer),
        "flip the sign",
        "the shares are never negative, so the sign is dL/dy's",
    )


def replace_config(config: PoolConfig, **changes) -> PoolConfig:
    """`config` with `changes` (the engine validates the result)."""
    return replace(config, **changes)
