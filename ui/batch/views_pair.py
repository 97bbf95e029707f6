"""The Batch page's first tab: a batch of two told to its end, stage by stage
(formatting and placing only: every number comes from teaching.batch.pair)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from teaching.batch.pair import PairStory
from teaching.batch.pair_words import wrong_sentence
from teaching.batch.story import BatchStory
from teaching.numbers import fmt
from teaching.words import MARK_LEGEND
from ui.batch.cache import cached_pair
from ui.batch.state import STATE, publish
from ui.batch.views import feature_picker
from ui.batch.views_update import grid_row, update_stage
from ui.figures import grid as grids
from ui.figures.style import HALF_PX
from ui.shared.beside import Placed, maps_beside_words
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on
from ui.shared.walk import Screen, tell


def pair_view(story: BatchStory) -> None:
    if story.size < 2:
        st.info("This pair needs two examples: set the batch size to 2 or more.")
        return
    pair = cached_pair(story.settings, STATE.feature_shown())
    screens = [
        Screen("Forward", lambda: forward_stage(pair)),
        Screen("What the forward pass keeps", lambda: stored_stage(pair)),
        Screen("Backward", lambda: backward_stage(pair)),
        Screen("One step from the batch", lambda: update_stage(pair)),
        Screen("The wrong way: one averaged example", lambda: wrong_maps_stage(pair)),
        Screen("Wrong against right", lambda: wrong_kernels_stage(pair)),
        Screen("Mean against sum", lambda: sum_stage(pair)),
    ]
    tell(
        "pair",
        screens,
        keys=STATE.walk,
        publish=publish,
        beside=lambda: feature_picker(story, compact=True),
    )


def intro(pair: PairStory) -> str:
    taken = STATE.train_steps_taken()
    weights = "the weights before any step" if taken == 0 else f"the weights after {taken} steps"
    combined = "averaged" if pair.reduction == "mean" else "added up"
    return (
        f"Examples #0 and #1 of the batch as a batch of two, with {weights}, kernel "
        f"{pair.feature}. Each goes forward and back on its own; only their gradients are "
        f"{combined}, where the kernel is shared."
    )


def example_title(pair: PairStory, example: int, what: str) -> str:
    return f"#{example} “{pair.batch.labels[example]}”: {what}"


def lead_and_maps(lead: str, figures: list, *, key: str) -> None:
    """A stage's sentences (markdown), then its two maps side by side; in lecture mode
    the maps at their drawn width (their cells grown for 18-px numbers were wider than
    a third of the projector) and the sentences in the rest of the row, so that the
    screen fits the projector, or under the maps where the row has no room left."""
    if lecture_on():
        placed = [
            Placed(figure, STATE.pair_figure(key, index)) for index, figure in enumerate(figures)
        ]
        maps_beside_words(placed, lambda: st.markdown(lead))
        return
    st.markdown(lead)
    places = st.columns(2)
    for index, (figure, column) in enumerate(zip(figures, places, strict=True)):
        with column:
            chart(figure, key=STATE.pair_figure(key, index))


def two_maps(pair: PairStory, *, maps, what: str, kind: str) -> list:
    """The two examples' maps, gradients on one colour scale."""
    return [
        cached(
            grids.grid_figure,
            values=maps[example],
            title=example_title(pair, example, what),
            options=grids.GridOptions(
                kind=kind,
                overlay=grids.Overlay(marks=pair.winners(example)),
                shared_range=(maps,),
                width_px=HALF_PX,
                decimals=2,
            ),
        )
        for example in (0, 1)
    ]


def forward_stage(pair: PairStory) -> None:
    if pair.batch.is_max:
        lead = f"Each example picks its own winners, marked with {MARK_LEGEND}."
    else:
        lead = "Average pooling reads every cell of each window; no cell wins."
    activation = pair.trace.activation[:, pair.feature]
    lead_and_maps(
        f"{intro(pair)}\n\n**1 · Forward.** {lead}",
        two_maps(pair, maps=activation, what="pooling input", kind="value"),
        key="input",
    )


def stored_stage(pair: PairStory) -> None:
    st.markdown("**2 · What the forward pass keeps for the backward pass.**")
    if pair.argmax_table(0) is None:
        st.markdown(
            "Average pooling keeps no index: the backward pass needs only each window's "
            "cells and its divisor, the same for #0 and #1."
        )
        return
    for example, column in enumerate(st.columns(2)):
        table = pair.argmax_table(example)
        rows, cols = table.shape[:2]
        frame = pd.DataFrame(
            [[f"({r}, {c})" for r, c in table[i]] for i in range(rows)],
            index=[f"y row {i}" for i in range(rows)],
            columns=[f"col {j}" for j in range(cols)],
        )
        column.caption(f"#{example}: argmax, (row, col) of each window's winner")
        column.dataframe(frame, width="content", key=STATE.pair_argmax(example))
    st.caption(stored_caption(pair))


def stored_caption(pair: PairStory) -> str:
    ties = pair.batch.config.pool.ties
    text = "One stored index per output cell: the backward pass reads it and nothing else."
    if ties in ("split", "all"):
        text = (
            f"The table names each window's first winner; under the tie rule “{ties}” a "
            "tied window sends its gradient to every tied cell."
        )
    zeros = [pair.zero_winners(n) for n in (0, 1)]
    if any(zeros):
        text += (
            f" Windows that are all 0 after the ReLU (#0: {zeros[0]}, #1: {zeros[1]}) still "
            "store an index, but the ReLU stops their gradient before the kernel."
        )
    return text


def backward_stage(pair: PairStory) -> None:
    lead_and_maps(
        f"**3 · Backward.** dL_n/dy from the layer above {routing_words(pair)}.",
        two_maps(pair, maps=pair.routed, what="dL/d(pool input)", kind="gradient"),
        key="routed",
    )


def routing_words(pair: PairStory) -> str:
    """Where the backward pass sends each window's dL/dy, for this layer."""
    if not pair.batch.is_max:
        return "is shared out equally among each window's real cells (dL/dy ÷ the divisor each)"
    ties = pair.batch.config.pool.ties
    if ties in ("first", "last"):
        return "goes to each window's stored cell only"
    return f"goes to each window's winning cells (under “{ties}”, to every tied one)"


def wrong_maps_stage(pair: PairStory) -> None:
    doubled = "" if pair.reduction == "mean" else " (times 2, to compare with the sum)"
    maps = [pair.wrong_trace.activation[0, pair.feature], pair.wrong_routed]
    titles = ["averaged: pooling input", "averaged: dL/d(pool input)"]
    figures = [
        cached(
            grids.grid_figure,
            values=maps[index],
            title=titles[index],
            options=grids.GridOptions(
                kind="value" if index == 0 else "gradient",
                overlay=grids.Overlay(marks=pair.averaged_winners),
                width_px=HALF_PX,
                decimals=2,
            ),
        )
        for index in (0, 1)
    ]
    lead_and_maps(
        "**The wrong way: one averaged example.** Average the two images into one, run it "
        f"forward, then back once with the two errors' mean{doubled}.",
        figures,
        key="averaged",
    )


def wrong_kernels_stage(pair: PairStory) -> None:
    st.markdown("**The wrong way's dL/dK against the right one.**")
    scale = "" if pair.reduction == "mean" else "2 × "
    grid_row(
        [pair.batch_grad, pair.wrong_batch_kernel, pair.wrong_batch_kernel - pair.batch_grad],
        [f"right: {pair.reduction}", f"wrong: {scale}averaged", "wrong − right"],
        key="wrong",
    )
    st.markdown(wrong_sentence(pair))


def sum_stage(pair: PairStory) -> None:
    st.markdown(
        "**Mean against sum.** The sum of the two gradients is twice the mean, so its "
        "step is twice as long at the same learning rate."
    )
    # A column per reduction, a row per quantity: narrow enough for a phone.
    columns = {}
    for reduction in ("mean", "sum"):
        gradient = pair.mean if reduction == "mean" else pair.total
        columns[f"{reduction} step"] = [
            fmt(gradient[0, 0], 4),
            fmt(pair.kernel_after(reduction)[0, 0], 4),
            fmt(pair.losses[reduction], 4),
        ]
    index = ["dL/dK[0,0]", "K[0,0] after", f"loss ({pair.reduction}) after"]
    frame = pd.DataFrame(columns, index=index)
    st.dataframe(frame, width="content", key=STATE.pair_sum)
