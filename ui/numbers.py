"""How numbers are written on screen: short, exact where they are exact."""

from __future__ import annotations

import math

import numpy as np

DECIMALS = 3
FLOAT_NOISE = 1e-12  # sums of float64 shares leave crumbs this small: show 0


def fmt(value: float, decimals: int = DECIMALS) -> str:
    """3 -> "3", 2.5 -> "2.5", 1/3 -> "0.333", -0.0 -> "0", 2e-5 -> "2.0e−05",
    nan -> "NaN", -inf -> "−∞"."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if abs(value) < FLOAT_NOISE:
        return "0"
    if abs(value) < 0.5 * 10**-decimals:  # too small for the decimals: say how small
        return f"{value:.1e}".replace("-", "−")
    text = f"{round(value, decimals):.{decimals}f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def fmt_grid(values: np.ndarray, decimals: int = DECIMALS) -> np.ndarray:
    """Element-wise `fmt` of a 2-D array, as an object array of strings."""
    return np.vectorize(lambda v: fmt(v, decimals), otypes=[object])(np.asarray(values, float))
