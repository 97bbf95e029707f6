"""Stride 1: a window starts at every cell, so each tap's view of the padded planes is
the same flat array shifted by that tap's offset. Working on the flat array keeps every
NumPy step on contiguous memory (a strided view of the same cells reads about 2.5
times slower); the few positions where a window would cross a row's end are computed
too and never read. The maxima come first, separably (kw passes along the rows, then
kh down the columns), then each winner as the first (or last) tap holding its
window's maximum.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.lib.stride_tricks import as_strided

from pooling.fast.kernel import Kernel
from pooling.fast.padded import ShiftedPlanes
from pooling.fast.scan import keep_tap
from pooling.fast.taps import TapPlan, argmax_from_taps, name_real_cells, tap_plan
from pooling.geometry import PlaneGeometry


def applies(geometry: PlaneGeometry, planes: int) -> bool:
    """Stride 1 both ways with windows of several cells: where this kernel is quicker."""
    return geometry.rows.stride == 1 and geometry.cols.stride == 1 and geometry.taps >= 4


@dataclass(frozen=True, eq=False)
class FlatPlan:
    """Shifts in the flat padded plane: row_shifts (KH,) and col_shifts (KW,) of the
    taps from a window's start, tap_shifts (K,) = row * padded width + column."""

    taps: TapPlan
    padded_shape: tuple[int, int]
    row_shifts: tuple[int, ...]
    col_shifts: tuple[int, ...]
    tap_shifts: tuple[int, ...]


@lru_cache(maxsize=256)
def flat_plan(geometry: PlaneGeometry) -> FlatPlan:
    taps = tap_plan(geometry)
    rows, cols = taps.rows, taps.cols
    width = cols.padded_size
    row_shifts = tuple(r + rows.pad_before for r in rows.offset)
    col_shifts = tuple(c + cols.pad_before for c in cols.offset)
    tap_shifts = tuple(r * width + c for r in row_shifts for c in col_shifts)
    return FlatPlan(taps, (rows.padded_size, width), row_shifts, col_shifts, tap_shifts)


def _window_starts(flat: np.ndarray, planes: int, plan: FlatPlan) -> np.ndarray:
    """(P, OH, OW) view of `flat` (one value per padded cell) at each window's start."""
    height, width = plan.padded_shape
    item_bytes = flat.itemsize
    return as_strided(
        flat,
        shape=(planes, *plan.taps.output_shape),
        strides=(height * width * item_bytes, width * item_bytes, item_bytes),
        writeable=False,
    )


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """Max pooling ("first" or "last" ties) into output and argmax (P, OH, OW)."""
    plan = flat_plan(geometry)
    padded = np.ascontiguousarray(ShiftedPlanes(planes, plan.taps, -np.inf).phases[0])
    flat = padded.reshape(-1)
    width = plan.padded_shape[1]
    rows, cols = plan.row_shifts, plan.col_shifts
    by_cols_length = flat.size - cols[-1]
    length = by_cols_length - rows[-1] * width  # window starts, and a few that cross
    by_cols = flat[cols[0] : cols[0] + by_cols_length].copy()
    for col in cols[1:]:
        np.maximum(by_cols, flat[col : col + by_cols_length], out=by_cols)
    best = by_cols[rows[0] * width : rows[0] * width + length].copy()
    for row in rows[1:]:
        np.maximum(best, by_cols[row * width : row * width + length], out=best)
    chosen = _winners(flat, best, plan, ties)
    count = planes.shape[0]
    np.copyto(output, _window_starts(best, count, plan))
    chosen = name_real_cells(_window_starts(chosen, count, plan), output, plan.taps, ties)
    argmax_from_taps(chosen, plan.taps, argmax)


def _winners(flat: np.ndarray, best: np.ndarray, plan: FlatPlan, ties: str) -> np.ndarray:
    """For every start position, the first (or last) tap t whose value
    flat[position + tap_shifts[t]] equals best[position]. (length,) of plan's tap type."""
    shifts, length = plan.tap_shifts, best.size
    taps, tap_type = len(shifts), plan.taps.tap_type
    last = ties == "last"
    chosen = np.full(length, 0 if last else taps - 1, dtype=tap_type)
    equal = np.empty(length, dtype=bool)
    scratch = np.empty(length, dtype=tap_type)
    keep = "largest" if last else "smallest"
    for tap in range(taps):
        np.equal(flat[shifts[tap] : shifts[tap] + length], best, out=equal)
        keep_tap(chosen, equal, tap, keep=keep, taps=taps, scratch=scratch)
    return chosen


KERNEL = Kernel("flat", applies, max_forward=max_forward)
