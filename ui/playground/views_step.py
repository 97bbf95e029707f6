"""The Playground's step-through tab: one window at a time sends its dL/dy back while
dL/dx fills up.

Two layouts. On a desk and on a phone: the controls, then x with the current window
beside the running dL/dx (on a phone the columns stack: dL/dx right under the window
that feeds it), then the sentence. In lecture mode the projector's 720 px have no row
to spare: x, dL/dx and a column of words side by side, the words' column holding
Back, Next and Play (the slider folded beside them) above the sentence.
"""

from __future__ import annotations

import streamlit as st

from ..figures import grid as grids
from ..figures.sizes import drawn_width
from ..figures.style import (
    COLUMN_GAP_PX,
    LECTURE_MAIN_PX,
    LECTURE_STEP_MAP_PX,
    LECTURE_WORDS_MIN_PX,
)
from ..shared.chart import cached, chart
from ..shared.lecture import lecture_on
from ..shared.player import Steps, folded_controls, player
from . import text
from .model import LayerStory
from .state import STATE, publish
from .views import gradient_map, input_overlay


def step_view(story: LayerStory) -> None:
    steps = Steps(
        keys=STATE.player,
        count=story.windows,
        noun="window",
        slider_label="Window (reading order)",
        help_text="Each step, one output cell sends its dL/dy back through its window.",
        single_note="One output cell: there is a single window to follow.",
        first_number=1,
    )
    if not lecture_on():
        player(steps, draw=lambda step: step_figures(story, step), publish=publish)
        return
    # The lecture layout draws its controls itself, in the words' column beside the maps.
    player(
        steps,
        draw=lambda step: lecture_step(story, steps, step),
        publish=publish,
        controls=lambda _steps: None,
    )


def step_maps(story: LayerStory, step: int, *, width_px: int | None = None) -> tuple:
    """The two figures of a step: x with the window of y's `step`-th cell (its winners
    marked for max pooling), and dL/dx after the windows up to that one."""
    out_cell = story.out_cell(step)
    marks = story.receivers(out_cell) if story.config.mode == "max" else ()
    size = {} if width_px is None else {"width_px": width_px}
    x_figure = cached(
        grids.grid_figure,
        values=story.x,
        title=f"x: the window of y[{out_cell[0]},{out_cell[1]}]",
        overlay=input_overlay(story, out_cell, marks),
        **size,
    )
    gx_figure = gradient_map(
        story.filled_after(step),
        title=f"dL/dx after {step + 1} of {story.windows} windows",
        story=story,
        overlay=grids.Overlay(marks=tuple(marks)),
        **size,
    )
    return x_figure, gx_figure


def step_words(story: LayerStory, step: int) -> None:
    """The sentence of the step, and what overlap does to the running totals."""
    st.markdown(text.step_sentence(story, story.out_cell(step)))
    if story.coverage.max() > 1:
        st.caption(
            "Where windows overlap, a cell keeps what earlier windows sent it and adds "
            "the new share: the dL/dx map shows the running totals."
        )


def step_figures(story: LayerStory, step: int) -> None:
    x_figure, gx_figure = step_maps(story, step)
    left, right = st.columns(2)
    with left:
        chart(x_figure, key=STATE.fig_step_x)
    with right:
        chart(gx_figure, key=STATE.fig_step_gx)
    step_words(story, step)


def lecture_step(story: LayerStory, steps: Steps, step: int) -> None:
    """x, dL/dx and the words side by side, each map as wide as it is drawn."""
    x_figure, gx_figure = step_maps(story, step, width_px=LECTURE_STEP_MAP_PX)
    widths = [drawn_width(x_figure), drawn_width(gx_figure)]
    words_px = max(LECTURE_WORDS_MIN_PX, LECTURE_MAIN_PX - sum(widths) - 2 * COLUMN_GAP_PX)
    x_column, gx_column, words = st.columns([*widths, words_px], gap="small")
    with x_column:
        chart(x_figure, key=STATE.fig_step_x)
    with gx_column:
        chart(gx_figure, key=STATE.fig_step_gx)
    with words:
        if steps.count > 1:
            folded_controls(steps)
        step_words(story, step)
