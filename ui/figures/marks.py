"""The lines and marks drawn over a map's cells: the current window's outline and the
winners' marks. Each pairs a dark line or fill with a light one (a halo, style.HALO_PX,
or an edge, style.MARK_EDGE), so that it shows on every cell colour of both themes and
on a dark page, where an outline's outer half runs over the page between the cells."""

from __future__ import annotations

from ui.figures import style


def outline_path(cells) -> tuple[list, list]:
    """x, y of the outer edges of a set of cells, as segments separated by None: an
    edge is drawn where a cell of the set meets a cell outside it."""
    chosen = set(map(tuple, cells))
    xs, ys = [], []
    for row, col in chosen:
        for d_row, d_col, (x0, y0, x1, y1) in (
            (-1, 0, (-0.5, -0.5, 0.5, -0.5)),
            (1, 0, (-0.5, 0.5, 0.5, 0.5)),
            (0, -1, (-0.5, -0.5, -0.5, 0.5)),
            (0, 1, (0.5, -0.5, 0.5, 0.5)),
        ):
            if (row + d_row, col + d_col) not in chosen:
                xs += [col + x0, col + x1, None]
                ys += [row + y0, row + y1, None]
    return xs, ys


def line_trace(xs, ys, *, colour: str, width: float, name: str) -> dict:
    """Line segments (split by None points) that take no hover."""
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        line=dict(color=colour, width=width),
        hoverinfo="skip",
        name=name,
    )


def outline_traces(cells, name: str = "window") -> list[dict]:
    """The outer edge of `cells`: a dark line over a light halo (style.HALO_PX), which
    shows on every cell colour and on a light or a dark page."""
    xs, ys = outline_path(cells)
    halo_px = style.OUTLINE_WIDTH_PX + 2 * style.HALO_PX
    return [
        line_trace(xs, ys, colour=style.MARK_EDGE, width=halo_px, name=f"{name} halo"),
        line_trace(xs, ys, colour=style.OUTLINE_COLOUR, width=style.OUTLINE_WIDTH_PX, name=name),
    ]


def cell_edges_path(cells) -> tuple[list, list]:
    """x, y of each cell's own square along its edges (where a window's outline runs),
    one closed path per cell, the paths separated by None."""
    xs, ys = [], []
    for row, col in cells:
        xs += [col - 0.5, col + 0.5, col + 0.5, col - 0.5, col - 0.5, None]
        ys += [row - 0.5, row - 0.5, row + 0.5, row + 0.5, row - 0.5, None]
    return xs, ys


def marks_traces(
    cells, cell_px: float, *, label_px: float = 0.0, name: str = "winner"
) -> list[dict]:
    """Winner marks that never cover a number: a star in the top-right corner of each
    cell while the cell has room for it beside its widest label (`label_px`), else a
    square along the cell's edges in data coordinates, which keeps to its cell at any
    size the map is drawn: a number keeps clear of it wherever it keeps clear of a
    window's outline (style.OUTLINE_ROOM_PX holds the wider of the two). The square is
    the outline's colours the other way round, a light core between dark edges, drawn
    over it: where the two meet the outline reads as a double line, so a winner stays
    marked inside the current window, a dilated window's lone cells included."""
    rows = [row for row, _ in cells]
    cols = [col for _, col in cells]
    smallest, largest = style.STAR_PX
    star_px = max(smallest, min(largest, int(cell_px * style.STAR_SHARE)))
    if cell_px >= label_px + 2 * star_px + style.MARK_INSET_PX:
        return [
            _markers(
                [col + 0.3 for col in cols],
                [row - 0.3 for row in rows],
                name=name,
                marker=dict(
                    symbol="star",
                    size=star_px,
                    color=style.MARK_COLOUR,
                    line=dict(color=style.MARK_EDGE, width=style.MARK_EDGE_PX),
                ),
            )
        ]
    xs, ys = cell_edges_path(cells)
    edges_px = style.FRAME_WIDTH_PX + 2 * style.HALO_PX
    return [
        line_trace(xs, ys, colour=style.MARK_COLOUR, width=edges_px, name=f"{name} halo"),
        line_trace(xs, ys, colour=style.MARK_EDGE, width=style.FRAME_WIDTH_PX, name=name),
    ]


def _markers(xs, ys, *, name: str, marker: dict) -> dict:
    """Marks at (xs, ys) that take no hover."""
    return dict(
        type="scatter", x=xs, y=ys, mode="markers", hoverinfo="skip", name=name, marker=marker
    )
