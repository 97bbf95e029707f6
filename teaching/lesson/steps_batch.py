"""Lesson steps 7-11: a batch, the wrong way, mean against sum, one update from a batch,
and the pool that has no weights (every number from the engine)."""

from __future__ import annotations

import numpy as np

from cnn.network import NetConfig
from pooling import PoolConfig
from teaching.batch.pair import build_pair
from teaching.batch.story import SEED_GRADIENTS, BatchSettings, batch_mean, build_batch_story
from teaching.formulas import batch_rule, step_rule
from teaching.lesson.model import Choice, Grid, Step, cell_list, cell_name, routed, vector, winners
from teaching.lesson.steps_layer import ONE
from teaching.numbers import fmt

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
            "The batch loss is the mean of the two losses. Past this pool sit five weights "
            f"shared by both examples: example 1's gradient is {vector(SEED_GRADIENTS[0])}, "
            f"example 2's {vector(SEED_GRADIENTS[1])}. What is the batch gradient?"
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
            + "\n\n"
            + shared_per_position(first[1], second[1])
        ),
        mistake=cancel_mistake(cancelled),
    )


def shared_per_position(first: np.ndarray, second: np.ndarray) -> str:
    """What the mean of the two routing maps (H, W) is: the gradient of a weight shared
    per position, each half from one example's own winner."""
    mean = (first + second) / 2
    return (
        f"The mean of the two maps, {cell_list(mean)}, is what a weight shared per position "
        "would get, such as a bias added to each cell of x. Each part comes from one "
        "example's own winner; no example split its gradient."
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
        title="The wrong way: one averaged example",
        idea=(
            "Average the same two examples into one input, then run that one averaged "
            "example forward and back. Compare with the mean of the examples' own routing "
            "maps, the gradient of a bias added to every example's input."
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
        mistake=(
            "“Average the examples into one, run it forward and back once: that is the batch "
            "gradient”. What loss.mean().backward() does instead: it averages the losses, "
            "and sends each example 1/N through its own graph."
        ),
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


TREND_WORDS = {1: "went up", -1: "went down", 0: "stayed"}
LOSS_DECIMALS = 3


def one_step_from_a_batch() -> Step:
    """The question “two losses of 2 and −2: do they cancel, and how is each weight
    updated?” on one screen: each loss before and after, the gradients and their mean,
    the rule and the step, every number from a batch of two through the tiny CNN."""
    pair = build_pair(build_batch_story(PAIR_SETTINGS), 0)
    network = PAIR_SETTINGS.network
    kernel = f"{network.kernel_size}×{network.kernel_size}"
    pool = "×".join(map(str, network.pool.kernel_size))
    rate = fmt(PAIR_SETTINGS.learning_rate)
    before, after = pair.losses_before, pair.losses_after
    own_0, own_1, both = (TREND_WORDS[trend] for trend in pair.loss_trends(LOSS_DECIMALS))
    entry = (pair.kernel_before[0, 0], pair.mean[0, 0], pair.kernel_after("mean")[0, 0])
    return Step(
        title="One step from a batch: do the losses cancel?",
        idea=(
            f"One SGD step on the kernel K of a tiny CNN ({kernel} convolution, ReLU, {pool} "
            f"max pooling, linear layer) from two digits, #0 “{pair.batch.labels[0]}” and "
            f"#1 “{pair.batch.labels[1]}”. Losses before → after: "
            f"#0 {loss(before[0])} → {loss(after[0])}, #1 {loss(before[1])} → "
            f"{loss(after[1])}, mean {loss(pair.losses['before'])} → "
            f"{loss(pair.losses['mean'])}.\n\n"
            # Two formulas, an em space between: a phone wraps between them, and inside
            # the first only after its "=" (batch_rule).
            f"${batch_rule('mean', 2)}$\u2003${{{step_rule('mean', rate)}}}$"
        ),
        example=(
            # Two decimals: three maps side by side keep their numbers inside their cells.
            Grid("dL_0/dK", np.round(pair.kernel_grads[0], 2), "gradient"),
            Grid("dL_1/dK", np.round(pair.kernel_grads[1], 2), "gradient"),
            Grid("mean dL/dK", np.round(pair.mean, 2), "gradient"),
        ),
        question=(
            "Had the two losses been 2 and −2, their mean would be 0. Would the step on K "
            "then be zero?"
        ),
        choices=(
            Choice(
                "No: the step is −η times the mean of the gradients dL_n/dK; the losses' "
                "values do not enter it",
                True,
                "the derivative of the mean loss is the mean of the examples' own "
                "gradients; it is zero only where those cancel, whatever the losses add up to.",
            ),
            Choice(
                "Yes: a batch loss of 0 leaves nothing to learn",
                False,
                "the step never reads the loss's value, only its gradient, and that is the "
                "mean of the examples' own. (A cross-entropy loss is never negative anyway.)",
            ),
            Choice(
                "Yes: the gradients cancel as the losses do",
                False,
                f"a loss and its gradient are different numbers: here the two gradients "
                f"have opposite signs in {pair.opposed_entries} of K's {pair.mean.size} "
                "entries, and even there they only partly cancel in the mean.",
            ),
        ),
        reveal=(
            "The losses are averaged into one objective, the mean loss; its gradient is the "
            "mean of the examples' own gradients, each from its own forward and backward "
            f"pass. K[0,0]: {fmt(entry[0], 4)} − "
            f"{rate} × ({fmt(entry[1], 4)}) = {fmt(entry[2], 4)}.\n\nThe mean loss {both}; "
            f"#0's own loss {own_0}, #1's {own_1}"
            + (": one step serves the batch, not each example." if own_0 != own_1 else ".")
        ),
        mistake=(
            "“The losses are averaged, so losses of 2 and −2 cancel and nothing is learned”: "
            "the mean loss is then 0, its gradient need not be."
        ),
    )


def loss(value: float) -> str:
    return fmt(value, LOSS_DECIMALS)


def conv_backward_entry(pair, example: int, entry: tuple[int, int]) -> float:
    """dL_n/dK[a,b] of kernel pair.feature by the convolution's own backward, written
    out: the routed map dL_n/d(pool input) (CH, CW), through the ReLU's mask, times the
    image cells that K[a,b] met at each position, summed."""
    trace, feature = pair.trace, pair.feature
    at_conv = pair.routed[example]
    if trace.relu:
        at_conv = at_conv * (trace.conv[example, feature] > 0)
    rows, cols = at_conv.shape
    a, b = entry
    image = trace.x[example, 0]
    return float((at_conv * image[a : a + rows, b : b + cols]).sum())


def the_pool_has_no_weights() -> Step:
    """Step 10's update, from the pool's side: nothing in the pool moves; its gradient
    goes down to the convolution, whose own backward pass makes dL/dK."""
    pair = build_pair(build_batch_story(PAIR_SETTINGS), 0)
    by_hand = conv_backward_entry(pair, 0, (0, 0))
    return Step(
        title="The pool has no weights",
        idea=(
            "The last step's update moved the kernel K. The max pool sits between the "
            "convolution and the linear layer, and it too passes a gradient back."
        ),
        example=(
            Grid("dL_0/dK: what reaches K from #0", np.round(pair.kernel_grads[0], 2), "gradient"),
        ),
        question="What does one SGD step change in the max pool?",
        choices=(
            Choice(
                "Nothing: it has no weights, only settings; it routes the gradient down to "
                "the convolution",
                True,
                "max of a window has nothing to learn: its size, stride and mode are fixed.",
            ),
            Choice(
                "Its weights, by −η times their gradient",
                False,
                "a max pool holds no weights; the gradient it passes on is for the convolution.",
            ),
            Choice(
                "The winners it stored, kept for the next step",
                False,
                "the winners are picked again in every forward pass, from the new activations.",
            ),
        ),
        reveal=(
            "The pool hands its routed map, dL/d(pool input), through the ReLU to the "
            "convolution's output z. The convolution's own backward pass then gives "
            "dL/dK[a,b] = Σ_ij dL/dz[i,j] · x[i+a, j+b], example by example.\n\n"
            f"Written out for #0 and K[0,0], that sum is {fmt(by_hand, 4)}: the map's "
            f"top-left cell, {fmt(round(pair.kernel_grads[0][0, 0], 2))}."
        ),
    )


BATCH_STEPS = (
    each_example_routes_its_own,
    the_wrong_way,
    mean_or_sum,
    one_step_from_a_batch,
    the_pool_has_no_weights,
)
