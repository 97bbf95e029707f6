"""The dispatch table: the one place that chooses a fast kernel.

KERNELS is ordered from the most particular to the most general; a layer goes to the
first kernel that takes it (`Kernel.takes`), and to the general path
(`pooling.windows.route`) when none does (adaptive windows, ties "split" and "all").
Today's order, and why:
- small: a few windows (an 8x8 lab grid), where Python calls cost more than arithmetic;
- flat: stride 1, every tap a shifted slice of one flat padded array;
- tiles: windows that tile the plane, taps as blocks of one transposed copy;
- phases: overlapping windows at a larger stride, flat shifts in each stride phase;
- shifted: any other regular layer, tap by tap on strided views.
Tests iterate over KERNELS, so a kernel added here is checked against the loop and the
general path at once.
"""

from __future__ import annotations

from pooling.config import PoolConfig
from pooling.fast import flat, phases, shifted, small, tiles
from pooling.fast.kernel import Kernel
from pooling.geometry import PlaneGeometry

KERNELS: tuple[Kernel, ...] = (
    small.KERNEL,
    flat.KERNEL,
    tiles.KERNEL,
    phases.KERNEL,
    shifted.KERNEL,
)


def choose(
    operation: str,
    config: PoolConfig,
    geometry: PlaneGeometry,
    planes: int,
    *,
    kernels: tuple[Kernel, ...] = KERNELS,
) -> Kernel | None:
    """The first of `kernels` that computes `operation` ("max_forward", "avg_forward" or
    "avg_backward") for this layer on `planes` planes; None: the general path's turn."""
    for kernel in kernels:
        if kernel.takes(operation, config, geometry, planes):
            return kernel
    return None


def by_name(name: str) -> Kernel:
    """The kernel of KERNELS called `name` (KeyError if none is)."""
    for kernel in KERNELS:
        if kernel.name == name:
            return kernel
    raise KeyError(f"no fast kernel is called {name!r}; there are {[k.name for k in KERNELS]}")
