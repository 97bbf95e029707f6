"""Every colour, scale, font and size the figures use, and the layout they share.

Three scales that cannot be mistaken for one another, also under deuteranopia and
protanopia (tests/test_figure_style.py simulates both): input and output *values* in
greys, like ink on paper; *gradients* diverging purple (negative), white (0), orange
(positive), always centred on 0; *counts* in teal. Marks are black with a white edge,
so they stay visible on every cell colour, and sit in a cell's corner or on its
border, never on its number.
"""

from __future__ import annotations

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
CELL_FONT_PX = 13  # numbers in cells: at least 12 px on screen, never auto-shrunk
TITLE_FONT_PX = 16
# Advance widths in em of Arial (Inter is within a few %): what a label needs across.
CHAR_EM = {".": 0.278, ",": 0.278, "−": 0.584, "-": 0.333, "∞": 0.713, " ": 0.278}
DIGIT_EM = 0.556
LABEL_SLACK_PX = 8  # room a number needs in its cell beyond its own width

CELL_PX = 46  # the largest cell drawn
MIN_CELL_PX = 6
PLOT_WIDTH_PX = 260  # half the main column on a projector (see MAIN_WIDTH_PX)
# The main column is about 520 px on a projector (1280x720 at 150 %), 620 at 1024 px
# and 1000 at 1400: heights are set for the narrowest, so a figure never leaves an
# empty band under it; wider screens keep spare room to its right.
MAIN_WIDTH_PX = 520
MOSAIC_WIDTH_PX = MAIN_WIDTH_PX
MARGIN = dict(l=36, r=16, t=72, b=16)


def title_style(text: str) -> dict:
    """Titles sit at the very top, above the column numbers."""
    return dict(
        text=text,
        x=0,
        xanchor="left",
        y=1,
        yref="container",
        yanchor="top",
        pad=dict(t=8, l=4),
        font=dict(size=TITLE_FONT_PX),
    )


def base_layout(*, title: str | None, height: int, margin: dict = MARGIN) -> dict:
    """What every figure's layout starts from: font, margins, no legend, no dragging."""
    layout = dict(
        font=FONT,
        margin=margin,
        showlegend=False,
        plot_bgcolor="#ffffff",
        height=int(height),
        dragmode=False,
    )
    if title is not None:
        layout["title"] = title_style(title)
    return layout


def label_px(label: str, font_px: int = CELL_FONT_PX) -> float:
    """Width of `label` on screen, from Arial's advance widths."""
    return font_px * sum(CHAR_EM.get(char, DIGIT_EM) for char in str(label))


def fits_in_cell(labels, cell_px: float) -> bool:
    """Whether every label, at CELL_FONT_PX, fits inside a cell `cell_px` wide with
    3 px to spare on each side (plus the 2-px gap between cells)."""
    widest = max((label_px(label) for label in set(labels)), default=0.0)
    return widest + LABEL_SLACK_PX <= cell_px


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


def cell_px(rows: int, cols: int, width_px: int = PLOT_WIDTH_PX) -> int:
    """Pixels per square cell when a map of rows x cols is placed in a column about
    `width_px` wide (the page's real width is not known on the server): what is left
    after the margins, no more than CELL_PX, and short enough to fit a screen."""
    across = (width_px - MARGIN["l"] - MARGIN["r"]) // max(cols, 1)
    return max(MIN_CELL_PX, min(CELL_PX, across, 560 // max(rows, 1)))


def tick_step(cell: float) -> int:
    """Label every row and column while 12-px numbers fit, else every 2nd or 5th."""
    return 1 if cell >= 20 else 2 if cell >= 11 else 5
