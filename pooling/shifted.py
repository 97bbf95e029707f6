"""The fast path: whole-array operations, one per window tap, no window copies.

For a regular axis, tap k of every window reads the input at o*stride + offset[k], so
"tap (i, j) of every window" is one strided view of the (padded) input. Max pooling keeps
a running maximum over those views and remembers which tap won; average pooling sums the
rows of a window, then its columns (the window is separable). Backward scatters with
one `bincount` (max) or runs the separable sums in reverse (avg).

Strided views that step along the last axis are slow to read, so for a column stride
s > 1 the padded input is split once into s contiguous column phases: column
c = q*s + r lives at phases[r][..., q].
"""

from __future__ import annotations

import numpy as np

from .geometry import PlaneGeometry


class ShiftedPlanes:
    """The padded input, split into column phases, with a view per window tap.

    planes: (P, H, W) float64; fill: the padding value (-inf for max, 0 for avg).
    """

    def __init__(self, planes: np.ndarray, geometry: PlaneGeometry, fill: float):
        self.rows, self.cols = rows, cols = geometry.rows, geometry.cols
        padded = planes
        if (rows.padded_size, cols.padded_size) != planes.shape[1:]:
            padded = np.full((planes.shape[0], rows.padded_size, cols.padded_size), fill)
            padded[:, rows.pad_before:rows.pad_before + rows.size,
                   cols.pad_before:cols.pad_before + cols.size] = planes
        step = cols.stride
        self.phases = [padded] if step == 1 else [
            np.ascontiguousarray(padded[:, :, r::step]) for r in range(step)]

    def column_tap(self, col_offset: int) -> np.ndarray:
        """(P, padded H, OW) view: column tap `col_offset` of every window, all rows."""
        first = int(col_offset) + self.cols.pad_before
        phase, start = first % self.cols.stride, first // self.cols.stride
        return self.phases[phase][:, :, start:start + self.cols.length]

    def tap(self, row_offset: int, col_offset: int) -> np.ndarray:
        """(P, OH, OW) view: the input cell each window reads at tap (row, col)."""
        return self.column_tap(col_offset)[:, self.rows.tap_slice(row_offset)]


def max_forward(planes: np.ndarray, geometry: PlaneGeometry, ties: str):
    """Max pooling with "first" or "last" ties.

    planes: (P, H, W). Returns output (P, OH, OW) and argmax (P, OH, OW) int64 h*W + w.
    NaN outputs are right; their argmax is fixed by the caller (see `pooling.ops`).
    """
    shifted = ShiftedPlanes(planes, geometry, -np.inf)
    rows, cols = geometry.rows, geometry.cols
    width = cols.size
    taps = [(int(r), int(c)) for r in rows.offset for c in cols.offset]
    if ties == "last":
        taps.reverse()                 # the first strict winner from the end is the last
    out_shape = (planes.shape[0],) + geometry.output_shape
    best = np.full(out_shape, -np.inf)
    # Offsets from each window's top-left corner; start at the first (or last) real tap
    # so that a window of -inf values still names a real cell, as PyTorch does.
    chosen = np.empty(out_shape, dtype=np.int32)
    chosen[...] = _edge_real_offset(geometry, last=ties == "last")
    won = np.empty(out_shape, dtype=bool)
    step = np.empty(out_shape, dtype=np.int32)
    for row_offset, col_offset in taps:
        view = shifted.tap(row_offset, col_offset)
        np.greater(view, best, out=won)
        np.maximum(best, view, out=best)
        # chosen = where(won, offset, chosen), without a slow masked write
        np.subtract(row_offset * width + col_offset, chosen, out=step)
        step *= won
        chosen += step
    corner = (np.arange(rows.length) * rows.stride)[:, None] * width + \
        (np.arange(cols.length) * cols.stride)[None, :]
    return best, corner + chosen


def _edge_real_offset(geometry: PlaneGeometry, last: bool) -> np.ndarray:
    """(OH, OW) offset (from the window's corner) of each window's first/last real tap."""
    offsets = []
    for axis in (geometry.rows, geometry.cols):
        real = axis.real[:, ::-1] if last else axis.real
        pick = np.argmax(real, axis=1)
        if last:
            pick = axis.taps - 1 - pick
        offsets.append(axis.offset[pick])
    return offsets[0][:, None] * geometry.cols.size + offsets[1][None, :]


def scatter_add(target: np.ndarray, values: np.ndarray, plane_size: int) -> np.ndarray:
    """Add each value into its plane's cell; overlaps add up, in reading order.

    target: (P, ...) int, h*W + w within plane p; values: broadcastable to target.
    Returns (P, H*W).
    """
    planes = target.shape[0]
    flat = target + (np.arange(planes, dtype=np.int64) * plane_size).reshape(
        (planes,) + (1,) * (target.ndim - 1))
    total = np.bincount(flat.ravel(), weights=np.broadcast_to(values, target.shape).ravel(),
                        minlength=planes * plane_size)
    return total.reshape(planes, plane_size)


def avg_forward(planes: np.ndarray, geometry: PlaneGeometry, divisor: np.ndarray) -> np.ndarray:
    """Average pooling: window sums by columns then rows, over the divisor.

    planes: (P, H, W); divisor: (OH, OW). Returns (P, OH, OW).
    """
    shifted = ShiftedPlanes(planes, geometry, 0.0)
    by_cols = _sum_views(shifted.column_tap(c) for c in geometry.cols.offset)
    total = _sum_views(by_cols[:, geometry.rows.tap_slice(r)] for r in geometry.rows.offset)
    total /= divisor
    return total


def _sum_views(views) -> np.ndarray:
    """Sum of equally shaped arrays, into a fresh array."""
    views = iter(views)
    total = next(views).copy()
    for view in views:
        total += view
    return total


def avg_backward(grad_output: np.ndarray, geometry: PlaneGeometry, divisor: np.ndarray) -> np.ndarray:
    """Each output sends grad / divisor to every cell of its window (padding dropped).

    grad_output: (P, OH, OW); divisor: (OH, OW). Returns (P, H*W).
    """
    rows, cols = geometry.rows, geometry.cols
    share = grad_output / divisor
    planes = share.shape[0]
    by_rows = np.zeros((planes, rows.padded_size, cols.length))
    for row_offset in rows.offset:
        by_rows[:, rows.tap_slice(row_offset)] += share
    padded = np.zeros((planes, rows.padded_size, cols.padded_size))
    for col_offset in cols.offset:
        padded[:, :, cols.tap_slice(col_offset)] += by_rows
    grad = padded[:, rows.pad_before:rows.pad_before + rows.size,
                  cols.pad_before:cols.pad_before + cols.size]
    return np.ascontiguousarray(grad).reshape(planes, -1)
