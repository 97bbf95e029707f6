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
    won = np.empty(best.shape, dtype=bool)
    scratch = np.empty(best.shape, dtype=chosen.dtype)
    keep = "smallest" if last else "largest"
    for tap in order:
        view = view_of(tap)
        np.greater(view, best, out=won)
        np.maximum(best, view, out=best)
        keep_tap(chosen, won, tap, keep=keep, taps=taps, scratch=scratch)


def keep_tap(
    chosen: np.ndarray, hit: np.ndarray, tap: int, *, keep: str, taps: int, scratch: np.ndarray
) -> None:
    """chosen = tap where `hit` and tap is the larger ("largest") or the smaller
    ("smallest") of the two; elsewhere chosen stays. scratch: shaped and typed like chosen.
    Arithmetic on small ints, because a masked write is many times slower."""
    tap_type = chosen.dtype.type
    if keep == "largest":
        np.multiply(hit, tap_type(tap), out=scratch)
        np.maximum(chosen, scratch, out=chosen)
    else:  # a miss counts as one past the last tap, so minimum passes it over
        np.multiply(hit, tap_type(tap - taps), out=scratch)
        scratch += tap_type(taps)
        np.minimum(chosen, scratch, out=chosen)
