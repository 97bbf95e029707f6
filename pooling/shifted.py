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
from .scan import scan_taps

# Splitting into phases costs a copy; below this many input values, strided reads are
# cheaper than the copy (measured with benchmarks/bench_pooling.py).
SPLIT_PHASES_ABOVE = 1 << 14


class ShiftedPlanes:
    """The padded input, split into column phases when that pays, with a view per tap.

    planes: (P, H, W) float64; fill: the padding value (-inf for max, 0 for avg).
    """

    def __init__(self, planes: np.ndarray, geometry: PlaneGeometry, fill: float):
        self.rows, self.cols = rows, cols = geometry.rows, geometry.cols
        # A phase copy pays only when several taps read the same phase (windows overlap
        # along the row) and the input is large enough for strided reads to hurt.
        self.split = (
            cols.stride > 1 and cols.taps > cols.stride and planes.size >= SPLIT_PHASES_ABOVE
        )
        phases = cols.stride if self.split else 1
        width = -(-cols.padded_size // phases)
        if not self.split and (rows.padded_size, width) == planes.shape[1:]:
            self.phases = [planes]  # nothing to pad or split
            return
        # Copy each phase's columns straight from the input: going through one padded
        # array first costs a full extra pass.
        self.phases = []
        for phase in range(phases):
            target = np.full((planes.shape[0], rows.padded_size, width), fill)
            first = (phase - cols.pad_before) % phases  # first input column in this phase
            source = planes[:, :, first::phases]
            column = (first + cols.pad_before) // phases
            target[
                :, rows.pad_before : rows.pad_before + rows.size, column : column + source.shape[2]
            ] = source
            self.phases.append(target)

    def column_tap(self, col_offset: int) -> np.ndarray:
        """(P, padded H, OW) view: column tap `col_offset` of every window, all rows."""
        if not self.split:
            return self.phases[0][:, :, self.cols.tap_slice(col_offset)]
        first = int(col_offset) + self.cols.pad_before
        phase, start = first % self.cols.stride, first // self.cols.stride
        return self.phases[phase][:, :, start : start + self.cols.length]

    def tap(self, row_offset: int, col_offset: int) -> np.ndarray:
        """(P, OH, OW) view: the input cell each window reads at tap (row, col)."""
        return self.column_tap(col_offset)[:, self.rows.tap_slice(row_offset)]

    def tap_number(self, geometry: PlaneGeometry, tap: int) -> np.ndarray:
        """tap(...) of tap number t = i * KW + j, by one precomputed slice pair when the
        input is one phase (the common case)."""
        if self.split:
            return self.tap(*geometry.tap_position[tap])
        rows, cols = geometry.tap_slices[tap]
        return self.phases[0][:, rows, cols]


def max_forward(
    planes: np.ndarray, geometry: PlaneGeometry, ties: str, output: np.ndarray, argmax: np.ndarray
) -> None:
    """Max pooling with "first" or "last" ties, into `output` and `argmax`.

    planes: (P, H, W). output: (P, OH, OW) float64; argmax: (P, OH, OW) int64, h*W + w.
    NaN outputs are right; their argmax is fixed by the caller (see `pooling.ops`).
    """
    shifted = ShiftedPlanes(planes, geometry, -np.inf)
    # Tap t = i * KW + j reads row offset rows.offset[i] and column offset cols.offset[j].
    taps = list(range(geometry.taps))
    if ties == "last":
        taps.reverse()  # the first strict winner from the end is the last
    # Start at the first (or last) real tap so that a window of -inf values still
    # names a real cell, as PyTorch does.
    start = geometry.last_real_tap if ties == "last" else geometry.first_real_tap
    tap_type = np.int8 if geometry.taps < 2**7 else np.int32
    chosen = np.empty(output.shape, dtype=tap_type)
    chosen[...] = start
    best = output
    if geometry.starts_on_a_real_tap(ties):  # no padding in the way: begin from its values
        np.copyto(best, _tap_view(shifted, geometry, taps[0]))
        taps = taps[1:]
    else:
        best.fill(-np.inf)
    scan_taps(
        lambda tap: _tap_view(shifted, geometry, tap),
        taps,
        taps=geometry.taps,
        last=ties == "last",
        best=best,
        chosen=chosen,
    )
    np.take(geometry.tap_offset, chosen, out=argmax)
    argmax += geometry.corner


def _tap_view(shifted: ShiftedPlanes, geometry: PlaneGeometry, tap: int) -> np.ndarray:
    """(P, OH, OW) view of tap number `tap` = i * KW + j of every window."""
    return shifted.tap_number(geometry, tap)


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


def avg_forward(planes: np.ndarray, geometry: PlaneGeometry, output: np.ndarray) -> None:
    """Average pooling into `output`: window sums by columns then rows, over the divisor.

    planes: (P, H, W); output: (P, OH, OW).
    """
    shifted = ShiftedPlanes(planes, geometry, 0.0)
    by_cols = _sum_views(shifted.column_tap(c) for c in geometry.cols.offset)
    rows = [by_cols[:, geometry.rows.tap_slice(r)] for r in geometry.rows.offset]
    np.copyto(output, rows[0])
    for view in rows[1:]:
        output += view
    output /= geometry.divisor


def _sum_views(views) -> np.ndarray:
    """Sum of equally shaped arrays, into a fresh array."""
    views = iter(views)
    total = next(views).copy()
    for view in views:
        total += view
    return total


def avg_backward(grad_output: np.ndarray, geometry: PlaneGeometry, grad_x: np.ndarray) -> None:
    """Each output sends grad / divisor to every cell of its window (padding dropped).

    grad_output: (P, OH, OW); grad_x: (P, H*W), written.
    """
    rows, cols = geometry.rows, geometry.cols
    share = grad_output / geometry.divisor
    planes = share.shape[0]
    by_rows = np.zeros((planes, rows.padded_size, cols.length))
    for row_offset in rows.offset:
        by_rows[:, rows.tap_slice(row_offset)] += share
    padded = np.zeros((planes, rows.padded_size, cols.padded_size))
    for col_offset in cols.offset:
        padded[:, :, cols.tap_slice(col_offset)] += by_rows
    grad = padded[
        :,
        rows.pad_before : rows.pad_before + rows.size,
        cols.pad_before : cols.pad_before + cols.size,
    ]
    np.copyto(grad_x.reshape(grad.shape), grad)
