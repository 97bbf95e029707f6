"""Lesson steps 1-6: one pooling layer, one example (every number from the engine)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pooling import TIES, PoolConfig, numerical_gradient
from pooling.explain import shares
from teaching.layer_words import window_phrase
from teaching.numbers import fmt
from teaching.tolerances import GRADIENT_CHECK

from .model import Choice, Grid, Step, cell_list, cell_name, routed, vector, winners

SEED_WINDOW = np.array([[1.0, 3.0], [2.0, 0.5]])
MAX_2 = PoolConfig("max", 2)
AVG_2 = PoolConfig("avg", 2)
ONE = 1.0  # the upstream gradient where a step needs just some dL/dy


def max_routes() -> Step:
    upstream = 2.5
    y, grad, argmax = routed(SEED_WINDOW, MAX_2, upstream)
    top = winners(SEED_WINDOW, argmax)[0]
    name = cell_name(top)
    each = fmt(upstream / SEED_WINDOW.size)
    return Step(
        title="Max pooling routes",
        idea=(
            f"One {window_phrase(MAX_2, with_stride=False)}: y = max of its cells = "
            f"**{fmt(y[0, 0])}**, and the layer above sends back dL/dy = **{fmt(upstream)}**. "
            "Nudge any cell but the largest a little and y does not move; nudge the largest "
            "and y moves with it, slope 1."
        ),
        example=(Grid("x (the winner marked)", SEED_WINDOW, marks=(top,)),),
        question="Which cells of x receive gradient, and how much?",
        choices=(
            Choice(
                f"Only {name}: it gets {fmt(grad[top])}; the others get 0",
                True,
                "y follows only its largest cell, with slope 1.",
            ),
            Choice(
                f"All {SEED_WINDOW.size}, {each} each",
                False,
                "that is average pooling. Max does not depend on the smaller cells at all.",
            ),
            Choice(
                f"Only {name}: it gets {fmt(y[0, 0] * upstream)} (y × dL/dy)",
                False,
                "the slope of max in its winner is 1, not the value of y.",
            ),
        ),
        reveal=f"dL/dx is 0 everywhere except at the winner: {cell_list(grad)}.",
    )


def winner_remembered() -> Step:
    moved = SEED_WINDOW[::-1, ::-1].copy()
    first = routed(SEED_WINDOW, MAX_2, ONE)
    second = routed(moved, MAX_2, ONE)
    same_y = fmt(first[0][0, 0])
    return Step(
        title="The forward pass keeps the winner",
        idea=(
            f"Two windows with the same y = **{same_y}**: the same numbers in other places. "
            f"dL/dy = {fmt(ONE)} comes back to each."
        ),
        example=(
            Grid("window A", SEED_WINDOW, marks=winners(SEED_WINDOW, first[2])),
            Grid("window B", moved, marks=winners(moved, second[2])),
        ),
        question="Knowing y and dL/dy alone, can you say which cell gets the gradient?",
        choices=(
            Choice(
                "No: the forward pass must store where the max was (the argmax)",
                True,
                "y is the same for both windows, their winners are not.",
            ),
            Choice(
                "Yes: the largest value is always in the same place",
                False,
                "A and B give the same y from different cells.",
            ),
        ),
        reveal=(
            f"In A, {cell_list(first[1])}; in B, {cell_list(second[1])}. That is why "
            "a max-pooling layer keeps its argmax (PyTorch: return_indices) for backward."
        ),
    )


def average_spreads() -> Step:
    upstream = 2.0
    y, grad, _ = routed(SEED_WINDOW, AVG_2, upstream)
    cells = SEED_WINDOW.size
    return Step(
        title="Average pooling spreads",
        idea=(
            f"The same window, average pooling: y = **{fmt(y[0, 0])}**, dL/dy = "
            f"**{fmt(upstream)}**. Every cell counts in y, with weight 1/{cells}."
        ),
        example=(Grid("x", SEED_WINDOW),),
        question="What does each cell of x receive?",
        choices=(
            Choice(
                f"{fmt(grad[0, 0])} each: dL/dy / {cells}",
                True,
                f"each cell's weight is 1/{cells}.",
            ),
            Choice(f"{fmt(upstream)} each", False, f"that would count dL/dy {cells} times over."),
            Choice(
                f"{fmt(upstream)} to the largest, 0 to the rest",
                False,
                "that is max pooling; the average has no winner.",
            ),
        ),
        reveal=f"In dL/dx, {cell_list(grad)}: the {cells} shares add up to dL/dy.",
    )


def overlap_accumulates() -> Step:
    x = np.array([[1.0, 2.0, 0.0], [3.0, 9.0, 1.0], [0.0, 2.0, 4.0]])
    config = PoolConfig("max", 2, stride=1)
    y, grad, argmax = routed(x, config, ONE)
    centre = fmt(grad[1, 1])
    return Step(
        title="Overlapping windows add up",
        idea=(
            f"A {window_phrase(config)}: {y.size} windows that overlap, dL/dy = {fmt(ONE)} each. "
            "The centre cell sits in all of them."
        ),
        example=(Grid("x (winners marked)", x, marks=winners(x, argmax)), Grid("y", y)),
        question="How much gradient reaches the centre cell?",
        choices=(
            Choice(
                centre,
                True,
                f"it wins all {y.size} windows, and their gradients add.",
            ),
            Choice(fmt(ONE), False, "each window sends its own dL/dy; they add up, not merge."),
            Choice(
                fmt(ONE / y.size), False, "nothing is divided; each window routes all of its dL/dy."
            ),
        ),
        reveal=f"In dL/dx, {cell_list(grad)}.",
    )


def ties_are_a_choice() -> Step:
    x = np.array([[2.0, 2.0], [1.0, 0.0]])
    grads = {ties: routed(x, replace(MAX_2, ties=ties), ONE)[1] for ties in TIES}
    central = numerical_gradient(x, np.full((1, 1), ONE), MAX_2)
    tied = int((x == x.max()).sum())
    every = fmt(grads["all"].sum())
    rows = "\n".join(
        f"- **{ties}**: {cell_list(grads[ties])} (total {fmt(grads[ties].sum())})" for ties in TIES
    )
    measured = (
        "the even split" if np.allclose(central, grads["split"], atol=GRADIENT_CHECK) else "no rule"
    )
    return Step(
        title="Ties are a choice",
        idea=f"Two cells share the max. dL/dy = {fmt(ONE)}.",
        example=(Grid("x: a tie", x),),
        question="In PyTorch, where does the gradient go?",
        choices=(
            Choice(
                f"All of it to the first tied cell: {cell_list(grads['first'])}",
                True,
                "PyTorch (and TensorFlow) keep the first maximum in reading order.",
            ),
            Choice(
                f"Split evenly: {cell_list(grads['split'])}",
                False,
                "a valid rule too (fractions between 0 and 1 that add up to 1), and what a "
                "central difference measures with two tied cells, but not PyTorch's: it "
                "stores one index per window.",
            ),
            Choice(
                f"All of it to every tied cell: {cell_list(grads['all'])}",
                False,
                f"that hands out {tied} × {fmt(ONE)} = {every} for a dL/dy of {fmt(ONE)}: "
                "no gradient of anything, and the gradient check fails.",
            ),
        ),
        reveal=(
            f"Every rule, for this window:\n{rows}\n\nCentral differences give "
            f"{cell_list(central)}: {measured}. Any split into fractions between 0 and 1 "
            "that add up to 1 is a valid gradient at a tie; PyTorch's is the first cell."
        ),
        mistake=(
            f"“Each tied cell is a maximum, so each gets the whole dL/dy”: then {tied} cells "
            f"get {fmt(ONE)} each, {every} in all, from one window that sent {fmt(ONE)}."
        ),
    )


def max_is_a_matrix() -> Step:
    x = np.array([[1.0, 3.0, 0.0, 2.0], [2.0, 0.5, 4.0, 1.0]])
    config = PoolConfig("max", 2)
    matrix = shares(x, config).reshape(-1, x.size)  # (outputs, inputs): S
    _, grad, _ = routed(x, config, [[1.0, 2.0]])
    transposed = matrix.T @ np.array([1.0, 2.0])
    ones = sorted({int(n) for n in (matrix != 0).sum(axis=1)})
    average = shares(x, PoolConfig("avg", config.kernel_size)).reshape(-1, x.size)
    spread = int((average[0] != 0).sum())  # entries in a row of the average's matrix
    return Step(
        title="Max as a matrix",
        idea=(
            f"For this x, max pooling is y = S x with S of {matrix.shape[0]} rows and "
            f"{matrix.shape[1]} columns: row o "
            "picks window o's winner. Backward is dL/dx = Sᵀ dL/dy."
        ),
        example=(Grid("x", x), Grid("S (rows: outputs, columns: x's cells)", matrix, "count")),
        question="How many nonzero entries does each row of S hold?",
        choices=(
            Choice(
                str(ones[0]),
                True,
                f"one winner per window, weight 1 (the average's rows: 1/{spread}s).",
            ),
            Choice(str(spread), False, f"that is the average's S: {spread} entries of 1/{spread}."),
        ),
        reveal=(
            f"With dL/dy = (1, 2), Sᵀ dL/dy = {vector(transposed)}, one entry per cell of x "
            f"in reading order, that is, {cell_list(transposed.reshape(x.shape))}. The "
            f"backward pass gives the same: {cell_list(grad)}. S depends on x: move the "
            "max and S changes."
        ),
    )


LAYER_STEPS = (
    max_routes,
    winner_remembered,
    average_spreads,
    overlap_accumulates,
    ties_are_a_choice,
    max_is_a_matrix,
)
