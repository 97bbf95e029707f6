"""Everything the Batch page shows, computed once per input (pure: no Streamlit)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from cnn.network import (
    Backward,
    NetConfig,
    Params,
    Trace,
    batched_gradient,
    init_params,
    kernel_gradient_check,
    run_backward,
    run_forward,
    wrong_way_gradient,
)
from cnn.split_winners import (
    SPLITS,
    WinnerCounts,
    split_kernel_gradient,
    window_shares,
    winner_counts,
)
from pooling import PoolConfig
from pooling.batch import reduce_batch
from pooling.config import Cell
from pooling.explain import coverage, shares
from teaching.batch.data import Edits, Source, sample_batch
from teaching.batch.trajectory import Trajectory
from teaching.tolerances import SUMMATION_ORDER

SEED_GRADIENTS = np.array([[1.5, -2.0, 1.1, 0.4, -0.9], [1.2, 2.3, -1.1, -0.8, -0.7]])
TABLE_ENTRIES = 5  # kernel entries in the mean-against-sum table


def window_masks(trace: Trace, pool: PoolConfig) -> np.ndarray | None:
    """(N, F, PH, PW, CH, CW) bool: the pooling-input cells each window of each example
    and kernel sends its gradient to under the tie rule (the stored index under first
    and last, every tied cell under split and all); None for average pooling. Computed
    once per cached batch story or pair story: the engine's share maps are not cheap per rerun."""
    if trace.pool.argmax is None:
        return None
    return window_shares(trace.activation, pool) != 0


def cells_of(masks: np.ndarray | None, example: int, feature: int) -> tuple[Cell, ...]:
    """The cells some window of `example`, kernel `feature`, sends its gradient to; ()
    for average pooling (masks None)."""
    if masks is None:
        return ()
    reached = masks[example, feature].any(axis=(0, 1))
    return tuple((int(r), int(c)) for r, c in np.argwhere(reached))


@dataclass(frozen=True)
class BatchSettings:
    """What the page computes from: the cache key."""

    source: Source
    size: int
    seed: int
    network: NetConfig
    reduction: str
    learning_rate: float
    steps: int
    edits: Edits = ()


def winner_masks(activation: np.ndarray, pool: PoolConfig) -> np.ndarray:
    """activation: (N, CH, CW), one kernel's pooling inputs. (N, PH, PW, CH, CW) bool:
    the cells each window of each example sends its gradient to (under the tie rule:
    one cell for first and last, every tied cell for split and all; every real cell
    of the window for average pooling)."""
    return np.array([shares(plane, pool) != 0 for plane in activation])


def batch_mean(
    gradients: np.ndarray, reduction: str = "mean"
) -> tuple[np.ndarray, tuple[int, ...]]:
    """gradients: (N, P), one row per example. The batch gradient (P,), their mean (or
    sum), and the weights whose examples cancel out exactly (0 although some example's
    is not)."""
    reduced = reduce_batch(gradients, reduction)
    cancelled = np.flatnonzero(
        (np.abs(reduced) < SUMMATION_ORDER) & (np.abs(gradients) > 0).any(axis=0)
    )
    return reduced, tuple(int(i) for i in cancelled)


@dataclass(frozen=True, eq=False)
class BatchStory:
    """images: (N, 8, 8); params: after the steps taken; trace and per-example
    backward of those params.

    reduced: the batch gradient (mean or sum); batched_gap: largest gap between one
    batched backward and the reduced per-example gradients; kernel_fd_gap: largest gap
    of dL/dK to central differences; wrong: the averaged-input gradient, wrong_trace
    its forward pass; losses: before each step and after the last; diverged_at: the
    step at which training ran away (see `train`), or None.
    """

    images: np.ndarray
    labels: np.ndarray
    settings: BatchSettings
    params: Params
    trace: Trace
    grads: Backward
    reduced: Params
    batched_gap: float
    kernel_fd_gap: float
    numeric_kernels: np.ndarray
    wrong: Params
    wrong_trace: Trace
    losses: list[float]
    diverged_at: int | None

    @property
    def config(self) -> NetConfig:
        return self.settings.network

    @property
    def reduction(self) -> str:
        return self.settings.reduction

    @property
    def size(self) -> int:
        return self.images.shape[0]

    @property
    def is_max(self) -> bool:
        return self.config.pool.mode == "max"

    def routing(self, feature: int) -> np.ndarray:
        """(N, CH, CW): each example's gradient routed through the pool, kernel `feature`."""
        return self.grads.at_pool_input[:, feature]

    def routing_reduced(self, feature: int) -> np.ndarray:
        """(CH, CW): the mean (or sum) of the routing maps: the gradient of a
        per-position bias shared by the batch."""
        return reduce_batch(self.routing(feature), self.reduction)

    def running(self, values: np.ndarray) -> np.ndarray:
        """values: (N, ...), one per example. (N, ...): the mean (or sum, as the page's
        loss) of examples 0..n, for each n."""
        totals = np.cumsum(values, axis=0)
        if self.reduction == "sum":
            return totals
        counts = np.arange(1, self.size + 1).reshape((-1,) + (1,) * (values.ndim - 1))
        return totals / counts

    def routing_running(self, feature: int) -> np.ndarray:
        """(N, CH, CW): the mean (or sum) of the routing maps of examples 0..n."""
        return self.running(self.routing(feature))

    def kernel_running(self, feature: int) -> np.ndarray:
        """(N, k, k): the mean (or sum) of dL_n/dK (kernel `feature`) over examples 0..n."""
        return self.running(self.grads.per_example.kernels[:, feature, 0])

    def positions_reached(self, feature: int) -> np.ndarray:
        """(N,): pooling-input positions that examples 0..n sent any gradient to."""
        reached = np.logical_or.accumulate(self.routing(feature) != 0, axis=0)
        return reached.reshape(self.size, -1).sum(axis=1)

    def positions_routed(self, example: int, feature: int) -> int:
        return int((self.routing(feature)[example] != 0).sum())

    @property
    def positions(self) -> int:
        """Positions in one pooling input (CH * CW)."""
        return int(self.trace.activation[0, 0].size)

    @cached_property
    def window_share(self) -> np.ndarray | None:
        """(N, F, PH, PW, CH, CW): the share of each window's dL_n/dy each cell gets in
        example n under the tie rule; None for average pooling."""
        if not self.is_max:
            return None
        return window_shares(self.trace.activation, self.config.pool)

    @cached_property
    def window_masks(self) -> np.ndarray | None:
        """window_masks of the batch (None for average pooling)."""
        return None if self.window_share is None else self.window_share != 0

    @cached_property
    def winners(self) -> WinnerCounts | None:
        """Who picked each cell of each window over the batch; None for average pooling."""
        if self.window_share is None:
            return None
        return winner_counts(self.window_share, self.grads.at_pool_output)

    @cached_property
    def split_kernels(self) -> dict[str, np.ndarray]:
        """The first seed's idea (cnn.split_winners): split -> (F, k, k), the batch
        dL/dK when each window's gradient is split over every cell that won it in any
        example, evenly or by wins; {} for average pooling."""
        if self.window_share is None:
            return {}
        return {
            split: split_kernel_gradient(
                self.trace,
                self.grads.at_pool_output,
                self.window_share,
                reduction=self.reduction,
                split=split,
            )[:, 0]
            for split in SPLITS
        }

    @cached_property
    def wrong_window_masks(self) -> np.ndarray | None:
        """window_masks of the averaged image (N = 1)."""
        return window_masks(self.wrong_trace, self.config.pool)

    def winner_cells(self, example: int, feature: int) -> tuple[Cell, ...]:
        return cells_of(self.window_masks, example, feature)

    @cached_property
    def dead_kernels(self) -> tuple[int, ...]:
        """Kernels whose ReLU is off at every position of every example."""
        if not self.config.relu:
            return ()
        alive = (self.trace.conv > 0).any(axis=(0, 2, 3))
        return tuple(int(f) for f in np.flatnonzero(~alive))

    @property
    def wrong_scale(self) -> int:
        """What the wrong way's gradient (one pass, per-example scale) is multiplied by to
        compare with the batch gradient: 1 for the mean, N for the sum."""
        return 1 if self.reduction == "mean" else self.size

    @cached_property
    def right_kernels(self) -> np.ndarray:
        """(F, k, k): the batch's dL/dK, the mean (or sum) of the examples' dL_n/dK."""
        return self.reduced.kernels[:, 0]

    @cached_property
    def wrong_kernels(self) -> np.ndarray:
        """(F, k, k): the wrong way's dL/dK on the batch gradient's scale."""
        return self.wrong.kernels[:, 0] * self.wrong_scale

    @cached_property
    def wrong_minus_right(self) -> np.ndarray:
        """(F, k, k): the wrong way's dL/dK minus the right one."""
        return self.wrong_kernels - self.right_kernels

    @property
    def wrong_gap(self) -> float:
        return float(np.abs(self.wrong_minus_right).max())

    def orphan_windows(self, feature: int) -> tuple[int, int]:
        """(windows of the averaged image, kernel `feature`, that send gradient to a cell
        no example's same window picked; all its windows). (0, 0) for average pooling."""
        if not self.is_max:
            return 0, 0
        own = self.window_masks[:, feature].any(axis=0)
        averaged = self.wrong_window_masks[0, feature]
        orphan = (averaged & ~own).any(axis=(2, 3))
        return int(orphan.sum()), int(orphan.size)

    @cached_property
    def read_positions(self) -> int:
        """Positions of one pooling input that some window reads."""
        return int((coverage(self.config.pool, *self.trace.activation.shape[2:]) > 0).sum())

    def same_positions(self, feature: int, example: int) -> bool:
        """Examples 0..example send nonzero gradient to exactly the same positions."""
        reached = self.routing(feature)[: example + 1] != 0
        return bool((reached == reached[0]).all())

    @cached_property
    def reduction_table(self) -> dict[str, np.ndarray]:
        """Kernel 0's first entries: the sum of dL_n/dK, the sum times 1/N, the mean."""
        kernels = self.grads.per_example.kernels[:, 0, 0].reshape(self.size, -1)
        total = kernels.sum(axis=0)[:TABLE_ENTRIES]
        return {
            "sum": total,
            "scaled": total / self.size,
            "mean": kernels.mean(axis=0)[:TABLE_ENTRIES],
        }


def start_trajectory(settings: BatchSettings) -> Trajectory:
    """Draw the batch and the starting weights: training not yet begun (settings.steps
    is not read: one trajectory serves every step count). ValueError (naming the rule)
    when the network does not fit the images."""
    images, labels = sample_batch(settings.source, settings.size, settings.seed, settings.edits)
    return Trajectory(
        start=init_params(settings.network, images.shape[1:], settings.seed),
        x=images[:, None],
        labels=labels,
        network=settings.network,
        reduction=settings.reduction,
        learning_rate=settings.learning_rate,
    )


def build_batch_story(settings: BatchSettings, trajectory: Trajectory | None = None) -> BatchStory:
    """Train to settings.steps along `trajectory` (a new one if None), then take every
    gradient and check the page shows."""
    trajectory = trajectory or start_trajectory(settings)
    x, labels = trajectory.x, trajectory.labels
    reached = trajectory.reach(settings.steps)
    params = reached.params
    trace = run_forward(params, x, labels, settings.network)
    grads = run_backward(params, trace)
    reduced = grads.reduced(settings.reduction)
    batched = batched_gradient(params, trace, settings.reduction)
    batched_gap = max(
        float(np.abs(getattr(batched, name) - value).max())
        for name, value in reduced.fields().items()
    )
    numeric = kernel_gradient_check(params, x, labels, settings.network, settings.reduction)
    wrong, wrong_trace = wrong_way_gradient(params, trace, settings.network)
    return BatchStory(
        images=x[:, 0],
        labels=labels,
        settings=settings,
        params=params,
        trace=trace,
        grads=grads,
        reduced=reduced,
        batched_gap=batched_gap,
        kernel_fd_gap=float(np.abs(numeric - reduced.kernels).max()),
        numeric_kernels=numeric,
        wrong=wrong,
        wrong_trace=wrong_trace,
        losses=reached.losses,
        diverged_at=reached.diverged_at,
    )
