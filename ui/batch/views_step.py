"""The Batch page's Step through tab in lecture mode: the projector's 720 px hold no
slider row and no second row of maps, so the tab is two screens, each its maps side
by side with a column of words beside them, that column holding the player folded
(Back, Next and Play; the slider in a popover) above the sentence. Both screens follow
the one player: the example added stays as the lecturer walks from one screen to the
other. The player has ← → and P; the walk's Previous and Next take Page Up and Page
Down (a presenter's clicker sends them)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ..figures import grid as grids
from ..figures.curves import line_figure
from ..figures.sizes import drawn_width
from ..figures.style import (
    COLUMN_GAP_PX,
    CORNER_PX,
    KERNEL_MAP_PX,
    LECTURE_MAIN_PX,
    LECTURE_WORDS_MIN_PX,
    REACH_CHART_PX,
    ROUTING_MAP_PX,
)
from ..minibatch.story import BatchStory
from ..shared.chart import cached, chart
from ..shared.player import Steps, folded_controls, player
from .state import STATE, publish
from .walk import Screen, tell

PAGE_KEYS = ("pageup", "pagedown")  # the walk's; the player keeps ← → and P


def lecture_step_view(story: BatchStory, steps: Steps, sentence) -> None:
    """Two screens, each drawn by the player: where example #n routes and what the
    mean (or sum) of the routing maps holds; then the kernel's running gradient and
    how many positions the batch has reached. sentence(example): the step's words."""
    feature = STATE.feature_shown()
    # A batch of one: the note goes in the words' column, not in a row above the maps.
    quiet = replace(steps, single_note="")

    def screen(draw_maps):
        def draw():
            player(
                quiet,
                draw=lambda example: beside_words(
                    *draw_maps(story, feature, example), steps=steps, words=sentence(example)
                ),
                publish=publish,
                controls=lambda _steps: None,
            )

        return draw

    tell(
        "step",
        [
            Screen(f"What each example routes, and the {story.reduction}", screen(routing_maps)),
            Screen("What the batch has reached", screen(reach_maps)),
        ],
        shortcuts=PAGE_KEYS,
    )


def beside_words(figures: list[tuple], corner: tuple | None, *, steps: Steps, words: str) -> None:
    """figures: (figure, key, width or None for its drawn width), side by side; the
    player's buttons, `corner` (a small figure and its key) and `words` in the column
    left over."""
    widths = [width or drawn_width(figure) for figure, _, width in figures]
    spare = LECTURE_MAIN_PX - sum(widths) - len(figures) * COLUMN_GAP_PX
    *places, words_column = st.columns([*widths, max(LECTURE_WORDS_MIN_PX, spare)], gap="small")
    for place, (figure, key, _) in zip(places, figures, strict=True):
        with place:
            chart(figure, key=key)
    with words_column:
        if steps.count > 1:
            folded_controls(steps)
        else:
            st.caption(steps.single_note)
        if corner is not None:
            chart(corner[0], key=corner[1])
        st.markdown(words)


def example_image(story: BatchStory, example: int) -> tuple:
    """The example's image (colour only) and its chart's key."""
    image = cached(
        grids.grid_figure,
        values=story.images[example],
        title=f"#{example}: “{story.labels[example]}”",
        width_px=CORNER_PX,
        annotate=False,
    )
    return image, STATE.fig_step_image


def routing_maps(story: BatchStory, feature: int, example: int) -> tuple[list, None]:
    """The map example `example` routes (titled with its label: its image is on the
    next screen) and the running mean (or sum) of the routing maps so far, on one
    colour scale."""
    routing = story.routing(feature)
    running = story.routing_running(feature)
    named = f"#{example} “{story.labels[example]}” routes"
    maps = [
        (routing[example], named, story.winner_cells(example, feature), "routed"),
        (running[example], f"{story.reduction} of #0…#{example}", (), "mean"),
    ]
    figures = []
    for values, title, marks, name in maps:
        figure = cached(
            grids.grid_figure,
            values=values,
            title=title,
            kind="gradient",
            overlay=grids.Overlay(marks=tuple(marks)),
            shared_range=(routing, running),
            width_px=ROUTING_MAP_PX,
            decimals=2,
        )
        figures.append((figure, STATE.step_figure(name), None))
    return figures, None


def reached_figure(story: BatchStory, feature: int, example: int):
    """How many positions of kernel `feature`'s pooling input have received gradient
    as examples #0…#n join, the point at `example`."""
    return cached(
        line_figure,
        y_values=story.positions_reached(feature),
        title="Positions that received any gradient",
        x_title="examples in the batch so far",
        y_title="positions",
        marker_at=example,
        first_x=1,
    )


def reach_maps(story: BatchStory, feature: int, example: int) -> tuple[list, tuple]:
    """The running mean (or sum) of dL/dK, and the positions reached as examples join;
    the example just added, for the words' column."""
    kernel = cached(
        grids.grid_figure,
        values=story.kernel_running(feature)[example],
        title=f"{story.reduction} dL/dK, #0…#{example}",
        kind="gradient",
        width_px=KERNEL_MAP_PX,
        decimals=2,
    )
    reach = reached_figure(story, feature, example)
    return [
        (kernel, STATE.step_figure("kernel"), None),
        (reach, STATE.fig_reached, REACH_CHART_PX),
    ], example_image(story, example)
