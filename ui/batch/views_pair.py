"""The Batch page's first tab: a batch of two told to its end, stage by stage
(formatting and placing only: every number comes from ui.minibatch.pair)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures import grid as grids
from ..figures.style import HALF_PX, MARK_LEGEND, NARROW_PX
from ..minibatch.pair import PairStory
from ..minibatch.story import BatchStory
from ..pure.numbers import fmt, metric_delta
from ..pure.tolerances import SUMMATION_ORDER
from ..shared.chart import cached, chart
from .cache import cached_pair
from .state import STATE
from .views import feature_picker


def pair_view(story: BatchStory) -> None:
    if story.size < 2:
        st.info("This pair needs two examples: set the batch size to 2 or more.")
        return
    feature = feature_picker(story)
    pair = cached_pair(story.settings, feature)
    taken = STATE.steps_taken()
    weights = "the weights before any step" if taken == 0 else f"the weights after {taken} steps"
    combined = "averaged" if pair.reduction == "mean" else "added up"
    st.markdown(
        f"Examples #0 and #1 of the batch as a batch of two, with {weights}, kernel "
        f"{feature}. Each goes forward and back on its own; only their gradients are "
        f"{combined}, where the kernel is shared."
    )
    forward_stage(pair)
    stored_stage(pair)
    backward_stage(pair)
    update_stage(pair)
    wrong_stage(pair)
    sum_stage(pair)


def example_title(pair: PairStory, example: int, what: str) -> str:
    return f"#{example} “{pair.batch.labels[example]}”: {what}"


def two_maps(pair: PairStory, *, maps, what: str, kind: str, key: str) -> None:
    """The two examples' maps side by side, gradients on one colour scale."""
    for example, column in enumerate(st.columns(2)):
        with column:
            figure = cached(
                grids.grid_figure,
                values=maps[example],
                title=example_title(pair, example, what),
                kind=kind,
                overlay=grids.Overlay(marks=pair.winners(example)),
                shared_range=(maps,),
                width_px=HALF_PX,
                decimals=2,
            )
            chart(figure, key=STATE.pair_figure(key, example))


def forward_stage(pair: PairStory) -> None:
    if pair.batch.is_max:
        lead = f"Each example picks its own winners, marked with {MARK_LEGEND}."
    else:
        lead = "Average pooling reads every cell of each window; no cell wins."
    st.markdown(f"**1 · Forward.** {lead}")
    activation = pair.trace.activation[:, pair.feature]
    two_maps(pair, maps=activation, what="pooling input", kind="value", key="input")


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
    st.markdown(f"**3 · Backward.** dL_n/dy from the layer above {routing_words(pair)}.")
    two_maps(
        pair,
        maps=pair.routed,
        what="dL/d(pool input)",
        kind="gradient",
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


def grid_row(maps: list, titles: list[str], *, key: str, kind: str = "gradient") -> None:
    """Kernel-sized grids side by side, one column each."""
    for index, column in enumerate(st.columns(len(maps))):
        with column:
            figure = cached(
                grids.grid_figure,
                values=maps[index],
                title=titles[index],
                kind=kind,
                width_px=NARROW_PX,
                decimals=2,
            )
            chart(figure, key=STATE.pair_figure(key, index))


def update_stage(pair: PairStory) -> None:
    word = pair.reduction
    st.markdown(
        f"**4 · The batch gradient** is the {word} of the two examples' own kernel gradients."
    )
    grads = pair.kernel_grads
    grid_row(
        [grads[0], grads[1], pair.batch_grad],
        ["dL_0/dK", "dL_1/dK", f"their {word}: dL/dK"],
        key="grads",
    )
    if not grads.any():
        st.caption(
            f"Neither example sends kernel {pair.feature} any gradient: wherever a gradient "
            "reaches the convolution, the ReLU is off or the image under the kernel is blank."
        )
    rate = fmt(pair.rate)
    st.markdown(f"**5 · One step**, learning rate η = {rate}: K ← K − η · {word} dL/dK.")
    after = pair.kernel_after(word)
    grid_row([pair.kernel_before, after], ["K before", "K after"], key="update", kind="value")
    before, gradient = pair.kernel_before[0, 0], pair.batch_grad[0, 0]
    st.latex(
        rf"K_{{0,0}}:\; {latex(before)} - {rate} \times ({latex(gradient)}) = {latex(after[0, 0])}"
    )
    losses = pair.losses
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


def wrong_stage(pair: PairStory) -> None:
    doubled = "" if pair.reduction == "mean" else " (times 2, to compare with the sum)"
    st.markdown(
        "**The wrong way: average first.** Average the two images and their errors, then "
        f"go back once through the averaged image{doubled}."
    )
    marks = pair.averaged_winners
    maps = [pair.wrong_trace.activation[0, pair.feature], pair.wrong_routed]
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
            chart(figure, key=STATE.pair_figure("averaged", index))
    scale = "" if pair.reduction == "mean" else "2 × "
    grid_row(
        [pair.batch_grad, pair.wrong_batch_kernel, pair.wrong_batch_kernel - pair.batch_grad],
        [f"right: {pair.reduction}", f"wrong: {scale}averaged", "wrong − right"],
        key="wrong",
    )
    st.markdown(wrong_sentence(pair))


def wrong_sentence(pair: PairStory) -> str:
    if pair.wrong_gap < SUMMATION_ORDER:
        return (
            "Here the two ways agree on kernel "
            f"{pair.feature}: neither example sends it any gradient that averaging could change."
            if not pair.kernel_grads.any()
            else "Here the two ways happen to agree on this kernel, to the last digit."
        )
    gap = f"Largest gap between the wrong and the right dL/dK: **{fmt(pair.wrong_gap, 4)}**."
    products = (
        "each example's kernel gradient multiplies its own error with its own image, and "
        "the mean of those products is in general not the product of the means"
    )
    if not pair.batch.is_max:
        return f"{products[0].upper()}{products[1:]}. {gap}"
    borrowed, windows = pair.borrowed_windows()
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
