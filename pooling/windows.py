"""The general path: copy every window out, then reduce and route per window.

It handles every configuration (adaptive windows, every tie rule) and is what the
explanations are built from: for each output cell, which input cells it read and what
share of its upstream gradient each one receives. The fast kernels in `pooling.fast`
give the same numbers for the layers they take, without copying windows, and are
tested against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from pooling.config import PoolConfig
from pooling.geometry import PlaneGeometry, frozen


@lru_cache(maxsize=256)
def _gather_index(geometry: PlaneGeometry) -> tuple[np.ndarray, bool]:
    """(OH, OW, K) int64: h*W + w of each tap, or H*W (one cell past the plane) where
    the tap is not real; and whether every tap is real."""
    past = geometry.rows.size * geometry.cols.size
    return frozen(np.where(geometry.real, geometry.flat_index, past)), bool(geometry.real.all())


def gather(planes: np.ndarray, geometry: PlaneGeometry, fill: float) -> np.ndarray:
    """Windows of each plane, with one gather.

    planes: (P, H, W) float64. Returns (P, OH, OW, K); taps that are not real cells
    (padding, or the unused tail of a smaller adaptive window) hold `fill`.
    """
    index, all_real = _gather_index(geometry)
    flat = planes.reshape(planes.shape[0], -1)
    if not all_real:  # taps off the grid read one extra cell holding the fill
        flat = np.concatenate([flat, np.full((flat.shape[0], 1), fill)], axis=1)
    return flat[:, index]


@dataclass(frozen=True)
class Routing:
    """How each window shares out its upstream gradient.

    weights: (P, OH, OW, K) float64, d output / d tap: the share of dL/dy each tap gets.
    flat_index: (OH, OW, K) int64, h*W + w of each tap (0, with weight 0, off the grid).
    """

    weights: np.ndarray
    flat_index: np.ndarray


def last_true(mask: np.ndarray) -> np.ndarray:
    """Index of the last True along the last axis (K-1 - first True of the reverse)."""
    return mask.shape[-1] - 1 - np.argmax(mask[..., ::-1], axis=-1)


def max_choice(windows: np.ndarray, real: np.ndarray, ties: str):
    """Max pooling over gathered windows.

    windows: (P, OH, OW, K) with -inf off the grid; real: (OH, OW, K).
    Returns output (P, OH, OW), the PyTorch-style winning tap (P, OH, OW) for `ties`
    "first" or "last" (ties "split"/"all" report PyTorch's "first"), and weights
    (P, OH, OW, K).
    """
    output = windows.max(axis=-1)  # NaN wins, as in PyTorch
    winners = real & (windows == output[..., None])
    is_nan = np.isnan(windows)
    nan_window = is_nan.any(axis=-1)
    # PyTorch scans in reading order and keeps the last NaN it meets.
    tap = np.where(
        nan_window,
        last_true(is_nan),
        last_true(winners) if ties == "last" else np.argmax(winners, axis=-1),
    )
    if ties in ("first", "last"):
        weights = np.zeros(windows.shape)
        np.put_along_axis(weights, tap[..., None], 1.0, axis=-1)
        return output, tap, weights
    nan_onehot = np.zeros(windows.shape, dtype=bool)
    np.put_along_axis(nan_onehot, tap[..., None], True, axis=-1)
    winners = np.where(nan_window[..., None], nan_onehot, winners)
    weights = winners.astype(np.float64)
    if ties == "split":
        weights /= weights.sum(axis=-1, keepdims=True)
    return output, tap, weights


def avg_routing(geometry: PlaneGeometry, planes: int) -> Routing:
    """Average pooling's routing of `planes` planes: 1/divisor to each real tap, the
    same for every plane (one broadcast table, not a copy per plane)."""
    weights = geometry.real / geometry.divisor[..., None]
    return Routing(np.broadcast_to(weights, (planes,) + weights.shape), geometry.flat_index)


def route(planes: np.ndarray, geometry: PlaneGeometry, config: PoolConfig):
    """Forward through the general path.

    planes: (P, H, W) float64. Returns output (P, OH, OW), argmax (P, OH, OW) int64 as
    h*W + w (None for avg) and the Routing.
    """
    flat_index = geometry.flat_index
    if config.mode == "avg":
        windows = gather(planes, geometry, 0.0)
        output = windows.sum(axis=-1) / geometry.divisor
        return output, None, avg_routing(geometry, planes.shape[0])
    windows = gather(planes, geometry, -np.inf)
    output, tap, weights = max_choice(windows, geometry.real, config.ties)
    argmax = np.take_along_axis(
        np.broadcast_to(flat_index, windows.shape), tap[..., None], axis=-1
    )[..., 0]
    return output, argmax, Routing(weights, flat_index)


def scatter(routing: Routing, grad_output: np.ndarray, plane_size: int) -> np.ndarray:
    """Backward through the general path: sum of what each window sends each cell.

    grad_output: (P, OH, OW). Returns (P, H*W) float64.
    """
    # Only taps with a share receive anything: 0 * inf must not leak NaN into a cell.
    sent = np.where(routing.weights != 0, routing.weights * grad_output[..., None], 0.0)
    target = np.broadcast_to(routing.flat_index, sent.shape)
    return scatter_add(target, sent, plane_size)


def scatter_add(target: np.ndarray, values: np.ndarray, plane_size: int) -> np.ndarray:
    """Add each value into its plane's cell; overlaps add up, in reading order.

    target: (P, ...) int, h*W + w within plane p; values: broadcastable to target.
    Returns (P, H*W).
    """
    planes = target.shape[0]
    if values.shape != target.shape:
        values = np.broadcast_to(values, target.shape)
    flat = target
    if planes > 1:  # each plane's cells after the planes before it
        offsets = np.arange(0, planes * plane_size, plane_size, dtype=np.int64)
        flat = target + offsets.reshape((planes,) + (1,) * (target.ndim - 1))
    total = np.bincount(flat.ravel(), weights=values.ravel(), minlength=planes * plane_size)
    return total.reshape(planes, plane_size)
