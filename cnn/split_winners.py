"""Who won each window across a batch, and the first seed's idea put to the test.

The idea: "remember every pixel that was chosen as the maximum in any example of the
batch, and split the derivative over all of them". Here it is computed as that
learner would: for each kernel and window, the cells that won the window in at least
one example; each example's dL_n/dy for that window is split over those cells (evenly,
or weighted by how many examples each won), then each example goes on back through its
own ReLU and convolution as usual. It is wrong because L_n depends on the cells of a
window only through example n's own winner: nudging a cell that won the window in
another example does not change L_n at all.

Max pooling only: average pooling has no winners to remember.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cnn.network import Trace
from pooling.batch import reduce_batch
from pooling.config import PoolConfig
from pooling.explain import shares
from pooling.geometry import plane_geometry

SPLITS = ("even", "weighted")  # over the cells that won in any example; by how often


def window_shares(activation: np.ndarray, pool: PoolConfig) -> np.ndarray:
    """activation: (N, F, CH, CW), the pooling inputs. (N, F, PH, PW, CH, CW): the share
    of each window's dL_n/dy that lands on each cell in example n under the tie rule (1
    on the winner under first and last; every tied cell's share under split and all;
    1/divisor on every real cell for average pooling)."""
    count, features, height, width = activation.shape
    geometry = plane_geometry(pool, height, width)
    planes = [
        shares(activation[n, f], pool, geometry=geometry)
        for n in range(count)
        for f in range(features)
    ]
    return np.array(planes).reshape(count, features, *planes[0].shape)


@dataclass(frozen=True)
class WinnerCounts:
    """For each kernel and window, who picked which cell over a batch of N.

    counts: (F, PH, PW, CH, CW) int, the examples whose window (ph, pw) of kernel f
    sent some of its gradient to cell (ch, cw) (one winner each under first and last).
    received: (F, PH, PW, CH, CW), the upstream gradient Σ_n share · dL_n/dy[ph, pw]
    that window sent each cell, summed over the examples (not divided by N).
    size: N.
    """

    counts: np.ndarray
    received: np.ndarray
    size: int

    def winners(self, feature: int, window: tuple[int, int]) -> np.ndarray:
        """(K, 2): the cells that won `window` of kernel `feature` in at least one example,
        in reading order."""
        return np.argwhere(self.counts[(feature, *window)] > 0)

    def plane_counts(self, feature: int) -> np.ndarray:
        """(CH, CW): picks of each cell over every window (with no overlap, the number of
        examples that picked it in its own window)."""
        return self.counts[feature].sum(axis=(0, 1))

    def plane_received(self, feature: int) -> np.ndarray:
        """(CH, CW): the gradient each cell received over every window and example."""
        return self.received[feature].sum(axis=(0, 1))

    def busiest_window(self, feature: int) -> tuple[int, int]:
        """The window of kernel `feature` with the most distinct winners (the first in
        reading order of those)."""
        distinct = (self.counts[feature] > 0).sum(axis=(2, 3))
        flat = int(np.argmax(distinct))
        return divmod(flat, distinct.shape[1])


def winner_counts(window_share: np.ndarray, grad_output: np.ndarray) -> WinnerCounts:
    """window_share: (N, F, PH, PW, CH, CW) of a max pooling layer (window_shares);
    grad_output: (N, F, PH, PW), each example's dL_n/dy."""
    counts = (window_share != 0).sum(axis=0)
    received = np.einsum("nfpqhw,nfpq->fpqhw", window_share, grad_output)
    return WinnerCounts(counts, received, window_share.shape[0])


def split_shares(counts: np.ndarray, split: str) -> np.ndarray:
    """counts: (F, PH, PW, CH, CW), WinnerCounts.counts. (F, PH, PW, CH, CW): the share of
    each window's gradient the idea gives each cell, the same for every example: 1/K on
    each of the K cells that won in any example ("even"), or each one's wins over all
    the wins in that window ("weighted")."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    won = (counts > 0) if split == "even" else counts
    total = won.sum(axis=(3, 4), keepdims=True).astype(np.float64)
    return np.divide(won, total, out=np.zeros(won.shape), where=total > 0)


def split_routing(window_share: np.ndarray, grad_output: np.ndarray, split: str) -> np.ndarray:
    """(N, F, CH, CW): each example's dL_n/dy sent through the pool the idea's way."""
    spread = split_shares((window_share != 0).sum(axis=0), split)
    return np.einsum("fpqhw,nfpq->nfhw", spread, grad_output)


def kernel_gradient_from(trace: Trace, at_pool_input: np.ndarray, reduction: str) -> np.ndarray:
    """(F, 1, k, k): the batch dL/dK when `at_pool_input` (N, F, CH, CW) is what reached
    each example's pooling input: through its own ReLU and convolution, then reduced."""
    at_conv = at_pool_input * (trace.conv > 0) if trace.relu else at_pool_input
    per_example = np.einsum("nfij,ncijkl->nfckl", at_conv, trace.patches)
    return reduce_batch(per_example, reduction)


def split_kernel_gradient(
    trace: Trace,
    grad_output: np.ndarray,
    window_share: np.ndarray,
    *,
    reduction: str,
    split: str = "even",
) -> np.ndarray:
    """The idea's batch dL/dK, (F, 1, k, k): every example's dL_n/dy (N, F, PH, PW)
    split over the cells that won its window in any example, then on as usual."""
    routed = split_routing(window_share, grad_output, split)
    return kernel_gradient_from(trace, routed, reduction)
