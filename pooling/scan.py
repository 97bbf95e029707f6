"""The running maximum every tap-by-tap path shares: the window maxima, and which tap
first reached each (the last, scanning backwards)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np


def scan_taps(
    view_of: Callable[[int], np.ndarray],
    order: Iterable[int],
    *,
    taps: int,
    last: bool,
    best: np.ndarray,
    chosen: np.ndarray,
) -> None:
    """For each tap in `order` (ascending for "first" ties, descending for "last"),
    fold view_of(tap) into `best` and record in `chosen` the tap of every strict
    improvement. chosen (int8 or int32, shaped like best) must start at a tap no
    winner can pass the wrong way: at or below every tap that can win ("first"), at or
    above ("last"). Only a strict improvement wins, so ties keep the earlier tap."""
    tap_type = chosen.dtype.type
    won = np.empty(best.shape, dtype=bool)
    step = np.empty(best.shape, dtype=chosen.dtype)
    for tap in order:
        view = view_of(tap)
        np.greater(view, best, out=won)
        np.maximum(best, view, out=best)
        if last:  # a tap that did not win counts as one past the last: minimum skips it
            np.multiply(won, tap_type(tap - taps), out=step)
            step += tap_type(taps)
            np.minimum(chosen, step, out=chosen)
        else:  # taps go up: the winner is the largest tap that won
            np.multiply(won, tap_type(tap), out=step)
            np.maximum(chosen, step, out=chosen)
