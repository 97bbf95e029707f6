"""Stride 1: a window starts at every cell, so each tap's view of the padded planes is
the same flat array shifted by that tap's offset. Working on the flat array keeps every
NumPy step on contiguous memory (a strided view of the same cells reads about 2.5
times slower); the few positions where a window would cross a row's end are computed
too and never read. The maxima come first, separably (kw passes along the rows, then
kh down the columns), then each winner as the first (or last) tap holding its
window's maximum.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .geometry import PlaneGeometry
from .scan import keep_tap
from .shifted import ShiftedPlanes


def applies(geometry: PlaneGeometry) -> bool:
    """Stride 1 both ways with windows of several cells: where this path is quicker."""
    if geometry.config.adaptive:
        return False
    return geometry.rows.stride == 1 and geometry.cols.stride == 1 and geometry.taps >= 4


def _window_starts(flat: np.ndarray, planes: int, padded: tuple[int, int], out_shape):
    """(P, OH, OW) view of `flat` (one value per padded cell) at each window's start."""
    height, width = padded
    step = flat.itemsize
    return as_strided(
        flat,
        shape=(planes, *out_shape),
        strides=(height * width * step, width * step, step),
        writeable=False,
    )


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """As shifted.max_forward (first or last ties), into output and argmax (P, OH, OW)."""
    shifted = ShiftedPlanes(planes, geometry, -np.inf)
    padded = np.ascontiguousarray(shifted.phases[0])
    flat = padded.reshape(-1)
    width = padded.shape[2]
    rows = [int(r) + geometry.rows.pad_before for r in geometry.rows.offset]
    cols = [int(c) + geometry.cols.pad_before for c in geometry.cols.offset]
    by_cols_length = flat.size - cols[-1]
    length = by_cols_length - rows[-1] * width  # window starts, and a few that cross
    by_cols = flat[cols[0] : cols[0] + by_cols_length].copy()
    for col in cols[1:]:
        np.maximum(by_cols, flat[col : col + by_cols_length], out=by_cols)
    best = by_cols[rows[0] * width : rows[0] * width + length].copy()
    for row in rows[1:]:
        np.maximum(best, by_cols[row * width : row * width + length], out=best)
    chosen = _winners(flat, best, [r * width + c for r in rows for c in cols], ties)
    count, out_shape = planes.shape[0], geometry.output_shape
    np.copyto(output, _window_starts(best, count, padded.shape[1:], out_shape))
    chosen = _window_starts(chosen, count, padded.shape[1:], out_shape)
    if not geometry.all_real and (output == -np.inf).any():
        # A window of -inf values: padding holds -inf too, so name the first (or last)
        # real cell, as PyTorch does.
        start = geometry.last_real_tap if ties == "last" else geometry.first_real_tap
        chosen = np.where(output == -np.inf, start, chosen)
    np.take(geometry.tap_offset, chosen, out=argmax)
    argmax += geometry.corner


def _winners(flat: np.ndarray, best: np.ndarray, shifts: list[int], ties: str) -> np.ndarray:
    """For every start position, the first (or last) tap t whose value
    flat[position + shifts[t]] equals best[position]. (length,) int8 or int32."""
    taps, length = len(shifts), best.size
    tap_type = np.int8 if taps < 2**7 else np.int32
    last = ties == "last"
    chosen = np.full(length, 0 if last else taps - 1, dtype=tap_type)
    equal = np.empty(length, dtype=bool)
    step = np.empty(length, dtype=tap_type)
    keep = "largest" if last else "smallest"
    for tap in range(taps):
        np.equal(flat[shifts[tap] : shifts[tap] + length], best, out=equal)
        keep_tap(chosen, equal, tap, keep=keep, taps=taps, step=step)
    return chosen
