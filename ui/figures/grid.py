"""One annotated map of a grid, in matrix orientation, with its overlays.

Conventions every map shares: row 0 on top and square cells; each cell's number in
it, at CELL_FONT_PX or shrunk to the 12-px floor, rounded, or in a bigger cell (see
labels.fit_labels), never left out; padding
cells grey and labelled with what pooling reads there; the current window outlined
along the exact cells it reads (a dilated window is not a solid box); winners marked
by a star in the cell's corner, or a frame along its edges (marks.marks_traces); its
text twin (name, summary, cells with their marks in words) in layout.meta. A
gradient map's colour scale is centred on 0 and decided here, from the map's own values
or from the group it is compared with (`shared_range`), so that maps side by side read
alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from pooling.config import Cell
from teaching.map_twin import IN_WINDOW, WINNER, map_twin
from teaching.numbers import (
    DECIMALS,
    NEAR_ZERO,
    common_exponent,
    fmt_grid,
    power_of_ten,
    symmetric_range,
)
from ui.figures import layouts, sizes, style
from ui.figures.labels import LabelFit, fit_labels, widest_px
from ui.figures.marks import marks_traces, outline_traces


@dataclass(frozen=True)
class Overlay:
    """What to draw on top of a map.

    window: the cells (row, col) the current window reads; rows and columns may lie in
        the padding (negative, or past the grid). Outlined along their outer edges.
    marks: cells to mark as winners.
    padding: padding width on each side (rows, cols) to draw around the grid.
    pad_label: text written in padding cells ("−∞" for max, "0" for average).
    """

    window: tuple[Cell, ...] = ()
    marks: tuple[Cell, ...] = ()
    padding: tuple[int, int] = (0, 0)
    pad_label: str = ""


SharedRange = tuple[np.ndarray, ...]


def colour_range(
    values: np.ndarray, kind: str, shared_range: SharedRange | None = None
) -> tuple[float, float]:
    """zmin, zmax: for gradients symmetric about 0, wide enough for every finite value
    of `shared_range` (the arrays of the maps compared with this one; this map's own
    values if None), so one gradient reads the same colour on each; the data's span
    otherwise."""
    if kind == "gradient":
        half = symmetric_range(*(shared_range if shared_range is not None else (values,)))
        return -half, half
    finite = values[np.isfinite(values)]
    if not finite.size:
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    return (low, high) if high > low else (low - 1.0, high + 1.0)


def padding_trace(
    shape: tuple[int, int],
    padding: tuple[int, int],
    label: str,
    font_px: float = style.CELL_FONT_PX,
) -> dict:
    """Grey cells around a (H, W) grid, each labelled with what pooling reads there."""
    height, width = shape
    pad_r, pad_c = padding
    rows = np.arange(-pad_r, height + pad_r)
    cols = np.arange(-pad_c, width + pad_c)
    is_pad = (rows[:, None] < 0) | (rows[:, None] >= height) | (cols < 0) | (cols >= width)
    return dict(
        type="heatmap",
        z=np.where(is_pad, 0.0, np.nan),
        x=cols,
        y=rows,
        showscale=False,
        hoverinfo="skip",
        colorscale=[[0, style.PADDING_COLOUR], [1, style.PADDING_COLOUR]],
        xgap=style.CELL_GAP_PX,
        ygap=style.CELL_GAP_PX,
        text=np.where(is_pad, label, ""),
        texttemplate="%{text}",
        textfont=dict(color=style.PADDING_TEXT, size=font_px),
        name="padding",
    )


def cells_trace(
    values: np.ndarray,
    *,
    kind: str,
    shared_range: SharedRange | None = None,
    labels: np.ndarray,
    annotate: bool,
    hover: np.ndarray | None = None,
    font_px: float = style.CELL_FONT_PX,
) -> dict:
    """The map itself: values (H, W) at x = col, y = row; labels (H, W) strings written
    in the cells at `font_px`; hover (H, W) strings for the tooltip (the labels if
    None); shared_range: see colour_range."""
    low, high = colour_range(values, kind, shared_range)
    height, width = values.shape
    return dict(
        type="heatmap",
        z=np.where(np.isfinite(values), values, np.nan) if kind != "value" else values,
        x=np.arange(width),
        y=np.arange(height),
        text=labels,
        texttemplate="%{text}" if annotate else None,
        textfont=dict(size=font_px),
        xgap=style.CELL_GAP_PX,
        ygap=style.CELL_GAP_PX,
        name=kind,
        customdata=labels if hover is None else hover,
        hovertemplate="row %{y}, col %{x}: %{customdata}<extra></extra>",
        colorscale=style.SCALES[kind],
        zmin=low,
        zmax=high,
        showscale=False,
    )


def click_trace(shape: tuple[int, int], labels: np.ndarray, cell_px: float) -> dict:
    """Invisible points at cell centres: heatmap cells cannot be selected in
    st.plotly_chart, points can. They keep their hover (with hoverinfo "skip" a click
    selects nothing) and say the cell's value, as the heatmap would."""
    rows, cols = np.meshgrid(np.arange(shape[0]), np.arange(shape[1]), indexing="ij")
    size = max(style.CLICK_MIN_PX, cell_px - style.MARK_INSET_PX)
    return dict(
        type="scatter",
        x=cols.ravel(),
        y=rows.ravel(),
        customdata=np.asarray(labels).ravel(),
        mode="markers",
        name="pick",
        hovertemplate="row %{y}, col %{x}: %{customdata}<br>pick it: click or tap<extra></extra>",
        marker=dict(size=size, opacity=0.0, symbol="square"),
    )


@dataclass(frozen=True)
class MapNumbers:
    """How a map's numbers are written, decided once: in units of 10^exponent, at the
    fit's font and decimals in cells fit.cell_px wide (fit.labels: the labels of the
    values it was decided on), the hover keeping the true values where `rounded`."""

    exponent: int
    fit: LabelFit
    rounded: bool

    def labels(self, values: np.ndarray) -> np.ndarray:
        """values (any shape) written as this map writes them."""
        return fmt_grid(np.asarray(values, float) / 10.0**self.exponent, self.fit.decimals)

    def hover(self, values: np.ndarray) -> np.ndarray:
        """What the tooltip says for values: the true values where labels round."""
        return fmt_grid(values, HOVER_DECIMALS) if self.rounded else self.labels(values)


HOVER_DECIMALS = 6


def map_numbers(
    values: np.ndarray,
    *,
    kind: str,
    cell_px: float,
    decimals: int,
    lecture: bool,
    also: tuple[str, ...] = (),
) -> MapNumbers:
    """How the numbers of `values` are written in cells about `cell_px` wide. values:
    (H, W), or (F, H, W): every frame a map is drawn at, so that they read alike."""
    exponent = common_exponent(values, decimals) if kind == "gradient" else 0
    fit = fit_labels(
        values / 10.0**exponent, cell_px=cell_px, decimals=decimals, lecture=lecture, also=also
    )
    rounded = bool(exponent or fit.decimals < decimals or NEAR_ZERO in fit.labels)
    return MapNumbers(exponent, fit, rounded)


def cell_and_widest(fit, column_cell: float, pad_label: str | None = None):
    """(the cell a map whose numbers are fitted as `fit` is drawn at, in a column whose
    cell is `column_cell` (sizes.drawn_cell); its widest number): what its winner marks
    are sized by, in the figure and in the frames the browser draws. `pad_label`: the
    padding's label, written in its cells too (it counts for the cell), or None."""
    widest = widest_px(fit.labels.ravel(), fit.font_px)
    with_pad = widest_px([pad_label], fit.font_px) if pad_label else 0.0
    return sizes.drawn_cell(fit.cell_px, column_cell, max(widest, with_pad)), widest


@dataclass(frozen=True, eq=False)  # eq=False: shared_range and fit_over hold arrays
class GridOptions:
    """How grid_figure draws a map.

    kind: "value", "gradient" (diverging, centred on 0; its range spans `shared_range`
        if given, the arrays of the maps it is compared with, else its own values) or
        "count".
    overlay: the window, winners and padding drawn on it.
    width_px: about how wide the column it is placed in is.
    decimals: the most decimals a number is written with.
    annotate: every cell's number written in it (labels.fit_labels: shrunk, rounded or
        in a bigger cell as needed; a gradient map of tiny numbers in units of a power
        of ten, said in its title; the hover keeps the true values); else colour only.
    clickable: the click targets added.
    fit_over: (F, H, W), every frame the browser will draw this map at
        (ui/figures/frame_data.py): the numbers are fitted over all of them, so each
        frame's fit its cells alike.
    title_lines: the least lines the title takes (frames whose titles wrap longer).
    receiving: a gradient sent into x (dL/dx): its text twin names the cells that
        receive a nonzero gradient (teaching/map_twin.receivers).
    """

    kind: str = "value"
    overlay: Overlay = Overlay()
    shared_range: SharedRange | None = None
    width_px: int = style.HALF_PX
    decimals: int = DECIMALS
    annotate: bool = True
    clickable: bool = False
    fit_over: np.ndarray | None = None
    title_lines: int = 1
    receiving: bool = False


def grid_figure(
    values, *, title: str, options: GridOptions = GridOptions(), lecture: bool = False
) -> go.Figure:
    """One map. values: (H, W), drawn as `options` says; `lecture`: laid out for
    lecture size (look.styled then draws it LECTURE_SCALE times bigger)."""
    values = np.asarray(values, dtype=np.float64)
    overlay, annotate = options.overlay, options.annotate
    rows = values.shape[0] + 2 * overlay.padding[0]
    cols = values.shape[1] + 2 * overlay.padding[1]
    layout_px = options.width_px / layouts.lecture_scale(lecture)  # before lecture scales it
    column_cell = sizes.cell_px(rows, cols, layout_px)
    padded = any(overlay.padding)
    numbers = map_numbers(
        values if options.fit_over is None else np.asarray(options.fit_over, dtype=np.float64),
        kind=options.kind if annotate else "value",
        cell_px=column_cell,
        decimals=options.decimals,
        lecture=lecture,
        also=(overlay.pad_label,) if padded and annotate else (),
    )
    fit = numbers.fit
    size, labels, hover = fit.cell_px, numbers.labels(values), numbers.hover(values)
    if options.fit_over is None and not numbers.rounded:
        hover = None
    if not annotate:  # colour only, by the page's choice: the hover says the numbers
        size, labels = column_cell, fmt_grid(values, options.decimals)
    traces = []
    if padded:
        traces.append(padding_trace(values.shape, overlay.padding, overlay.pad_label, fit.font_px))
    cells = cells_trace(
        values,
        kind=options.kind,
        shared_range=options.shared_range,
        labels=labels,
        annotate=annotate,
        hover=hover,
        font_px=fit.font_px,
    )
    traces.append(cells)
    if overlay.window:
        traces += outline_traces(overlay.window)
    pad_label = overlay.pad_label if padded and annotate else None
    cell, widest = cell_and_widest(fit, column_cell, pad_label) if annotate else (size, 0.0)
    if overlay.marks:  # on real cells only: a padding cell never wins
        traces += marks_traces(overlay.marks, cell, label_px=widest)
    if options.clickable:
        traces.append(click_trace(values.shape, cells["customdata"], cell))
    layout = grid_layout(
        values.shape,
        overlay.padding,
        title=f"{title} (×{power_of_ten(numbers.exponent)})" if numbers.exponent else title,
        cell=cell,
        layout_px=layout_px,
        grown=size > column_cell,
        options=options,
    )
    # Its text twin (ui/shared/twin.py shows it): the true values, as the hover says them.
    twin = map_twin(
        title,
        values,
        cells=cells["customdata"],
        marks={IN_WINDOW: overlay.window, WINNER: overlay.marks},
        receiving=options.receiving,
    )
    layout["meta"] = {"twin": [twin.as_meta()]}
    # Dicts, validated once when the figure is built: fast even with many marks.
    return go.Figure(data=traces, layout=layout)


def grid_layout(
    shape, padding, *, title: str, cell: float, layout_px: float, grown: bool, options
) -> dict:
    """A map's layout: its axes at `cell` px a cell, its height, and its own least width
    when its cells `grown` for their numbers."""
    rows, cols = shape[0] + 2 * padding[0], shape[1] + 2 * padding[1]
    layout = dict(
        **layouts.matrix_axes(shape, padding, cell=cell),
        **layouts.base_layout(
            title=title,
            height=math.ceil(sizes.map_extent(rows, cell) + style.MARGIN["t"] + style.MARGIN["b"]),
            width_px=layout_px,
            own_width=sizes.own_width(sizes.map_extent(cols, cell)) if grown else None,
            least_lines=options.title_lines,
        ),
    )
    if options.clickable:
        layout["clickmode"] = "event+select"
    return layout
