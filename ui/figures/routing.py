"""Routing: one dL/dy cell and the input cells its gradient reaches.

dL/dy on the left, the input grid on the right with what this one window sends each
cell. Routes run along the gutters between cells (below the dL/dy row, down the gap,
along the gutter above the target row) and end in the top of the target cell, so no
line crosses a number, at 2x2 or at 16x16.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from teaching.map_twin import IN_WINDOW, PICKED, map_twin
from teaching.numbers import DECIMALS, fmt_grid
from ui.figures import layouts, sizes, style
from ui.figures.grid import SharedRange, cells_trace
from ui.figures.labels import DIGIT_TOP_EM, fit_labels, widest_px
from ui.figures.marks import line_trace, outline_traces

GAP = 2.0  # cells between the two grids


def route_path(
    start: tuple[float, float], targets, lane_x: float, *, head: float
) -> tuple[list, list]:
    """x, y of Manhattan routes from `start` (a gutter corner) to each target (x, y)
    cell centre's arrow head, `head` rows from the centre (negative: above), via the
    vertical lane at `lane_x` and the gutter over the target; segments split by None."""
    xs, ys = [], []
    for x, y in targets:
        xs += [start[0], lane_x, lane_x, x, x, None]
        ys += [start[1], start[1], y - 0.5, y - 0.5, y + head, None]
    return xs, ys


def arrow_head(cell_px: float, font_px: float) -> tuple[float, float]:
    """An arrow head that hangs from the top edge of a cell drawn at least `cell_px`
    wide and stops ARROW_CLEAR_PX short of the digits of its number, written at
    `font_px`: its size in px (style.ARROW_PX where there is room) and where Plotly
    puts it, in rows from the cell's centre. Plotly's "triangle-down" of size s runs
    from s/4 over that point to its tip s/2 under it: 3s/4 in all."""
    spare_px = cell_px / 2 - DIGIT_TOP_EM * font_px - style.ARROW_CLEAR_PX
    size = min(style.ARROW_PX, spare_px * 4 / 3)
    return size, -0.5 + size / 4 / cell_px


def routing_figure(
    grad_output: np.ndarray,
    sent: np.ndarray,
    *,
    out_cell: tuple[int, int],
    window: tuple[tuple[int, int], ...],
    shared_range: SharedRange | None = None,
    title: str,
    width_px: int = style.MAIN_PX,
    lecture: bool = False,
) -> go.Figure:
    """grad_output: (OH, OW); sent: (H, W), what output `out_cell` sends each input cell
    (0 elsewhere); window: the real cells it reads; shared_range: the arrays the
    gradient colour scale spans, shared with the page's other gradient maps (these two
    grids if None); lecture: laid out for lecture size. Every number of dL/dy and every
    amount sent is written in its cell (labels.fit_labels, both grids alike)."""
    out_h, out_w = grad_output.shape
    height, width = sent.shape
    lift = max(0, (height - out_h) // 2)  # centre the smaller grid, rows still aligned
    x_left = out_w + GAP
    receivers = np.argwhere(sent != 0)
    total_cols, total_rows = x_left + width, max(height, out_h + lift)
    layout_px = width_px / layouts.lecture_scale(lecture)  # before lecture mode scales it up
    if shared_range is None:
        shared_range = (grad_output, sent)
    laid_out = sizes.cell_px(int(np.ceil(total_rows)), int(np.ceil(total_cols)), layout_px)
    fit = fit_labels(
        np.concatenate([grad_output.ravel(), sent.ravel()]),
        cell_px=laid_out,
        decimals=DECIMALS,
        lecture=lecture,
        keep=np.concatenate([np.ones(grad_output.size, bool), sent.ravel() != 0]),
    )
    size = fit.cell_px
    grown = size > laid_out  # for its numbers: keeps its own width
    grids = grid_traces(
        grad_output, sent, fit=fit, shared_range=shared_range, lift=lift, x_left=x_left
    )
    # A grown map keeps its own, least width, which draws its cells at the snug size.
    widest = widest_px(fit.labels.ravel(), fit.font_px)
    cell = sizes.drawn_cell(size, laid_out, widest)
    arrows = route_traces(
        receivers, out_cell=out_cell, lift=lift, x_left=x_left, cell=cell, font_px=fit.font_px
    )
    picked = outline_traces([(out_cell[0] + lift, out_cell[1])], name="dL/dy cell")
    frame = outline_traces([(row, col + x_left) for row, col in window])
    layout = routing_layout(
        (total_rows, total_cols),
        cell=cell,
        grown=grown,
        title=title,
        heads=(((out_w - 1) / 2, "dL/dy"), (x_left + (width - 1) / 2, "sent to x")),
    )
    layout["meta"] = {
        "twin": routing_twins(grad_output, sent, out_cell=out_cell, window=window, title=title)
    }
    traces = [*grids, *arrows, *picked, *frame]
    return go.Figure(data=traces, layout=layout)


def grid_traces(grad_output, sent, *, fit, shared_range, lift: float, x_left: float) -> list:
    """x's grey backdrop, dL/dy's cells (lifted `lift` rows: centred beside x) and the
    amounts sent x (from column `x_left`), written as `fit` fitted them: three traces."""
    out_h = grad_output.shape[0]
    height, width = sent.shape
    labels = np.split(fit.labels, [grad_output.size])
    gradient = cells_trace(
        grad_output,
        kind="gradient",
        shared_range=shared_range,
        labels=labels[0].reshape(grad_output.shape),
        annotate=True,
        hover=fmt_grid(grad_output, 6),
        font_px=fit.font_px,
    )
    gradient.update(y=np.arange(out_h) + lift, name="dL/dy")
    sent_only = np.where(sent != 0, sent, np.nan)  # a cell sent nothing stays blank
    received = cells_trace(
        sent_only,
        kind="gradient",
        shared_range=shared_range,
        labels=labels[1].reshape(sent.shape),
        annotate=True,
        hover=fmt_grid(sent, 6),
        font_px=fit.font_px,
    )
    received.update(x=np.arange(width) + x_left, name="sent")
    backdrop = dict(
        type="heatmap",
        z=np.zeros((height, width)),
        x=np.arange(width) + x_left,
        y=np.arange(height),
        colorscale=[[0, style.BACKDROP_COLOUR], [1, style.BACKDROP_COLOUR]],
        showscale=False,
        hoverinfo="skip",
        xgap=style.CELL_GAP_PX,
        ygap=style.CELL_GAP_PX,
        name="x",
    )
    return [backdrop, gradient, received]


def route_traces(receivers, *, out_cell, lift: float, x_left: float, cell: float, font_px: float):
    """The routes from dL/dy's picked cell to each receiving cell of x (`receivers`:
    (N, 2) rows and columns), and their arrow heads: two traces."""
    arrow_px, head = arrow_head(cell, font_px)
    xs, ys = route_path(
        (out_cell[1] + 0.5, out_cell[0] + lift + 0.5),
        [(x_left + col, row) for row, col in receivers],
        x_left - GAP / 2 - 0.5,  # the gutter in the middle of the gap
        head=head,
    )
    routes = line_trace(
        xs, ys, colour=style.ROUTE_COLOUR, width=style.ROUTE_WIDTH_PX, name="routes"
    )
    heads = dict(
        type="scatter",
        x=[x_left + col for _, col in receivers],
        y=[row + head for row, _ in receivers],
        mode="markers",
        marker=dict(symbol="triangle-down", size=arrow_px, color=style.ROUTE_COLOUR),
        hoverinfo="skip",
        name="arrow heads",
    )
    return [routes, heads]


def routing_layout(extent, *, cell: float, grown: bool, title: str, heads) -> dict:
    """The two grids' axes (square cells, row 0 on top) under a line of their names
    (`heads`: (x, name) each), the height, and the least width holding cells `grown`
    for their numbers. extent: (rows, columns) both grids span."""
    total_rows, total_cols = extent
    header = style.ROUTING_HEADER_PX / cell  # in rows: one line over the grids
    top, bottom = -0.5 - header, total_rows - 0.4  # 0.1 of a row under the last
    margin = style.ROUTING_MARGIN
    return dict(
        xaxis=dict(
            visible=False,
            range=[-0.6, total_cols - 0.4],
            constrain="domain",
            constraintoward="left",
        ),
        yaxis=dict(
            visible=False,
            range=[bottom, top],
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
            constraintoward="top",
        ),
        annotations=[
            dict(x=x, y=-0.5 - header / 2, text=f"<b>{name}</b>", showarrow=False)
            for x, name in heads
        ],
        **layouts.base_layout(
            title=title,
            height=math.ceil((bottom - top) * cell + margin["t"] + margin["b"]),
            margin=margin,
            # Cells grown for their numbers: the least width holding them (x spans 0.2 more).
            own_width=sizes.own_width((total_cols + 0.2) * cell, margin) if grown else None,
        ),
    )


def routing_twins(grad_output, sent, *, out_cell, window, title: str) -> list[dict]:
    """The two grids' text twins (teaching/map_twin), as layout.meta holds them, named
    after the figure's title: dL/dy with the picked cell, and what it sends x with the
    window's cells."""
    picked = {PICKED: [tuple(out_cell)]}
    return [
        map_twin(
            f"{title}: dL/dy", grad_output, cells=gradient_words(grad_output), marks=picked
        ).as_meta(),
        map_twin(
            f"{title}: sent to x",
            sent,
            cells=gradient_words(sent),
            marks={IN_WINDOW: window},
            receiving=True,
        ).as_meta(),
    ]


def gradient_words(values: np.ndarray) -> np.ndarray:
    """values as the hover writes them: the true values."""
    return fmt_grid(values, 6)
