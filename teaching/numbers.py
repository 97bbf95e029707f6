"""How numbers are written on screen: short, exact where they are exact."""

from __future__ import annotations

import math

import numpy as np

from teaching.tolerances import SUMMATION_ORDER

DECIMALS = 3
FLOAT_NOISE = SUMMATION_ORDER  # sums of float64 shares leave crumbs this small: show 0
LARGE = 1e7  # from here on, a mantissa and a power of ten
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fmt(value: float, decimals: int = DECIMALS) -> str:
    """3 -> "3", 2.5 -> "2.5", 1/3 -> "0.333", -0.0 -> "0", 2e-5 -> "2.0e−05",
    1e308 -> "1e+308", nan -> "NaN", -inf -> "−∞"."""
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if abs(value) < FLOAT_NOISE:
        return "0"
    if abs(value) < 0.5 * 10**-decimals:  # too small for the decimals: say how small
        return f"{value:.1e}".replace("-", "−")
    if abs(value) >= LARGE:
        return f"{value:.4g}".replace("-", "−")
    text = f"{round(value, decimals):.{decimals}f}".rstrip("0").rstrip(".")
    return text.replace("-", "−")


NEAR_ZERO = "≈0"


def fmt_grid(values: np.ndarray, decimals: int = DECIMALS) -> np.ndarray:
    """Element-wise `fmt` of an array, as an object array of strings of its shape; in a
    map, a value too small for the decimals reads "≈0" (beside 0.16, "3.3e−03" would
    be too wide for its cell; the hover keeps the value)."""

    def label(value: float) -> str:
        if FLOAT_NOISE <= abs(value) < 0.5 * 10**-decimals:
            return NEAR_ZERO
        return fmt(value, decimals)

    return np.vectorize(label, otypes=[object])(np.asarray(values, float))


def common_exponent(values: np.ndarray, decimals: int) -> int:
    """The power of ten to write a whole map in (0: as they are): when even its
    largest magnitude would print as a handful of leading zeros, the map is written in
    units of 10^e, so that 0.0047 and 0.0012 read as 4.7 and 1.2 rather than as
    "4.7e−03"."""
    finite = np.abs(np.asarray(values, float))
    finite = finite[np.isfinite(finite) & (finite > FLOAT_NOISE)]
    if not finite.size or finite.max() >= 10 ** (1 - decimals):
        return 0
    return int(math.floor(math.log10(finite.max())))


def whole_units(values: np.ndarray, most_decimals: int) -> int:
    """The power of ten (0 or below) in whose units every number of `values` is whole,
    for numbers of at most `most_decimals` decimals: 0.53 and 0.05 -> -2 (53 and 5)."""
    values = np.asarray(values, float)
    for decimals in range(most_decimals + 1):
        scaled = values * 10.0**decimals
        if np.allclose(scaled, np.round(scaled), rtol=0, atol=1e-6):
            return -decimals
    return -most_decimals


def power_of_ten(exponent: int) -> str:
    """-3 -> "10⁻³"."""
    return "10" + str(exponent).translate(SUPERSCRIPTS)


def symmetric_range(*arrays: np.ndarray) -> float:
    """Half-width of a colour range centred on 0 that holds every finite value of
    every array (1 when they are all 0, so the range is still usable)."""
    finite = [np.abs(a[np.isfinite(a)]) for a in map(np.asarray, arrays) if a.size]
    largest = max((float(f.max()) for f in finite if f.size), default=0.0)
    return largest if largest > 0 else 1.0


def plural(count: int, noun: str) -> str:
    """A count with its noun: '1 cell', '2 cells' (nouns whose plural adds an s)."""
    return f"{count} {noun}{'s' * (count != 1)}"
