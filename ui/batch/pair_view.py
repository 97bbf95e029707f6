"""The Batch page's first tab: a batch of two told to its end, stage by stage
(formatting and placing only: every number comes from ui.batch.pair)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures import grid as grids
from ..figures.style import MARK_LEGEND
from ..shared.chart import cached, chart
from ..shared.numbers import fmt, metric_delta, symmetric_range
from .cache import cached_pair
from .model import BatchLesson
from .pair import PairStory
from .state import STEPS, P
from .views import feature_picker

HALF_PX = 250  # half the main column on a projector (253 px), the narrowest
THIRD_PX = 200


def pair_view(lesson: BatchLesson) -> None:
    if lesson.size < 2:
        st.info("This story needs two examples: set the batch size to 2 or more.")
        return
    feature = feature_picker(lesson)
    story = cached_pair(lesson.settings, feature)
    taken = st.session_state[STEPS]
    weights = "the weights before any step" if taken == 0 else f"the weights after {taken} steps"
    combined = "averaged" if story.reduction == "mean" else "added up"
    st.markdown(
        f"Examples #0 and #1 of the batch as a batch of two, with {weights}, kernel "
        f"{feature}. Each goes forward and back on its own; only their gradients are "
        f"{combined}, where the kernel is shared."
    )
    forward_stage(story)
    stored_stage(story)
    backward_stage(story)
    update_stage(story)
    wrong_stage(story)
    sum_stage(story)


def example_title(story: PairStory, example: int, what: str) -> str:
    return f"#{example} “{story.lesson.labels[example]}”: {what}"


def two_maps(story: PairStory, *, maps, what: str, kind: str, key: str, limit=None) -> None:
    for example, column in enumerate(st.columns(2)):
        with column:
            figure = cached(
                grids.grid_figure,
                values=maps[example],
                title=example_title(story, example, what),
                kind=kind,
                overlay=grids.Overlay(marks=story.winners(example)),
                limit=limit,
                width_px=HALF_PX,
                decimals=2,
            )
            chart(figure, key=f"{P}_fig_pair_{key}_{example}")


def forward_stage(story: PairStory) -> None:
    if story.lesson.is_max:
        lead = f"Each example picks its own winners, marked with {MARK_LEGEND}."
    else:
        lead = "Average pooling reads every cell of each window; no cell wins."
    st.markdown(f"**1 · Forward.** {lead}")
    activation = story.trace.activation[:, story.feature]
    two_maps(story, maps=activation, what="pooling input", kind="value", key="input")


def stored_stage(story: PairStory) -> None:
    st.markdown("**2 · What the forward pass keeps for the backward pass.**")
    if story.argmax_table(0) is None:
        st.markdown(
            "Average pooling keeps no index: the backward pass needs only each window's "
            "cells and its divisor, the same for #0 and #1."
        )
        return
    for example, column in enumerate(st.columns(2)):
        table = story.argmax_table(example)
        rows, cols = table.shape[:2]
        frame = pd.DataFrame(
            [[f"({r}, {c})" for r, c in table[i]] for i in range(rows)],
            index=[f"y row {i}" for i in range(rows)],
            columns=[f"col {j}" for j in range(cols)],
        )
        column.caption(f"#{example}: argmax, (row, col) of each window's winner")
        column.dataframe(frame, width="content", key=f"{P}_pair_argmax_{example}")
    st.caption(stored_caption(story))


def stored_caption(story: PairStory) -> str:
    ties = story.lesson.config.pool.ties
    text = "One stored index per output cell: the backward pass reads it and nothing else."
    if ties in ("split", "all"):
        text = (
            f"The table names each window's first winner; under the tie rule “{ties}” a "
            "tied window sends its gradient to every tied cell."
        )
    zeros = [story.zero_winners(n) for n in (0, 1)]
    if any(zeros):
        text += (
            f" Windows that are all 0 after the ReLU (#0: {zeros[0]}, #1: {zeros[1]}) still "
            "store an index, but the ReLU stops their gradient before the kernel."
        )
    return text


def backward_stage(story: PairStory) -> None:
    st.markdown(f"**3 · Backward.** dL_n/dy from the layer above {routing_words(story)}.")
    two_maps(
        story,
        maps=story.routed,
        what="dL/d(pool input)",
        kind="gradient",
        key="routed",
        limit=symmetric_range(story.routed),
    )


def routing_words(story: PairStory) -> str:
    """Where the backward pass sends each window's dL/dy, for this layer."""
    if not story.lesson.is_max:
        return "is shared out equally among each window's real cells (dL/dy ÷ the divisor each)"
    ties = story.lesson.config.pool.ties
    if ties in ("first", "last"):
        return "goes to each window's stored cell only"
    return f"goes to each window's winning cells (under “{ties}”, to every tied one)"


def grid_row(maps: list, titles: list[str], *, key: str, kind: str = "gradient") -> None:
    """Kernel-sized grids side by side, one column each."""
    for index, column in enumerate(st.columns(len(maps))):
        with column:
            figure = cached(
                grids.grid_figure,
                values=maps[index],
                title=titles[index],
                kind=kind,
                width_px=THIRD_PX,
                decimals=2,
            )
            chart(figure, key=f"{P}_fig_pair_{key}_{index}")


def update_stage(story: PairStory) -> None:
    word = story.reduction
    st.markdown(
        f"**4 · The batch gradient** is the {word} of the two examples' own kernel gradients."
    )
    grads = story.kernel_grads
    grid_row(
        [grads[0], grads[1], story.batch_grad],
        ["dL_0/dK", "dL_1/dK", f"their {word}: dL/dK"],
        key="grads",
    )
    if not grads.any():
        st.caption(
            f"Neither example sends kernel {story.feature} any gradient: wherever a gradient "
            "reaches the convolution, the ReLU is off or the image under the kernel is blank."
        )
    rate = fmt(story.rate)
    st.markdown(f"**5 · One step**, learning rate η = {rate}: K ← K − η · {word} dL/dK.")
    after = story.kernel_after(word)
    grid_row([story.kernel_before, after], ["K before", "K after"], key="update", kind="value")
    before, gradient = story.kernel_before[0, 0], story.batch_grad[0, 0]
    st.latex(
        rf"K_{{0,0}}:\; {latex(before)} - {rate} \times ({latex(gradient)}) = {latex(after[0, 0])}"
    )
    losses = story.losses
    cells = st.columns(2)
    cells[0].metric(f"Loss of the two ({word}), before", fmt(losses["before"], 4))
    cells[1].metric(
        "After the step",
        fmt(losses[word], 4),
        delta=metric_delta(losses[word] - losses["before"], 4),
        delta_color="inverse",
    )
    st.caption(
        "Here every kernel takes its own step and the biases and the linear layer stay, so "
        "the change in loss is the kernels' alone (training moves them all). Pooling has "
        "no weights of its own to update."
    )


def latex(value: float) -> str:
    return fmt(value, 4).replace("−", "-")


def wrong_stage(story: PairStory) -> None:
    doubled = "" if story.reduction == "mean" else " (times 2, to compare with the sum)"
    st.markdown(
        "**The wrong way: average first.** Average the two images and their errors, then "
        f"go back once through the averaged image{doubled}."
    )
    marks = story.averaged_winners
    maps = [story.wrong_trace.activation[0, story.feature], story.wrong_routed]
    titles = ["averaged: pooling input", "averaged: dL/d(pool input)"]
    for index, column in enumerate(st.columns(2)):
        with column:
            figure = cached(
                grids.grid_figure,
                values=maps[index],
                title=titles[index],
                kind="value" if index == 0 else "gradient",
                overlay=grids.Overlay(marks=marks),
                width_px=HALF_PX,
                decimals=2,
            )
            chart(figure, key=f"{P}_fig_pair_averaged_{index}")
    scale = "" if story.reduction == "mean" else "2 × "
    grid_row(
        [story.batch_grad, story.wrong_batch_kernel, story.wrong_batch_kernel - story.batch_grad],
        [f"right: {story.reduction}", f"wrong: {scale}averaged", "wrong − right"],
        key="wrong",
    )
    st.markdown(wrong_sentence(story))


def wrong_sentence(story: PairStory) -> str:
    if story.wrong_gap < 1e-12:
        return (
            "Here the two ways agree on kernel "
            f"{story.feature}: neither example sends it any gradient that averaging could change."
            if not story.kernel_grads.any()
            else "Here the two ways happen to agree on this kernel, to the last digit."
        )
    gap = f"Largest gap between the wrong and the right dL/dK: **{fmt(story.wrong_gap, 4)}**."
    products = (
        "each example's kernel gradient multiplies its own error with its own image, and "
        "the mean of those products is in general not the product of the means"
    )
    if not story.lesson.is_max:
        return f"{products[0].upper()}{products[1:]}. {gap}"
    borrowed, windows = story.borrowed_windows()
    if borrowed == 0:
        return (
            "Here every winner of the averaged image is a winner of both examples in that "
            f"window, yet the gradients differ: {products}. {gap}"
        )
    return (
        f"The averaged image picks its own winners: in {borrowed} of its {windows} windows "
        "a winner of the averaged image is not a winner of both examples, so there the wrong "
        "way routes at least one example's error to a cell that example did not pick in that "
        f"window. {gap}"
    )


def sum_stage(story: PairStory) -> None:
    st.markdown(
        "**Mean against sum.** The sum of the two gradients is twice the mean, so its "
        "step is twice as long at the same learning rate."
    )
    # A column per reduction, a row per quantity: narrow enough for a phone.
    columns = {}
    for reduction in ("mean", "sum"):
        gradient = story.mean if reduction == "mean" else story.total
        columns[f"{reduction} step"] = [
            fmt(gradient[0, 0], 4),
            fmt(story.kernel_after(reduction)[0, 0], 4),
            fmt(story.losses[reduction], 4),
        ]
    index = ["dL/dK[0,0]", "K[0,0] after", f"loss ({story.reduction}) after"]
    frame = pd.DataFrame(columns, index=index)
    st.dataframe(frame, width="content", key=f"{P}_pair_sum")
