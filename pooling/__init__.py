"""The pooling engine: pure NumPy, PyTorch's semantics, plus what PyTorch hides.

Shapes follow PyTorch: (N, C, H, W), with (H, W) and (C, H, W) accepted too.
"""

from .batch import REDUCTIONS, BatchGradients, batch_gradients
from .config import MODES, TIES, PoolConfig
from .gradcheck import jacobian, numerical_gradient
from .ops import PoolResult, backward, forward

__all__ = [
    "MODES",
    "REDUCTIONS",
    "TIES",
    "BatchGradients",
    "PoolConfig",
    "PoolResult",
    "backward",
    "batch_gradients",
    "forward",
    "jacobian",
    "numerical_gradient",
]
