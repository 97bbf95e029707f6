"""Under the batch result: the checks computed on the spot, the wrong way beside the
right one, and mean against sum (formatting and placing only)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from teaching.batch.story import BatchStory
from teaching.numbers import fmt
from teaching.tolerances import SUMMATION_ORDER
from ui.batch.state import STATE
from ui.figures import grid as grids
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.figures.style import LECTURE_THREE_QUARTERS_PX, NARROW_PX, THREE_QUARTERS_PX
from ui.shared.beside import Placed, maps_in_a_row
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on


def checks_view(story: BatchStory) -> None:
    """What is checked on the spot, as a list (the wrong way and the table follow it on
    a desk, each on a screen of its own in lecture mode)."""
    st.subheader("Checked on the spot")
    count = story.size
    st.markdown(
        f"- **One batched backward = the {story.reduction} of per-example gradients**: "
        f"largest gap over every parameter {fmt(story.batched_gap)}.\n"
        f"- **Finite differences**: dL/dK against central differences of the batch loss "
        f"(ε = 10⁻⁶), largest gap {story.kernel_fd_gap:.1e}.\n"
        f"- **Mean and sum**: summing the {count} dL_n/dK and multiplying by 1/{count} gives "
        f"the mean; the two reductions differ by exactly the factor {count}."
    )


def wrong_sentence(story: BatchStory) -> str:
    """The wrong way against the right one, with the facts of this batch (kernel 0)."""
    gap = f"Largest gap between the wrong and the right dL/dK: **{fmt(story.wrong_gap)}**."
    lead = (
        "**The wrong way**: average the images into one, and run that one averaged example "
        "forward, then back with the averaged error"
    )
    if story.reduction == "sum":
        lead += f" (and multiply by N = {story.size} to compare with the sum)"
    if story.wrong_gap < SUMMATION_ORDER:
        why = (
            "with one example there is nothing to average, so the two ways agree."
            if story.size == 1
            else "here the two ways happen to agree, to the last digit."
        )
        return f"{lead}: {why}"
    said = (
        f"{lead}. Each example's kernel gradient multiplies its own error with its own "
        "image, and the mean of those products is in general not the product of the means."
    )
    orphans, windows = story.orphan_windows(0)
    if story.is_max and orphans:
        said += (
            f" And in {orphans} of the averaged image's {windows} windows (kernel 0) the "
            "averaged image sends gradient to a cell that no example picked in that window."
        )
    elif story.is_max:
        said += (
            f" Every winner in the averaged image's {windows} windows (kernel 0) is also "
            "some example's winner in that window, yet the gradients differ."
        )
    return f"{said} {gap}"


def wrong_view(story: BatchStory) -> None:
    st.markdown(wrong_sentence(story))
    averaged = cached(
        grids.grid_figure,
        values=story.wrong_trace.x[0, 0],
        title="averaged image",
        options=grids.GridOptions(width_px=NARROW_PX, annotate=False),
    )
    if lecture_on():
        lecture_wrong(story, averaged)
        return
    left, rest = st.columns([1, 3])
    with left:
        chart(averaged, key=STATE.fig_averaged)
    with rest:
        chart(wrong_figure(story), key=STATE.fig_wrong)
        wrong_caption(story)


def lecture_wrong(story: BatchStory, averaged) -> None:
    """The projector's screen: the averaged image and the three maps each at its drawn
    width, in one row that wraps (a projector at 150 % puts the maps under the image,
    where a quarter and three quarters of the column squeezed their numbers out of
    their cells), the caption under them."""
    wrong = wrong_figure(story)
    maps_in_a_row([Placed(averaged, STATE.fig_averaged), Placed(wrong, STATE.fig_wrong)])
    wrong_caption(story)


def wrong_figure(story: BatchStory):
    """Kernel 0's right and wrong dL/dK and their difference, in one mosaic: its cells
    the least that hold their numbers, at its own width, which a narrower column
    scrolls rather than squeeze the numbers out of their cells (a phone's 358-px column
    holds it; at 320 px, where three quarters' layout was squeezed from 372 px to 288,
    its numbers were 31 px wide in 27.5-px cells). In lecture mode three in a row, as
    wide as three quarters of the row allowed (the screen was 9 px over 720)."""
    maps = [story.right_kernels[0], story.wrong_kernels[0], story.wrong_minus_right[0]]
    return cached(
        small_multiples,
        maps=maps,
        titles=["right", "wrong", "wrong − right"],
        options=MosaicOptions(
            most_columns=3,
            width_px=LECTURE_THREE_QUARTERS_PX if lecture_on() else THREE_QUARTERS_PX,
            own_width=True,
            snug=True,
        ),
    )


def wrong_caption(story: BatchStory) -> None:
    times = "" if story.reduction == "mean" else f", times {story.size}"
    st.caption(
        f"Kernel 0. Right: the {story.reduction} of the examples' dL_n/dK. Wrong: one "
        f"backward pass through the averaged image with the averaged error{times}."
    )


def reduction_table(story: BatchStory) -> None:
    table = story.reduction_table
    width = story.config.kernel_size
    st.dataframe(
        pd.DataFrame(
            {
                "kernel 0 entry": [
                    f"K[{i // width},{i % width}]" for i in range(len(table["sum"]))
                ],
                "sum Σ dL_n/dK": [fmt(v, 5) for v in table["sum"]],
                f"sum × 1/{story.size}": [fmt(v, 5) for v in table["scaled"]],
                "mean": [fmt(v, 5) for v in table["mean"]],
            }
        ),
        hide_index=True,
        width="content",
        key=STATE.reduction_table,
    )
