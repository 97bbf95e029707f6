"""Many small maps of one shape and kind in one figure, on one shared colour scale.

The maps are tiled into a single heatmap (a mosaic with a blank column between maps
and a title row above each); titles and winner marks are one trace each. 64 maps then
build in milliseconds, where 64 subplots take seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go

from teaching.map_twin import WINNER, map_twin
from teaching.numbers import common_exponent, fmt_grid, power_of_ten
from ui.figures import layouts, sizes, style
from ui.figures.grid import colour_range
from ui.figures.labels import (
    MIN_DECIMALS,
    LabelFit,
    fit_labels,
    label_px,
    needed_cell_px,
    widest_px,
)
from ui.figures.marks import marks_traces

SMALL_DECIMALS = 2


def mosaic_cell_px(columns: int, width: int, width_px: int = style.MAIN_PX) -> int:
    """Pixels per cell when `columns` maps `width` wide share a column `width_px` wide,
    less the colour bar beside them."""
    plot_px = width_px - style.COLOUR_BAR_PX
    return min(style.CELL_PX, max(style.MIN_CELL_PX, plot_px // (columns * (width + 1))))


def columns_for(
    count: int, width: int, *, needed_px: float | None, most: int, width_px: int
) -> int:
    """How many maps a row: the most (up to `most`) whose cells are still `needed_px`
    wide, the room their numbers take; any number when no numbers are written."""
    if needed_px is None:
        return max(1, min(count, most))
    for columns in range(min(count, most), 0, -1):
        if mosaic_cell_px(columns, width, width_px) >= needed_px:
            return columns
    return 1


def titles_fit(
    count: int, width: int, *, most_columns: int, width_px: int = style.COLOUR_MAIN_PX
) -> bool:
    """Whether `count` maps `width` wide, drawn as colour only, get a title row (else
    the hover numbers them): what a caption under them may promise."""
    columns = columns_for(count, width, needed_px=None, most=most_columns, width_px=width_px)
    return mosaic_cell_px(columns, width, width_px) >= style.TITLE_ROW_PX


def tile(maps: list[np.ndarray], columns: int, fill=np.nan) -> tuple[np.ndarray, list]:
    """The mosaic (rows of tiles, `fill` between them) and each map's top-left corner.
    maps: list of (H, W); mosaic: (rows * (H + 1), columns * (W + 1) - 1)."""
    height, width = maps[0].shape
    tile_h, tile_w = height + 1, width + 1
    rows = -(-len(maps) // columns)
    mosaic = np.full((rows * tile_h, columns * tile_w - 1), fill, dtype=np.asarray(maps[0]).dtype)
    corners = []
    for index, values in enumerate(maps):
        top = (index // columns) * tile_h + 1
        left = (index % columns) * tile_w
        mosaic[top : top + height, left : left + width] = values
        corners.append((top, left))
    return mosaic, corners


def title_px(titles: list[str]) -> float:
    """Width of the widest map title (MAP_TITLE_PX letters)."""
    return max((len(t) for t in titles), default=0) * style.MAP_TITLE_PX * style.TITLE_CHAR_EM


def fit_mosaic(
    maps: np.ndarray, *, most: int, width_px: float, lecture: bool, title_width_px: float = 0.0
) -> tuple[int, LabelFit]:
    """How many maps a row, and their labels: the most columns (up to `most`) whose
    cells hold every number at full precision (shrunk to the floor if need be) and
    whose maps are as wide as `title_width_px`; failing that, the most whose cells hold them
    rounded; failing that, one column of cells grown to fit both. maps: (N, H, W), all
    written alike."""
    width = maps.shape[2]
    wide_enough = np.ceil(title_width_px / width)
    for fewest in (SMALL_DECIMALS, MIN_DECIMALS):
        for columns in range(min(len(maps), most), 0, -1):
            cell = mosaic_cell_px(columns, width, width_px)
            fit = fit_labels(
                maps, cell_px=cell, decimals=SMALL_DECIMALS, lecture=lecture, fewest_decimals=fewest
            )
            if fit.cell_px <= cell and cell >= wide_enough:
                return columns, fit
    return 1, replace(fit, cell_px=max(fit.cell_px, wide_enough))


@dataclass(frozen=True)
class MosaicFit:
    """How a mosaic writes its numbers, decided once (over every frame the browser
    draws it at, ui/figures/frame_data.traces_frames_data): maps a row, cell and font size,
    decimals, and the power of ten they are written in."""

    columns: int
    cell_px: float
    font_px: float
    decimals: int
    exponent: int


def mosaic_layout_px(width_px: float, *, lecture: bool, colour_bar: bool) -> float:
    """The width a mosaic lays its cells out in, before lecture mode scales it up."""
    layout_px = width_px / layouts.lecture_scale(lecture)
    return layout_px + (0 if colour_bar else style.COLOUR_BAR_PX)  # no bar: its width is the cells'


def mosaic_fit(
    maps: np.ndarray,
    titles: list[str],
    *,
    kind: str,
    most_columns: int,
    layout_px: float,
    lecture: bool,
    units: int | None = None,
    snug: bool = False,
) -> MosaicFit:
    """How small_multiples writes `maps` (any number, (N, H, W): every frame's maps to
    fit over at once), titled with the longest of `titles`, in `layout_px` (mosaic_layout_px).
    `snug`: the cells are the least that hold the numbers and the titles, not as big
    as `layout_px` allows (for mosaics laid out side by side at their own widths)."""
    width = maps.shape[2]
    exponent = common_exponent(maps, SMALL_DECIMALS) if kind == "gradient" else 0
    exponent = exponent if units is None else units
    columns, fit = fit_mosaic(
        maps / 10.0**exponent,
        most=most_columns,
        width_px=layout_px,
        lecture=lecture,
        title_width_px=title_px(titles),
    )
    cell_px = max(fit.cell_px, mosaic_cell_px(columns, width, layout_px))
    if snug:  # as a grown map's cells: sizes.snug_cell
        labels = fit.labels.ravel()
        least = sizes.snug_cell(needed_cell_px(labels, fit.font_px), widest_px(labels, fit.font_px))
        cell_px = float(np.ceil(max(least, title_px(titles) / width)))
    return MosaicFit(columns, cell_px, fit.font_px, fit.decimals, exponent)


@dataclass(frozen=True)
class MosaicOptions:
    """How small_multiples draws its maps.

    kind: "gradient", "value" or "count" (the colour scale).
    title: the figure's title (None: none, unless the numbers are in units of a power
        of ten: it says so).
    annotate: every number written in its cell (fit_mosaic); maps whose numbers are all
        tiny are written, coloured and hovered in units of a power of ten, said in the
        title. Else colour only.
    marks: per map, the cells to star.
    most_columns: the most maps a row.
    width_px: about how wide the column it is placed in is (None: a phone's column, or
        a projector's for colour only, see style).
    units: names that power of ten instead (-2: hundredths, so 0.53 reads 53, for maps
        that must stay narrow).
    colour_bar: the colour bar beside the maps; without it (numbers written, the bar
        adds little) its room goes to the cells.
    own_width: the figure keeps the width it is laid out at, which a narrower column
        scrolls (ui/shared/chart) rather than squeeze its numbers.
    snug: (with numbers written) `width_px` only decides how many maps a row; the cells
        are the least that hold the numbers (mosaic_fit).
    fitted: mosaic_fit over every frame of a player: the numbers written as every frame
        writes them.
    """

    kind: str = "gradient"
    title: str | None = None
    annotate: bool = True
    marks: list[list[tuple[int, int]]] | None = None
    most_columns: int = 8
    width_px: int | None = None
    units: int | None = None
    colour_bar: bool = True
    own_width: bool = False
    snug: bool = False
    fitted: MosaicFit | None = None


@dataclass(frozen=True)
class MosaicCells:
    """How the mosaic's cells are written: maps a row, cell and font px, the labels
    tiled as the maps are (None: colour only), the widest label's px and the power of
    ten the numbers are in."""

    columns: int
    cell_px: float
    font_px: float
    labels: np.ndarray | None
    widest: float
    exponent: int


def small_multiples(
    maps: list[np.ndarray],
    titles: list[str],
    *,
    options: MosaicOptions = MosaicOptions(),
    lecture: bool = False,
) -> go.Figure:
    """maps: list of (H, W); titles: one per map; drawn as `options` says; lecture:
    laid out for lecture size. Titles need a row of their own at least TITLE_ROW_PX
    tall; below that the hover numbers the maps instead. The maps share one colour
    scale, decided from all of them (colour_range)."""
    maps = [np.asarray(m, dtype=np.float64) for m in maps]
    twins = mosaic_twins(maps, titles, options.marks, title=options.title)
    width_px = options.width_px
    if width_px is None:
        width_px = style.MAIN_PX if options.annotate else style.COLOUR_MAIN_PX
    layout_px = mosaic_layout_px(width_px, lecture=lecture, colour_bar=options.colour_bar)
    written = mosaic_cells(maps, titles, options=options, layout_px=layout_px, lecture=lecture)
    maps = [m / 10.0**written.exponent for m in maps]
    mosaic, corners = tile(maps, written.columns)
    cells = cells_trace(mosaic, written, options=options)
    traces = [cells]
    if written.cell_px >= style.TITLE_ROW_PX:
        traces.append(titles_trace(titles, corners, width=maps[0].shape[1]))
    else:  # no room for a title row: the hover numbers the maps, #0, #1, … in reading order
        owner = np.full(mosaic.shape, -1, dtype=np.int16)  # ints travel as binary, not text
        height, width = maps[0].shape
        for index, (top, left) in enumerate(corners):
            owner[top : top + height, left : left + width] = index
        cells.update(customdata=owner, hovertemplate="#%{customdata}: %{z:.4g}<extra></extra>")
    starred = [
        (top + row, left + col)
        for (top, left), cells in zip(corners, options.marks or [[] for _ in maps], strict=True)
        for row, col in cells
    ]
    if starred:
        traces += marks_traces(starred, written.cell_px, label_px=written.widest)
    title = options.title
    if written.exponent:  # the numbers are written in units of 10^e: the title says so
        unit = power_of_ten(written.exponent)
        title = f"In units of {unit}" if title is None else f"{title} (×{unit})"
    layout = mosaic_layout(mosaic.shape, written.cell_px, title=title, options=options)
    layout["meta"] = {"twin": twins}  # read by ui/shared/twin.py
    return go.Figure(data=traces, layout=layout)  # one validation pass for everything


def mosaic_cells(
    maps: list[np.ndarray], titles: list[str], *, options: MosaicOptions, layout_px, lecture
) -> MosaicCells:
    """How the maps' cells are written in `layout_px` (mosaic_layout_px): fitted
    (options.fitted, or mosaic_fit now) when numbers are written, else colour only."""
    width = maps[0].shape[1]
    if not options.annotate:
        columns = columns_for(
            len(maps), width, needed_px=None, most=options.most_columns, width_px=layout_px
        )
        return MosaicCells(columns, mosaic_cell_px(columns, width, layout_px), 0, None, 0.0, 0)
    every = np.stack(maps)
    fitted = options.fitted or mosaic_fit(
        every,
        titles,
        kind=options.kind,
        most_columns=options.most_columns,
        layout_px=layout_px,
        lecture=lecture,
        units=options.units,
        snug=options.snug,
    )
    written = fmt_grid(every / 10.0**fitted.exponent, fitted.decimals)
    labels = tile(list(written), fitted.columns, fill="")[0]
    widest = max(label_px(t, fitted.font_px) for t in written.ravel())
    return MosaicCells(
        fitted.columns, fitted.cell_px, fitted.font_px, labels, widest, fitted.exponent
    )


def cells_trace(mosaic: np.ndarray, written: MosaicCells, *, options: MosaicOptions) -> dict:
    """The mosaic's one heatmap: every map's cells, their numbers, the colour bar."""
    low, high = colour_range(mosaic, options.kind)
    return dict(
        type="heatmap",
        z=mosaic,
        text=written.labels,
        texttemplate="%{text}" if options.annotate else None,
        textfont=dict(size=written.font_px or style.CELL_FONT_PX),
        colorscale=style.SCALES[options.kind],
        zmin=low,
        zmax=high,
        xgap=style.THIN_GAP_PX,
        ygap=style.THIN_GAP_PX,
        name=options.kind,
        showscale=options.colour_bar,
        hovertemplate="%{z:.4g}<extra></extra>",
        hoverongaps=False,
        colorbar=dict(
            thickness=style.COLOUR_BAR_THICKNESS_PX,
            len=min(1.0, style.COLOUR_BAR_MOST_PX / max(mosaic.shape[0] * written.cell_px, 1)),
            yanchor="top",
            y=1,
            tickfont=dict(size=style.TICK_FONT_PX),
        ),
    )


def titles_trace(titles: list[str], corners: list, *, width: int) -> dict:
    """Each map's title over its middle, in the blank row above it."""
    return dict(
        type="scatter",
        x=[left + (width - 1) / 2 for _, left in corners],
        y=[top - 1 for top, _ in corners],
        text=titles,
        mode="text",
        hoverinfo="skip",
        textfont=dict(size=style.MAP_TITLE_PX, color=style.TITLE_TEXT),
        name="titles",
    )


def mosaic_layout(shape, cell_px: float, *, title: str | None, options: MosaicOptions) -> dict:
    """The mosaic's axes (square cells, row 0 on top), its height and its own width
    when `options.own_width`. shape: the mosaic's (rows, columns)."""
    margin = style.MOSAIC_MARGIN
    # Room past the outer maps' left, right and bottom edges for a frame along them
    # (style.EDGE_SPARE_PX; a blank row over each map leaves room at the top).
    spare = layouts.edge_spare(cell_px)
    drawn_px = int(
        sizes.map_extent(shape[1], cell_px)
        + margin["l"]
        + margin["r"]
        + (style.COLOUR_BAR_PX if options.colour_bar else 0)
    )
    if title:
        margin = dict(margin, t=style.MOSAIC_TITLE_MARGIN_PX)
    return dict(
        xaxis=dict(
            visible=False,
            range=[-0.5 - spare, shape[1] - 0.5 + spare],
            constrain="domain",
            constraintoward="left",
        ),
        yaxis=dict(
            visible=False,
            range=[shape[0] - 0.5 + spare, -0.7],
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
            constraintoward="top",
        ),
        **layouts.base_layout(
            title=title,
            height=shape[0] * cell_px
            + style.EDGE_SPARE_PX
            + margin["t"]
            + margin["b"]
            + style.MOSAIC_SPARE_PX,
            margin=margin,
            own_width=drawn_px if options.own_width else None,
        ),
    )


def mosaic_twins(maps, titles, marks, *, title: str | None) -> list[dict]:
    """Each map's text twin (teaching/map_twin), as layout.meta holds them: named by its
    title (after the figure's), its true values, its stars as winners."""
    return [
        map_twin(
            f"{title}: {name}" if title else name,
            values,
            cells=fmt_grid(values, HOVER_DECIMALS),
            marks={WINNER: cells},
        ).as_meta()
        for values, name, cells in zip(maps, titles, marks or [[] for _ in maps], strict=True)
    ]


HOVER_DECIMALS = 6  # as grid.HOVER_DECIMALS: the twin says the true values
