"""The pooling layer as a matrix: for a fixed input, y = J x."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from teaching.map_twin import map_twin
from teaching.numbers import DECIMALS, fmt_grid
from ui.figures import layouts, style
from ui.figures.labels import LabelFit, fit_labels


def jacobian_figure(
    matrix: np.ndarray,
    *,
    out_shape: tuple[int, int],
    in_shape: tuple[int, int],
    title: str,
    lecture: bool = False,
) -> go.Figure:
    """J: (OH*OW, H*W), rows = output cells, columns = input cells; every non-zero
    entry written in (labels.fit_labels); lecture: laid out for lecture size."""
    out_labels = [f"y{r},{c}" for r, c in np.ndindex(*out_shape)]
    in_labels = [f"x{r},{c}" for r, c in np.ndindex(*in_shape)]
    fit = _fitted(matrix, lecture=lecture)
    heatmap = _heatmap(matrix, fit, out_labels=out_labels, in_labels=in_labels)
    layout = _layout(matrix.shape, cell_px=fit.cell_px, title=title)
    twin = map_twin(title, matrix, cells=heatmap["customdata"], marks={})
    headers = (tuple(out_labels), tuple(in_labels))
    layout["meta"] = {"twin": [replace(twin, headers=headers).as_meta()]}  # ui/shared/twin.py
    return go.Figure(data=[heatmap], layout=layout)


def _fitted(matrix: np.ndarray, *, lecture: bool) -> LabelFit:
    """J's (OH*OW, H*W) cells at the size that fits the page, every non-zero entry's
    label fitted to it (labels.fit_labels)."""
    # The page's width is not known here: a main column on a projector is the narrowest.
    layout_px = style.MAIN_PX / layouts.lecture_scale(lecture)
    layout_px -= style.JACOBIAN_MARGIN["l"] + style.JACOBIAN_MARGIN["r"]
    smallest, largest = style.JACOBIAN_CELL_PX
    cols = matrix.shape[1]
    return fit_labels(
        matrix,
        cell_px=max(smallest, min(largest, layout_px // max(cols, 1))),
        decimals=DECIMALS,
        lecture=lecture,
        keep=matrix != 0,
    )


def _heatmap(matrix: np.ndarray, fit: LabelFit, *, out_labels: list, in_labels: list) -> dict:
    """J (OH*OW, H*W) as Plotly's heatmap dict: rows named by output cell, columns by
    input cell, each cell hovered with its six-decimal value."""
    return dict(
        type="heatmap",
        z=matrix,
        x=in_labels,
        y=out_labels,
        colorscale=style.VALUE_SCALE,
        zmin=0,
        zmax=max(1.0, float(matrix.max())),
        showscale=False,
        xgap=style.THIN_GAP_PX,
        ygap=style.THIN_GAP_PX,
        text=fit.labels,
        texttemplate="%{text}",
        textfont=dict(size=fit.font_px),
        customdata=fmt_grid(matrix, 6),
        hovertemplate="%{y} ← %{x}: %{customdata}<extra></extra>",
        name="J",
    )


def _layout(shape: tuple[int, int], *, cell_px: float, title: str) -> dict:
    """The layout of a (rows, cols) J drawn at cell_px: input cells named along the
    top, square cells, the figure as tall and as wide as its cells and margins."""
    rows, cols = shape
    margin = style.JACOBIAN_MARGIN
    frame = margin["t"] + margin["b"] + style.JACOBIAN_SPARE_PX
    ticks = dict(showgrid=False, tickfont=dict(size=style.TICK_FONT_PX))
    return dict(
        xaxis=dict(side="top", tickangle=-90, **ticks),
        yaxis=dict(
            autorange="reversed",
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
            constraintoward="top",
            **ticks,
        ),
        **layouts.base_layout(title=title, height=rows * cell_px + frame, margin=margin),
        # Its own width, which a narrower column scrolls (chart(scroll=True)) rather
        # than squeezes below the numbers' cells.
        width=int(cols * cell_px + margin["l"] + margin["r"]),
    )
