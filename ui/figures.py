"""Figures, built by pure functions that return `go.Figure` (no Streamlit here).

Conventions shared by every map: matrix orientation (row 0 on top, square cells),
every cell annotated with its number, gradients on a diverging scale centred on 0,
padding cells drawn grey and labelled with what pooling reads there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from .numbers import DECIMALS, fmt_grid

VALUE_SCALE = [[0.0, "#f7fbff"], [0.5, "#9ecae1"], [1.0, "#2171b5"]]
GRADIENT_SCALE = [
    [0.0, "#2166ac"],
    [0.25, "#92c5de"],
    [0.5, "#f7f7f7"],
    [0.75, "#f4a582"],
    [1.0, "#b2182b"],
]
COUNT_SCALE = [[0.0, "#fff7ec"], [1.0, "#d7301f"]]
PADDING_COLOUR = "#d9d9d9"
WINDOW_COLOUR = "#111111"
WINNER_COLOUR = "#f59e0b"
CELL_PX = 46
PLOT_WIDTH_PX = 320  # half the main column on a 1024-px screen, a third at 1400
MARGIN = dict(l=36, r=16, t=68, b=16)
FONT = dict(family="Inter, Arial, sans-serif", size=13)


@dataclass
class Overlay:
    """What to draw on top of a map.

    window: (top, left, bottom, right) inclusive cell bounds to outline, or None.
    marks: cells (row, col) to mark as winners.
    padding: padding width on each side (rows, cols) to draw around the grid.
    pad_label: text written in padding cells ("−∞" for max, "0" for average).
    """

    window: tuple[int, int, int, int] | None = None
    marks: list[tuple[int, int]] = field(default_factory=list)
    padding: tuple[int, int] = (0, 0)
    pad_label: str = ""


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
        font=dict(size=15),
    )


def symmetric_range(*arrays: np.ndarray) -> float:
    """Half-width of a colour range centred on 0 that holds every finite value."""
    finite = [np.abs(a[np.isfinite(a)]) for a in arrays if np.size(a)]
    largest = max((float(f.max()) for f in finite if f.size), default=0.0)
    return largest if largest > 0 else 1.0


def _scale(kind: str):
    return {"value": VALUE_SCALE, "gradient": GRADIENT_SCALE, "count": COUNT_SCALE}[kind]


def _colour_range(values: np.ndarray, kind: str, limit: float | None):
    if kind == "gradient":
        half = limit if limit is not None else symmetric_range(values)
        return -half, half
    finite = values[np.isfinite(values)]
    if not finite.size:
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    return (low, high) if high > low else (low - 1.0, high + 1.0)


def heatmap_traces(
    values: np.ndarray,
    kind: str,
    overlay: Overlay | None = None,
    colour_axis: str | None = None,
    limit: float | None = None,
    decimals: int = DECIMALS,
) -> list:
    """Trace dicts of one annotated map: a grey padding layer (if any), then the cells.
    values: (H, W); cells sit at x = col, y = row. Dicts, not go.Heatmap objects:
    Plotly validates them once, when the figure is built (64 maps stay fast)."""
    overlay = overlay or Overlay()
    height, width = values.shape
    pad_r, pad_c = overlay.padding
    traces = []
    if pad_r or pad_c:
        rows = np.arange(-pad_r, height + pad_r)
        cols = np.arange(-pad_c, width + pad_c)
        is_pad = (
            (rows[:, None] < 0)
            | (rows[:, None] >= height)
            | (cols[None, :] < 0)
            | (cols[None, :] >= width)
        )
        traces.append(
            dict(
                type="heatmap",
                z=np.where(is_pad, 0.0, np.nan),
                x=cols,
                y=rows,
                showscale=False,
                hoverinfo="skip",
                colorscale=[[0, PADDING_COLOUR], [1, PADDING_COLOUR]],
                xgap=2,
                ygap=2,
                text=np.where(is_pad, overlay.pad_label, ""),
                texttemplate="%{text}",
                textfont=dict(color="#555555", size=11),
                name="padding",
            )
        )
    low, high = _colour_range(values, kind, limit)
    cell = dict(
        type="heatmap",
        z=np.where(np.isfinite(values), values, np.nan) if kind != "value" else values,
        x=np.arange(width),
        y=np.arange(height),
        text=fmt_grid(values, decimals),
        texttemplate="%{text}",
        xgap=2,
        ygap=2,
        name=kind,
        hovertemplate="row %{y}, col %{x}: %{text}<extra></extra>",
    )
    if colour_axis:
        cell["coloraxis"] = colour_axis
    else:
        cell.update(colorscale=_scale(kind), zmin=low, zmax=high, showscale=False)
    traces.append(cell)
    return traces


def _cell_shape(kind: str, bounds, margin: float, colour: str, xref: str, yref: str) -> dict:
    """A shape over cells top..bottom, left..right, grown (or shrunk) by `margin` cells."""
    top, left, bottom, right = bounds
    return dict(
        type=kind,
        xref=xref,
        yref=yref,
        x0=left - margin,
        x1=right + margin,
        y0=top - margin,
        y1=bottom + margin,
        line=dict(color=colour, width=3),
    )


def winner_shape(cell: tuple[int, int], xref: str = "x", yref: str = "y") -> dict:
    """A ring inside a cell, sized in cell units so it scales with the grid."""
    return _cell_shape("circle", cell + cell, 0.36, WINNER_COLOUR, xref, yref)


def outline_shape(window: tuple[int, int, int, int], xref: str = "x", yref: str = "y") -> dict:
    """A rectangle around cells top..bottom, left..right (inclusive)."""
    return _cell_shape("rect", window, 0.5, WINDOW_COLOUR, xref, yref)


def matrix_axes(shape: tuple[int, int], padding: tuple[int, int] = (0, 0)) -> dict:
    """Layout axes for matrix orientation: row 0 on top, square cells, integer ticks on
    the real cells, column numbers along the top."""
    height, width = shape
    pad_r, pad_c = padding
    return dict(
        xaxis=dict(
            range=[-pad_c - 0.5, width + pad_c - 0.5],
            tickmode="array",
            tickvals=list(range(width)),
            showgrid=False,
            zeroline=False,
            side="top",
            constrain="domain",
            constraintoward="left",
        ),
        yaxis=dict(
            range=[height + pad_r - 0.5, -pad_r - 0.5],
            tickmode="array",
            tickvals=list(range(height)),
            showgrid=False,
            zeroline=False,
            constrain="domain",
            constraintoward="top",
            scaleanchor="x",
            scaleratio=1,
        ),
    )


def grid_figure(
    values,
    title: str,
    kind: str = "value",
    overlay: Overlay | None = None,
    limit: float | None = None,
    width_px: int = PLOT_WIDTH_PX,
    decimals: int = DECIMALS,
    annotate: bool = True,
) -> go.Figure:
    """One map, annotated with its numbers unless `annotate` is off (pictures).
    kind: "value", "gradient" (diverging, centred on 0) or "count"."""
    values = np.asarray(values, dtype=np.float64)
    overlay = overlay or Overlay()
    traces = heatmap_traces(values, kind, overlay, limit=limit, decimals=decimals)
    if not annotate:
        traces[-1]["texttemplate"] = None
    shapes = [winner_shape(cell) for cell in overlay.marks]
    if overlay.window is not None:
        shapes.append(outline_shape(overlay.window))
    rows = values.shape[0] + 2 * overlay.padding[0]
    cols = values.shape[1] + 2 * overlay.padding[1]
    # Everything in one layout dict: Plotly validates it once (add_shape per ring
    # re-validates all shapes each time, quadratic in the number of winners).
    layout = dict(
        **matrix_axes(values.shape, overlay.padding),
        shapes=shapes,
        title=title_style(title),
        font=FONT,
        margin=MARGIN,
        showlegend=False,
        plot_bgcolor="white",
        height=_height(rows, cols, width_px),
        dragmode=False,
    )
    return go.Figure(data=traces, layout=layout)


def _height(rows: int, cols: int, width_px: int = PLOT_WIDTH_PX) -> int:
    """Figure height for square cells when the plot gets about `width_px` pixels across:
    no taller than the cells need, so no empty band opens above or below the grid."""
    cell = min(CELL_PX, max(18, width_px // max(cols, 1)), max(18, 560 // max(rows, 1)))
    return int(rows * cell + MARGIN["t"] + MARGIN["b"])


def with_click_targets(figure: go.Figure, shape: tuple[int, int], name: str = "pick") -> go.Figure:
    """Overlay invisible points at cell centres: heatmap cells cannot be selected in
    st.plotly_chart, points can. Each point carries its (row, col) as x and y."""
    rows, cols = np.meshgrid(np.arange(shape[0]), np.arange(shape[1]), indexing="ij")
    figure.add_trace(
        go.Scatter(
            x=cols.ravel(),
            y=rows.ravel(),
            mode="markers",
            name=name,
            hoverinfo="skip",
            marker=dict(size=CELL_PX - 6, opacity=0.0, symbol="square"),
            showlegend=False,
        )
    )
    figure.update_layout(clickmode="event+select")
    return figure


MOSAIC_WIDTH_PX = 620  # between the main column at 1024 px (~500) and 1400 (~1000)


def _mosaic_cell_px(columns: int, width: int, width_px: int = MOSAIC_WIDTH_PX) -> int:
    """Pixels per cell when `columns` maps `width` wide share the main column: the
    figure's height follows from it, and the page's real width is not known here."""
    return min(CELL_PX, max(9, width_px // (columns * (width + 1))))


def small_multiples(
    maps: list[np.ndarray],
    titles: list[str],
    kind: str = "gradient",
    columns: int = 4,
    annotate: bool = True,
    limit: float | None = None,
    marks: list[list[tuple[int, int]]] | None = None,
    decimals: int = DECIMALS,
) -> go.Figure:
    """Many maps of one shape and kind in one figure, on one shared colour scale.

    The maps are tiled into a single heatmap (a mosaic with a blank column between
    maps and a title row above each), titles and winner rings are one trace each: 64
    maps then build in tens of milliseconds, where 64 subplots take seconds.
    maps: list of (H, W); marks: per map, the (row, col) cells to ring.
    """
    count = len(maps)
    columns = max(1, min(columns, count))
    rows = -(-count // columns)
    height, width = maps[0].shape
    tile_h, tile_w = height + 1, width + 1
    mosaic = np.full((rows * tile_h, columns * tile_w - 1), np.nan)
    text = np.full(mosaic.shape, "", dtype=object)
    title_x, title_y, ring_x, ring_y = [], [], [], []
    for index, values in enumerate(maps):
        top = (index // columns) * tile_h + 1
        left = (index % columns) * tile_w
        mosaic[top : top + height, left : left + width] = values
        text[top : top + height, left : left + width] = fmt_grid(values, decimals)
        title_x.append(left + (width - 1) / 2)
        title_y.append(top - 1)
        for row, col in marks[index] if marks else []:
            ring_x.append(left + col)
            ring_y.append(top + row)
    low, high = _colour_range(np.concatenate([np.ravel(m) for m in maps]), kind, limit)
    cell_px = _mosaic_cell_px(columns, width)
    traces = [
        dict(
            type="heatmap",
            z=mosaic,
            text=text,
            texttemplate="%{text}" if annotate else None,
            colorscale=_scale(kind),
            zmin=low,
            zmax=high,
            xgap=1,
            ygap=1,
            name=kind,
            hovertemplate="%{z:.4g}<extra></extra>",
            hoverongaps=False,
            colorbar=dict(
                thickness=12,
                len=min(1.0, 320 / max(mosaic.shape[0] * cell_px, 1)),
                yanchor="top",
                y=1,
            ),
        ),
        dict(
            type="scatter",
            x=title_x,
            y=title_y,
            text=titles,
            mode="text",
            hoverinfo="skip",
            textfont=dict(size=12, color="#444444"),
            name="titles",
        ),
    ]
    if ring_x:
        traces.append(
            dict(
                type="scatter",
                x=ring_x,
                y=ring_y,
                mode="markers",
                hoverinfo="skip",
                name="winner",
                marker=dict(
                    symbol="circle-open",
                    size=cell_px * 0.72,
                    color=WINNER_COLOUR,
                    line=dict(width=2),
                ),
            )
        )
    layout = dict(
        xaxis=dict(
            visible=False,
            range=[-0.5, mosaic.shape[1] - 0.5],
            constrain="domain",
            constraintoward="left",
        ),
        yaxis=dict(
            visible=False,
            range=[mosaic.shape[0] - 0.5, -0.7],
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
            constraintoward="top",
        ),
        font=FONT,
        margin=dict(l=8, r=8, t=8, b=8),
        showlegend=False,
        plot_bgcolor="white",
        dragmode=False,
        height=int(mosaic.shape[0] * cell_px + 24),
    )
    return go.Figure(data=traces, layout=layout)  # one validation pass for everything


ROUTE_COLOUR = "#c2410c"
ROUTE_FADED = "rgba(110, 110, 110, 0.45)"


def _route_lines(shares: np.ndarray, lift: float, x_left: float, selected, chosen: bool) -> dict:
    """One trace of arrows, from the right edge of each y cell to the left edge of every
    x cell it sends to (so neither number is covered): the selected output's arrows
    (chosen) or all the others. Segments are separated by None points."""
    xs, ys, symbols = [], [], []
    for oh, ow, h, w in np.argwhere(shares != 0):
        if (selected == (oh, ow)) != chosen:
            continue
        xs += [ow + 0.45, x_left + w - 0.42, None]
        ys += [oh + lift, h, None]
        symbols += ["circle", "arrow", "circle"]
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines+markers",
        hoverinfo="skip",
        name="selected route" if chosen else "routes",
        line=dict(color=ROUTE_COLOUR if chosen else ROUTE_FADED, width=3 if chosen else 1.3),
        marker=dict(
            symbol=symbols,
            angleref="previous",
            size=11 if chosen else 8,
            color=ROUTE_COLOUR if chosen else ROUTE_FADED,
        ),
    )


def routing_figure(
    output: np.ndarray,
    x: np.ndarray,
    shares: np.ndarray,
    selected: tuple[int, int] | None = None,
    title: str = "Routing",
) -> go.Figure:
    """y on the left, x on the right, a line from each output cell to every cell it
    sends a share of its gradient to (width grows with the share).

    output: (OH, OW); x: (H, W); shares: (OH, OW, H, W).
    """
    out_h, out_w = output.shape
    height, width = x.shape
    gap = 1.5
    lift = (height - out_h) / 2  # centre the smaller grid vertically
    x_left = out_w - 1 + gap + 1  # first column of the input grid
    figure = go.Figure()
    for chosen in (False, True):
        figure.add_trace(_route_lines(shares, lift, x_left, selected, chosen))
    for trace in heatmap_traces(output, "value"):
        trace.update(y=np.arange(out_h) + lift, name="y")
        figure.add_trace(trace)
    for trace in heatmap_traces(x, "value"):
        trace.update(x=np.arange(width) + x_left, name="x")
        figure.add_trace(trace)
    if selected is not None:
        oh, ow = selected
        figure.add_shape(outline_shape((oh + lift, ow, oh + lift, ow)))
    top = min(-0.5, lift - 0.5)
    figure.update_xaxes(
        visible=False,
        range=[-0.6, x_left + width - 0.4],
        constrain="domain",
        constraintoward="left",
    )
    figure.update_yaxes(
        visible=False,
        range=[max(height, out_h + lift) - 0.4, top - 0.6],
        scaleanchor="x",
        scaleratio=1,
        constrain="domain",
        constraintoward="top",
    )
    figure.add_annotation(x=(out_w - 1) / 2, y=top - 0.35, text="<b>y</b>", showarrow=False)
    figure.add_annotation(
        x=x_left + (width - 1) / 2, y=top - 0.35, text="<b>x</b>", showarrow=False
    )
    figure.update_layout(
        title=title_style(title),
        font=FONT,
        margin=MARGIN,
        showlegend=False,
        plot_bgcolor="white",
        dragmode=False,
        height=_height(max(height, out_h) + 1, x_left + width, 2 * PLOT_WIDTH_PX),
    )
    return figure


def jacobian_figure(
    matrix: np.ndarray,
    out_shape: tuple[int, int],
    in_shape: tuple[int, int],
    title: str = "Jacobian",
) -> go.Figure:
    """J: (OH*OW, H*W), rows = output cells, columns = input cells, numbers on small ones."""
    rows, cols = matrix.shape
    out_labels = [f"y{r},{c}" for r, c in np.ndindex(*out_shape)]
    in_labels = [f"x{r},{c}" for r, c in np.ndindex(*in_shape)]
    annotate = rows * cols <= 40 * 40
    figure = go.Figure(
        go.Heatmap(
            z=matrix,
            x=in_labels,
            y=out_labels,
            colorscale=VALUE_SCALE,
            zmin=0,
            zmax=max(1.0, float(matrix.max())),
            showscale=False,
            xgap=1,
            ygap=1,
            text=np.where(matrix != 0, fmt_grid(matrix), "") if annotate else None,
            texttemplate="%{text}" if annotate else None,
            hovertemplate="%{y} ← %{x}: %{z}<extra></extra>",
        )
    )
    cell = max(10, min(30, 600 // max(cols, 1)))  # the page's width is not known here
    figure.update_xaxes(side="top", tickangle=-90, showgrid=False, tickfont=dict(size=10))
    figure.update_yaxes(
        autorange="reversed",
        showgrid=False,
        tickfont=dict(size=10),
        scaleanchor="x",
        scaleratio=1,
        constrain="domain",
        constraintoward="top",
    )
    figure.update_layout(
        title=title_style(title),
        font=FONT,
        margin=dict(l=60, r=16, t=110, b=16),
        plot_bgcolor="white",
        dragmode=False,
        height=int(rows * cell + 140),
    )
    return figure


def line_figure(
    y_values, title: str, x_title: str, y_title: str, marker_at: int | None = None, first_x: int = 0
) -> go.Figure:
    """A small line chart (loss curve, positions reached); x = first_x, first_x + 1, ..."""
    y_values = np.asarray(y_values, dtype=np.float64)
    xs = np.arange(len(y_values)) + first_x
    figure = go.Figure(
        go.Scatter(
            x=xs,
            y=y_values,
            mode="lines+markers",
            line=dict(color="#2171b5", width=2.5),
            marker=dict(size=6),
            hovertemplate=f"{x_title} %{{x}}: %{{y:.4f}}<extra></extra>",
        )
    )
    if marker_at is not None:
        figure.add_trace(
            go.Scatter(
                x=[xs[marker_at]],
                y=[y_values[marker_at]],
                mode="markers",
                marker=dict(size=13, color=ROUTE_COLOUR),
                hoverinfo="skip",
            )
        )
    figure.update_layout(
        title=title_style(title),
        xaxis_title=x_title,
        yaxis_title=y_title,
        showlegend=False,
        font=FONT,
        height=280,
        plot_bgcolor="white",
        margin=dict(l=56, r=16, t=48, b=44),
        dragmode=False,
    )
    figure.update_xaxes(gridcolor="#eeeeee", zeroline=False, rangemode="tozero")
    figure.update_yaxes(gridcolor="#eeeeee", zeroline=False)
    return figure
