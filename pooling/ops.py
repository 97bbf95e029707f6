"""forward and backward: the public entry points of the engine.

`forward` keeps what `backward` needs (the argmax for max pooling, the routing weights for
the tie rules and adaptive windows that have no single winner), CS231n style: the
pooled value alone cannot say where it came from. Which code computes it is the
dispatch table's choice (`pooling.fast.table`): a fast kernel when one takes the layer,
else the general path (`pooling.windows`). Both give the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pooling import windows
from pooling.config import PoolConfig
from pooling.fast import run
from pooling.fast.kernel import Kernel
from pooling.fast.table import KERNELS, choose
from pooling.geometry import PlaneGeometry, as_planes, plane_geometry

__all__ = ["PoolResult", "backward", "forward"]


@dataclass(frozen=True)
class PoolResult:
    """What a forward pass produced and remembers.

    output: (..., OH, OW) float64, leading axes as the input's.
    argmax: (..., OH, OW) int64, h*W + w of each window's winner in the unpadded plane
        (PyTorch's indices; for ties "split"/"all" the "first" winner); None for avg.
    routing: the per-tap shares when no single winner describes the backward pass
        (ties "split"/"all", adaptive windows), else None.
    kernel: the name of the fast kernel that computed it; None for the general path.
    """

    config: PoolConfig
    input_shape: tuple[int, ...]
    geometry: PlaneGeometry
    output: np.ndarray
    argmax: np.ndarray | None
    routing: windows.Routing | None = None
    kernel: str | None = None


def forward(x, config: PoolConfig, *, kernels: tuple[Kernel, ...] = KERNELS) -> PoolResult:
    """Pool x (computed in float64). x: (H, W), (C, H, W) or (N, C, H, W).

    kernels: the fast kernels to choose from, in order (a test passes one to force it;
    () forces the general path)."""
    planes = as_planes(x)
    geometry = plane_geometry(config, *planes.shape[1:])
    operation = "max_forward" if config.mode == "max" else "avg_forward"
    kernel = choose(operation, config, geometry, planes.shape[0], kernels=kernels)
    routing = None
    if kernel is None:
        output, argmax, routing = windows.route(planes, geometry, config)
    else:
        output, argmax = run.forward(kernel, planes, geometry, config)
    input_shape = np.shape(x)
    shape = input_shape[:-2] + geometry.output_shape
    return PoolResult(
        config,
        input_shape,
        geometry,
        output.reshape(shape),
        None if argmax is None else argmax.reshape(shape),
        routing,
        None if kernel is None else kernel.name,
    )


def backward(
    result: PoolResult, grad_output, *, kernels: tuple[Kernel, ...] = KERNELS
) -> np.ndarray:
    """dL/dx from dL/dy. grad_output: shaped like result.output. Returns x's shape.
    kernels: as for `forward` (average pooling's backward is a kernel's choice too)."""
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
    elif result.config.mode == "max":
        argmax = result.argmax.reshape(grad_planes.shape)
        grad_x = run.scatter_winners(argmax, grad_planes, plane_size)
    else:
        count = grad_planes.shape[0]
        kernel = choose("avg_backward", result.config, geometry, count, kernels=kernels)
        if kernel is None:
            routing = windows.avg_routing(geometry, count)
            grad_x = windows.scatter(routing, grad_planes, plane_size)
        else:
            grad_x = run.avg_backward(kernel, grad_planes, geometry)
    return grad_x.reshape(result.input_shape)
