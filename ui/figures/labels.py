"""How a map's numbers are written: every value labelled, in a cell it fits (shrunk to a
floor, then rounded, then in a bigger cell), with the widths measured from Arial's
advance widths. The sizes themselves are style's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from teaching.numbers import fmt_grid
from ui.figures.style import (
    CELL_FONT_PX,
    LABEL_SLACK_PX,
    LECTURE_CELL_FONT_PX,
    LECTURE_SCALE,
    MIN_CELL_FONT_PX,
)

MIN_DECIMALS = 1  # rounding stops here: with none, 0.25 would read "0"
ROUNDING_ERROR = 0.05  # no number is rounded by more than 5 % of itself: 0.19 stays 0.19
LINE_EM = 1.2  # a label's box is this many font sizes tall (Arial's ascent + descent)
# Advance widths in em of Arial (Inter is within a few %): what a label needs across.
CHAR_EM = {".": 0.278, ",": 0.278, "−": 0.584, "-": 0.333, "∞": 0.713, " ": 0.278}
DIGIT_EM = 0.556
# How far a digit's top stands above the middle of its cell, in font sizes: Plotly puts a
# heatmap label's baseline 0.35 em under the middle, and a digit is about 0.72 em tall.
DIGIT_TOP_EM = 0.37


def label_px(label: str, font_px: float = CELL_FONT_PX) -> float:
    """Width of `label` on screen, from Arial's advance widths."""
    return font_px * sum(CHAR_EM.get(char, DIGIT_EM) for char in str(label))


def widest_px(labels, font_px: float = CELL_FONT_PX) -> float:
    """The width of the widest of `labels` (any shape; "" for none) at `font_px`."""
    return max((label_px(label, font_px) for label in set(labels)), default=0.0)


def needed_cell_px(labels, font_px: float = CELL_FONT_PX) -> float:
    """The smallest square cell that holds every label at `font_px` with 3 px to spare
    on each side (plus the 2-px gap between cells), across and up."""
    return max(widest_px(labels, font_px), LINE_EM * font_px) + LABEL_SLACK_PX


def fits_in_cell(labels, cell_px: float, font_px: float = CELL_FONT_PX) -> bool:
    """Whether every label, at `font_px`, fits inside a cell `cell_px` wide."""
    return needed_cell_px(labels, font_px) <= cell_px


def rounds_mildly(values: np.ndarray, places: int) -> bool:
    """Whether rounding every finite value to `places` decimals moves none of them by
    more than ROUNDING_ERROR of itself (13.667 to 13.7 does; 0.19 to 0.2 does not)."""
    finite = values[np.isfinite(values)]
    error = np.abs(np.round(finite, places) - finite)
    return bool(np.all(error <= ROUNDING_ERROR * np.abs(finite) + 1e-12))


@dataclass(frozen=True)
class LabelFit:
    """A map's numbers as they will be written: labels (the values' shape, "" where
    none), at font_px (in the figure's own units, before lecture scaling), in cells
    cell_px wide, with `decimals` places at most."""

    labels: np.ndarray
    font_px: float
    cell_px: float
    decimals: int


def fit_labels(
    values,
    *,
    cell_px: float,
    decimals: int,
    lecture: bool = False,
    keep: np.ndarray | None = None,
    also: tuple[str, ...] = (),
    fewest_decimals: int = MIN_DECIMALS,
) -> LabelFit:
    """Every value labelled, in a cell it fits: written at CELL_FONT_PX if it fits in
    `cell_px`, else shrunk to the floor (12 px; in lecture mode no shrinking, 18 px on
    screen), else rounded to fewer decimals (down to `fewest_decimals`), else the cell
    grows to what the labels need. values: any shape; keep: where to write a label
    (all cells if None); also: other labels the cells must hold (padding's "−∞")."""
    values = np.asarray(values, dtype=np.float64)
    floor = (LECTURE_CELL_FONT_PX / LECTURE_SCALE) if lecture else MIN_CELL_FONT_PX
    fonts = sorted({float(CELL_FONT_PX), float(floor)}, reverse=True)
    for places in range(decimals, min(decimals, fewest_decimals) - 1, -1):
        if places < decimals and not rounds_mildly(values, places):
            break  # fewer decimals would change a number too much: grow the cell instead
        labels, labelled_places = fmt_grid(values, places), places
        if keep is not None:
            labels = np.where(keep, labels, "").astype(object)
        written = [*labels.ravel(), *also]
        for font in fonts:
            if fits_in_cell(written, cell_px, font):
                return LabelFit(labels, font, cell_px, places)
    grown = max(cell_px, float(np.ceil(needed_cell_px(written, fonts[-1]))))
    return LabelFit(labels, fonts[-1], grown, labelled_places)  # before any break
