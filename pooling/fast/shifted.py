"""Any regular layer, tap by tap on strided views: the kernel every other one falls
back to.

For a regular axis, tap k of every window reads the input at o*stride + offset[k], so
"tap (i, j) of every window" is one strided view of the padded input
(`pooling.fast.padded`). Max pooling keeps a running maximum over those views and
remembers which tap won; average pooling sums the rows of a window, then its columns
(the window is separable), and its backward runs the separable sums in reverse.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from pooling.fast.kernel import Kernel
from pooling.fast.padded import ShiftedPlanes
from pooling.fast.scan import scan_taps
from pooling.fast.taps import TapPlan, argmax_from_taps, name_real_cells, tap_plan
from pooling.geometry import PlaneGeometry


def applies(geometry: PlaneGeometry, planes: int) -> bool:
    """Every regular layer."""
    return True


@dataclass(frozen=True, eq=False)
class ShiftedPlan:
    """tap_position: (row offset, column offset) of tap t = i * KW + j; tap_slices: the
    (row slice, column slice) it reads in unsplit padded planes."""

    taps: TapPlan
    tap_position: tuple[tuple[int, int], ...]
    tap_slices: tuple[tuple[slice, slice], ...]


@lru_cache(maxsize=256)
def shifted_plan(geometry: PlaneGeometry) -> ShiftedPlan:
    taps = tap_plan(geometry)
    position = tuple((row, col) for row in taps.rows.offset for col in taps.cols.offset)
    slices = tuple((taps.rows.tap_slice(r), taps.cols.tap_slice(c)) for r, c in position)
    return ShiftedPlan(taps, position, slices)


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """Max pooling ("first" or "last" ties) into output and argmax (P, OH, OW)."""
    plan = shifted_plan(geometry)
    shifted = ShiftedPlanes(planes, plan.taps, -np.inf)
    if shifted.split:

        def view_of(tap: int) -> np.ndarray:
            return shifted.tap(*plan.tap_position[tap])

    else:  # one phase, the common case: one precomputed slice pair a tap
        whole = shifted.phases[0]

        def view_of(tap: int) -> np.ndarray:
            rows, cols = plan.tap_slices[tap]
            return whole[:, rows, cols]

    last = ties == "last"
    order = list(range(plan.taps.taps))
    if last:
        order.reverse()  # the first strict winner from the end is the last
    chosen = np.full(output.shape, order[0], dtype=plan.taps.tap_type)
    if plan.taps.starts_on_a_real_tap(ties):  # no padding in the way: begin from its values
        np.copyto(output, view_of(order[0]))
        order = order[1:]
    else:
        output.fill(-np.inf)
    scan_taps(view_of, order, taps=plan.taps.taps, last=last, best=output, chosen=chosen)
    argmax_from_taps(name_real_cells(chosen, output, plan.taps, ties), plan.taps, argmax)


def avg_forward(planes: np.ndarray, geometry: PlaneGeometry, output: np.ndarray) -> None:
    """Average pooling into `output` (P, OH, OW): window sums by columns then rows,
    over the divisor. planes: (P, H, W)."""
    plan = tap_plan(geometry)
    shifted = ShiftedPlanes(planes, plan, 0.0)
    by_cols = _sum_views(shifted.column_tap(c) for c in plan.cols.offset)
    rows = [by_cols[:, plan.rows.tap_slice(r)] for r in plan.rows.offset]
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
    plan = tap_plan(geometry)
    rows, cols = plan.rows, plan.cols
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


KERNEL = Kernel(
    "shifted",
    applies,
    max_forward=max_forward,
    avg_forward=avg_forward,
    avg_backward=avg_backward,
)
