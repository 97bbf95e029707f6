"""Every colour, scale, font and size the figures use, and the layout they share.

Three scales that cannot be mistaken for one another, also under deuteranopia and
protanopia (tests/test_figure_style.py simulates both): input and output *values* in
greys, like ink on paper; *gradients* diverging purple (negative), white (0), orange
(positive), always centred on 0; *counts* in teal. Marks are black with a white edge,
so they stay visible on every cell colour, and sit in a cell's corner or on its
border, never on its number.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np

from ..pure.numbers import fmt_grid

VALUE_SCALE = [[0.0, "#ffffff"], [0.5, "#a1a1aa"], [1.0, "#3f3f46"]]
GRADIENT_SCALE = [
    [0.0, "#5e3c99"],
    [0.25, "#b2abd2"],
    [0.5, "#f7f7f7"],
    [0.75, "#fdb863"],
    [1.0, "#e66101"],
]
COUNT_SCALE = [[0.0, "#f0fdfa"], [1.0, "#2a9d8f"]]
SCALES = {"value": VALUE_SCALE, "gradient": GRADIENT_SCALE, "count": COUNT_SCALE}

PADDING_COLOUR = "#e4e4e7"
PADDING_TEXT = "#52525b"
OUTLINE_COLOUR = "#111111"  # the current window
MARK_COLOUR = "#111111"  # winners: a star in the cell's corner, or a frame (see grid)
MARK_LEGEND = "a star (a frame on cells too small for one)"  # what captions call it
MARK_EDGE = "#ffffff"
ROUTE_COLOUR = "#c2410c"
LINE_COLOUR = "#3f3f46"  # curves (loss, positions reached)
GRID_LINE = "#eeeeee"
TITLE_TEXT = "#27272a"

FONT = dict(family="Inter, Arial, sans-serif", size=14, color=TITLE_TEXT)
CELL_FONT_PX = 13  # numbers in cells, when they fit at this size
MIN_CELL_FONT_PX = 12  # the floor: a number that does not fit is shrunk no further
LECTURE_CELL_FONT_PX = 18  # numbers on maps in lecture mode (also the floor there)
LECTURE_SCALE = LECTURE_CELL_FONT_PX / CELL_FONT_PX  # lecture figures: all this much bigger
MIN_DECIMALS = 1  # rounding stops here: with none, 0.25 would read "0"
ROUNDING_ERROR = 0.05  # no number is rounded by more than 5 % of itself: 0.19 stays 0.19
LINE_EM = 1.2  # a label's box is this many font sizes tall (Arial's ascent + descent)
TITLE_FONT_PX = 16
TITLE_CHAR_EM = 0.5  # a title's letters average 0.42-0.52 em (measured in Chromium)
TITLE_LINE_PX = 21  # each further line of a wrapped title
TITLE_PAD_PX = 4
# Advance widths in em of Arial (Inter is within a few %): what a label needs across.
CHAR_EM = {".": 0.278, ",": 0.278, "−": 0.584, "-": 0.333, "∞": 0.713, " ": 0.278}
DIGIT_EM = 0.556
LABEL_SLACK_PX = 8  # room a number needs in its cell beyond its own width (and height)

CELL_PX = 46  # the largest cell drawn while the numbers fit in it
MIN_CELL_PX = 6
# Columns as measured (CSS px): the main column is 521 on a projector (1280x720 at
# 150 %), 564 at 1024x768 and 358 on a phone (390x844), where st.columns stack; half a
# main column is 253 on a projector and 274 at 1024. Figures are laid out for the
# narrowest place they sit in, so every cell is as tall as it is wide there and no
# figure leaves an empty band under it; wider screens keep spare room to its right.
PHONE_WIDTH_PX = 358
PLOT_WIDTH_PX = 250  # half a main column on a projector: the narrowest a map sits in
MAIN_WIDTH_PX = PHONE_WIDTH_PX  # a figure as wide as the main column
MOSAIC_WIDTH_PX = MAIN_WIDTH_PX
# Maps drawn as colour only have no numbers to fit: a projector's main column, which a
# phone only shrinks.
COLOUR_MOSAIC_WIDTH_PX = 520
MARGIN = dict(l=36, r=16, t=72, b=16)
MAP_TITLE_PX = 13  # each small map's own title, above it in a mosaic
JACOBIAN_CELL_PX = (10, 34)  # J's smallest and largest cell before its numbers need more
JACOBIAN_MARGIN = dict(l=64, r=16, t=120, b=16)  # room for J's x·,· and y·,· ticks
JACOBIAN_SPARE_PX = 14  # below J's last row


def title_style(text: str, lines: int = 1) -> dict:
    """Titles sit at the very top, above the column numbers. Plotly anchors a title of
    several lines by its first line's box, so the pad takes the lines above the last."""
    return dict(
        text=text,
        x=0,
        xanchor="left",
        y=1,
        yref="container",
        yanchor="top",
        pad=dict(t=8 + (lines - 1) * TITLE_LINE_PX, l=TITLE_PAD_PX),
        font=dict(size=TITLE_FONT_PX),
    )


def wrapped_title(text: str, width_px: float) -> tuple[str, int]:
    """`text` broken at spaces into lines that fit `width_px` (<br> between them), and
    how many lines that makes."""
    most = max(8, int((width_px - 2 * TITLE_PAD_PX) / (TITLE_FONT_PX * TITLE_CHAR_EM)))
    lines = textwrap.wrap(text, most, break_long_words=False, break_on_hyphens=False)
    return "<br>".join(lines) or text, max(1, len(lines))


def base_layout(
    *, title: str | None, height: int, margin: dict = MARGIN, width_px: float | None = None
) -> dict:
    """What every figure's layout starts from: font, margins, no legend, no dragging.
    Given the width of the column it sits in, a long title is wrapped there and the
    figure grows by its extra lines."""
    layout = dict(
        font=FONT,
        margin=margin,
        showlegend=False,
        plot_bgcolor="#ffffff",
        height=int(height),
        dragmode=False,
    )
    if title is not None:
        lines = 1
        if width_px is not None:
            title, lines = wrapped_title(title, width_px)
        layout["title"] = title_style(title, lines)
        if lines > 1:
            extra = (lines - 1) * TITLE_LINE_PX
            layout["margin"] = dict(margin, t=margin["t"] + extra)
            layout["height"] = int(height) + extra
    return layout


def label_px(label: str, font_px: int = CELL_FONT_PX) -> float:
    """Width of `label` on screen, from Arial's advance widths."""
    return font_px * sum(CHAR_EM.get(char, DIGIT_EM) for char in str(label))


def needed_cell_px(labels, font_px: float = CELL_FONT_PX) -> float:
    """The smallest square cell that holds every label at `font_px` with 3 px to spare
    on each side (plus the 2-px gap between cells), across and up."""
    widest = max((label_px(label, font_px) for label in set(labels)), default=0.0)
    return max(widest, LINE_EM * font_px) + LABEL_SLACK_PX


def fits_in_cell(labels, cell_px: float, font_px: float = CELL_FONT_PX) -> bool:
    """Whether every label, at `font_px`, fits inside a cell `cell_px` wide."""
    return needed_cell_px(labels, font_px) <= cell_px


def rounds_mildly(values: np.ndarray, places: int) -> bool:
    """Whether rounding every finite value to `places` decimals moves none of them by
    more than ROUNDING_ERROR of itself (13.667 to 13.7 does; 0.19 to 0.2 does not)."""
    finite = values[np.isfinite(values)]
    error = np.abs(np.round(finite, places) - finite)
    return bool(np.all(error <= ROUNDING_ERROR * np.abs(finite) + 1e-12))


def lecture_scale(lecture: bool) -> float:
    """How much bigger than built a figure is drawn (look.styled applies it)."""
    return LECTURE_SCALE if lecture else 1.0


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
        labels = fmt_grid(values, places)
        if keep is not None:
            labels = np.where(keep, labels, "").astype(object)
        written = [*labels.ravel(), *also]
        for font in fonts:
            if fits_in_cell(written, cell_px, font):
                return LabelFit(labels, font, cell_px, places)
    grown = max(cell_px, float(np.ceil(needed_cell_px(written, fonts[-1]))))
    return LabelFit(labels, fonts[-1], grown, places)


def matrix_axes(
    shape: tuple[int, int], padding: tuple[int, int] = (0, 0), *, cell: float = CELL_PX
) -> dict:
    """Layout axes for matrix orientation: row 0 on top, square cells, integer ticks on
    the real cells (thinned on small cells), column numbers along the top, spare room
    below and to the right."""
    height, width = shape
    pad_r, pad_c = padding
    step = tick_step(cell)
    ticks = dict(showgrid=False, zeroline=False, tickfont=dict(size=12))
    return dict(
        xaxis=dict(
            range=[-pad_c - 0.5, width + pad_c - 0.5],
            tickmode="array",
            tickvals=list(range(0, width, step)),
            side="top",
            constrain="domain",
            constraintoward="left",
            **ticks,
        ),
        yaxis=dict(
            range=[height + pad_r - 0.5, -pad_r - 0.5],
            tickmode="array",
            tickvals=list(range(0, height, step)),
            constrain="domain",
            constraintoward="top",
            scaleanchor="x",
            scaleratio=1,
            **ticks,
        ),
    )


def cell_px(rows: int, cols: int, width_px: float = PLOT_WIDTH_PX) -> int:
    """Pixels per square cell when a map of rows x cols is placed in a column about
    `width_px` wide (the page's real width is not known on the server): what is left
    after the margins, no more than CELL_PX, and short enough to fit a screen."""
    across = int(width_px - MARGIN["l"] - MARGIN["r"]) // max(cols, 1)
    return max(MIN_CELL_PX, min(CELL_PX, across, 560 // max(rows, 1)))


def tick_step(cell: float) -> int:
    """Label every row and column while 12-px numbers fit, else every 2nd or 5th."""
    return 1 if cell >= 20 else 2 if cell >= 11 else 5
