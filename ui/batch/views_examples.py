"""The Batch page's Per example tab: the batch's examples side by side at each stage of
the forward and the backward pass, one mosaic per stage (formatting and placing only).
On a desk and a phone the stages stand one under the other; in lecture mode each is a
screen of its own (ui.shared.walk), its words in a column beside its mosaic."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from teaching.batch.story import BatchStory
from teaching.words import MARK_LEGEND
from ui.batch.state import STATE, publish
from ui.batch.views import ANNOTATE_UP_TO, feature_picker, titles
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.figures.style import IN_A_ROW_MAP_PX, LECTURE_MAIN_PX, LECTURE_MOSAIC_PX, LECTURE_WORDS_PX
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on
from ui.shared.walk import Screen, tell

HUNDREDTHS = 2  # decimals the maps' numbers keep, written in whole hundredths in a row
# Examples a page of the tab shows: a batch of 100 drawn at once was a wall of 100 maps
# a stage (13 rows of them), the tab's server time 2.5 times a batch of 8's.
EXAMPLES_PAGE = 16


def example_pages(size: int) -> list[tuple[int, int]]:
    """(first, past the last) example of each page of EXAMPLES_PAGE."""
    return [(start, min(start + EXAMPLES_PAGE, size)) for start in range(0, size, EXAMPLES_PAGE)]


def page_picker(story: BatchStory) -> range:
    """The examples shown: all of a batch of up to EXAMPLES_PAGE, else the page picked
    (at first the page of the example stepped to)."""
    pages = example_pages(story.size)
    if len(pages) == 1:
        return range(story.size)
    state = st.session_state
    if state.get(STATE.examples_page) not in pages:
        state[STATE.examples_page] = pages[STATE.example_shown() // EXAMPLES_PAGE]
    st.selectbox(
        "Examples shown",
        pages,
        key=STATE.examples_page,
        format_func=lambda page: f"#{page[0]}–#{page[1] - 1} of {story.size}",
        help=f"{EXAMPLES_PAGE} examples at a time, so that each map stays readable.",
    )
    return range(*state[STATE.examples_page])


def per_example_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()  # the picker's, set before it is drawn again
    shown = range(story.size)
    if story.size > EXAMPLES_PAGE and not lecture_on():
        shown = page_picker(story)
    elif story.size > EXAMPLES_PAGE:  # the page's picker beside the walk's buttons
        pages = example_pages(story.size)
        kept = st.session_state.get(STATE.examples_page)
        shown = range(*(kept if kept in pages else pages[STATE.example_shown() // EXAMPLES_PAGE]))
    winners = [story.winner_cells(n, feature) for n in shown] if story.is_max else None
    relu = "after ReLU" if story.config.relu else "no ReLU"
    won = (
        f" Each cell that won a window has {MARK_LEGEND}; each example has its own."
        if story.is_max
        else " Average pooling reads every cell of a window: no cell wins."
    )
    routed = (
        "each dL_n/dy routed back to the cells that won its window, in each example its own"
        if story.is_max
        else "each dL_n/dy shared out equally among its window's real cells: the same cells "
        "for every example, other amounts"
    )
    trace, grads = story.trace, story.grads
    stages = [
        (
            "The pooling input",
            f"**Convolution output ({relu}): the pooling input.**{won}",
            (trace.activation[shown, feature], "activation", "value", winners),
        ),
        (
            "Pooled output y",
            "**Pooled output y.**",
            (trace.pool.output[shown, feature], "pooled", "value", None),
        ),
        (
            "What the loss sends back",
            "**dL_n/dy: what the loss sends back to each pooled cell.**",
            (grads.at_pool_output[shown, feature], "upstream", "gradient", None),
        ),
        (
            "Routed back through the pool",
            f"**dL_n/d(pooling input): {routed}.**",
            (story.routing(feature)[shown], "routed", "gradient", winners),
        ),
        (
            "Each example's kernel gradient",
            f"**dL_n/dK for kernel {feature}: each example's own kernel gradient.**",
            (grads.per_example.kernels[shown, feature, 0], "kernel", "gradient", None),
        ),
    ]
    screens = [
        Screen(name, stage_drawer(story, lead=lead, mosaic=mosaic, shown=shown))
        for name, lead, mosaic in stages
    ]

    def controls() -> None:
        feature_picker(story, compact=lecture_on())
        if lecture_on() and story.size > EXAMPLES_PAGE:
            page_picker(story)

    tell(
        "examples",
        screens,
        keys=STATE.walk,
        publish=publish,
        beside=controls,
    )
    if not lecture_on() and story.size > ANNOTATE_UP_TO:
        st.caption(colour_only_note())


def colour_only_note() -> str:
    return (
        f"With more than {ANNOTATE_UP_TO} examples the maps are colour only: "
        "point at a cell (tap it on a phone) for its number."
    )


def stage_drawer(
    story: BatchStory, *, lead: str, mosaic: tuple, shown: range
) -> Callable[[], None]:
    """What draws one stage: its lead, then its mosaic (maps (N, H, W), the figure's
    name, its kind and the cells to star); in lecture mode the lead in a column beside
    the mosaic, with the colour-only note where it applies."""

    def draw() -> None:
        maps, name, kind, marks = mosaic
        drawn = dict(name=name, kind=kind, marks=marks, shown=shown)
        if not lecture_on():
            st.markdown(lead)
            mosaic_chart(story, maps, **drawn)
        elif story.size <= ANNOTATE_UP_TO:  # numbers: the whole width, the words above
            st.markdown(lead)
            wide = min(LECTURE_MAIN_PX, story.size * IN_A_ROW_MAP_PX)  # cells no bigger
            mosaic_chart(story, maps, **drawn, width_px=wide, in_a_row=True)
        else:  # colour only: the mosaic beside the words
            words, place = st.columns([LECTURE_WORDS_PX, LECTURE_MOSAIC_PX], gap="small")
            words.markdown(lead)
            words.caption(colour_only_note())
            with place:
                mosaic_chart(story, maps, **drawn, width_px=LECTURE_MOSAIC_PX)

    return draw


def mosaic_chart(
    story: BatchStory,
    maps: np.ndarray,
    *,
    name: str,
    kind: str,
    marks: list | None,
    shown: range,
    width_px: int | None = None,
    in_a_row: bool = False,
) -> None:
    """The examples' maps (N, H, W) as one mosaic, titled with their labels. With their
    numbers written, a mosaic keeps the width it is laid out at (a phone's column), which
    a narrower one scrolls: squeezed to 288 px at 320, its winner marks, sized for the
    cells it was laid out with, covered the numbers. in_a_row: every map in one row, in
    whole hundredths with no colour bar (its room goes to the cells), so that a
    projector's 18-px numbers fit one screen's height."""
    annotate = story.size <= ANNOTATE_UP_TO
    row = dict(most_columns=4 if story.size <= 8 else 8, own_width=annotate)
    if in_a_row:
        maps = np.round(maps, HUNDREDTHS)  # whole hundredths: 0.3157 reads 32
        row = dict(most_columns=story.size, colour_bar=False, units=-HUNDREDTHS)
    figure = cached(
        small_multiples,
        maps=list(maps),
        titles=[titles(story)[n] for n in shown],
        options=MosaicOptions(kind=kind, annotate=annotate, marks=marks, width_px=width_px, **row),
    )
    chart(figure, key=STATE.example_maps(name))
