"""The Batch page's Winners tab (formatting and placing only): who picked each cell of
a window across the batch, then the first seed's idea, "split the gradient over every
cell that was a maximum in any example", against the right way and the check. In
lecture mode each is a screen of its own."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from teaching.batch.story import BatchStory
from teaching.batch.winners import (
    SPLIT_NAMES,
    picks_sentence,
    split_comparison,
    split_sentence,
    window_cells,
    window_rows,
    windows_of,
)
from teaching.numbers import fmt
from ui.batch.state import STATE, publish
from ui.batch.views import feature_picker
from ui.figures import grid as grids
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.figures.style import HALF_PX, LECTURE_THREE_QUARTERS_PX, THREE_QUARTERS_PX
from ui.shared.beside import Placed, maps_beside_words, maps_in_a_row
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on
from ui.shared.walk import Screen, tell

CHECK_TITLE = "the check (FD)"  # short: a phone's column holds the mosaic, two a row
SPLIT_TITLES = {"even": "split evenly", "weighted": "split by wins"}
AVERAGE_NOTE = (
    "Average pooling picks no cell: every example's window sends each of its real cells "
    "the same share of its dL_n/dy, so there is nothing to count or to split."
)


def winners_view(story: BatchStory) -> None:
    if not story.is_max:
        feature_picker(story)
        st.markdown(AVERAGE_NOTE)
        return
    screens = [
        Screen("Who picked each cell", lambda: picks_view(story)),
        Screen("Split over every winner?", lambda: split_view(story)),
    ]
    tell(
        "winners",
        screens,
        keys=STATE.walk,
        publish=publish,
        beside=lambda: feature_picker(story, compact=lecture_on()),
    )


def window_picked(story: BatchStory) -> tuple[int, int]:
    """The window chosen, kept while it exists; at first (or after the layer changed)
    the window of the kernel shown with the most distinct winners."""
    feature = STATE.feature_shown()
    windows = windows_of(story)
    state = st.session_state
    if state.get(STATE.window) not in windows:
        state[STATE.window] = story.winners.busiest_window(feature)
    st.selectbox(
        "Window (row, column of y)",
        windows,
        key=STATE.window,
        format_func=lambda w: f"({w[0]}, {w[1]})",
        help="The pooling window whose winners are counted over the batch.",
    )
    return state[STATE.window]


def picks_view(story: BatchStory) -> None:
    """The window picker and its sentence, the two maps and the window's table; in
    lecture mode the maps beside the rest."""
    feature = STATE.feature_shown()
    if lecture_on():
        window = st.session_state.get(STATE.window) or story.winners.busiest_window(feature)
        placed = picks_maps(story, feature, window)
        maps_beside_words(placed, lambda: picks_words(story, feature))
        return
    window = picks_words(story, feature, table=False)
    maps_in_a_row(picks_maps(story, feature, window))
    picks_table(story, feature, window)


def picks_words(story: BatchStory, feature: int, *, table: bool = True) -> tuple[int, int]:
    window = window_picked(story)
    st.markdown(picks_sentence(story, feature, window))
    if table:
        picks_table(story, feature, window)
    return window


def picks_maps(story: BatchStory, feature: int, window: tuple[int, int]) -> list[Placed]:
    return [
        Placed(picks_figure(story, feature, window), STATE.fig_picks),
        Placed(received_figure(story, feature, window), STATE.fig_received),
    ]


def picks_figure(story: BatchStory, feature: int, window: tuple[int, int]):
    """How many examples picked each cell (over every window: with windows that do not
    overlap, each cell's own), the window chosen outlined."""
    return cached(
        grids.grid_figure,
        values=story.winners.plane_counts(feature),
        title="examples that picked each cell",
        options=grids.GridOptions(
            kind="count",
            decimals=0,
            overlay=grids.Overlay(window=window_cells(story, window)),
            width_px=HALF_PX,
        ),
    )


def received_figure(story: BatchStory, feature: int, window: tuple[int, int]):
    return cached(
        grids.grid_figure,
        values=story.winners.plane_received(feature),
        title="Σ_n dL_n/dy each cell received",
        options=grids.GridOptions(
            kind="gradient",
            decimals=2,
            overlay=grids.Overlay(window=window_cells(story, window)),
            width_px=HALF_PX,
        ),
    )


def picks_table(story: BatchStory, feature: int, window: tuple[int, int]) -> None:
    rows = window_rows(story, feature, window)
    # A plain table (st.table): a screen reader reads its cells, which a data grid's
    # canvas keeps from it.
    st.table(
        pd.DataFrame(
            {
                "cell that won": [str(row.cell) for row in rows],
                "examples": [row.examples for row in rows],
                "share": [f"{row.share:.0%}" for row in rows],
                "dL_n/dy received, Σ": [fmt(row.received, 4) for row in rows],
            }
        ),
        hide_index=True,
        width="content",
    )
    if not lecture_on():  # a projector's screen has no room for it: the maps say it
        st.caption(
            f"Window {window}'s cells that won it in at least one example; the maps count "
            "every window's picks (outlined: this window)."
        )


def split_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()
    figure = split_figure(story, feature)
    if lecture_on():
        maps_beside_words([Placed(figure, STATE.fig_split)], lambda: split_words(story, feature))
        return
    split_words(story, feature)
    chart(figure, key=STATE.fig_split)


def split_words(story: BatchStory, feature: int) -> None:
    st.markdown(split_sentence(story, feature))
    compared = split_comparison(story, feature)
    ways = {"right way": compared.right}
    ways |= {SPLIT_TITLES[split]: compared.splits[split] for split in SPLIT_NAMES}
    st.table(
        pd.DataFrame(
            {
                f"dL/dK, kernel {feature}": list(ways),
                "gap to the check": [f"{compared.gap(k):.1e}" for k in ways.values()],
            }
        ),
        hide_index=True,
        width="content",
    )
    st.caption(
        # One sentence a name: a projector's sentence stays short (test_sentence_length).
        " ".join(
            f"{SPLIT_TITLES[split].capitalize()}: {name}, for every example alike."
            for split, name in SPLIT_NAMES.items()
        )
        + f" {CHECK_TITLE.capitalize()}: central finite differences of the batch loss."
    )


def split_figure(story: BatchStory, feature: int):
    """Kernel `feature`'s dL/dK: checked by finite differences, the right way, and the
    idea's splits, on one colour scale (in lecture mode the even split only, three in a
    row beside the words: a fourth map, or a second row, took the screen past 720 px)."""
    compared = split_comparison(story, feature)
    splits = ["even"] if lecture_on() else list(SPLIT_NAMES)
    return cached(
        small_multiples,
        maps=[compared.numeric, compared.right, *(compared.splits[s] for s in splits)],
        titles=[CHECK_TITLE, "right way", *(SPLIT_TITLES[s] for s in splits)],
        options=MosaicOptions(
            title=f"dL/dK, kernel {feature} ({story.reduction})",
            most_columns=3 if lecture_on() else 2,
            width_px=LECTURE_THREE_QUARTERS_PX if lecture_on() else THREE_QUARTERS_PX,
            own_width=True,
            snug=True,
        ),
    )
