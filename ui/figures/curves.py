"""Line charts: the loss over training steps, positions reached, y = max(a, b)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from teaching.map_twin import curve_twin, max_curve_twin
from teaching.numbers import fmt
from ui.figures import layouts, style

AXES = dict(gridcolor=style.GRID_LINE, zeroline=False, tickfont=dict(size=style.TICK_FONT_PX))


def x_dtick(points: int) -> int:
    """The step between x ticks of a curve of `points` points: about eight ticks."""
    return max(1, points // 8)


def line_figure(
    y_values,
    *,
    title: str,
    x_title: str,
    y_title: str,
    marker_at: int | None = None,
    first_x: int = 0,
) -> go.Figure:
    """A small line chart; x = first_x, first_x + 1, ... with whole-number ticks."""
    y_values = np.asarray(y_values, dtype=np.float64)
    xs = np.arange(len(y_values)) + first_x
    traces = [
        dict(
            type="scatter",
            x=xs,
            y=y_values,
            mode="lines+markers",
            line=dict(color=style.LINE_COLOUR, width=style.CURVE_WIDTH_PX),
            marker=dict(size=style.POINT_PX),
            hovertemplate=f"{x_title} %{{x}}: %{{y:.4g}}<extra></extra>",
            name=y_title,
            cliponaxis=False,  # the axis starts at the first point: its marker whole
        )
    ]
    if marker_at is not None:
        traces.append(
            dict(
                type="scatter",
                x=[xs[marker_at]],
                y=[y_values[marker_at]],
                mode="markers",
                marker=dict(size=style.NOW_PX, color=style.ROUTE_COLOUR),
                hoverinfo="skip",
                name="now",
                cliponaxis=False,
            )
        )
    layout = dict(
        xaxis=dict(
            title=x_title,
            # A curve from past 1 (a block of a longer run) is drawn over its own x.
            rangemode="tozero" if first_x <= 1 else "normal",
            tickformat="d",
            dtick=x_dtick(len(xs)),
            **AXES,
        ),
        yaxis=dict(title=y_title, **AXES),
        **layouts.base_layout(
            title=title, height=style.LINE_CHART_PX, margin=style.LINE_CHART_MARGIN
        ),
    )
    # Its text twin (ui/shared/twin.py shows it): a row per point, the marker's marked.
    twin = curve_twin(
        title, xs=xs.tolist(), ys=y_values, titles=(x_title, y_title), current=marker_at
    )
    layout["meta"] = {"twin": [twin.as_meta()]}
    return go.Figure(data=traces, layout=layout)


def max_curve_figure(a: float, b: float) -> go.Figure:
    """y = max(a, b) as a function of a, b held fixed: flat (slope 0), then slope 1."""
    title = f"y = max(a, {fmt(b)}) as a moves"
    span = max(3.0, abs(a - b) + 2.0)
    grid = np.linspace(b - span, b + span, 201)
    traces = [
        dict(
            type="scatter",
            x=grid,
            y=np.maximum(grid, b),
            mode="lines",
            line=dict(color=style.LINE_COLOUR, width=style.MAX_CURVE_WIDTH_PX),
            hoverinfo="skip",
            name="max",
        ),
        dict(
            type="scatter",
            x=[a],
            y=[max(a, b)],
            mode="markers",
            marker=dict(size=style.NOW_PX, color=style.ROUTE_COLOUR),
            hoverinfo="skip",
            name="a now",
        ),
    ]
    shift = style.SLOPE_LABEL_SHIFT
    annotations = [
        dict(x=b - 0.8 * span, y=b, text="slope 0: a loses", showarrow=False, **shift["flat"]),
        dict(
            x=b + span / 2,
            y=b + span / 2,
            text="slope 1: a wins",
            showarrow=False,
            **shift["rising"],
        ),
    ]
    layout = dict(
        xaxis=dict(title="a", **AXES),
        yaxis=dict(title="y", **AXES),
        annotations=annotations,
        **layouts.base_layout(
            title=title,
            height=style.MAX_CURVE_PX,
            margin=style.MAX_CURVE_MARGIN,
        ),
    )
    twin = max_curve_twin(title, a=a, b=b, span=span)
    layout["meta"] = {"twin": [twin.as_meta()]}
    return go.Figure(data=traces, layout=layout)
