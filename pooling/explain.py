"""What the lab explains, computed: windows, routing shares, coverage and ledgers.

All of it derives from the general path's routing (`pooling.windows`), which every
fast kernel is tested against, so the explanation and the gradient cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pooling.config import Cell, PoolConfig
from pooling.geometry import PlaneGeometry, as_planes, plane_geometry
from pooling.windows import route


def _plane(x) -> np.ndarray:
    plane = np.asarray(x, dtype=np.float64)
    if plane.ndim != 2:
        raise ValueError(f"x must be one (H, W) plane here, got shape {plane.shape}")
    return plane


def argmax_cells(argmax: np.ndarray, width: int) -> np.ndarray:
    """argmax: any shape of h * W + w indices into planes `width` wide (as `forward`
    gives them). The same shape plus a last axis of 2: each winner's (row, column)."""
    return np.stack(np.divmod(np.asarray(argmax), width), axis=-1)


def coverage(config: PoolConfig, height: int, width: int) -> np.ndarray:
    """(H, W) int64: how many windows read each input cell."""
    return coverage_of(plane_geometry(config, height, width))


def coverage_of(geometry: PlaneGeometry) -> np.ndarray:
    """(H, W) int64: how many of `geometry`'s windows read each input cell (for a caller
    that holds the geometry already, e.g. a forward pass's `result.geometry`)."""
    height, width = geometry.rows.size, geometry.cols.size
    taps = geometry.flat_index[geometry.real]
    return np.bincount(taps, minlength=height * width).reshape(height, width)


def jacobian(x, config: PoolConfig, *, geometry: PlaneGeometry | None = None) -> np.ndarray:
    """dy/dx as a dense (output.size, x.size) matrix, for the current x.

    Max pooling: a 0/1 selection matrix, one 1 a row (several with ties "all",
    fractions with "split"); average pooling: 1/divisor entries. output.ravel() ==
    J @ x.ravel() and backward(grad) == (J.T @ grad.ravel()).reshape(x.shape).
    `geometry`: the layer's on x's planes, where the caller holds it (a forward pass's).
    """
    planes = as_planes(x)
    geometry = geometry or plane_geometry(config, *planes.shape[1:])
    _, _, routing = route(planes, geometry, config)
    count = planes.shape[0]
    outputs = count * geometry.output_shape[0] * geometry.output_shape[1]
    plane_size = planes.shape[1] * planes.shape[2]
    column = routing.flat_index[None] + (np.arange(count) * plane_size)[:, None, None, None]
    row = np.arange(outputs).reshape((count, *geometry.output_shape, 1))
    cell = (row * planes.size + column).ravel()
    entries = np.broadcast_to(routing.weights, column.shape).ravel()
    return np.bincount(cell, weights=entries, minlength=outputs * planes.size).reshape(
        outputs, planes.size
    )


def shares(x, config: PoolConfig, *, geometry: PlaneGeometry | None = None) -> np.ndarray:
    """(OH, OW, H, W): d y[oh, ow] / d x[h, w], the share of each output's upstream
    gradient that lands on each input cell (the Jacobian, one map per output).
    `geometry`: as for `jacobian`."""
    plane = _plane(x)
    geometry = geometry or plane_geometry(config, *plane.shape)
    return jacobian(plane, config, geometry=geometry).reshape(geometry.output_shape + plane.shape)


@dataclass(frozen=True)
class LedgerLine:
    """One window's contribution to one input cell: share * upstream = amount."""

    output_cell: Cell
    share: float
    upstream: float
    amount: float


def ledger(x, grad_output, config: PoolConfig, cell: Cell) -> list[LedgerLine]:
    """Every window that sends something to `cell`, in output reading order.

    x: (H, W); grad_output: (OH, OW). The amounts add up to dL/dx[cell].
    """
    return ledger_from_shares(shares(x, config), grad_output, cell)


def ledger_from_shares(share_maps, grad_output, cell: Cell) -> list[LedgerLine]:
    """`ledger` from the share maps (OH, OW, H, W) of `shares`, for a caller that has
    them already."""
    grad = np.asarray(grad_output, dtype=np.float64)
    if grad.shape != share_maps.shape[:2]:
        raise ValueError(
            f"grad_output must have the output's shape {share_maps.shape[:2]}, got {grad.shape}"
        )
    lines = []
    for out_row, out_col in zip(*np.nonzero(share_maps[:, :, cell[0], cell[1]]), strict=True):
        share = float(share_maps[out_row, out_col, cell[0], cell[1]])
        upstream = float(grad[out_row, out_col])
        lines.append(LedgerLine((int(out_row), int(out_col)), share, upstream, share * upstream))
    return lines
