"""The pooling engine: pure NumPy, PyTorch's semantics, plus what PyTorch hides.

Shapes follow PyTorch: (N, C, H, W), with (H, W) and (C, H, W) accepted too.
"""

from .config import MODES, TIES, PoolConfig
from .ops import PoolResult, backward, forward

__all__ = ["MODES", "TIES", "PoolConfig", "PoolResult", "backward", "forward"]
