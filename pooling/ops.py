"""forward and backward: the public entry points of the engine.

`forward` keeps what `backward` needs (the argmax for max pooling, the routing weights for
the tie rules and adaptive windows that have no single winner), CS231n style: the
pooled value alone cannot say where it came from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import flat, phases, shifted, small, tiles, windows
from .chunks import for_each_chunk, splits
from .config import PoolConfig
from .geometry import PlaneGeometry, plane_geometry


@dataclass(frozen=True)
class PoolResult:
    """What a forward pass produced and remembers.

    output: (..., OH, OW) float64, leading axes as the input's.
    argmax: (..., OH, OW) int64, h*W + w of each window's winner in the unpadded plane
        (PyTorch's indices; for ties "split"/"all" the "first" winner); None for avg.
    routing: the per-tap shares when no single winner describes the backward pass
        (ties "split"/"all", adaptive windows), else None.
    """

    config: PoolConfig
    input_shape: tuple[int, ...]
    geometry: PlaneGeometry
    output: np.ndarray
    argmax: np.ndarray | None
    routing: windows.Routing | None = None


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


def _uses_fast_path(config: PoolConfig) -> bool:
    if config.adaptive:
        return False
    return config.mode == "avg" or config.ties in ("first", "last")


def forward(x, config: PoolConfig) -> PoolResult:
    """Pool x (computed in float64). x: (H, W), (C, H, W) or (N, C, H, W)."""
    planes = as_planes(x)
    geometry = plane_geometry(config, *planes.shape[1:])
    routing = None
    if not _uses_fast_path(config):
        output, argmax, routing = windows.route(planes, geometry, config)
    else:
        output, argmax = _fast_forward(planes, geometry, config)
    input_shape = np.shape(x)
    shape = input_shape[:-2] + geometry.output_shape
    return PoolResult(
        config,
        input_shape,
        geometry,
        output.reshape(shape),
        None if argmax is None else argmax.reshape(shape),
        routing,
    )


def _fast_forward(planes: np.ndarray, geometry: PlaneGeometry, config: PoolConfig):
    """The fast path: output (P, OH, OW) and argmax (P, OH, OW), or None for average
    pooling. A few windows go in one gather (pooling.small); many, a chunk of planes at
    a time (see _max_path)."""
    shape = planes.shape[:1] + geometry.output_shape
    output = np.empty(shape)
    if config.mode == "avg":
        if small.is_small(planes, geometry):
            small.avg_forward(planes, geometry, output)
            return output, None

        def average(chunk: slice) -> None:
            shifted.avg_forward(planes[chunk], geometry, output[chunk])

        for_each_chunk(average, planes.shape[0], planes[0].nbytes)
        return output, None
    argmax = np.empty(shape, dtype=np.int64)
    if small.is_small(planes, geometry):
        small.max_forward(planes, geometry, config.ties, output, argmax)
        maybe_nan = np.isnan(output.sum())  # a NaN (or inf - inf): rare
    else:
        max_forward = _max_path(geometry)
        flagged = []  # chunks whose sum is NaN; list.append is safe across threads

        def maximum(chunk: slice) -> None:
            max_forward(planes[chunk], geometry, config.ties, output[chunk], argmax[chunk])
            if np.isnan(output[chunk].sum()):
                flagged.append(chunk)

        for_each_chunk(maximum, planes.shape[0], planes[0].nbytes)
        maybe_nan = bool(flagged)
    if maybe_nan:
        _fix_nan_argmax(planes, geometry, config, output, argmax)
    return output, argmax


def _max_path(geometry: PlaneGeometry):
    """Stride 1: flat shifts, maxima first (pooling.flat). A larger stride that windows
    overlap: flat shifts in each stride phase (pooling.phases). Windows that tile the
    plane: blocks of one transposed copy (pooling.tiles). Else tap by tap on strided
    views (pooling.shifted)."""
    if flat.applies(geometry):
        return flat.max_forward
    if tiles.tiles(geometry):
        return tiles.max_forward
    return phases.max_forward if phases.applies(geometry) else shifted.max_forward


def _fix_nan_argmax(planes, geometry: PlaneGeometry, config: PoolConfig, output, argmax):
    """A window holding NaN: PyTorch's argmax is its last NaN. The general path knows
    that rule; it runs on the planes that need it."""
    nan_planes = np.flatnonzero(np.isnan(output).any(axis=(1, 2)))
    if nan_planes.size:
        _, argmax[nan_planes], _ = windows.route(planes[nan_planes], geometry, config)


def backward(result: PoolResult, grad_output) -> np.ndarray:
    """dL/dx from dL/dy. grad_output: shaped like result.output. Returns x's shape."""
    grad = np.asarray(grad_output, dtype=np.float64)
    if grad.shape != result.output.shape:
        raise ValueError(
            f"grad_output must have the output's shape {result.output.shape}, got {grad.shape}"
        )
    geometry = result.geometry
    grad_planes = grad.reshape((-1,) + geometry.output_shape)
    plane_size = geometry.rows.size * geometry.cols.size
    if result.routing is not None:
        grad_x = windows.scatter(result.routing, grad_planes, plane_size)
    elif result.config.mode == "max" and not splits(grad_planes.shape[0], plane_size * 8):
        argmax = result.argmax.reshape(grad_planes.shape)
        grad_x = shifted.scatter_add(argmax, grad_planes, plane_size)  # one bincount, no copy
    else:
        grad_x = _chunked_backward(result, grad_planes, plane_size)
    return grad_x.reshape(result.input_shape)


def _chunked_backward(result: PoolResult, grad_planes: np.ndarray, plane_size: int):
    """dL/dx (P, H*W) of the fast path, a chunk of planes at a time."""
    geometry = result.geometry
    grad_x = np.empty((grad_planes.shape[0], plane_size))
    if result.config.mode == "avg":
        avg_backward = tiles.avg_backward if tiles.tiles(geometry) else shifted.avg_backward

        def work(chunk: slice) -> None:
            avg_backward(grad_planes[chunk], geometry, grad_x[chunk])

    else:
        argmax = result.argmax.reshape(grad_planes.shape)

        def work(chunk: slice) -> None:
            grad_x[chunk] = shifted.scatter_add(argmax[chunk], grad_planes[chunk], plane_size)

    for_each_chunk(work, grad_planes.shape[0], plane_size * 8)  # float64 input planes
    return grad_x
