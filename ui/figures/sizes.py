"""How big a map is drawn: its cells in a column of a given width, the least width that
holds its grown cells, and the width a built figure takes on screen. The sizes
themselves are style's."""

from __future__ import annotations

import math

from ui.figures.style import (
    CELL_PX,
    EDGE_SPARE_PX,
    HALF_PX,
    LABEL_SLACK_PX,
    MAP_MOST_PX,
    MARGIN,
    MIN_CELL_PX,
    OUTLINE_ROOM_PX,
    SNUG_SLACK_PX,
    TITLE_CHAR_EM,
)


def cell_px(rows: int, cols: int, width_px: float = HALF_PX) -> int:
    """Pixels per square cell when a map of rows x cols is placed in a column about
    `width_px` wide: what is left after the margins and the room around the cells
    (EDGE_SPARE_PX), no more than CELL_PX, and short enough to fit a screen."""
    across = int(width_px - MARGIN["l"] - MARGIN["r"] - 2 * EDGE_SPARE_PX) // max(cols, 1)
    return max(MIN_CELL_PX, min(CELL_PX, across, MAP_MOST_PX // max(rows, 1)))


def snug_cell(grown_cell: float, widest_px: float) -> float:
    """A cell grown to hold its numbers (the widest `widest_px` across) with
    LABEL_SLACK_PX to spare, at the least width its map keeps (drawn_cell):
    SNUG_SLACK_PX to spare, and across a number the room of a window's outline
    (OUTLINE_ROOM_PX)."""
    snug = max(grown_cell - LABEL_SLACK_PX + SNUG_SLACK_PX, widest_px + OUTLINE_ROOM_PX)
    return min(grown_cell, snug)


def drawn_cell(fit_cell: float, column_cell: float, widest_px: float) -> float:
    """The cell a map is drawn at: the column's cell (`column_cell`, cell_px) while its
    numbers fit there. Where they needed a grown cell (`fit_cell` larger), the map
    keeps its own, least width (own_width of the snug cell): a narrower column scrolls
    it at that width, and a wider one draws it as tall as its height, which is laid out
    for the snug cell too. Either way its cells are the snug ones, its marks are sized
    for them, and no band is left empty under the grid."""
    return snug_cell(fit_cell, widest_px) if fit_cell > column_cell else fit_cell


def own_width(across_px: float, margin: dict = MARGIN) -> int:
    """The width of a map whose cells take `across_px`, with its margins."""
    return math.ceil(across_px + margin["l"] + margin["r"])


def map_extent(cells: int, cell: float) -> float:
    """The px a map laid out by layouts.matrix_axes takes for `cells` cells across (or
    down): the cells and EDGE_SPARE_PX on both sides."""
    return cells * cell + 2 * EDGE_SPARE_PX


def drawn_cell_px(figure) -> float:
    """A map's cell size in layout px (matrix_axes: square cells, ranges span whole
    cells): its plot height over its rows, padding in."""
    layout = figure.layout
    rows = abs(layout.yaxis.range[0] - layout.yaxis.range[1])
    return (layout.height - layout.margin.t - layout.margin.b) / rows


def drawn_width(figure) -> float:
    """How wide a map laid out by matrix_axes and base_layout (a go.Figure, as styled
    for its look) is drawn with nothing to spare: its square cells, as tall as its
    height gives them (the height after the margins, over the rows), across its
    columns with the margins, or its title's longest line if that is wider, or the
    width it keeps (own_width), which Plotly draws it at."""
    layout = figure.layout
    cols = abs(layout.xaxis.range[1] - layout.xaxis.range[0])
    margin = layout.margin
    cell = drawn_cell_px(figure)
    title = layout.title
    longest = max((len(line) for line in (title.text or "").split("<br>")), default=0)
    title_px = title.pad.l + longest * title.font.size * TITLE_CHAR_EM if title.text else 0
    return max(cols * cell + margin.l + margin.r, title_px, layout.width or 0)
