"""The colour scales cannot be mistaken for one another, also with colour-blind eyes,
and every mark stays visible on every cell colour."""

import itertools

import numpy as np
import pytest

from ui.figures import style

# Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
}
DISTINCT = 20.0  # CIELAB ΔE: clearly different colours


def linear_rgb(hex_colour: str) -> np.ndarray:
    srgb = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def lab(linear: np.ndarray) -> np.ndarray:
    xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    ) @ np.clip(linear, 0, 1)
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(hex_colour: str, eyes: str) -> np.ndarray:
    return lab(SIMULATIONS[eyes] @ linear_rgb(hex_colour))


STRONG_ENDS = {
    "large value": style.VALUE_SCALE[-1][1],
    "negative gradient": style.GRADIENT_SCALE[0][1],
    "positive gradient": style.GRADIENT_SCALE[-1][1],
    "large count": style.COUNT_SCALE[-1][1],
}


@pytest.mark.parametrize("eyes", SIMULATIONS)
def test_the_scales_strong_ends_stay_apart(eyes):
    for (name_a, a), (name_b, b) in itertools.combinations(STRONG_ENDS.items(), 2):
        distance = np.linalg.norm(seen(a, eyes) - seen(b, eyes))
        assert distance > DISTINCT, f"{name_a} and {name_b} look alike to {eyes}: ΔE {distance:.1f}"


def test_gradient_zero_is_white_and_the_scale_is_symmetric():
    assert style.GRADIENT_SCALE[2] == [0.5, "#f7f7f7"]
    lightness = [seen(colour, "normal")[0] for _, colour in style.GRADIENT_SCALE]
    assert lightness[0] < lightness[1] < lightness[2] and lightness[4] < lightness[3] < lightness[2]


@pytest.mark.parametrize("eyes", SIMULATIONS)
def test_marks_stand_out_on_every_cell_colour(eyes):
    """A mark is black with a white edge: one of the two contrasts with any cell."""
    cells = [colour for scale in style.SCALES.values() for _, colour in scale]
    for cell in cells:
        cell_l = seen(cell, eyes)[0]
        core = abs(cell_l - seen(style.MARK_COLOUR, eyes)[0])
        edge = abs(cell_l - seen(style.MARK_EDGE, eyes)[0])
        assert max(core, edge) > 45, cell
