"""The one shape every fast kernel has: what it claims and its entry points.

A kernel is a quicker way to compute what `pooling.windows` computes, for the layers it
takes. It claims modes (by the entry points it has) and max pooling's tie rules, and
says by `applies` which geometries (and how many planes) it is quick for. Only the
dispatch table (`pooling.fast.table`) asks these questions; everything else runs the
kernel it was handed.

Entry points, all writing into arrays the caller made (P planes of one geometry):
- max_forward(planes (P, H, W), geometry, ties, output (P, OH, OW) float64,
  argmax (P, OH, OW) int64 as h*W + w): NaN outputs must be right; their argmax is
  repaired by the caller (`pooling.fast.run`).
- avg_forward(planes (P, H, W), geometry, output (P, OH, OW)).
- avg_backward(grad_output (P, OH, OW), geometry, grad_x (P, H*W)).
Max pooling's backward needs no kernel: every max kernel leaves an argmax, and one
scatter of it (`pooling.fast.run.scatter_winners`) is the whole backward pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pooling.config import PoolConfig
from pooling.geometry import PlaneGeometry

MaxForward = Callable[[np.ndarray, PlaneGeometry, str, np.ndarray, np.ndarray], None]
AvgForward = Callable[[np.ndarray, PlaneGeometry, np.ndarray], None]
AvgBackward = Callable[[np.ndarray, PlaneGeometry, np.ndarray], None]
OPERATIONS = ("max_forward", "avg_forward", "avg_backward")
SCANNED_TIES = frozenset({"first", "last"})  # the rules one winner per window can honour


@dataclass(frozen=True)
class Kernel:
    """One fast kernel.

    name: what tests and `PoolResult.kernel` call it.
    applies(geometry, planes): whether it takes this (regular) geometry on this many
        planes. Asked only after the mode, the tie rule and regular windows are checked.
    max_forward, avg_forward, avg_backward: its entry points (None: it has not that one).
    ties: the tie rules its max_forward honours.
    """

    name: str
    applies: Callable[[PlaneGeometry, int], bool]
    max_forward: MaxForward | None = None
    avg_forward: AvgForward | None = None
    avg_backward: AvgBackward | None = None
    ties: frozenset[str] = SCANNED_TIES

    @property
    def modes(self) -> frozenset[str]:
        """The modes whose forward pass it computes."""
        return frozenset(
            mode for mode in ("max", "avg") if getattr(self, f"{mode}_forward") is not None
        )

    def takes(
        self, operation: str, config: PoolConfig, geometry: PlaneGeometry, planes: int
    ) -> bool:
        """Whether it computes `operation` (one of OPERATIONS) for this layer on `planes` planes.
        Adaptive windows vary in size: no fast kernel takes them."""
        if getattr(self, operation) is None or config.adaptive:
            return False
        if operation == "max_forward" and config.ties not in self.ties:
            return False
        return self.applies(geometry, planes)
