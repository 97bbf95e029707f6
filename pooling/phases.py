"""Stride s > 1: split the padded planes into s_h x s_w phases (the rows and columns
with the same remainder mod the stride). In its phase, tap (i, j) of every window is
one flat array shifted by a fixed amount, so every step of the running maximum reads
contiguous memory; on the strided views of the unsplit planes the same steps read
about 2.5 times slower. A few positions between windows are computed too and never
read.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .geometry import AxisWindows, PlaneGeometry
from .scan import scan_taps


def applies(geometry: PlaneGeometry) -> bool:
    """A stride above 1 somewhere, windows that overlap it, and taps fit for int8."""
    if geometry.config.adaptive:
        return False
    rows, cols = geometry.rows, geometry.cols
    overlap = rows.taps > rows.stride or cols.taps > cols.stride
    return max(rows.stride, cols.stride) > 1 and overlap and geometry.taps < 2**7


def _axis(axis: AxisWindows) -> tuple[int, list[tuple[int, int]]]:
    """(cells per phase, (phase, shift in the phase) of every tap)."""
    stride = axis.stride
    per_phase = -(-axis.padded_size // stride)
    taps = [divmod(int(offset) + axis.pad_before, stride)[::-1] for offset in axis.offset]
    return per_phase, taps


def _split(planes: np.ndarray, geometry: PlaneGeometry, fill: float) -> np.ndarray:
    """(s_h, s_w, P * PH' * PW') float64: phase (a, b) holds padded row a + s_h u,
    column b + s_w v at u * PW' + v of each plane."""
    rows, cols = geometry.rows, geometry.cols
    (height, _), (width, _) = _axis(rows), _axis(cols)
    count = planes.shape[0]
    phases = np.empty((rows.stride, cols.stride, count, height, width))
    for a in range(rows.stride):
        first_row = (a - rows.pad_before) % rows.stride  # the first input row in phase a
        row_at = (first_row + rows.pad_before) // rows.stride
        source_rows = planes[:, first_row :: rows.stride]
        for b in range(cols.stride):
            first_col = (b - cols.pad_before) % cols.stride
            col_at = (first_col + cols.pad_before) // cols.stride
            source = source_rows[:, :, first_col :: cols.stride]
            _place(phases[a, b], source, row_at, col_at, fill)
    return phases.reshape(rows.stride, cols.stride, -1)


def _place(target: np.ndarray, source: np.ndarray, row: int, col: int, fill: float) -> None:
    """target (P, H', W'): source (P, h, w) at (row, col), `fill` around it (writing
    only the border, not the whole phase first)."""
    below, right = row + source.shape[1], col + source.shape[2]
    target[:, :row] = fill
    target[:, below:] = fill
    target[:, row:below, :col] = fill
    target[:, row:below, right:] = fill
    target[:, row:below, col:right] = source


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """As shifted.max_forward (first or last ties), into output and argmax (P, OH, OW)."""
    phases = _split(planes, geometry, -np.inf)
    (height, row_taps), (width, col_taps) = _axis(geometry.rows), _axis(geometry.cols)
    taps = [
        (row_phase, col_phase, row_shift * width + col_shift)
        for row_phase, row_shift in row_taps
        for col_phase, col_shift in col_taps
    ]
    length = phases.shape[2] - max(shift for _, _, shift in taps)
    best = np.full(length, -np.inf)
    count = len(taps)
    last = ties == "last"
    chosen = np.full(length, count - 1 if last else 0, dtype=np.int8)

    def view_of(tap: int) -> np.ndarray:
        row_phase, col_phase, shift = taps[tap]
        return phases[row_phase, col_phase, shift : shift + length]

    order = range(count - 1, -1, -1) if last else range(count)
    scan_taps(view_of, order, taps=count, last=last, best=best, chosen=chosen)
    starts = dict(shape=(planes.shape[0], *geometry.output_shape))
    starts["strides"] = (height * width, width, 1)
    np.copyto(output, _at(best, **starts))
    chosen = _at(chosen, **starts)
    if (output == -np.inf).any():  # nothing beat -inf: name the edge's real cell
        start = geometry.last_real_tap if last else geometry.first_real_tap
        chosen = np.where(output == -np.inf, start, chosen)
    np.take(geometry.tap_offset, chosen, out=argmax)
    argmax += geometry.corner


def _at(flat: np.ndarray, *, shape, strides) -> np.ndarray:
    """(P, OH, OW) read-only view of `flat` at each window's start (strides in items)."""
    step = flat.itemsize
    return as_strided(flat, shape=shape, strides=[s * step for s in strides], writeable=False)
