"""How numbers are written on screen: short, exact where they are exact."""

from __future__ import annotations

import math

import numpy as np

DECIMALS = 3


def fmt(value: float, decimals: int = DECIMALS) -> str:
    """3 -> "3", 2.5 -> "2.5", 1/3 -> "0.333", -0.0 -> "0", nan -> "NaN", -inf -> "−∞"."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    rounded = round(value, decimals)
    if rounded == 0:
        return "0" if value == 0 else ("≈0")
    text = f"{rounded:.{decimals}f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


def fmt_grid(values: np.ndarray, decimals: int = DECIMALS) -> np.ndarray:
    """Element-wise `fmt` of a 2-D array, as an object array of strings."""
    return np.vectorize(lambda v: fmt(v, decimals), otypes=[object])(np.asarray(values, float))
