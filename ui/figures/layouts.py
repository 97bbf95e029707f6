"""The layout every figure starts from (pure Plotly dicts, no Streamlit): titles that
wrap at their column's width, margins and fonts from style, and matrix-oriented axes
(row 0 on top, square cells, ticks thinned on small cells). Every number here is a
named slot of style.py."""

from __future__ import annotations

import textwrap

from ui.figures.style import (
    BACKGROUND,
    CELL_PX,
    EDGE_SPARE_PX,
    FONT,
    LECTURE_SCALE,
    MARGIN,
    TICK_FONT_PX,
    TITLE_CHAR_EM,
    TITLE_FONT_PX,
    TITLE_LINE_PX,
    TITLE_PAD_PX,
    TITLE_TOP_PX,
)


def lecture_scale(lecture: bool) -> float:
    """How much bigger than built a figure is drawn (look.styled applies it)."""
    return LECTURE_SCALE if lecture else 1.0


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
        pad=dict(t=TITLE_TOP_PX + (lines - 1) * TITLE_LINE_PX, l=TITLE_PAD_PX),
        font=dict(size=TITLE_FONT_PX),
    )


def wrapped_title(text: str, width_px: float) -> tuple[str, int]:
    """`text` broken at spaces into lines that fit `width_px` (<br> between them), and
    how many lines that makes."""
    most = max(8, int((width_px - 2 * TITLE_PAD_PX) / (TITLE_FONT_PX * TITLE_CHAR_EM)))
    lines = textwrap.wrap(text, most, break_long_words=False, break_on_hyphens=False)
    return "<br>".join(lines) or text, max(1, len(lines))


def padded_title(text: str, lines: int, least_lines: int) -> tuple[str, int]:
    """A wrapped title of `lines` lines given empty lines below up to `least_lines`."""
    extra = max(0, least_lines - lines)
    return text + "<br> " * extra, lines + extra


def base_layout(
    *,
    title: str | None,
    height: int,
    margin: dict = MARGIN,
    width_px: float | None = None,
    own_width: int | None = None,
    least_lines: int = 1,
) -> dict:
    """What every figure's layout starts from: font, margins, no legend, no dragging.
    Given the width of the column it sits in, a long title is wrapped there and the
    figure grows by its extra lines. `own_width`: a figure wider than that column (its
    cells grew for their numbers) keeps that width, which a narrower column scrolls
    sideways (ui/shared/chart.py); its title is wrapped at that width. `least_lines`:
    the title takes at least that many lines (empty ones below), as the longest title
    the browser gives it will (ui/figures/frame_data.py)."""
    layout = dict(
        font=FONT,
        margin=margin,
        showlegend=False,
        plot_bgcolor=BACKGROUND,
        height=int(height),
        dragmode=False,
    )
    if own_width:
        layout["width"] = own_width
        width_px = max(width_px or 0, own_width)
    if title is not None:
        lines = 1
        if width_px is not None:
            title, lines = wrapped_title(title, width_px)
        title, lines = padded_title(title, lines, least_lines)
        layout["title"] = title_style(title, lines)
        if lines > 1:
            extra = (lines - 1) * TITLE_LINE_PX
            layout["margin"] = dict(margin, t=margin["t"] + extra)
            layout["height"] = int(height) + extra
    return layout


def matrix_axes(
    shape: tuple[int, int], padding: tuple[int, int] = (0, 0), *, cell: float = CELL_PX
) -> dict:
    """Layout axes for matrix orientation: row 0 on top, square cells, integer ticks on
    the real cells (thinned on small cells), column numbers along the top, and
    EDGE_SPARE_PX around the cells, where a line along their outer edges runs."""
    height, width = shape
    pad_r, pad_c = padding
    step = tick_step(cell)
    spare = edge_spare(cell)  # on every side (sizes.map_extent)
    ticks = dict(showgrid=False, zeroline=False, tickfont=dict(size=TICK_FONT_PX))
    return dict(
        xaxis=dict(
            range=[-pad_c - 0.5 - spare, width + pad_c - 0.5 + spare],
            tickmode="array",
            tickvals=list(range(0, width, step)),
            side="top",
            constrain="domain",
            constraintoward="left",
            **ticks,
        ),
        yaxis=dict(
            range=[height + pad_r - 0.5 + spare, -pad_r - 0.5 - spare],
            tickmode="array",
            tickvals=list(range(0, height, step)),
            constrain="domain",
            constraintoward="top",
            scaleanchor="x",
            scaleratio=1,
            **ticks,
        ),
    )


def edge_spare(cell: float) -> float:
    """EDGE_SPARE_PX in cells `cell` px wide: the room kept past a map's outer cells."""
    return EDGE_SPARE_PX / cell


def tick_step(cell: float) -> int:
    """Label every row and column while TICK_FONT_PX numbers fit, else every 2nd or 5th."""
    return 1 if cell >= 20 else 2 if cell >= 11 else 5
