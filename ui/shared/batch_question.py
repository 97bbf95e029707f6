"""A batch question's maps (the Exercises page, and class mode's phone and projector):
each example's x_n and its dL_n/dy, as two mosaics of small maps."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.figures.mosaic import MosaicOptions, small_multiples
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
    a row, every number written at lecture size in cells no bigger than they need, so
    no colour bar (the numbers say what it would)."""
    placed = []
    for maps, (title, kind), key in zip((x, grad_output), MOSAICS, keys, strict=True):
        if maps is None:
            continue
        options = MosaicOptions(
            kind=kind,
            title=title,
            most_columns=min(len(maps), LECTURE_COLUMNS),
            width_px=LECTURE_MAPS_PX,  # wide enough for two a row: snug then sizes the cells
            colour_bar=False,
            own_width=True,
            snug=True,
        )
        placed.append(Placed(mosaic(maps, options), key))
    return placed


def mosaic(maps: np.ndarray, options: MosaicOptions) -> go.Figure:
    """The mosaic of `maps` (N, h, w), each titled by its example's number."""
    names = [f"example #{n}" for n in range(len(maps))]
    return cached(small_multiples, maps=list(maps), titles=names, options=options)
