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

import streamlit as st

from teaching.batch.step_words import SHARED_MAP_TITLE, shared_map_words
from teaching.batch.story import BatchStory
from ui.batch.cache import cached_step_frames
from ui.batch.state import FIELDS, STATE, on_example_moved, publish
from ui.batch.step_frames import DESK, PROJECTOR, REACHED_TITLE, REACHED_X, REACHED_Y
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
    figures, payload = cached_step_frames(
        story.settings,
        feature,
        layout=PROJECTOR if lecture else DESK,
        look=current_look(),
        keys=tuple(keys.items()),
        link=EXAMPLE_LINK,
        words=WORDS,
    )
    example = min(st.session_state[STATE.example], story.size - 1)
    player = dict(keys=STATE.frames, position=example, on_move=on_example_moved, lecture=lecture)

    def shown(name: str):
        return figures[name][example], keys[name]

    if lecture:
        lecture_step_view(story, feature, example, shown=shown, player=player, payload=payload)
        return
    frame_player(payload, part="controls", **player)
    cells = [column for _ in range(2) for column in st.columns(2)]  # 2x2: wide enough to read
    for cell, name in zip(cells, ("image", "routed", "mean", "kernel"), strict=True):
        with cell:
            figure, key = shown(name)
            chart(figure, key=key)
    st.caption(shared_map_words(story.reduction))
    frame_words(keys=STATE.frames, lecture=False)
    chart(reached_figure(story, feature, example), key=keys["reached"])


def lecture_step_view(story: BatchStory, feature: int, example: int, *, shown, player, payload):
    """Two screens: where example #n routes and what the mean (or sum) of the routing
    maps holds; then the kernel's running gradient and how many positions the batch
    has reached, the example's image in the words' column."""

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
    as examples #0…#n join, the point at `example` (the browser moves it: step_frames.py)."""
    return cached(
        line_figure,
        y_values=story.positions_reached(feature),
        title=REACHED_TITLE,
        x_title=REACHED_X,
        y_title=REACHED_Y,
        marker_at=example,
        first_x=1,
    )
