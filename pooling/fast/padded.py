"""The padded planes, as the kernels that read taps as shifted views want them.

Padding is written once around a copy of the input (-inf for max pooling, 0 for the
average), so that every tap of every window is a plain read. For a column stride s > 1
the copy can be split into s contiguous column phases (column c = q*s + r lives at
phases[r][..., q]): strided views that step along the last axis are slow to read.
"""

from __future__ import annotations

import numpy as np

from pooling.fast.taps import TapPlan

# Splitting into phases costs a copy; below this many input values, strided reads are
# cheaper than the copy (measured with benchmarks/bench_pooling.py).
SPLIT_PHASES_ABOVE = 1 << 14


def place(target: np.ndarray, source: np.ndarray, row: int, col: int, fill: float) -> None:
    """target (P, H', W'): source (P, h, w) at (row, col), `fill` around it (writing
    only the border, not the whole target first)."""
    below, right = row + source.shape[1], col + source.shape[2]
    target[:, :row] = fill
    target[:, below:] = fill
    target[:, row:below, :col] = fill
    target[:, row:below, right:] = fill
    target[:, row:below, col:right] = source


class ShiftedPlanes:
    """The padded input, split into column phases when that pays, with a view per tap.

    planes: (P, H, W) float64; fill: the padding value (-inf for max, 0 for avg).
    """

    def __init__(self, planes: np.ndarray, plan: TapPlan, fill: float):
        self.rows, self.cols = rows, cols = plan.rows, plan.cols
        # A phase copy pays only when several taps read the same phase (windows overlap
        # along the row) and the input is big enough for strided reads to hurt.
        self.split = split = (
            cols.stride > 1 and cols.taps > cols.stride and planes.size >= SPLIT_PHASES_ABOVE
        )
        phases = cols.stride if split else 1
        width = -(-cols.padded_size // phases)
        if not split and (rows.padded_size, width) == planes.shape[1:]:
            self.phases = [planes]  # nothing to pad or split
            return
        # Copy each phase's columns straight from the input: going through one padded
        # array first costs a full extra pass.
        self.phases = []
        for phase in range(phases):
            target = np.empty((planes.shape[0], rows.padded_size, width))
            first = (phase - cols.pad_before) % phases  # first input column in this phase
            column = (first + cols.pad_before) // phases
            place(target, planes[:, :, first::phases], rows.pad_before, column, fill)
            self.phases.append(target)

    def column_tap(self, col_offset: int) -> np.ndarray:
        """(P, padded H, OW) view: column tap `col_offset` of every window, all rows."""
        if not self.split:
            return self.phases[0][:, :, self.cols.tap_slice(col_offset)]
        first = col_offset + self.cols.pad_before
        phase, start = first % self.cols.stride, first // self.cols.stride
        return self.phases[phase][:, :, start : start + self.cols.length]

    def tap(self, row_offset: int, col_offset: int) -> np.ndarray:
        """(P, OH, OW) view: the input cell each window reads at tap (row, col)."""
        return self.column_tap(col_offset)[:, self.rows.tap_slice(row_offset)]
