"""The pooling layer as a matrix: for a fixed input, y = J x."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..shared.numbers import fmt_grid
from . import style


def jacobian_figure(
    matrix: np.ndarray, *, out_shape: tuple[int, int], in_shape: tuple[int, int], title: str
) -> go.Figure:
    """J: (OH*OW, H*W), rows = output cells, columns = input cells; non-zero entries
    written in while they fit."""
    rows, cols = matrix.shape
    out_labels = [f"y{r},{c}" for r, c in np.ndindex(*out_shape)]
    in_labels = [f"x{r},{c}" for r, c in np.ndindex(*in_shape)]
    cell = max(10, min(34, 600 // max(cols, 1)))  # the page's width is not known here
    labels = np.where(matrix != 0, fmt_grid(matrix), "")
    annotate = style.fits_in_cell(labels.ravel(), cell)
    heatmap = dict(
        type="heatmap",
        z=matrix,
        x=in_labels,
        y=out_labels,
        colorscale=style.VALUE_SCALE,
        zmin=0,
        zmax=max(1.0, float(matrix.max())),
        showscale=False,
        xgap=1,
        ygap=1,
        text=labels,
        texttemplate="%{text}" if annotate else None,
        textfont=dict(size=style.CELL_FONT_PX),
        hovertemplate="%{y} ← %{x}: %{z}<extra></extra>",
        name="J",
    )
    ticks = dict(showgrid=False, tickfont=dict(size=12))
    layout = dict(
        xaxis=dict(side="top", tickangle=-90, **ticks),
        yaxis=dict(
            autorange="reversed",
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
            constraintoward="top",
            **ticks,
        ),
        **style.base_layout(
            title=title, height=rows * cell + 150, margin=dict(l=64, r=16, t=120, b=16)
        ),
    )
    return go.Figure(data=[heatmap], layout=layout)
