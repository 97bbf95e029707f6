"""The pooling engine: pure NumPy, PyTorch's semantics, plus what PyTorch hides.

Shapes follow PyTorch: (N, C, H, W), with (H, W) and (C, H, W) accepted too.
Importing it has no process-wide effect; the allocator tuning that speeds up big
batches is switched on by whoever starts the process (`keep_freed_memory()`).
"""

from pooling.batch import REDUCTIONS, BatchGradients, batch_gradients
from pooling.config import MODES, TIES, Cell, PoolConfig
from pooling.explain import jacobian
from pooling.fast.memory import keep_freed_memory
from pooling.gradcheck import numerical_gradient
from pooling.ops import PoolResult, backward, forward

__all__ = [
    "MODES",
    "REDUCTIONS",
    "TIES",
    "BatchGradients",
    "Cell",
    "PoolConfig",
    "PoolResult",
    "backward",
    "batch_gradients",
    "forward",
    "jacobian",
    "keep_freed_memory",
    "numerical_gradient",
]
