"""A batch question's maps (the Exercises page, and class mode's phone and projector):
each example's x_n and its dL_n/dy, as two mosaics of small maps."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import plotly.graph_objects as go

from ui.figures.mosaic import MosaicOptions, mosaic_fit, mosaic_layout_px, small_multiples
from ui.figures.style import LECTURE_MAPS_PX
from ui.shared.beside import Placed
from ui.shared.chart import cached, chart

# A projector's mosaic: two examples a row. One a row, four examples of 6x6 stood
# 1.6 screens tall; two a row, each mosaic as narrow as its numbers allow, x_n and
# dL_n/dy leave the words a column as wide as a value question's (issue 37).
LECTURE_COLUMNS = 2
MOSAICS = (("x_n", "value"), ("dL_n/dy", "gradient"))


def batch_mosaics(
    x: np.ndarray,
    grad_output: np.ndarray | None,
    places,
    *,
    keys: tuple[str, str],
    width_px: int | None,
) -> None:
    """x_n (N, H, W) in places[0] and dL_n/dy (N, OH, OW) in places[1], one small map
    per example, all in a row (grad_output None: x_n alone); width_px: the column each
    mosaic gets (None: a phone's)."""
    count = len(x)
    for place, maps, (title, kind), key in zip(
        places, (x, grad_output), MOSAICS, keys, strict=True
    ):
        if maps is None:
            continue
        options = MosaicOptions(kind=kind, title=title, most_columns=count, width_px=width_px)
        with place:
            chart(mosaic(maps, options), key=key)


def lecture_mosaics(
    x: np.ndarray, grad_output: np.ndarray | None, *, keys: tuple[str, str]
) -> list[Placed]:
    """x_n (N, H, W) and dL_n/dy (N, OH, OW) for a projector (grad_output None: x_n
    alone), to place at their drawn widths (ui/shared/beside): LECTURE_COLUMNS examples
    a row, every number written at lecture size in cells no bigger than the numbers and
    the examples' titles need, so no colour bar (the numbers say what it would)."""
    placed = []
    for maps, (title, kind), key in zip((x, grad_output), MOSAICS, keys, strict=True):
        if maps is None:
            continue
        columns = min(len(maps), LECTURE_COLUMNS)
        fitted = mosaic_fit(
            np.asarray(maps, dtype=np.float64),
            titles(len(maps)),
            kind=kind,
            most_columns=columns,
            layout_px=mosaic_layout_px(LECTURE_MAPS_PX, lecture=True, colour_bar=False),
            lecture=True,
            snug=True,
        )
        # Two a row even where a map is narrower than its title (1x1 maps of dL_n/dy):
        # the fit's one column there grows each of four examples a cell as wide as its
        # title, a tower 1.4 screens tall; snug cells hold numbers and titles at any count.
        options = MosaicOptions(
            kind=kind,
            title=title,
            most_columns=columns,
            colour_bar=False,
            own_width=True,
            snug=True,
            fitted=replace(fitted, columns=columns),
        )
        placed.append(Placed(mosaic(maps, options), key))
    return placed


def titles(count: int) -> list[str]:
    return [f"example #{n}" for n in range(count)]


def mosaic(maps: np.ndarray, options: MosaicOptions) -> go.Figure:
    """The mosaic of `maps` (N, h, w), each titled by its example's number."""
    return cached(small_multiples, maps=list(maps), titles=titles(len(maps)), options=options)
