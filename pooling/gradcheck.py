"""Checks of the backward pass: central differences and the full Jacobian."""

from __future__ import annotations

import numpy as np

from . import windows
from .config import PoolConfig
from .geometry import plane_geometry
from .ops import as_planes, forward

# Perturbed copies of x pooled in one call; bounds the memory of numerical_gradient.
CHUNK_VALUES = 1 << 20


def numerical_gradient(x, grad_output, config: PoolConfig, eps: float = 1e-6) -> np.ndarray:
    """Central differences of L(x) = sum(grad_output * forward(x).output).

    x: (H, W), (C, H, W) or (N, C, H, W); grad_output: shaped like the output.
    Returns an array shaped like x. At a tie of max pooling the function has a kink:
    the central difference gives each tied cell half of its upstream gradient.
    """
    x = np.asarray(x, dtype=np.float64)
    grad = np.asarray(grad_output, dtype=np.float64)
    reference = forward(x, config)
    if grad.shape != reference.output.shape:
        raise ValueError(
            f"grad_output must have the output's shape {reference.output.shape}, got {grad.shape}"
        )
    flat = x.ravel()
    result = np.empty(flat.size)
    per_chunk = max(1, CHUNK_VALUES // flat.size)
    for start in range(0, flat.size, per_chunk):
        cells = np.arange(start, min(start + per_chunk, flat.size))
        result[cells] = (
            _loss_bumped(flat, cells, eps, grad, config, x.shape)
            - _loss_bumped(flat, cells, -eps, grad, config, x.shape)
        ) / (2 * eps)
    return result.reshape(x.shape)


def _loss_bumped(flat, cells, eps, grad, config, shape):
    """(len(cells),): L with x[cell] moved by eps, one copy of x per cell."""
    copies = np.repeat(flat[None, :], cells.size, axis=0)
    copies[np.arange(cells.size), cells] += eps
    planes = copies.reshape((-1,) + shape[-2:])
    pooled = forward(planes, config).output.reshape((cells.size,) + grad.shape)
    return (pooled * grad).reshape(cells.size, -1).sum(axis=1)


def jacobian(x, config: PoolConfig) -> np.ndarray:
    """dy/dx as a dense (output.size, x.size) matrix, for the current x.

    Max pooling: a 0/1 selection matrix, one 1 a row (several with ties "all",
    fractions with "split"); average pooling: 1/divisor entries. output.ravel() ==
    J @ x.ravel() and backward(grad) == (J.T @ grad.ravel()).reshape(x.shape).
    """
    planes = as_planes(x)
    geometry = plane_geometry(config, *planes.shape[1:])
    _, _, routing = windows.route(planes, geometry, config)
    outputs = routing.weights.shape[0] * geometry.output_shape[0] * geometry.output_shape[1]
    plane_size = planes.shape[1] * planes.shape[2]
    column = (
        routing.flat_index[None] + (np.arange(planes.shape[0]) * plane_size)[:, None, None, None]
    )
    row = np.arange(outputs).reshape(routing.weights.shape[:3] + (1,))
    cell = (row * planes.size + column).ravel()
    entries = np.broadcast_to(routing.weights, column.shape).ravel()
    return np.bincount(cell, weights=entries, minlength=outputs * planes.size).reshape(
        outputs, planes.size
    )
