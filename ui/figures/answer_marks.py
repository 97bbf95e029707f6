"""An exercise's answer drawn on its map x: the student's picks, and after checking,
which picks were right, which cells were missed and which picks were extra.

Each has its own mark, none of them a winner's star (which sits in a cell's top-right
corner): a pick is a yellow dot in the top-left corner; once checked, a right pick is a
tick there, an extra pick a cross there, and a missed cell gets a dashed frame inside
its edge. Every mark is a light core on a black edge, so one of the two stands out on
any cell colour of either theme (tests/test_figure_style.py); the number in the cell
stays clear.
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from pooling.config import Cell
from teaching.map_twin import EXTRA, MISSED, PICKED, RIGHT, MapTwin
from ui.figures import layouts, style
from ui.figures.grid import GridOptions, Overlay, grid_figure
from ui.figures.sizes import drawn_cell_px


@dataclass(frozen=True)
class AnswerMarks:
    """Cells (row, col) of x. picks: chosen, not yet checked; right, missed, extra: an
    answer checked (picked and receiving gradient; receiving but not picked; picked
    but receiving nothing)."""

    picks: tuple[Cell, ...] = ()
    right: tuple[Cell, ...] = ()
    missed: tuple[Cell, ...] = ()
    extra: tuple[Cell, ...] = ()


def answer_map(
    values,
    *,
    title: str,
    overlay: Overlay,
    marks: AnswerMarks,
    width_px: int,
    clickable: bool = False,
    lecture: bool = False,
) -> go.Figure:
    """grid_figure(values, ...) with `marks` drawn on it, under its click targets, and
    said in its text twin."""
    figure = grid_figure(
        values,
        title=title,
        lecture=lecture,
        options=GridOptions(overlay=overlay, width_px=width_px, clickable=clickable),
    )
    (twin,) = figure.layout.meta["twin"]
    said = {PICKED: marks.picks, RIGHT: marks.right, MISSED: marks.missed, EXTRA: marks.extra}
    figure.layout.meta = {"twin": [MapTwin.from_meta(twin).marked(said).as_meta()]}
    cell_px = drawn_cell_px(figure)
    line_scale = layouts.lecture_scale(lecture)  # line widths are not scaled by look.styled
    drawn = mark_traces(marks, cell_px=cell_px, line_scale=line_scale)
    if drawn:
        # Added to the figure just built, then reordered: a new go.Figure of all its
        # traces validated them all again (twice the time; a class's taps each draw one).
        kept = len(figure.data)
        figure.add_traces(drawn)
        if clickable:  # the click targets stay on top
            data = figure.data
            figure.data = [*data[: kept - 1], *data[kept:], data[kept - 1]]
    return figure


def mark_traces(marks: AnswerMarks, *, cell_px: float, line_scale: float = 1.0) -> list[dict]:
    """The traces of every mark, named "your pick", "right", "missed" and "extra" (a
    line mark's black edge is a wider line under it, named "<name> edge")."""
    traces = []
    if marks.picks:
        traces.append(pick_trace(marks.picks, cell_px))
    for name, cells, colour, path, dash in (
        ("right", marks.right, style.RIGHT_COLOUR, tick_path, "solid"),
        ("extra", marks.extra, style.EXTRA_COLOUR, cross_path, "solid"),
        ("missed", marks.missed, style.MISSED_COLOUR, frame_path, style.MISSED_DASH),
    ):
        if cells:
            xs, ys = path(cells, cell_px)
            traces += edged_lines(xs, ys, colour=colour, name=name, dash=dash, scale=line_scale)
    return traces


def pick_trace(cells, cell_px: float) -> dict:
    """A yellow dot in the top-left corner of each picked cell."""
    smallest, largest = style.PICK_PX
    dot_px = max(smallest, min(largest, cell_px * style.PICK_SHARE))
    offset = 0.5 - (style.MARK_INSET_PX + dot_px / 2) / cell_px  # from the cell's centre
    return dict(
        type="scatter",
        x=[col - offset for _, col in cells],
        y=[row - offset for row, _ in cells],
        mode="markers",
        hoverinfo="skip",
        name="your pick",
        marker=dict(
            symbol="circle",
            size=dot_px,
            color=style.PICK_COLOUR,
            line=dict(color=style.ANSWER_EDGE, width=style.PICK_EDGE_PX),
        ),
    )


def corner_box(cell: Cell, cell_px: float) -> tuple[float, float, float]:
    """The top-left corner square a tick or a cross is drawn in: left, top, side (in
    cells), inset far enough that its edge stays inside the cell."""
    row, col = cell
    inset = (style.ANSWER_INSET_PX + style.ANSWER_EDGE_PX + style.ANSWER_LINE_PX / 2) / cell_px
    return col - 0.5 + inset, row - 0.5 + inset, style.ANSWER_MARK_SHARE


def tick_path(cells, cell_px: float) -> tuple[list, list]:
    xs, ys = [], []
    for cell in cells:
        left, top, side = corner_box(cell, cell_px)
        xs += [left, left + 0.35 * side, left + side, None]
        ys += [top + 0.55 * side, top + side, top, None]
    return xs, ys


def cross_path(cells, cell_px: float) -> tuple[list, list]:
    xs, ys = [], []
    for cell in cells:
        left, top, side = corner_box(cell, cell_px)
        xs += [left, left + side, None, left + side, left, None]
        ys += [top, top + side, None, top, top + side, None]
    return xs, ys


def frame_path(cells, cell_px: float) -> tuple[list, list]:
    """A square just inside each cell's edge (inside the gap between cells)."""
    inset = (style.CELL_GAP_PX + style.ANSWER_EDGE_PX + style.ANSWER_LINE_PX / 2) / cell_px
    near, far = -0.5 + inset, 0.5 - inset
    xs, ys = [], []
    for row, col in cells:
        xs += [col + near, col + far, col + far, col + near, col + near, None]
        ys += [row + near, row + near, row + far, row + far, row + near, None]
    return xs, ys


def edged_lines(xs, ys, *, colour: str, name: str, dash: str, scale: float) -> list[dict]:
    """The path twice: a black line as wide as the core and its two edges, then the
    core (a dashed core shows black between its dashes)."""
    core_px = style.ANSWER_LINE_PX * scale
    edge_px = (style.ANSWER_LINE_PX + 2 * style.ANSWER_EDGE_PX) * scale
    common = dict(type="scatter", x=xs, y=ys, mode="lines", hoverinfo="skip")
    return [
        dict(common, name=f"{name} edge", line=dict(color=style.ANSWER_EDGE, width=edge_px)),
        dict(common, name=name, line=dict(color=colour, width=core_px, dash=dash)),
    ]
