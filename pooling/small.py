"""Few windows: copy them out with one gather and reduce along the window axis.

On a small input (an 8x8 lab grid, a few planes) the time goes to Python calls, not
to arithmetic: the tap-by-tap fast path makes four NumPy calls a tap. Here a forward
pass is a handful of calls whatever the window: gather every window's cells with one
precomputed index table, then one max and one argmax (or one sum) along the window
axis. Above SMALL_CELLS gathered cells the copy costs more than it saves.
"""

from __future__ import annotations

import numpy as np

from .geometry import PlaneGeometry

SMALL_CELLS = 1 << 12  # planes x windows x taps


def is_small(planes: np.ndarray, geometry: PlaneGeometry) -> bool:
    return (
        planes.shape[0] * geometry.output_shape[0] * geometry.output_shape[1] * (geometry.taps)
        <= SMALL_CELLS
    )


def _windows(planes: np.ndarray, geometry: PlaneGeometry, fill: float) -> np.ndarray:
    """(P, OH*OW, K): every window's taps in reading order; `fill` off the grid."""
    flat = planes.reshape(planes.shape[0], -1)
    if geometry.all_real:
        return flat[:, geometry.gather_index]
    # Taps off the grid read one extra cell holding the fill.
    filled = np.concatenate([flat, np.full((flat.shape[0], 1), fill)], axis=1)
    return filled[:, geometry.gather_index]


def max_forward(planes, geometry: PlaneGeometry, ties: str, output, argmax) -> None:
    """As shifted.max_forward (first or last ties), into output and argmax (P, OH, OW)."""
    windows = _windows(planes, geometry, -np.inf)
    shape = output.shape
    windows.max(axis=2, out=output.reshape(shape[0], -1))
    if ties == "last":
        chosen = geometry.taps - 1 - windows[:, :, ::-1].argmax(axis=2)
    else:
        chosen = windows.argmax(axis=2)
    # A window of -inf values names its first (or last) real cell, as PyTorch does:
    # argmax would pick a padding tap, which also holds -inf.
    if not geometry.all_real:
        start = geometry.last_real_tap if ties == "last" else geometry.first_real_tap
        empty = output.reshape(shape[0], -1) == -np.inf
        chosen = np.where(empty, start.reshape(1, -1), chosen)
    flat_argmax = argmax.reshape(shape[0], -1)
    geometry.flat_taps.take(geometry.window_base + chosen, out=flat_argmax)


def avg_forward(planes, geometry: PlaneGeometry, output) -> None:
    """As shifted.avg_forward, into output (P, OH, OW)."""
    windows = _windows(planes, geometry, 0.0)
    total = windows.sum(axis=2).reshape(output.shape)
    np.divide(total, geometry.divisor, out=output)
