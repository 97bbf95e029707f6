"""Maps beside their words on a projector: each map exactly as wide as it is drawn and
a column of words taking the rest of lecture mode's main column, in one row that
wraps. Where the row is too narrow for the words (a projector at 150 % zoom: an
853-px-wide page) they go under the maps; a map is never squeezed, as columns sized
by proportion would squeeze it, and its numbers would spill out of their cells."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st

from ui.figures.sizes import drawn_width
from ui.figures.style import (
    CHART_LEAST_PX,
    COLUMN_GAP_PX,
    LECTURE_MAIN_PX,
    LECTURE_WORDS_MIN_PX,
    ROW_ROUNDING_PX,
)
from ui.shared.chart import chart


@dataclass(frozen=True)
class Placed:
    """A chart to place: its figure, its key, what picking a cell does, and its width
    where it is not a map drawn at its own width (a curve): None for the drawn width;
    picked: the cells a pick grid holds picked now (chart's `picked`)."""

    figure: go.Figure
    key: str
    on_select: Callable[[], None] | None = None
    width: int | None = None
    picked: tuple | None = None


def maps_beside_words(placed: Sequence[Placed], words: Callable[[], None]) -> None:
    """The maps `placed`, then `words()` in the rest of the row."""
    with words_beside_maps(placed):
        words()


def words_beside_maps(placed: Sequence[Placed]):
    """The maps `placed` drawn, and the box in the rest of their row, for the words."""
    widths = widths_of(placed)
    rest = LECTURE_MAIN_PX - sum(widths) - len(widths) * COLUMN_GAP_PX - ROW_ROUNDING_PX
    row = st.container(horizontal=True, gap="small")
    with row:
        draw_at(placed, widths)
    return row.container(width=max(LECTURE_WORDS_MIN_PX, rest))


def maps_in_a_row(placed: Sequence[Placed]) -> None:
    """The maps `placed` at their drawn widths in one row, which wraps where they do
    not fit it (the words go under them, the page's width)."""
    with st.container(horizontal=True, gap="small"):
        draw_at(placed, widths_of(placed))


def widths_of(placed: Sequence[Placed]) -> list[int]:
    """Each chart's box: its width, or its map's drawn width, and never narrower than
    Streamlit draws a chart."""
    return [max(CHART_LEAST_PX, one.width or math.ceil(drawn_width(one.figure))) for one in placed]


def draw_at(placed: Sequence[Placed], widths: Sequence[int]) -> None:
    for width, one in zip(widths, placed, strict=True):
        with st.container(width=width):
            chart(one.figure, key=one.key, on_select=one.on_select, picked=one.picked)
