"""Where every window lies: output sizes, per-axis window tables, each window's cells
and average pooling's divisor. Semantics only: how the fast kernels read these tables
is their own business (`pooling.fast`).

Pooling windows are separable: the rows a window covers depend only on its output row,
the columns only on its output column. So each axis gets one small table
(`AxisWindows`) and a plane's windows are the outer product of two of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from pooling.config import Cell, PoolConfig

AXIS_NAMES = ("height", "width")


def rounded_length(
    size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool
) -> int:
    """floor (or ceil) of (size + 2p - d(k-1) - 1) / s, plus 1: the formula alone,
    before ceil mode's last-window rule."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    if ceil_mode:
        span += stride - 1
    return span // stride + 1  # floor division, like PyTorch's div_rtn


def output_length(
    size: int, kernel: int, stride: int, padding: int, dilation: int, ceil_mode: bool
) -> int:
    """PyTorch's pooling output length along one axis (may be < 1: caller checks)."""
    length = rounded_length(size, kernel, stride, padding, dilation, ceil_mode)
    # In ceil mode the last window must start inside the input or the left padding.
    if ceil_mode and (length - 1) * stride >= size + padding:
        length -= 1
    return length


@dataclass(frozen=True)
class AxisWindows:
    """The windows along one axis.

    index: (O, K) int64, input position of tap k of window o (may lie outside [0, size)).
    real: (O, K) bool, the tap lands on a real input cell (not padding or overhang).
    on_padded: (O, K) bool, the tap lands on the padded input: a real cell or a padding
        cell, but not ceil mode's overhang past the padding nor the unused tail of a
        smaller adaptive window.
    padded_count: (O,) int64, taps inside [-padding, size + padding): the divisor part
        that count_include_pad uses.
    stride, offset: index[o, k] == o * stride + offset[k] when the axis is regular
        (stride is None for adaptive axes, whose windows vary in size).
    """

    size: int
    index: np.ndarray
    real: np.ndarray
    on_padded: np.ndarray
    padded_count: np.ndarray
    stride: int | None
    offset: np.ndarray

    @cached_property
    def length(self) -> int:
        return self.index.shape[0]

    @cached_property
    def taps(self) -> int:
        return self.index.shape[1]

    @cached_property
    def real_count(self) -> np.ndarray:
        """(O,) int64: real input cells in each window."""
        return self.real.sum(axis=1)


def regular_axis(size, kernel, stride, padding, dilation, ceil_mode, axis) -> AxisWindows:
    """Windows of a kernel/stride/padding/dilation pooling along one axis."""
    length = output_length(size, kernel, stride, padding, dilation, ceil_mode)
    name = AXIS_NAMES[axis]
    if length < 1:
        reach = dilation * (kernel - 1) + 1
        raise ValueError(
            f"the window is {reach} cells along the {name} but the input is only {size} "
            f"(+{padding} padding each side): output {name} would be {length}; "
            f"it must be at least 1"
        )
    starts = np.arange(length) * stride - padding
    offset = np.arange(kernel) * dilation
    index = starts[:, None] + offset[None, :]
    real = (index >= 0) & (index < size)
    on_padded = (index >= -padding) & (index < size + padding)
    empty = np.flatnonzero(~real.any(axis=1))
    if empty.size:
        raise ValueError(
            f"window {int(empty[0])} along the {name} covers only padding "
            f"(dilation {dilation} with padding {padding} on {size} cells); "
            f"lower the padding or the dilation"
        )
    window_end = np.minimum(starts + kernel, size + padding)
    return AxisWindows(size, index, real, on_padded, window_end - starts, stride, offset - padding)


def adaptive_axis(size: int, length: int) -> AxisWindows:
    """PyTorch's adaptive windows: [floor(o*size/length), ceil((o+1)*size/length))."""
    o = np.arange(length)
    starts = (o * size) // length
    ends = -((-(o + 1) * size) // length)
    taps = int((ends - starts).max())
    index = starts[:, None] + np.arange(taps)[None, :]
    real = index < ends[:, None]
    return AxisWindows(
        size, np.minimum(index, size - 1), real, real, ends - starts, None, np.arange(taps)
    )


def as_planes(x, name: str = "x") -> np.ndarray:
    """(H, W), (C, H, W) or (N, C, H, W) -> (P, H, W) float64 (a view when possible)."""
    array = np.asarray(x, dtype=np.float64)
    if array.ndim not in (2, 3, 4):
        raise ValueError(
            f"{name} must have 2, 3 or 4 axes ((H, W), (C, H, W) or "
            f"(N, C, H, W)), got {array.ndim} with shape {array.shape}"
        )
    if 0 in array.shape:
        raise ValueError(f"{name} must not be empty, got shape {array.shape}")
    return array.reshape((-1,) + array.shape[-2:])


def frozen(array: np.ndarray) -> np.ndarray:
    """Mark a cached table read-only: it is shared by every call with this geometry."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True)
class Divisor:
    """What one average window divides by, and why: `value` is `override`'s number if
    set, else padded_cells (count_include_pad, regular windows) or real_cells."""

    value: float
    real_cells: int  # input cells inside the window
    padded_cells: int  # cells inside the padded input (what count_include_pad counts)
    override: bool


@dataclass(frozen=True, eq=False)
class PlaneGeometry:
    """The windows of one (H, W) plane under one config: rows x cols.

    Built once per (config, H, W) by `plane_geometry`; its tables are computed on first
    use, cached and read-only.
    """

    config: PoolConfig
    rows: AxisWindows
    cols: AxisWindows

    @cached_property
    def output_shape(self) -> tuple[int, int]:
        return self.rows.length, self.cols.length

    @cached_property
    def taps(self) -> int:
        """K: cells per window (the largest window, for adaptive pooling)."""
        return self.rows.taps * self.cols.taps

    @cached_property
    def real(self) -> np.ndarray:
        """(OH, OW, K) bool: the tap is a real input cell (not padding or overhang)."""
        both = self.rows.real[:, None, :, None] & self.cols.real[None, :, None, :]
        return frozen(both.reshape(self.output_shape + (-1,)))

    @cached_property
    def flat_index(self) -> np.ndarray:
        """(OH, OW, K) int64: h*W + w of each tap, 0 where the tap is not real."""
        flat = (
            self.rows.index[:, None, :, None] * self.cols.size + self.cols.index[None, :, None, :]
        )
        return frozen(np.where(self.real, flat.reshape(self.output_shape + (-1,)), 0))

    @cached_property
    def divisor(self) -> np.ndarray:
        """(OH, OW) float64: what average pooling divides each window's sum by."""
        config = self.config
        if config.divisor_override is not None:
            return frozen(np.full(self.output_shape, float(config.divisor_override)))
        if config.count_include_pad and not config.adaptive:
            counts = self.rows.padded_count[:, None] * self.cols.padded_count[None, :]
        else:
            counts = self.rows.real_count[:, None] * self.cols.real_count[None, :]
        return frozen(counts.astype(np.float64))

    def divisor_of(self, out_cell: Cell) -> Divisor:
        """What average window `out_cell` divides by, and the counts it comes from."""
        row, col = out_cell
        rows, cols = self.rows, self.cols
        return Divisor(
            value=float(self.divisor[row, col]),
            real_cells=int(rows.real_count[row] * cols.real_count[col]),
            padded_cells=int(rows.padded_count[row] * cols.padded_count[col]),
            override=self.config.divisor_override is not None,
        )

    def window_cells(self, out_cell: Cell, *, real_only: bool = False) -> tuple[Cell, ...]:
        """The (row, column) cells window `out_cell` reads, in reading order (a dilated
        window skips cells). Padding cells, outside [0, H) x [0, W), are included unless
        `real_only`; ceil mode's overhang past the padding never is."""
        row, col = out_cell
        rows, cols = self.rows, self.cols
        keep_rows, keep_cols = (
            (rows.real, cols.real) if real_only else (rows.on_padded, cols.on_padded)
        )
        row_taps = rows.index[row][keep_rows[row]]
        col_taps = cols.index[col][keep_cols[col]]
        return tuple((int(r), int(c)) for r in row_taps for c in col_taps)


@lru_cache(maxsize=256)
def plane_geometry(config: PoolConfig, height: int, width: int) -> PlaneGeometry:
    """Window tables for an (height, width) input plane; ValueError if none fit."""
    if config.adaptive:
        out_h, out_w = config.output_size
        return PlaneGeometry(config, adaptive_axis(height, out_h), adaptive_axis(width, out_w))
    axes = [
        regular_axis(
            size,
            config.kernel_size[a],
            config.stride[a],
            config.padding[a],
            config.dilation[a],
            config.ceil_mode,
            a,
        )
        for a, size in enumerate((height, width))
    ]
    return PlaneGeometry(config, *axes)
