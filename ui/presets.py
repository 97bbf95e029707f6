"""Starting grids for the Playground, each with the settings that show it off."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class Preset:
    label: str
    grid: np.ndarray
    settings: dict = field(default_factory=dict)  # pool-control values to set with it


@lru_cache(maxsize=1)
def digit_images() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's bundled 8x8 handwritten digits (values 0-16): images, labels."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    return digits.images.astype(np.float64), digits.target


def seed_window(_rng) -> Preset:
    return Preset(
        "Seed window",
        np.array([[1.0, 3.0], [2.0, 0.5]]),
        dict(mode="max", kh=2, kw=2, sh=2, sw=2, pad=0, dil=1, ceil=False, upstream="seed"),
    )


def ties(_rng) -> Preset:
    # Seven of the nine 2x2 windows hold their maximum exactly twice.
    grid = np.array(
        [
            [2, 2, 1, 0, 5, 1],
            [1, 0, 3, 0, 5, 0],
            [4, 1, 0, 2, 0, 2],
            [4, 0, 2, 0, 1, 1],
            [0, 1, 6, 6, 3, 0],
            [1, 0, 2, 1, 2, 3],
        ],
        dtype=np.float64,
    )
    return Preset("Ties", grid, dict(mode="max", kh=2, kw=2, sh=2, sw=2, pad=0, dil=1))


def random_integers(rng) -> Preset:
    return Preset("Random integers", rng.integers(0, 10, (6, 6)).astype(np.float64))


def random_floats(rng) -> Preset:
    return Preset("Random floats", np.round(rng.normal(0.0, 1.0, (6, 6)), 2))


def digit(rng) -> Preset:
    images, labels = digit_images()
    index = int(rng.integers(len(images)))
    return Preset(
        f"Digit {labels[index]}",
        images[index],
        dict(mode="max", kh=2, kw=2, sh=2, sw=2, pad=0, dil=1),
    )


def overlap(_rng) -> Preset:
    grid = np.array(
        [[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 0], [0, 3, 1, 8, 1], [1, 0, 2, 1, 0]],
        dtype=np.float64,
    )
    return Preset("Overlap demo", grid, dict(mode="max", kh=3, kw=3, sh=1, sw=1, pad=0, dil=1))


PRESETS = {
    "seed": seed_window,
    "ties": ties,
    "ints": random_integers,
    "floats": random_floats,
    "digit": digit,
    "overlap": overlap,
}
PRESET_LABELS = {
    "seed": "Seed",
    "ties": "Ties",
    "ints": "Integers",
    "floats": "Floats",
    "digit": "Digit",
    "overlap": "Overlap",
}
PRESET_HELP = {
    "seed": "The 2×2 window [[1, 3], [2, 0.5]] with upstream 2.5.",
    "ties": "Windows whose maximum appears twice or more.",
    "ints": "A new 6×6 grid of random integers 0-9.",
    "floats": "A new 6×6 grid of random numbers around 0.",
    "digit": "A handwritten digit, 8×8, from scikit-learn's bundled set.",
    "overlap": "3×3 windows with stride 1: cells collect gradient from several windows.",
}
