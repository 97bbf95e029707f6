"""A check of the backward pass: central differences of the forward pass. (The full
Jacobian, the other check, is built from the routing itself: `pooling.explain.jacobian`.)"""

from __future__ import annotations

import numpy as np

from pooling.config import PoolConfig
from pooling.ops import forward

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
