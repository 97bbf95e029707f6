"""A batch question's maps (the Exercises page, and class mode's phone and projector):
each example's x_n and its dL_n/dy, as two mosaics of small maps."""

from __future__ import annotations

import numpy as np

from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.shared.chart import cached, chart


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
    names = [f"example #{n}" for n in range(count)]
    for place, maps, title, kind, key in (
        (places[0], x, "x_n", "value", keys[0]),
        (places[1], grad_output, "dL_n/dy", "gradient", keys[1]),
    ):
        if maps is None:
            continue
        figure = cached(
            small_multiples,
            maps=list(maps),
            titles=names,
            options=MosaicOptions(kind=kind, title=title, most_columns=count, width_px=width_px),
        )
        with place:
            chart(figure, key=key)
