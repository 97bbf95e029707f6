"""Where every window lies: output sizes and per-axis window tables.

Pooling windows are separable: the rows a window covers depend only on its output row,
the columns only on its output column. So each axis gets one small table
(`AxisWindows`) and a plane's windows are the outer product of two of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from .config import PoolConfig

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
    padded_count: (O,) int64, taps inside [-padding, size + padding): the divisor part
        that count_include_pad uses.
    stride, offset: index[o, k] == o * stride + offset[k] when the axis is regular
        (stride is None for adaptive axes, whose windows vary in size).
    """

    size: int
    index: np.ndarray
    real: np.ndarray
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
        return self.real.sum(axis=1)

    @cached_property
    def pad_before(self) -> int:
        """Padding cells before the input (regular axes)."""
        return max(0, -int(self.offset[0]))

    @cached_property
    def padded_size(self) -> int:
        """Cells from the first padding cell to the last cell any window reaches
        (ceil mode can overhang past the padding)."""
        reach = (self.length - 1) * self.stride + int(self.offset[-1]) + 1
        return max(self.size, reach) + self.pad_before

    def tap_slice(self, offset: int) -> slice:
        """Positions, in padded coordinates, that tap `offset` reads for o = 0..O-1."""
        first = int(offset) + self.pad_before
        return slice(first, first + (self.length - 1) * self.stride + 1, self.stride)


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
    empty = np.flatnonzero(~real.any(axis=1))
    if empty.size:
        raise ValueError(
            f"window {int(empty[0])} along the {name} covers only padding "
            f"(dilation {dilation} with padding {padding} on {size} cells); "
            f"lower the padding or the dilation"
        )
    window_end = np.minimum(starts + kernel, size + padding)
    return AxisWindows(size, index, real, window_end - starts, stride, offset - padding)


def adaptive_axis(size: int, length: int) -> AxisWindows:
    """PyTorch's adaptive windows: [floor(o*size/length), ceil((o+1)*size/length))."""
    o = np.arange(length)
    starts = (o * size) // length
    ends = -((-(o + 1) * size) // length)
    taps = int((ends - starts).max())
    index = starts[:, None] + np.arange(taps)[None, :]
    real = index < ends[:, None]
    return AxisWindows(
        size, np.minimum(index, size - 1), real, ends - starts, None, np.arange(taps)
    )


def _frozen(array: np.ndarray) -> np.ndarray:
    """Mark a cached table read-only: it is shared by every call with this geometry."""
    array.flags.writeable = False
    return array


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
        return _frozen(both.reshape(self.output_shape + (-1,)))

    @cached_property
    def flat_index(self) -> np.ndarray:
        """(OH, OW, K) int64: h*W + w of each tap, 0 where the tap is not real."""
        flat = (
            self.rows.index[:, None, :, None] * self.cols.size + self.cols.index[None, :, None, :]
        )
        return _frozen(np.where(self.real, flat.reshape(self.output_shape + (-1,)), 0))

    @cached_property
    def divisor(self) -> np.ndarray:
        """(OH, OW) float64: what average pooling divides each window's sum by."""
        config = self.config
        if config.divisor_override is not None:
            return _frozen(np.full(self.output_shape, float(config.divisor_override)))
        if config.count_include_pad and not config.adaptive:
            counts = self.rows.padded_count[:, None] * self.cols.padded_count[None, :]
        else:
            counts = self.rows.real_count[:, None] * self.cols.real_count[None, :]
        return _frozen(counts.astype(np.float64))

    @cached_property
    def corner(self) -> np.ndarray:
        """(OH, OW) int64: o_h*stride_h*W + o_w*stride_w, to which tap offsets add
        (regular windows only)."""
        rows, cols = self.rows, self.cols
        corner = (np.arange(rows.length) * rows.stride)[:, None] * cols.size + (
            np.arange(cols.length) * cols.stride
        )[None, :]
        return _frozen(corner)

    @cached_property
    def tap_offset(self) -> np.ndarray:
        """(K,) int64: h*W + w of tap k relative to `corner` (regular windows only)."""
        return _frozen(
            (self.rows.offset[:, None] * self.cols.size + self.cols.offset[None, :]).ravel()
        )

    @cached_property
    def all_real(self) -> bool:
        """Every tap of every window is an input cell (no padding, no overhang)."""
        return bool(self.real.all())

    @cached_property
    def gather_index(self) -> np.ndarray:
        """(OH*OW, K) int64: h*W + w of each tap, or H*W (one cell past the plane)
        where the tap is not real: what pooling.small gathers windows with."""
        past = self.rows.size * self.cols.size
        index = np.where(self.real, self.flat_index, past)
        return _frozen(index.reshape(-1, self.taps))

    @cached_property
    def flat_taps(self) -> np.ndarray:
        """flat_index as one row: window o's taps at window_base[o] onwards."""
        return _frozen(self.flat_index.reshape(-1))

    @cached_property
    def window_base(self) -> np.ndarray:
        """(OH*OW,) int64: where window o's taps start in flat_index.ravel()."""
        return _frozen(np.arange(self.output_shape[0] * self.output_shape[1]) * self.taps)

    @cached_property
    def tap_slices(self) -> tuple[tuple[slice, slice], ...]:
        """(row slice, column slice) of tap t in padded coordinates, for every t."""
        return tuple(
            (self.rows.tap_slice(row), self.cols.tap_slice(col)) for row, col in self.tap_position
        )

    @cached_property
    def tap_position(self) -> tuple[tuple[int, int], ...]:
        """(row offset, column offset) of tap t = i * KW + j, for every t."""
        return tuple((int(row), int(col)) for row in self.rows.offset for col in self.cols.offset)

    def starts_on_a_real_tap(self, ties: str) -> bool:
        """Whether every window's first tap in scan order (the last for "last") is a
        real cell, so the scan can begin from that tap's values."""
        return self._starts_real[ties == "last"]

    @cached_property
    def _starts_real(self) -> tuple[bool, bool]:
        """starts_on_a_real_tap for "first" and for "last", computed once."""
        return (
            bool((self.first_real_tap == 0).all()),
            bool((self.last_real_tap == self.taps - 1).all()),
        )

    @cached_property
    def first_real_tap(self) -> np.ndarray:
        """(OH, OW) int64: tap number of each window's first real cell in reading order."""
        return self._edge_real_tap(last=False)

    @cached_property
    def last_real_tap(self) -> np.ndarray:
        """(OH, OW) int64: tap number of each window's last real cell in reading order."""
        return self._edge_real_tap(last=True)

    def _edge_real_tap(self, last: bool) -> np.ndarray:
        picks = []
        for axis in (self.rows, self.cols):
            real = axis.real[:, ::-1] if last else axis.real
            pick = np.argmax(real, axis=1)
            picks.append(axis.taps - 1 - pick if last else pick)
        return _frozen(picks[0][:, None] * self.cols.taps + picks[1][None, :])


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
