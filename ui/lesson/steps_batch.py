"""Lesson steps 7-10: a batch, the wrong way, mean against sum, and the update (every
number from the engine)."""

from __future__ import annotations

import numpy as np

from pooling import PoolConfig
from pooling.network import NetConfig

from ..batch.model import SEED_GRADIENTS, Settings, batch_mean, build_batch_lesson
from ..batch.pair import build_pair
from ..shared.numbers import fmt
from .model import Choice, Grid, Step, cell_list, routed, vector, winners
from .steps_layer import ONE

MAX_2 = PoolConfig("max", 2)
# Two examples whose average has a winner of its own, (0, 1), which neither picked.
EXAMPLE_A = np.array([[4.0, 3.0], [0.0, 0.0]])
EXAMPLE_B = np.array([[0.0, 3.0], [0.0, 4.0]])
PAIR_SETTINGS = Settings(
    source="digits",
    size=2,
    seed=0,
    network=NetConfig(1, 3, True, MAX_2),
    reduction="mean",
    learning_rate=0.1,
    steps=0,
)


def each_example_routes_its_own() -> Step:
    first, second = (routed(x, MAX_2, ONE) for x in (EXAMPLE_A, EXAMPLE_B))
    mean, cancelled = batch_mean(SEED_GRADIENTS)
    weights = ", ".join(f"w{i + 1}" for i in cancelled)
    return Step(
        title="A batch: each example routes its own gradient",
        idea=(
            f"Two examples through the same max pool, dL_n/dy = {fmt(ONE)} each. Each is run "
            "forward and back on its own, with its own argmax."
        ),
        example=(
            Grid("example 1", EXAMPLE_A, marks=winners(EXAMPLE_A, first[2])),
            Grid("example 2", EXAMPLE_B, marks=winners(EXAMPLE_B, second[2])),
        ),
        question=(
            "The batch loss is the mean of the examples' losses. Take a network of five "
            "weights, all shared by the batch, where one example's gradient is "
            f"{vector(SEED_GRADIENTS[0])} and another's is {vector(SEED_GRADIENTS[1])}. "
            "What is the batch gradient?"
        ),
        choices=(
            Choice(
                f"The mean of the two: {vector(mean)}",
                True,
                "Right: the derivative of a mean is the mean of the derivatives.",
            ),
            Choice(
                f"The sum: {vector(SEED_GRADIENTS.sum(axis=0))}",
                False,
                "That is the gradient of the summed loss: N times the mean.",
            ),
            Choice(
                "Only the first example's: its winner came first",
                False,
                "Every example counts: each routes its own gradient through its own winner.",
            ),
        ),
        reveal=(
            f"Example 1 routes to {cell_list(first[1])}, example 2 to {cell_list(second[1])}: "
            f"no winner is shared. The batch gradient of the five weights is {vector(mean)}"
            + (f"; {weights} gets 0 this step (its two gradients cancel)." if weights else ".")
        ),
        mistake=(
            "“Losses 2 and −2 average to 0, so nothing is learned”: the step follows the "
            "mean of the gradients, not the mean loss value."
        ),
    )


def the_wrong_way() -> Step:
    right = (routed(EXAMPLE_A, MAX_2, ONE)[1] + routed(EXAMPLE_B, MAX_2, ONE)[1]) / 2
    averaged = (EXAMPLE_A + EXAMPLE_B) / 2
    _, wrong, argmax = routed(averaged, MAX_2, ONE)
    return Step(
        title="The wrong way: average first",
        idea=(
            "Take the same two examples, but average the inputs (and the error) first, then "
            "go back once. Compare with the mean of the examples' own routing maps: the "
            "gradient of a bias added to every example's input."
        ),
        example=(
            Grid("the averaged input", averaged, marks=winners(averaged, argmax)),
            Grid("right: mean of the routings", right, "gradient"),
        ),
        question="Does one backward pass through the averaged input give the right map?",
        choices=(
            Choice(
                "No: the averaged input picks its own winner",
                True,
                "Right: the max of an average is not the average of the maxes.",
            ),
            Choice(
                "Yes: averaging is linear, so the order does not matter",
                False,
                "Averaging is linear, max is not: the winner of the average is nobody's.",
            ),
        ),
        reveal=(
            f"Right: {cell_list(right)}. Wrong: {cell_list(wrong)}. The averaged input's "
            "winner takes everything; each example's own winner is never seen."
        ),
        mistake="“Average the error first, then back-propagate once”.",
    )


def mean_or_sum() -> Step:
    count = SEED_GRADIENTS.shape[0]
    mean, _ = batch_mean(SEED_GRADIENTS)
    total = SEED_GRADIENTS.sum(axis=0)
    return Step(
        title="Mean or sum: the 1/N factor",
        idea=(
            f"The same {count} examples, the loss summed instead of averaged "
            "(reduction='sum'; Caffe sums, then divides by the batch)."
        ),
        example=(Grid("dL_n/dw: a row per example", SEED_GRADIENTS, "gradient"),),
        question="How does the summed loss's gradient compare with the mean's?",
        choices=(
            Choice(
                f"{count} times as large: {vector(total)}",
                True,
                "Right: the same direction, N times longer: the learning rate must shrink.",
            ),
            Choice("The same", False, "Only the direction is the same; the length is N times."),
        ),
        reveal=(
            f"Sum {vector(total)} = {count} × mean {vector(mean)}. At a fixed learning rate "
            "the sum's step grows with the batch size."
        ),
    )


def pooling_has_no_weights() -> Step:
    story = build_pair(build_batch_lesson(PAIR_SETTINGS), 0)
    before, after = story.kernel_before, story.kernel_after("mean")
    network = PAIR_SETTINGS.network
    kernel = f"{network.kernel_size}×{network.kernel_size}"
    pool = "×".join(map(str, network.pool.kernel_size))
    return Step(
        title="Pooling has no weights",
        idea=(
            f"Two digits through a {kernel} convolution, ReLU, {pool} max pooling and a linear "
            f"layer; one SGD step, learning rate {fmt(story.rate)}. Drawn: the kernel."
        ),
        example=(Grid("kernel K before", before), Grid("K after one step", after)),
        question="Which parameters does that step change?",
        choices=(
            Choice(
                "The kernel (and biases) before the pool, and the linear layer after it",
                True,
                "Right: the pool only routes the gradient to the kernel.",
            ),
            Choice(
                "The pool's window weights",
                False,
                "A pooling window has no weights: max and mean have nothing to learn.",
            ),
        ),
        reveal=(
            f"K[0,0] went from {fmt(before[0, 0], 4)} to {fmt(after[0, 0], 4)}. With only the "
            f"kernel moved, the loss of the two went from {fmt(story.losses['before'], 4)} to "
            f"{fmt(story.losses['mean'], 4)}. The pool routed the gradient to it."
        ),
        mistake="“Pooling has weights to update”.",
    )


BATCH_STEPS = (each_example_routes_its_own, the_wrong_way, mean_or_sum, pooling_has_no_weights)
