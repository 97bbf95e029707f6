"""One backward call on the batch's loss, as `loss.mean().backward()` makes it (pure):
each example's pooling input receives 1/N of its own gradient (all of it for a summed
loss), routed through its own graph and its own winners, never an averaged example's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cnn.network import logit_error, run_backward
from teaching.batch.story import BatchStory
from teaching.numbers import fmt

SHOWN = 2  # examples drawn on the screen: #0 and #1


@dataclass(frozen=True, eq=False)
class OneCall:
    """at_pool_input: (N, CH, CW), what one backward call of the reduced loss leaves at
    kernel `feature`'s pooling input (PyTorch's act.grad); own: (N, CH, CW), each
    example's own dL_n/d(pooling input); scale: 1/N for the mean, 1 for the sum;
    outside: per example, how many cells get gradient that none of its windows sends to."""

    feature: int
    reduction: str
    at_pool_input: np.ndarray
    own: np.ndarray
    scale: float
    outside: tuple[int, ...]
    is_max: bool

    @property
    def size(self) -> int:
        return self.own.shape[0]

    @property
    def gap(self) -> float:
        """Largest gap between the call's gradient and scale × each example's own."""
        return float(np.abs(self.at_pool_input - self.scale * self.own).max())


def one_call(story: BatchStory, feature: int) -> OneCall:
    """The batch's one backward call, its gradient at kernel `feature`'s pooling input."""
    size = story.size
    scale = 1.0 / size if story.reduction == "mean" else 1.0
    call = run_backward(story.params, story.trace, scale * logit_error(story.trace))
    at_pool_input = call.at_pool_input[:, feature]
    masks = story.window_masks  # (N, F, PH, PW, CH, CW) or None (average pooling)
    if masks is None:
        outside = (0,) * size
    else:
        reached = masks[:, feature].any(axis=(1, 2))  # (N, CH, CW): cells its windows send to
        outside = tuple(int(((at_pool_input[n] != 0) & ~reached[n]).sum()) for n in range(size))
    return OneCall(
        feature,
        story.reduction,
        at_pool_input,
        story.routing(feature),
        scale,
        outside,
        masks is not None,
    )


def call_code(reduction: str) -> str:
    return f"loss.{reduction}().backward()"


def one_call_sentences(call: OneCall) -> list[str]:
    """What the screen says, each sentence short enough for a projector."""
    share = f"1/{call.size} of its own gradient" if call.reduction == "mean" else "its own gradient"
    times = "1/N × " if call.reduction == "mean" else ""
    said = [
        f"One call of {call_code(call.reduction)} gives each of the {call.size} examples "
        f"{share}, through its own graph.",
        f"At kernel {call.feature}'s pooling input, the largest gap to {times}each "
        f"example's own gradient is {gap_words(call.gap)}.",
    ]
    if call.is_max and not any(call.outside):
        said.append("It lands on the example's own winners only. No averaged example is run.")
    elif not call.is_max:
        said.append("It spreads over the example's own windows. No averaged example is run.")
    return said


def gap_words(gap: float) -> str:
    return fmt(gap) if gap == 0 else f"{gap:.1e} (rounding)"
