"""The Batch page's batch, the batch built up step by step, and the batch result
(formatting and placing only; Per example: views_examples)."""

from __future__ import annotations

import streamlit as st

from ..figures import grid as grids
from ..figures.mosaic import small_multiples, titles_fit
from ..figures.style import HALF_PX, LECTURE_HALF_PX
from ..minibatch.story import BatchStory
from ..shared.chart import cached, chart
from ..shared.lecture import lecture_on
from ..shared.player import Steps, player
from .state import STATE, publish
from .views_step import lecture_step_view, reached_figure

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
        kind="value",
        annotate=False,
        most_columns=columns,
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


def step_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()
    steps = Steps(
        keys=STATE.player,
        count=story.size,
        noun="example",
        slider_label="Example",
        help_text="Add the examples to the batch one at a time.",
        single_note="A batch of one: there is a single example to follow.",
        seconds=0.8,
    )
    if lecture_on():  # two screens, the player folded beside the maps
        lecture_step_view(story, steps, lambda example: step_sentence(story, feature, example))
        return
    player(steps, draw=lambda example: step_figures(story, feature, example), publish=publish)


def step_sentence(story: BatchStory, feature: int, example: int) -> str:
    """What example `example` adds to the batch's reach, with the counts computed."""
    routed = story.positions_routed(example, feature)
    reached = story.positions_reached(feature)[example]
    total = story.positions
    who = (
        "So far, example #0 alone has" if example == 0 else f"Together, examples #0…#{example} have"
    )
    so_far = f"{who} reached **{reached} of {total}** positions"
    if story.is_max:
        return (
            f"Example #{example} sends nonzero gradient to **{routed}** positions, every one "
            f"a cell that won one of its windows. {so_far}: each example picks its own winners."
        )
    read = story.read_positions
    where = (
        "every cell its windows read"
        if routed == read
        else f"{routed} of the {read} cells its windows read (the others' shares add up to 0)"
    )
    said = f"Example #{example} spreads nonzero gradient over **{routed}** positions: {where}."
    if example == 0:
        return f"{said} {so_far}."
    same = (
        "the same positions for every example so far; only the amounts differ"
        if story.same_positions(feature, example)
        else "not the same positions for every example, as some shares add up to 0"
    )
    return f"{said} {so_far}: {same}."


def step_figures(story: BatchStory, feature: int, example: int) -> None:
    routing = story.routing(feature)
    # One scale for the routing maps and their running mean (or sum, which can
    # outgrow any one map); the kernel's gradient keeps its own.
    shared = (routing, story.routing_running(feature))
    marks = story.winner_cells(example, feature)
    maps = [
        ("routed", routing[example], f"#{example} routes", shared, marks),
        (
            "mean",
            story.routing_running(feature)[example],
            f"{story.reduction} of #0…#{example}",
            shared,
            (),
        ),
        (
            "kernel",
            story.kernel_running(feature)[example],
            f"{story.reduction} dL/dK, #0…#{example}",
            None,
            (),
        ),
    ]
    cells = [column for _ in range(2) for column in st.columns(2)]  # 2x2: wide enough to read
    with cells[0]:
        figure = cached(
            grids.grid_figure,
            values=story.images[example],
            title=f"#{example}: “{story.labels[example]}”",
            width_px=HALF_PX,
            annotate=False,
        )
        chart(figure, key=STATE.fig_step_image)
    for cell, (name, values, title, scale, starred) in zip(cells[1:], maps, strict=True):
        with cell:
            figure = cached(
                grids.grid_figure,
                values=values,
                title=title,
                kind="gradient",
                overlay=grids.Overlay(marks=tuple(starred)),
                shared_range=scale,
                width_px=HALF_PX,
                decimals=2,
            )
            chart(figure, key=STATE.step_figure(name))
    st.markdown(step_sentence(story, feature, example))
    chart(reached_figure(story, feature, example), key=STATE.fig_reached)


BIAS_NOTE = (
    "the gradient of a per-position bias added to every example's pooling input (shared by "
    "the batch). Each example's own activation gradient stays its own: see Per example."
)


def result_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()
    word = story.reduction
    left, right = st.columns(2)
    with left:
        figure = cached(
            grids.grid_figure,
            values=story.routing_reduced(feature),
            title=f"{word} of the routing maps",
            kind="gradient",
            decimals=2,
        )
        chart(figure, key=STATE.fig_result_routing)
        if not lecture_on():
            st.caption(f"This is {BIAS_NOTE}")
    with right:
        kernels = list(story.reduced.kernels[:, 0])
        names = [f"dL/dK, kernel {f}" for f in range(story.config.kernels)]
        figure = cached(
            small_multiples,
            maps=kernels,
            titles=names,
            title=f"Batch dL/dK ({word})",
            most_columns=2,
            # In lecture mode as wide as its column: two kernels side by side, kept
            # that wide (a narrower projector scrolls it rather than squeeze numbers).
            width_px=LECTURE_HALF_PX if lecture_on() else HALF_PX,
            own_width=lecture_on(),
        )
        chart(figure, key=STATE.fig_result_kernels, scroll=STATE.result_kernels_box)
        st.caption(f"The batch kernel gradient: the {word} of the examples' dL_n/dK.")
        if lecture_on():  # under the kernels, where the projector has room to spare
            st.caption(f"The {word} of the routing maps (left) is {BIAS_NOTE}")
        if story.dead_kernels:
            st.caption(
                f"Kernel {', '.join(map(str, story.dead_kernels))}: its ReLU is off at every "
                "position of every example, so no gradient gets through to it."
            )
