"""What the tap-by-tap kernels share: a window's taps as offsets from its corner.

On a regular axis tap k of window o reads o * stride + offset[k], so tap t = i * KW + j
of every window is the same offset from that window's corner. The kernels find, for
every window, the number of the tap that won; this module turns tap numbers into
PyTorch's argmax (h*W + w), chooses the tap numbers' dtype, and repairs the one case a
running maximum gets wrong on its own: a window whose cells are all -inf (padding
holds -inf too) must name its first real cell ("last" ties: its last), as PyTorch does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from pooling.geometry import AxisWindows, PlaneGeometry, frozen


@dataclass(frozen=True, eq=False)
class AxisPlan:
    """One regular axis in padded coordinates (the first padding cell is 0).

    offset: tap offsets from a window's start (negative inside the left padding).
    pad_before: padding cells before the input; padded_size: cells from the first
    padding cell to the last cell any window reaches (ceil mode can overhang).
    """

    size: int
    length: int
    taps: int
    stride: int
    offset: tuple[int, ...]
    pad_before: int
    padded_size: int

    def tap_slice(self, offset: int) -> slice:
        """Positions, in padded coordinates, that tap `offset` reads for o = 0..O-1."""
        first = offset + self.pad_before
        return slice(first, first + (self.length - 1) * self.stride + 1, self.stride)


def axis_plan(axis: AxisWindows) -> AxisPlan:
    offset = tuple(int(o) for o in axis.offset)
    pad_before = max(0, -offset[0])
    reach = (axis.length - 1) * axis.stride + offset[-1] + 1
    padded_size = max(axis.size, reach) + pad_before
    return AxisPlan(axis.size, axis.length, axis.taps, axis.stride, offset, pad_before, padded_size)


@dataclass(frozen=True, eq=False)
class TapPlan:
    """A regular geometry's taps, for the kernels that find a winning tap number.

    corner: (OH, OW) int64, o_h*stride_h*W + o_w*stride_w; tap_offset: (K,) int64, h*W + w
    of tap t relative to the corner; edge_taps: (OH, OW) int64 tap number of each
    window's first and last real cell; tap_type: the smallest int type that holds K.
    """

    rows: AxisPlan
    cols: AxisPlan
    output_shape: tuple[int, int]
    taps: int
    corner: np.ndarray
    tap_offset: np.ndarray
    edge_taps: tuple[np.ndarray, np.ndarray]
    all_real: bool
    starts_real: tuple[bool, bool]
    tap_type: type

    def edge_tap(self, ties: str) -> np.ndarray:
        """(OH, OW): the tap a window of -inf names: its first real cell ("last": last)."""
        return self.edge_taps[ties == "last"]

    def starts_on_a_real_tap(self, ties: str) -> bool:
        """Whether every window's first tap in scan order (the last for "last") is a real
        cell, so a scan can begin from that tap's values."""
        return self.starts_real[ties == "last"]


def _edge_real_tap(geometry: PlaneGeometry, last: bool) -> np.ndarray:
    picks = []
    for axis in (geometry.rows, geometry.cols):
        real = axis.real[:, ::-1] if last else axis.real
        pick = np.argmax(real, axis=1)
        picks.append(axis.taps - 1 - pick if last else pick)
    return frozen(picks[0][:, None] * geometry.cols.taps + picks[1][None, :])


@lru_cache(maxsize=256)
def tap_plan(geometry: PlaneGeometry) -> TapPlan:
    """The TapPlan of a regular geometry, made once."""
    rows, cols = axis_plan(geometry.rows), axis_plan(geometry.cols)
    corner = (np.arange(rows.length) * rows.stride)[:, None] * cols.size + (
        np.arange(cols.length) * cols.stride
    )[None, :]
    tap_offset = (np.array(rows.offset)[:, None] * cols.size + np.array(cols.offset)).ravel()
    first, last = _edge_real_tap(geometry, False), _edge_real_tap(geometry, True)
    taps = geometry.taps
    return TapPlan(
        rows,
        cols,
        geometry.output_shape,
        taps,
        frozen(corner),
        frozen(tap_offset),
        (first, last),
        bool(geometry.real.all()),
        (bool((first == 0).all()), bool((last == taps - 1).all())),
        np.int8 if taps < 2**7 else np.int32,
    )


def name_real_cells(chosen: np.ndarray, output: np.ndarray, plan: TapPlan, ties: str):
    """chosen (P, OH, OW) tap numbers, with every window whose output is -inf set to
    its edge real tap (a new array then; else `chosen` itself)."""
    if plan.all_real:  # a running maximum starts on a real cell: nothing to repair
        return chosen
    empty = output == -np.inf
    if not empty.any():
        return chosen
    return np.where(empty, plan.edge_tap(ties), chosen)


def argmax_from_taps(chosen: np.ndarray, plan: TapPlan, argmax: np.ndarray) -> None:
    """argmax (P, OH, OW) int64 = h*W + w of tap chosen (P, OH, OW) of every window."""
    plan.tap_offset.take(chosen, out=argmax)
    argmax += plan.corner
