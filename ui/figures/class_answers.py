"""Class mode's projector figures: the share of a room that picked each cell of x (a
heatmap on a scale of its own, 0 to 100 %, each cell's whole percent written in it),
with the engine's answer outlined over it once revealed and, under that outline, a
dashed frame along the edges of each cell some picked that gets no gradient (within
the slack the percent's font leaves, so it never covers the number); and the numbers a room typed
as bars, the right one green once revealed. Built for the desk look; look.styled draws
them for lecture mode and the dark theme."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from teaching.class_mode.answers import bars_twin
from teaching.map_twin import map_twin
from ui.figures import layouts, sizes, style
from ui.figures.answer_marks import edged_lines
from ui.figures.labels import LINE_EM, label_px
from ui.figures.marks import cell_edges_path, outline_traces

WIDEST_SHARE = "100"  # the widest label a share map writes


def share_cell_px(
    shape: tuple[int, int], width_px: float, *, tall_px: float, lecture: bool
) -> float:
    """A share map's square cell (desk px) in a column `width_px` wide (CSS px): what
    the column leaves after the margins, no more than style.CELL_PX, and short enough
    that the rows fit `tall_px`."""
    rows, cols = shape
    layout_px = width_px / layouts.lecture_scale(lecture)
    across = (layout_px - style.ROOM_MARGIN["l"] - style.ROOM_MARGIN["r"]) / cols
    return min(style.CELL_PX, across, tall_px / rows)


def share_font_px(cell_px: float, *, lecture: bool) -> float:
    """SHARE_FONT_PX, or less where "100" would not fit the cell; never under the
    house's floor for map numbers (LECTURE_CELL_FONT_PX in lecture mode)."""
    floor = style.LECTURE_CELL_FONT_PX / style.LECTURE_SCALE if lecture else style.MIN_CELL_FONT_PX
    fits = (
        style.SHARE_FONT_PX
        * (cell_px - style.SHARE_SLACK_PX)
        / label_px(WIDEST_SHARE, style.SHARE_FONT_PX)
    )
    return max(floor, min(style.SHARE_FONT_PX, fits, cell_px / LINE_EM))


def wrong_traces(cells) -> list[dict]:
    """A dashed frame along each cell's edges: a light core (style.WRONG_COLOUR) over a
    black line, so one of the two shows on every share colour of either theme. Its
    lines reach style.WRONG_REACH_PX into the cell, no more than the slack the
    percent's font keeps on each side (share_font_px): the number stays clear. Not
    scaled in lecture mode: the slack grows with the figure, the lines keep their
    width."""
    xs, ys = cell_edges_path(cells)
    return edged_lines(
        xs, ys, colour=style.WRONG_COLOUR, name="wrong", dash=style.WRONG_DASH, scale=1.0
    )


@dataclass(frozen=True)
class ShareOptions:
    """How a share map is marked and sized. answer_cells: the cells that get gradient,
    outlined (empty until revealed); wrong_cells: cells picked that get none, framed
    ("wrong" traces; empty until revealed); width_px: the column it is drawn in (CSS
    px); tall_px: how tall its cells may be together (desk px)."""

    answer_cells: tuple = ()
    wrong_cells: tuple = ()
    width_px: float = style.ROOM_MAP_PX
    tall_px: float = style.ROOM_MAP_MOST_PX


def share_map(
    percents, *, title: str, options: ShareOptions = ShareOptions(), lecture: bool = False
) -> go.Figure:
    """percents: (H, W) whole numbers 0..100, the share of the room that picked each
    cell, marked and sized as `options` says."""
    shares = np.asarray(percents, dtype=float)
    cell_px = share_cell_px(
        shares.shape, options.width_px, tall_px=options.tall_px, lecture=lecture
    )
    labels = np.vectorize(lambda value: str(int(value)))(shares).astype(object)
    traces = [_share_heatmap(shares, labels, font_px=share_font_px(cell_px, lecture=lecture))]
    if options.wrong_cells:
        traces += wrong_traces(options.wrong_cells)
    if options.answer_cells:  # over the frames: where a wrong cell meets the answer, it shows
        traces += outline_traces(options.answer_cells, name="answer")
    layout = _share_layout(
        shares.shape,
        cell_px=cell_px,
        title=title,
        width_px=options.width_px / layouts.lecture_scale(lecture),
    )
    twin = map_twin(
        title,
        shares,
        cells=np.vectorize(lambda label: f"{label} % picked it", otypes=[object])(labels),
        marks={GETS_GRADIENT: options.answer_cells, WRONG_PICK: options.wrong_cells},
    )
    layout["meta"] = {"twin": [twin.as_meta()]}  # read by ui/shared/twin.py
    return go.Figure(data=traces, layout=layout)


def _share_heatmap(shares: np.ndarray, labels: np.ndarray, *, font_px: float) -> dict:
    """shares (H, W) as Plotly's heatmap dict on the 0-100 % scale, each cell's whole
    percent (labels, (H, W) text) written in it."""
    rows, cols = shares.shape
    return dict(
        type="heatmap",
        z=shares,
        x=np.arange(cols),
        y=np.arange(rows),
        text=labels,
        texttemplate="%{text}",
        textfont=dict(size=font_px),
        xgap=style.CELL_GAP_PX,
        ygap=style.CELL_GAP_PX,
        name="share",
        hovertemplate="row %{y}, col %{x}: %{text} % picked it<extra></extra>",
        colorscale=style.SHARE_SCALE,
        zmin=0,
        zmax=100,
        showscale=False,
    )


def _share_layout(shape: tuple[int, int], *, cell_px: float, title: str, width_px: float) -> dict:
    """A (rows, cols) share map's layout at cell_px, in a figure width_px wide (desk px)."""
    return dict(
        **layouts.matrix_axes(shape, cell=cell_px),
        **layouts.base_layout(
            title=title,
            height=sizes.map_extent(shape[0], cell_px)
            + style.ROOM_MARGIN["t"]
            + style.ROOM_MARGIN["b"],
            margin=style.ROOM_MARGIN,
            width_px=width_px,
        ),
    )


GETS_GRADIENT = "gets gradient"  # the answer's cells, once revealed
WRONG_PICK = "wrong pick"  # a cell picked that gets none, framed once revealed


def answer_bars(
    labels: tuple[str, ...],
    counts: tuple[int, ...],
    right: tuple[bool, ...],
    *,
    title: str,
    width_px: float = style.ROOM_MAP_PX,
    most: int | None = None,
    lecture: bool = False,
) -> go.Figure:
    """One bar per answer given (labels in the axis' order, each with its count
    written over it); a bar marked right is green and its label ticked. Bars stand at
    0, 1, 2... with the labels as tick text, so two answers written alike stay two
    bars. `most`: the count the axis reaches (two votes side by side share it; the
    tallest bar's by default). Its text twin (answers.bars_twin) is a table of
    answer, count and share."""
    positions = list(range(len(labels)))
    ticks = [
        f"{label} ✓" if is_right else label for label, is_right in zip(labels, right, strict=True)
    ]
    colours = [style.RIGHT_BAR_COLOUR if is_right else style.BAR_COLOUR for is_right in right]
    most = max(counts, default=0) if most is None else most
    bar = dict(
        type="bar",
        x=positions,
        y=list(counts),
        text=[str(count) for count in counts],
        textposition="outside",
        cliponaxis=False,
        textfont=dict(size=style.BAR_TEXT_PX),
        marker=dict(color=colours),
        name="answers",
        customdata=ticks,
        hovertemplate="%{customdata}: %{y}<extra></extra>",
    )
    layout = layouts.base_layout(
        title=title,
        height=style.BARS_HEIGHT_PX,
        margin=style.BARS_MARGIN,
        width_px=width_px / layouts.lecture_scale(lecture),
    )
    layout["xaxis"] = dict(
        tickmode="array",
        tickvals=positions,
        ticktext=ticks,
        range=[-0.5, max(len(labels), 1) - 0.5],
        tickfont=dict(size=style.BAR_TEXT_PX),
        tickangle=0,
        showgrid=False,
    )
    layout["yaxis"] = dict(
        range=[0, max(most, 1) * 1.25],  # room above the tallest bar for its count
        dtick=max(1, int(np.ceil(max(most, 1) / 4))),
        gridcolor=style.GRID_LINE,
        tickfont=dict(size=style.TICK_FONT_PX),
        title=dict(text="answers"),
    )
    twin = bars_twin(title, labels=labels, counts=counts, right=right)
    layout["meta"] = {"twin": [twin.as_meta()]}  # read by ui/shared/twin.py
    return go.Figure(data=[bar], layout=layout)
