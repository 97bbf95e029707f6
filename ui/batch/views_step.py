"""The Batch page's Step through tab: the batch built up one example at a time. Every
example's frame is computed once per input (step_frames.py) and played in the browser
(ui/shared/frame_player.py): Back, Next, Play, the slider and the ← → and P keys run there,
with no script run per step; the link keeps the example.

On a desk and a phone: the controls, the example's image beside the map it routes, the
running mean (or sum) of the routing maps beside that of dL/dK (on a phone they stack),
the sentence, and the positions reached. In lecture mode the projector's 720 px hold
no second row of maps, so the tab is two screens walked with Page Up and Page Down (a
presenter's clicker sends them), each its maps side by side with a column of words
beside them, the player's controls above the sentence; both screens follow the one
player, so the example stays as the lecturer walks from one screen to the other.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import streamlit as st

from teaching.batch.step_words import SHARED_MAP_TITLE, shared_map_words
from teaching.batch.story import BatchStory
from ui.batch.cache import cached_step_frames
from ui.batch.state import FIELDS, STATE, on_block_picked, on_example_moved, publish
from ui.batch.step_frames import (
    DESK,
    PROJECTOR,
    REACHED_TITLE,
    REACHED_X,
    REACHED_Y,
    STEP_BLOCK,
    block_of,
    block_words,
    reached_points,
    step_blocks,
)
from ui.figures.curves import line_figure
from ui.figures.style import REACH_CHART_PX
from ui.shared.beside import Placed, maps_beside_words
from ui.shared.chart import cached, chart
from ui.shared.frame_player import FrameWords, frame_player, frame_words
from ui.shared.lecture import current_look, lecture_on
from ui.shared.walk import Screen, tell

PAGE_KEYS = ("pageup", "pagedown")  # the walk's; the player keeps ← → and P
WORDS = FrameWords(
    noun="example",
    slider="Example",
    slider_help="Add the examples to the batch one at a time.",
    single="A batch of one: there is a single example to follow.",
)
EXAMPLE_LINK = next(f.url for f in FIELDS if f.key == STATE.example)
BLOCK_LINK = next(f.url for f in FIELDS if f.key == STATE.step_at)  # the place in a block
BLOCK_LABEL = "Examples stepped through"


def block_picker(story: BatchStory, block: tuple[int, int]) -> None:
    """Which block of STEP_BLOCK examples the step-through plays (a batch of more): a
    row of at most three choices, each read at once (a tap or the arrow keys)."""
    state = st.session_state
    if state.get(STATE.step_block) != block:
        state[STATE.step_block] = block
    st.radio(
        BLOCK_LABEL,
        step_blocks(story.size),
        key=STATE.step_block,
        format_func=block_words,
        on_change=on_block_picked,
        horizontal=True,
        help=f"{STEP_BLOCK} examples at a time: the step-through starts at the first.",
    )


def chart_keys() -> dict[str, str]:
    """Map name -> its chart's key: what the frames are drawn on."""
    return {
        "image": STATE.fig_step_image,
        "routed": STATE.step_figure("routed"),
        "mean": STATE.step_figure("mean"),
        "kernel": STATE.step_figure("kernel"),
        "reached": STATE.fig_reached,
    }


def step_through_view(story: BatchStory) -> None:
    feature = STATE.feature_shown()
    lecture = lecture_on()
    keys = chart_keys()
    example = min(st.session_state[STATE.example], story.size - 1)
    block = block_of(example, story.size)
    blocked = story.size > STEP_BLOCK
    figures, payload = cached_step_frames(
        story.settings,
        feature,
        layout=PROJECTOR if lecture else DESK,
        look=current_look(),
        keys=tuple(keys.items()),
        link=BLOCK_LINK if blocked else EXAMPLE_LINK,
        words=replace(WORDS, others={"count": f"Example {{n}} of {story.size}"}),
        block=block,
    )
    player = dict(
        keys=STATE.frames,
        position=example - block[0],
        on_move=partial(on_example_moved, first=block[0]),
        lecture=lecture,
    )

    def shown(name: str):
        return figures[name][example - block[0]], keys[name]

    picker = partial(block_picker, story, block) if blocked else None
    if lecture:
        lecture_step_view(
            story, feature, example, shown=shown, player=player, payload=payload, picker=picker
        )
        return
    if picker is not None:
        picker()
    frame_player(payload, part="controls", **player)
    cells = [column for _ in range(2) for column in st.columns(2)]  # 2x2: wide enough to read
    for cell, name in zip(cells, ("image", "routed", "mean", "kernel"), strict=True):
        with cell:
            figure, key = shown(name)
            chart(figure, key=key)
    st.caption(shared_map_words(story.reduction))
    frame_words(keys=STATE.frames, lecture=False)
    chart(reached_figure(story, feature, example), key=keys["reached"])


def lecture_step_view(
    story: BatchStory, feature: int, example: int, *, shown, player, payload, picker
):
    """Two screens: where example #n routes and what the mean (or sum) of the routing
    maps holds; then the kernel's running gradient and how many positions the batch
    has reached, the example's image in the words' column. picker: the block's, drawn
    above the first screen's controls (the second follows the block picked there)."""

    def routing_screen() -> None:
        beside_words([Placed(*shown("routed")), Placed(*shown("mean"))], corner=None)

    def reach_screen() -> None:
        reach = Placed(
            reached_figure(story, feature, example), STATE.fig_reached, width=REACH_CHART_PX
        )
        beside_words([Placed(*shown("kernel")), reach], corner=shown("image"))

    def beside_words(placed: list[Placed], corner: tuple | None) -> None:
        """The charts `placed` side by side; the player's controls, `corner` (a small
        figure and its key) and the words in the column left over."""

        def words() -> None:
            if picker is not None and corner is None:  # screen 1: screen 2 has no room
                picker()
            frame_player(payload, part="controls", **player)
            if corner is not None:
                chart(corner[0], key=corner[1])
            frame_words(keys=STATE.frames, lecture=True)

        maps_beside_words(placed, words)

    tell(
        "step",
        [
            Screen(
                f"What each example routes; the {story.reduction}: {SHARED_MAP_TITLE}",
                routing_screen,
            ),
            Screen("What the batch has reached", reach_screen),
        ],
        keys=STATE.walk,
        publish=publish,
        shortcuts=PAGE_KEYS,
    )


def reached_figure(story: BatchStory, feature: int, example: int):
    """How many positions of kernel `feature`'s pooling input have received gradient
    as examples #0…#n join, over the block of `example`, the point at `example` (the
    browser moves it: step_frames.py)."""
    block = block_of(example, story.size)
    reached, first_x = reached_points(story, feature, block=block)
    return cached(
        line_figure,
        y_values=reached,
        title=REACHED_TITLE,
        x_title=REACHED_X,
        y_title=REACHED_Y,
        marker_at=example - block[0],
        first_x=first_x,
    )
