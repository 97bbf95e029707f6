"""A batch of two told to its end (pure: no Streamlit): the batch's first two examples,
each routed through its own argmax, their kernel gradients combined (mean or sum, as
the page's loss), one SGD step on the kernels, and the wrong way (average first)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from cnn.network import (
    Backward,
    Params,
    Trace,
    batch_loss,
    run_backward,
    run_forward,
    wrong_way_backward,
)
from pooling.config import Cell
from pooling.explain import argmax_cells
from teaching.batch.story import BatchStory, cells_of, window_masks


@dataclass(frozen=True, eq=False)
class PairStory:
    """Examples #0 and #1 of `story`'s batch with its current weights; kernel `feature`.

    trace / grads: the pair's forward pass and per-example backward (N = 2);
    wrong_trace / wrong: the averaged image's forward pass and its one backward pass
    with the averaged error (N = 1).
    """

    batch: BatchStory
    feature: int
    trace: Trace
    grads: Backward
    wrong_trace: Trace
    wrong: Backward

    @property
    def routed(self) -> np.ndarray:
        """(2, CH, CW): each example's dL_n/d(pooling input)."""
        return self.grads.at_pool_input[:, self.feature]

    @property
    def kernel_grads(self) -> np.ndarray:
        """(2, k, k): each example's dL_n/dK."""
        return self.grads.per_example.kernels[:, self.feature, 0]

    @property
    def wrong_routed(self) -> np.ndarray:
        """(CH, CW): the averaged image's routing of the averaged error."""
        return self.wrong.at_pool_input[0, self.feature]

    @property
    def wrong_kernel(self) -> np.ndarray:
        """(k, k): dL/dK the wrong way."""
        return self.wrong.per_example.kernels[0, self.feature, 0]

    @property
    def rate(self) -> float:
        return self.batch.settings.learning_rate

    @property
    def params(self) -> Params:
        return self.batch.params

    @property
    def mean(self) -> np.ndarray:
        """(k, k): the batch gradient of kernel `feature`, (dL_0/dK + dL_1/dK) / 2."""
        return self.kernel_grads.mean(axis=0)

    @property
    def total(self) -> np.ndarray:
        """(k, k): the sum of the two, twice the mean."""
        return self.kernel_grads.sum(axis=0)

    @property
    def reduction(self) -> str:
        return self.batch.reduction

    @property
    def batch_grad(self) -> np.ndarray:
        """(k, k): the pair's batch gradient of kernel `feature` under the page's loss."""
        return self.mean if self.reduction == "mean" else self.total

    @property
    def kernel_before(self) -> np.ndarray:
        return self.params.kernels[self.feature, 0]

    def kernel_after(self, reduction: str) -> np.ndarray:
        """(k, k): K − η · (mean or sum) of dL_n/dK."""
        step = self.mean if reduction == "mean" else self.total
        return self.kernel_before - self.rate * step

    def stepped_trace(self, reduction: str) -> Trace:
        """The pair's second forward pass, after the step K ← K − η · (mean or sum) of
        dL_n/dK: every kernel moves by its own gradient; biases and the linear layer
        stay."""
        return self._stepped[reduction]

    @cached_property
    def _stepped(self) -> dict[str, Trace]:
        grads = self.grads.per_example.kernels
        traces = {}
        for reduction, gradient in (("mean", grads.mean(axis=0)), ("sum", grads.sum(axis=0))):
            moved = replace(self.params, kernels=self.params.kernels - self.rate * gradient)
            traces[reduction] = run_forward(
                moved, self.trace.x, self.trace.labels, self.batch.config
            )
        return traces

    @cached_property
    def losses(self) -> dict[str, float]:
        """The pair's loss under the page's reduction (mean or sum of the two) before
        the step, and after the mean's step and the sum's (stepped_trace)."""
        result = {"before": batch_loss(self.trace, self.reduction)}
        for reduction in ("mean", "sum"):
            result[reduction] = batch_loss(self.stepped_trace(reduction), self.reduction)
        return result

    @property
    def losses_before(self) -> np.ndarray:
        """(2,): each example's own loss L_n before the step."""
        return self.trace.losses

    @property
    def losses_after(self) -> np.ndarray:
        """(2,): each example's own loss after the step the page's loss takes, from a
        second forward pass."""
        return self.stepped_trace(self.reduction).losses

    def loss_trends(self, decimals: int) -> tuple[int, int, int]:
        """How the step moved example #0's own loss, #1's and the pair's (the page's
        reduction): +1 up, −1 down, 0 where the change rounds away at `decimals`."""
        before = [*self.losses_before, self.losses["before"]]
        after = [*self.losses_after, self.losses[self.reduction]]
        changes = np.round(np.subtract(after, before), decimals)
        return tuple(int(sign) for sign in np.sign(changes))

    @property
    def opposed_entries(self) -> int:
        """Entries of K whose two gradients dL_0/dK and dL_1/dK have opposite signs: there
        the examples pull K opposite ways and partly cancel in the mean (or sum)."""
        return int((self.kernel_grads[0] * self.kernel_grads[1] < 0).sum())

    @property
    def wrong_batch_kernel(self) -> np.ndarray:
        """(k, k): the wrong way's dL/dK on the batch gradient's scale (times 2 for the
        sum of the two)."""
        return self.wrong_kernel * (1 if self.reduction == "mean" else 2)

    @property
    def wrong_gap(self) -> float:
        """Largest gap between the wrong way's dL/dK and the right one (kernel `feature`)."""
        return float(np.abs(self.wrong_batch_kernel - self.batch_grad).max())

    @cached_property
    def window_masks(self) -> np.ndarray | None:
        """story.window_masks of the pair (N = 2); None for average pooling."""
        return window_masks(self.trace, self.batch.config.pool)

    @cached_property
    def wrong_window_masks(self) -> np.ndarray | None:
        """story.window_masks of the averaged image (N = 1)."""
        return window_masks(self.wrong_trace, self.batch.config.pool)

    def winners(self, example: int) -> tuple[Cell, ...]:
        return cells_of(self.window_masks, example, self.feature)

    @property
    def averaged_winners(self) -> tuple[Cell, ...]:
        return cells_of(self.wrong_window_masks, 0, self.feature)

    def argmax_table(self, example: int) -> np.ndarray | None:
        """(PH, PW) of (row, col) winners in the pooling input, or None for average."""
        if self.trace.pool.argmax is None:
            return None
        width = self.trace.activation.shape[3]
        return argmax_cells(self.trace.pool.argmax[example, self.feature], width)

    def borrowed_windows(self) -> tuple[int, int]:
        """(windows where a winner of the averaged image is not a winner of both examples'
        same window, all windows): there the wrong way routes at least one example's
        error to a cell that example did not pick in that window. Winners follow the
        tie rule (every tied cell under split and all). (0, 0) for average pooling."""
        if self.window_masks is None:
            return 0, 0
        own = self.window_masks[:, self.feature]
        averaged = self.wrong_window_masks[0, self.feature]
        borrowed = (averaged & ~(own[0] & own[1])).any(axis=(2, 3))
        return int(borrowed.sum()), int(borrowed.size)

    def zero_winners(self, example: int) -> int:
        """Windows of example whose winner is 0 after the ReLU: all-zero windows whose
        stored index still names a cell, though the ReLU then stops its gradient."""
        if self.trace.pool.argmax is None or not self.batch.config.relu:
            return 0
        return int((self.trace.pool.output[example, self.feature] == 0).sum())


def build_pair(story: BatchStory, feature: int) -> PairStory:
    """ValueError when the batch holds fewer than two examples."""
    if story.size < 2:
        raise ValueError("the batch has one example: set the batch size to 2 or more")
    x, labels = story.trace.x[:2], story.labels[:2]
    trace = run_forward(story.params, x, labels, story.config)
    wrong, wrong_trace = wrong_way_backward(story.params, trace, story.config)
    return PairStory(
        batch=story,
        feature=feature,
        trace=trace,
        grads=run_backward(story.params, trace),
        wrong_trace=wrong_trace,
        wrong=wrong,
    )
