"""Starting grids for the Playground, each with the settings that show it off: one
registry, `PRESETS`, name -> Preset. A preset names the settings it sets
(`PresetSettings`); the page's state declaration says which key each one is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np

from pooling.config import Mode
from teaching.digits import digit_images
from teaching.playground.model import Upstream


class PresetSettings(TypedDict, total=False):
    """The settings a preset may set, by the names of the page's pooling controls
    (PoolKeys) and its upstream choice; what a preset leaves out stays as it is."""

    mode: Mode
    kh: int
    kw: int
    sh: int
    sw: int
    pad: int
    dil: int
    ceil: bool
    upstream: Upstream


NON_OVERLAPPING = PresetSettings(mode="max", kh=2, kw=2, sh=2, sw=2, pad=0, dil=1)


@dataclass(frozen=True)
class Start:
    """A grid (H, W) and the page settings that go with it."""

    grid: np.ndarray
    settings: PresetSettings = field(default_factory=PresetSettings)


@dataclass(frozen=True)
class Preset:
    label: str  # the button
    help: str  # the button's tooltip
    make: Callable[[np.random.Generator], Start]


def seed_window(_rng=None) -> Start:
    return Start(
        np.array([[1.0, 3.0], [2.0, 0.5]]),
        NON_OVERLAPPING | PresetSettings(ceil=False, upstream="seed"),
    )


def ties(_rng) -> Start:
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
    return Start(grid, NON_OVERLAPPING)


def random_integers(rng) -> Start:
    return Start(rng.integers(0, 10, (6, 6)).astype(np.float64))


def random_floats(rng) -> Start:
    return Start(np.round(rng.normal(0.0, 1.0, (6, 6)), 2))


def digit(rng) -> Start:
    images, _ = digit_images()
    return Start(np.array(images[int(rng.integers(len(images)))]), NON_OVERLAPPING)


def overlap(_rng) -> Start:
    grid = np.array(
        [[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 0], [0, 3, 1, 8, 1], [1, 0, 2, 1, 0]],
        dtype=np.float64,
    )
    return Start(grid, NON_OVERLAPPING | PresetSettings(kh=3, kw=3, sh=1, sw=1))


PRESETS = {
    "seed": Preset("Seed", "The 2×2 window [[1, 3], [2, 0.5]] with upstream 2.5.", seed_window),
    "ties": Preset("Ties", "Windows whose maximum appears twice or more.", ties),
    "ints": Preset("Integers", "A new 6×6 grid of random integers 0-9.", random_integers),
    "floats": Preset("Floats", "A new 6×6 grid of random numbers around 0.", random_floats),
    "digit": Preset("Digit", "A handwritten digit, 8×8, from scikit-learn's bundled set.", digit),
    "overlap": Preset(
        "Overlap",
        "3×3 windows with stride 1: cells collect gradient from several windows.",
        overlap,
    ),
}
