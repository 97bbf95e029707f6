"""The Batch result's "one backward call" screen: what `loss.mean().backward()` leaves
at each example's pooling input, beside that example's own gradient (formatting and
placing only: every number comes from teaching.batch.one_call)."""

from __future__ import annotations

import streamlit as st

from teaching.batch.one_call import one_call, one_call_sentences
from teaching.batch.story import BatchStory
from ui.batch.state import STATE
from ui.figures import grid as grids
from ui.figures.style import HALF_PX
from ui.shared.beside import Placed, maps_beside_words
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on


def one_call_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()
    call = one_call(story, feature)
    marks = story.winner_cells(0, feature)
    maps = [
        (call.own[0], "#0's own gradient"),
        (call.at_pool_input[0], "#0 after one call"),
    ]
    figures = [
        cached(
            grids.grid_figure,
            values=values,
            title=title,
            options=grids.GridOptions(
                kind="gradient", overlay=grids.Overlay(marks=marks), width_px=HALF_PX, decimals=2
            ),
        )
        for values, title in maps
    ]
    words = "\n\n".join(one_call_sentences(call))
    if lecture_on():
        placed = [
            Placed(figure, STATE.one_call_figure(index)) for index, figure in enumerate(figures)
        ]
        maps_beside_words(placed, lambda: st.markdown(words))
        return
    st.markdown(words)
    for column, (index, figure) in zip(st.columns(2), enumerate(figures), strict=True):
        with column:
            chart(figure, key=STATE.one_call_figure(index))
