"""The pooling engine: pure NumPy, PyTorch's semantics, plus what PyTorch hides.

Shapes follow PyTorch: (N, C, H, W), with (H, W) and (C, H, W) accepted too.
"""

from .batch import REDUCTIONS, BatchGradients, batch_gradients
from .config import MODES, TIES, PoolConfig
from .gradcheck import jacobian, numerical_gradient
from .memory import keep_freed_memory
from .ops import PoolResult, backward, forward

keep_freed_memory()  # the next call reuses this one's pages: see pooling/memory.py

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
