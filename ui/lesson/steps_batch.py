"""Lesson steps 7-10: a batch, the wrong way, mean against sum, and the update (every
number from the engine)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from cnn.network import NetConfig
from pooling import PoolConfig

from ..minibatch.story import SEED_GRADIENTS, BatchSettings, batch_mean, build_batch_story
from ..pure.numbers import fmt
from .model import Choice, Grid, Step, cell_list, cell_name, routed, vector, winners
from .steps_layer import ONE

MAX_2 = PoolConfig("max", 2)
# Two examples whose average has a winner of its own, x[0,1], which neither picked.
EXAMPLE_A = np.array([[4.0, 3.0], [0.0, 0.0]])
EXAMPLE_B = np.array([[0.0, 3.0], [0.0, 4.0]])
PAIR_SETTINGS = BatchSettings(
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
    shared = shared_cells(first[1], second[1])
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
                "the derivative of a mean is the mean of the derivatives.",
            ),
            Choice(
                f"The sum: {vector(SEED_GRADIENTS.sum(axis=0))}",
                False,
                "that is the gradient of the summed loss, N times the mean.",
            ),
            Choice(
                "Only the first example's: its winner came first",
                False,
                "every example counts; each routes its own gradient through its own winner.",
            ),
        ),
        reveal=(
            f"In example 1, {cell_list(first[1])}; in example 2, {cell_list(second[1])}: "
            + ("no winner is shared. " if not shared else f"both send to {shared}. ")
            + f"The batch gradient of the five weights is {vector(mean)}"
            + (f"; {weights} gets 0 this step (its two gradients cancel)." if weights else ".")
        ),
        mistake=cancel_mistake(cancelled),
    )


def shared_cells(first: np.ndarray, second: np.ndarray) -> str:
    """The cells both routing maps (H, W) send something to, as 'x[0,1], …', or ''."""
    both = np.argwhere((first != 0) & (second != 0))
    return ", ".join(map(cell_name, both))


def cancel_mistake(cancelled: tuple[int, ...]) -> str | None:
    """The belief that a weight whose batch gradient is 0 got nothing from the batch."""
    if not cancelled:
        return None
    index = cancelled[0]
    each = " and ".join(fmt(value) for value in SEED_GRADIENTS[:, index])
    return (
        f"“w{index + 1}'s batch gradient is 0, so no example has anything to say about it”: "
        f"its examples' own gradients are {each}; they cancel only in the mean."
    )


def the_wrong_way() -> Step:
    first, second = (routed(x, MAX_2, ONE) for x in (EXAMPLE_A, EXAMPLE_B))
    right = (first[1] + second[1]) / 2
    averaged = (EXAMPLE_A + EXAMPLE_B) / 2
    _, wrong, argmax = routed(averaged, MAX_2, ONE)
    own = {cell for grad in (first[1], second[1]) for cell in map(tuple, np.argwhere(grad != 0))}
    taken = [tuple(int(v) for v in cell) for cell in np.argwhere(wrong != 0)]
    nobodys = [cell for cell in taken if cell not in own]
    names = ", ".join(map(cell_name, nobodys))
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
                "the max of an average is not the average of the maxes.",
            ),
            Choice(
                "Yes: averaging is linear, so the order does not matter",
                False,
                "averaging is linear, max is not"
                + (
                    f": here the average's winner, {names}, is neither example's." if names else "."
                ),
            ),
        ),
        reveal=(
            f"Right: {cell_list(right)}. Wrong: {cell_list(wrong)}. "
            + (
                f"The averaged input's winner, {names}, takes everything, and it is neither "
                "example's winner; each example's own winner gets nothing."
                if names
                else "The averaged input's winners take everything."
            )
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
            "(PyTorch's reduction='sum' instead of the default 'mean')."
        ),
        example=(Grid("dL_n/dw: a row per example", SEED_GRADIENTS, "gradient"),),
        question="How does the summed loss's gradient compare with the mean's?",
        choices=(
            Choice(
                f"{count} times as large: {vector(total)}",
                True,
                "the same direction, N times longer: for the same step, the learning rate "
                "must be N times smaller.",
            ),
            Choice("The same", False, "only the direction is the same; the length is N times."),
        ),
        reveal=(
            f"Sum {vector(total)} = {count} × mean {vector(mean)}. At a fixed learning rate "
            "the sum's step is N times the mean's: it grows with the batch size."
        ),
    )


def pooling_has_no_weights() -> Step:
    before = build_batch_story(PAIR_SETTINGS)
    after = build_batch_story(replace(PAIR_SETTINGS, steps=1))
    kernel_before = before.params.kernels[0, 0]
    change = after.params.kernels[0, 0] - kernel_before  # (k, k): −η · dL/dK
    thousandths = np.round(change * 1000)  # short enough to read in a small map
    moved = {
        name: float(np.abs(after.params.fields()[name] - value).max())
        for name, value in before.params.fields().items()
    }
    network = PAIR_SETTINGS.network
    kernel = f"{network.kernel_size}×{network.kernel_size}"
    pool = "×".join(map(str, network.pool.kernel_size))
    rate = fmt(PAIR_SETTINGS.learning_rate)
    return Step(
        title="Pooling has no weights",
        idea=(
            f"Two digits through a {kernel} convolution, ReLU, {pool} max pooling and a linear "
            f"layer; one SGD step, learning rate {rate}. Drawn: the kernel K before the step "
            "(to 2 decimals) and how much the step changed each entry, ΔK = K after − K "
            f"before, in thousandths ({fmt(thousandths[0, 0])} means "
            f"{fmt(thousandths[0, 0] / 1000)})."
        ),
        example=(
            Grid("K before", np.round(kernel_before, 2)),
            Grid("ΔK in thousandths", thousandths, "gradient"),
        ),
        question="Which parameters does that step change?",
        choices=(
            Choice(
                "The kernel (and biases) before the pool, and the linear layer after it",
                True,
                "the pool only routes the gradient back to the kernel.",
            ),
            Choice(
                "The pool's window weights",
                False,
                "a pooling window has no weights: max and mean have nothing to learn.",
            ),
        ),
        reveal=(
            f"The step moved every parameter the network has: kernel entries by up to "
            f"{fmt(moved['kernels'], 4)} (K[0,0] from {fmt(kernel_before[0, 0], 4)} to "
            f"{fmt(kernel_before[0, 0] + change[0, 0], 4)}), the kernel's bias by "
            f"{fmt(moved['bias'], 4)}, the linear layer's weights by up to "
            f"{fmt(moved['weights'], 4)} and its biases by up to {fmt(moved['out_bias'], 4)}. "
            f"The loss of the two went from {fmt(after.losses[0], 4)} to "
            f"{fmt(after.losses[1], 4)}. The pool has nothing to move: it routed the "
            "gradient to the kernel."
        ),
        mistake="“Pooling has weights to update”.",
    )


BATCH_STEPS = (each_example_routes_its_own, the_wrong_way, mean_or_sum, pooling_has_no_weights)
