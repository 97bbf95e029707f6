"""The Batch page's batch and the batch result (formatting and placing only; Per
example: views_examples; the batch built up step by step: views_step)."""

from __future__ import annotations

import math

import streamlit as st

from teaching.batch.story import BatchStory
from ui.batch.state import STATE
from ui.figures import grid as grids
from ui.figures.mosaic import MosaicOptions, small_multiples, titles_fit
from ui.figures.sizes import drawn_width
from ui.figures.style import HALF_PX, LECTURE_HALF_PX
from ui.shared.beside import Placed, maps_beside_words
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on

ANNOTATE_UP_TO = 4  # examples; beyond this the small maps are colour, numbers on hover


def titles(story: BatchStory, prefix: str = "") -> list[str]:
    return [f"{prefix}{n}: “{story.labels[n]}”" for n in range(story.size)]


def batch_view(story: BatchStory) -> None:
    st.subheader(f"The batch: {story.size} example{'s' * (story.size > 1)}")
    columns = 4 if story.size <= 8 else 8
    figure = cached(
        small_multiples,
        maps=list(story.images),
        titles=[f"“{label}”" for label in story.labels],
        options=MosaicOptions(kind="value", annotate=False, most_columns=columns),
    )
    chart(figure, key=STATE.fig_batch)
    titled = titles_fit(story.size, story.images.shape[2], most_columns=columns)
    st.caption(
        "Examples #0, #1, … in reading order"
        + (", each titled with its label." if titled else ".")
        + " Pixels from 0 (white) to 1 (dark); point at a pixel (tap it on a phone) for its "
        + ("value." if titled else "value and its example's number.")
    )


def feature_picker(story: BatchStory, *, compact: bool = False) -> int:
    """The kernel whose maps are shown; `compact`: without its label, in a row of
    buttons (its options say “kernel 0”, “kernel 1”, …)."""
    if story.config.kernels > 1:
        st.radio(
            "Feature map",
            list(range(story.config.kernels)),
            label_visibility="collapsed" if compact else "visible",
            key=STATE.feature,
            horizontal=True,
            format_func=lambda f: f"kernel {f}",
            help="Each kernel makes its own map, pooled and routed on its own.",
        )
    return STATE.feature_shown()


BIAS_NOTE = (
    "the gradient of a per-position bias added to every example's pooling input (shared by "
    "the batch). Each example's own activation gradient stays its own: see Per example."
)


def result_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()
    word = story.reduction
    routing = cached(
        grids.grid_figure,
        values=story.routing_reduced(feature),
        title=f"{word} of the routing maps",
        options=grids.GridOptions(kind="gradient", decimals=2),
    )
    if lecture_on():
        lecture_result(story, routing)
        return
    left, right = st.columns(2)
    with left:
        chart(routing, key=STATE.fig_result_routing)
        st.caption(f"This is {BIAS_NOTE}")
    with right:
        chart(kernels_figure(story), key=STATE.fig_result_kernels, scroll=STATE.result_kernels_box)
        kernel_captions(story)


def lecture_result(story: BatchStory, routing) -> None:
    """The projector's screen: the routing map at its drawn width, the kernels beside
    it with the words under them in the rest of the row (the words that wide take a
    line less than under the kernels alone: at their width the screen was 20 px over
    720), in one row that wraps (in half columns a projector at 150 % cut both maps)."""
    kernels = kernels_figure(story)

    def kernels_and_words() -> None:
        with st.container(width=math.ceil(drawn_width(kernels))):  # its bar beside its maps
            chart(kernels, key=STATE.fig_result_kernels)
        kernel_captions(story)
        st.caption(f"The {story.reduction} of the routing maps (left) is {BIAS_NOTE}")

    maps_beside_words([Placed(routing, STATE.fig_result_routing)], kernels_and_words)


def kernels_figure(story: BatchStory):
    """Every kernel's batch gradient, in one mosaic."""
    kernels = list(story.reduced.kernels[:, 0])
    return cached(
        small_multiples,
        maps=kernels,
        titles=[f"dL/dK, kernel {f}" for f in range(story.config.kernels)],
        options=MosaicOptions(
            title=f"Batch dL/dK ({story.reduction})",
            most_columns=2,
            # In lecture mode as wide as half the projector: two kernels side by side, kept
            # that wide (a narrower column scrolls it rather than squeeze numbers).
            width_px=LECTURE_HALF_PX if lecture_on() else HALF_PX,
            own_width=lecture_on(),
        ),
    )


def kernel_captions(story: BatchStory) -> None:
    st.caption(f"The batch kernel gradient: the {story.reduction} of the examples' dL_n/dK.")
    if story.dead_kernels:
        st.caption(
            f"Kernel {', '.join(map(str, story.dead_kernels))}: its ReLU is off at every "
            "position of every example, so no gradient gets through to it."
        )
