"""Mini-batch gradients through a pooling layer.

Each example goes forward and backward on its own: example n's argmax routes only
example n's upstream gradient. With L = (1/N) sum_n L_n, the gradient of anything the
batch *shares* is the mean of the per-example gradients. For a pooling input that means
a per-position bias b added to every example (x_n = z_n + b): dL/db is the mean of
the per-example routing maps. Each example's own activation gradient stays its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pooling.config import PoolConfig
from pooling.ops import backward, forward

REDUCTIONS = ("mean", "sum")


@dataclass(frozen=True)
class BatchGradients:
    """per_example: (N, C, H, W), dL_n/dx_n, each example's own routed gradient.
    reduced: (C, H, W), their mean (or sum): the gradient of a shared per-position bias.
    output: (N, C, OH, OW), the pooled batch; argmax likewise (None for avg)."""

    per_example: np.ndarray
    reduced: np.ndarray
    output: np.ndarray
    argmax: np.ndarray | None
    reduction: str


def reduce_batch(per_example: np.ndarray, reduction: str) -> np.ndarray:
    """Mean or sum over the first (batch) axis."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}, got {reduction!r}")
    return per_example.mean(axis=0) if reduction == "mean" else per_example.sum(axis=0)


def batch_gradients(x, grad_output, config: PoolConfig, reduction: str = "mean") -> BatchGradients:
    """x: (N, C, H, W); grad_output: (N, C, OH, OW), row n being dL_n/dy_n."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 4:
        raise ValueError(f"x must be a batch (N, C, H, W), got shape {x.shape}")
    result = forward(x, config)
    per_example = backward(result, grad_output)
    return BatchGradients(
        per_example, reduce_batch(per_example, reduction), result.output, result.argmax, reduction
    )
