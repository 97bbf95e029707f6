"""Lesson steps 1-6: one pooling layer, one example (every number from the engine)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pooling import TIES, PoolConfig, numerical_gradient
from pooling.explain import coverage, shares
from teaching.layer_words import window_phrase
from teaching.lesson.model import Choice, Grid, Step, cell_list, cell_name, routed, vector, winners
from teaching.numbers import fmt
from teaching.tolerances import GRADIENT_CHECK

RELU_PAIR = PoolConfig("max", (1, 2))  # relu(x) = max(x, 0): a window of x and a constant 0

SEED_WINDOW = np.array([[1.0, 3.0], [2.0, 0.5]])
MAX_2 = PoolConfig("max", 2)
AVG_2 = PoolConfig("avg", 2)
ONE = 1.0  # the upstream gradient where a step needs just some dL/dy
NEGATIVE = -1.0  # a negative dL/dy, where the shift test must hold too
# Overlap: the centre sits in all four windows and wins two; x[2,1] wins the other two.
OVERLAP_X = np.array([[1.0, 2.0, 0.0], [3.0, 5.0, 1.0], [0.0, 6.0, 4.0]])
OVERLAP = PoolConfig("max", 2, stride=1)
CENTRE = (1, 1)
TIE_X = np.array([[2.0, 2.0], [1.0, 0.0]])
MATRIX_X = np.array([[1.0, 3.0, 0.0, 2.0], [2.0, 0.5, 4.0, 1.0]])


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
        reveal=(
            f"dL/dx is 0 everywhere except at the winner: {cell_list(grad)}.\n\n"
            + relu_bridge(upstream)
        ),
    )


def relu_sent(value: float, upstream: float) -> float:
    """What relu(value) = max(value, 0) sends back to `value` for dL/dy = upstream."""
    return float(routed([[value, 0.0]], RELU_PAIR, upstream)[1][0, 0])


def relu_bridge(upstream: float) -> str:
    """ReLU as the one-input max: max(x, 0) routes as a window of x and a constant 0."""
    up, down = 3.0, -1.0
    return (
        f"You know this rule from ReLU: relu(x) = max(x, 0) is a max with one input. "
        f"With dL/dy = {fmt(upstream)}, x = {fmt(up)} wins and gets "
        f"{fmt(relu_sent(up, upstream))}; x = {fmt(down)} loses to 0 and gets "
        f"{fmt(relu_sent(down, upstream))}."
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
            f"In A, {cell_list(first[1])}; in B, {cell_list(second[1])}. So backward needs "
            "more than y: it needs to know each window's winner.\n\n"
            "PyTorch's autograd keeps the winner's index for backward whether or not you ask "
            "for return_indices; that flag only hands you a copy. Keeping x and finding the "
            "largest cell again would work too."
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
    # The centre sits in all four windows but wins only two: sitting and winning differ.
    x = OVERLAP_X
    config = OVERLAP
    y, grad, argmax = routed(x, config, ONE)
    sits = int(coverage(config, *x.shape)[CENTRE])
    wins = windows_won(x, argmax, CENTRE)
    gets = fmt(grad[CENTRE])
    centre = cell_name(CENTRE)
    return Step(
        title="Overlapping windows add up",
        idea=(
            f"A {window_phrase(config)}: {y.size} windows that overlap, dL/dy = {fmt(ONE)} each. "
            f"The centre cell {centre} sits in {sits} of them."
        ),
        example=(Grid("x (winners marked)", x, marks=winners(x, argmax)), Grid("y", y)),
        question=f"How much gradient reaches the centre cell {centre}?",
        choices=(
            Choice(
                gets,
                True,
                f"it wins {wins} of its {sits} windows, and only a window it wins sends it "
                "anything; those gradients add.",
            ),
            Choice(
                fmt(sits * ONE),
                False,
                f"it sits in {sits} windows but wins only {wins}; a window sends nothing to a "
                "cell that lost it.",
            ),
            Choice(
                fmt(ONE / y.size),
                False,
                "nothing is divided; each window routes all of its dL/dy to its winner.",
            ),
        ),
        reveal=(
            "The rule: a cell's gradient is the sum of dL/dy over the windows it wins. "
            f"Sitting in a window is not enough.\n\nIn dL/dx, {cell_list(grad)}."
        ),
    )


def windows_won(x: np.ndarray, argmax: np.ndarray, cell) -> int:
    """How many windows of the max pool picked `cell` (row, col) of x (H, W)."""
    return int((argmax == cell[0] * x.shape[1] + cell[1]).sum())


def ties_are_a_choice() -> Step:
    x = TIE_X
    grads = {ties: routed(x, replace(MAX_2, ties=ties), ONE)[1] for ties in TIES}
    central = numerical_gradient(x, np.full((1, 1), ONE), MAX_2)
    tied = int((x == x.max()).sum())
    every = fmt(grads["all"].sum())
    rows = "\n".join(
        f"- **{ties}**: {cell_list(grads[ties])} (total {fmt(grads[ties].sum())})" for ties in TIES
    )
    return Step(
        title="Ties are a choice",
        idea=(
            f"Two cells share the max. dL/dy = {fmt(ONE)}. The shift test: raise every cell "
            "by t and y rises by t, so a true gradient's cells add up to dL/dy."
        ),
        example=(Grid("x: a tie", x),),
        question="In PyTorch, where does the gradient go?",
        choices=(
            Choice(
                f"All of it to the first tied cell: {cell_list(grads['first'])}",
                True,
                "PyTorch (and TensorFlow) store one index per window: the first maximum in "
                "reading order.",
            ),
            Choice(
                f"Split evenly: {cell_list(grads['split'])}",
                False,
                "a valid gradient too, its parts add up to dL/dy, but PyTorch stores one "
                "index per window.",
            ),
            Choice(
                f"All of it to every tied cell: {cell_list(grads['all'])}",
                False,
                f"that adds up to {every}, not dL/dy = {fmt(ONE)}: it fails the shift test.",
            ),
        ),
        reveal="\n\n".join(
            (
                f"Every rule, for this window:\n{rows}",
                shift_test(x, tied),
                corner(central, grads),
                SUBGRADIENT,
            )
        ),
        mistake=(
            f"“Each tied cell is a maximum, so each gets the whole dL/dy”: then {tied} cells "
            f"get {fmt(ONE)} each, {every} in all, from one window that sent {fmt(ONE)}."
        ),
    )


def shift_test(x: np.ndarray, tied: int) -> str:
    """The shift test with a negative dL/dy: "all" hands out `tied` times it."""
    upstream = NEGATIVE
    every = routed(x, replace(MAX_2, ties="all"), upstream)[1].sum()
    first = routed(x, MAX_2, upstream)[1].sum()
    return (
        f"The shift test holds for a negative dL/dy too: with dL/dy = {fmt(upstream)}, "
        f"“first” hands out {fmt(first)} in all, “all” hands out {fmt(every)}, "
        f"{tied} times dL/dy."
    )


def corner(central: np.ndarray, grads: dict[str, np.ndarray]) -> str:
    """What a central difference measures at a tie, and which rules it disagrees with."""
    agree = [ties for ties in TIES if np.allclose(grads[ties], central, atol=GRADIENT_CHECK)]
    off = [f"“{ties}”" for ties in TIES if ties not in agree]
    said = f"only “{agree[0]}” agrees" if agree else "no rule agrees"
    return (
        f"Central differences measure {cell_list(central)}: {said}; "
        f"{', '.join(off[:-1])} and {off[-1]} do not, PyTorch's included. Max has a corner "
        "at a tie: a tied cell nudged up moves y, nudged down it does not, and the "
        "difference averages the two slopes."
    )


SUBGRADIENT = (
    "A subgradient is the slope of a plane that touches max at the corner and never rises "
    "over it: here, fractions between 0 and 1 for the tied cells that add up to 1. Each, times "
    "dL/dy, is a valid dL/dx; PyTorch's puts all of it on the first cell."
)


def max_is_a_matrix() -> Step:
    x = MATRIX_X
    config = PoolConfig("max", 2)
    matrix = shares(x, config).reshape(-1, x.size)  # (outputs, inputs): S
    upstream = np.array([1.0, 2.0])
    _, grad, _ = routed(x, config, upstream[None])
    transposed = matrix.T @ upstream
    ones = sorted({int(n) for n in (matrix != 0).sum(axis=1)})
    average = shares(x, PoolConfig("avg", config.kernel_size)).reshape(-1, x.size)
    spread = int((average[0] != 0).sum())  # entries in a row of the average's matrix
    both = upstream.sum()  # what a winner would get if it took every output's dL/dy
    won = np.argwhere(matrix.sum(axis=0).reshape(x.shape))
    return Step(
        title="Max as a matrix",
        idea=(
            f"For this x, max pooling is y = S x: S has {matrix.shape[0]} rows and "
            f"{matrix.shape[1]} columns, row o a single 1 at window o's winner (the "
            "Playground's Matrix tab calls S J). By the chain rule, dL/dx_j = "
            "Σ_o dL/dy_o · S_oj: dL/dx = Sᵀ dL/dy."
        ),
        example=(Grid("x", x), Grid("S (rows: outputs, columns: x's cells)", matrix, "count")),
        question=f"With dL/dy = {vector(upstream)}, what is dL/dx = Sᵀ dL/dy?",
        choices=(
            Choice(
                f"{cell_list(transposed.reshape(x.shape))}; the rest 0",
                True,
                "column j of S has a 1 only in the row of the window cell j won.",
            ),
            Choice(
                f"Each cell of window o gets dL/dy_o ÷ {spread}",
                False,
                f"that is the average's S, {spread} entries of 1/{spread} a row; max's row "
                f"holds {ones[0]} entry of 1.",
            ),
            Choice(
                ", ".join(f"{cell_name(cell)} gets {fmt(both)}" for cell in won),
                False,
                "the sum over o runs only over the rows where S_oj is 1: each winner wins "
                "one window here.",
            ),
        ),
        reveal=(
            f"Sᵀ dL/dy = {vector(transposed)}, one entry per cell of x in reading order, "
            f"that is, {cell_list(transposed.reshape(x.shape))}. The backward pass gives the "
            f"same: {cell_list(grad)}.\n\nThe δ rule of a dense layer, δ = θ′(z) · (what comes "
            "back), holds per window here: max's θ′ is 1 at the winner and 0 elsewhere, the "
            "entries of S's row. S depends on x: move the max and S changes."
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
