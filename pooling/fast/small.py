"""Few windows: copy them out with one gather and reduce along the window axis.

On a small input (an 8x8 lab grid, a few planes) the time goes to Python calls, not
to arithmetic: a tap-by-tap kernel makes four NumPy calls a tap. Here a forward pass is
a handful of calls whatever the window: gather every window's cells (the general
path's own gather, `pooling.windows.gather`), then one max and one argmax (or one sum)
along the window axis. Above SMALL_CELLS gathered cells the copy costs more than it
saves.
"""

from __future__ import annotations

import numpy as np

from pooling.fast.kernel import Kernel
from pooling.fast.taps import argmax_from_taps, name_real_cells, tap_plan
from pooling.geometry import PlaneGeometry
from pooling.windows import gather

SMALL_CELLS = 1 << 12  # planes x windows x taps


def applies(geometry: PlaneGeometry, planes: int) -> bool:
    """At most SMALL_CELLS cells gathered."""
    out_h, out_w = geometry.output_shape
    return planes * out_h * out_w * geometry.taps <= SMALL_CELLS


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """Max pooling ("first" or "last" ties) into output and argmax (P, OH, OW)."""
    windows = gather(planes, geometry, -np.inf)
    windows.max(axis=-1, out=output)
    if ties == "last":
        chosen = geometry.taps - 1 - windows[..., ::-1].argmax(axis=-1)
    else:
        chosen = windows.argmax(axis=-1)
    plan = tap_plan(geometry)
    argmax_from_taps(name_real_cells(chosen, output, plan, ties), plan, argmax)


def avg_forward(planes, geometry: PlaneGeometry, output) -> None:
    """Average pooling into output (P, OH, OW)."""
    windows = gather(planes, geometry, 0.0)
    np.divide(windows.sum(axis=-1), geometry.divisor, out=output)


KERNEL = Kernel("small", applies, max_forward=max_forward, avg_forward=avg_forward)
