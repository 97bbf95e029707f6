"""Windows that tile the plane: stride = window, no padding, no dilation. Each input
cell is in at most one window, so average pooling's backward is one broadcast write
(every cell of a tile gets its window's share) instead of sums of shifted copies, and
max pooling's taps are blocks of one transposed copy."""

from __future__ import annotations

import numpy as np

from pooling.fast.kernel import Kernel
from pooling.fast.scan import scan_taps
from pooling.fast.taps import argmax_from_taps, tap_plan
from pooling.geometry import PlaneGeometry


def applies(geometry: PlaneGeometry, planes: int) -> bool:
    """Whether the windows tile the plane (a last partial row or column may be left
    out, as floor mode does)."""
    plan = tap_plan(geometry)
    return plan.all_real and all(
        axis.stride == axis.taps and axis.pad_before == 0 and axis.offset[-1] == axis.taps - 1
        for axis in (plan.rows, plan.cols)
    )


def avg_backward(grad_output: np.ndarray, geometry: PlaneGeometry, grad_x: np.ndarray) -> None:
    """grad_output: (P, OH, OW); grad_x: (P, H*W), written: each cell gets its tile's
    dL/dy over the divisor, cells in no tile get 0."""
    rows, cols = geometry.rows, geometry.cols
    planes = grad_output.shape[0]
    share = grad_output / geometry.divisor
    grad = grad_x.reshape(planes, rows.size, cols.size)
    covered_rows, covered_cols = rows.length * rows.taps, cols.length * cols.taps
    if (covered_rows, covered_cols) != (rows.size, cols.size):
        grad[:, covered_rows:] = 0.0
        grad[:, :covered_rows, covered_cols:] = 0.0
    blocks = grad[:, :covered_rows, :covered_cols].reshape(
        planes, rows.length, rows.taps, cols.length, cols.taps
    )
    blocks[...] = share[:, :, None, :, None]


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """Max pooling ("first" or "last" ties) into output and argmax (P, OH, OW).
    One transposing copy puts tap (i, j) of every tile in a block of its own, so the
    running maximum reads contiguous memory instead of every s-th cell."""
    rows, cols = geometry.rows, geometry.cols
    plan = tap_plan(geometry)
    count = planes.shape[0]
    tiled = planes[:, : rows.length * rows.taps, : cols.length * cols.taps].reshape(
        count, rows.length, rows.taps, cols.length, cols.taps
    )
    by_tap = np.ascontiguousarray(tiled.transpose(2, 4, 0, 1, 3)).reshape(
        plan.taps, count, rows.length, cols.length
    )
    last = ties == "last"
    first = plan.taps - 1 if last else 0
    np.copyto(output, by_tap[first])  # every tap is a real cell: start from one
    chosen = np.full(output.shape, first, dtype=plan.tap_type)
    order = range(plan.taps - 2, -1, -1) if last else range(1, plan.taps)
    scan_taps(by_tap.__getitem__, order, taps=plan.taps, last=last, best=output, chosen=chosen)
    argmax_from_taps(chosen, plan, argmax)


KERNEL = Kernel("tiles", applies, max_forward=max_forward, avg_backward=avg_backward)
