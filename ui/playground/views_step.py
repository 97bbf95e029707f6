"""The Playground's step-through tab: one window at a time sends its dL/dy back while
dL/dx fills up. Every window's frame is computed once per input (step_frames.py) and played
in the browser (ui/shared/frame_player.py): Back, Next, Play, the slider, the keys and
pointing at y run there, with no script run per step.

Two layouts. On a desk and on a phone: the controls, then x with the current window
beside the running dL/dx, then y (point at a cell to follow its window) beside the
step's words (on a phone the columns stack: dL/dx right under the window that feeds
it). In lecture mode the projector's 720 px have no row to spare: x, dL/dx and a
column of words side by side, the words' column holding the controls above the
sentence.
"""

from __future__ import annotations

import streamlit as st

from teaching.playground.model import LayerStory
from ui.figures import grid as grids
from ui.figures.frame_data import MapFrames
from ui.playground import cache
from ui.playground.state import FIELDS, STATE, on_frame_moved
from ui.playground.step_frames import StepMaps
from ui.playground.views_passes import gradient_maps, map_width
from ui.shared.beside import Placed, maps_beside_words
from ui.shared.chart import cached, chart
from ui.shared.frame_player import FrameWords, frame_player, frame_words
from ui.shared.lecture import lecture_on

WORDS = FrameWords(
    noun="window",
    slider="Window (reading order)",
    slider_help="Each step, one output cell sends its dL/dy back through its window.",
    single="One output cell: there is a single window to follow.",
)
OVERLAP_NOTE = (
    "Where windows overlap, a cell keeps what earlier windows sent it and adds the new "
    "share: the dL/dx map shows the running totals."
)
STEP_LINK = next(f.url for f in FIELDS if f.key == STATE.step)


def step_through_view(story: LayerStory) -> None:
    lecture = lecture_on()
    keys = {"x": STATE.fig_step_x, "gx": STATE.fig_step_gx}
    if not lecture:
        keys["y"] = STATE.fig_step_y
    maps, payload = cache.step_frames(
        story.settings,
        width_px=map_width(),
        lecture=lecture,
        keys=tuple(keys.items()),
        link=STEP_LINK,
        words=WORDS,
    )
    step = STATE.step_shown()
    player = dict(keys=STATE.frames, position=step, on_move=on_frame_moved, lecture=lecture)
    if lecture:
        lecture_step(story, maps, step, lambda: frame_player(payload, **player))
        return
    frame_player(payload, part="controls", **player)
    x_figure, gx_figure = step_figures(story, maps, step, lecture=False)
    left, right = st.columns(2)
    with left:
        chart(x_figure, key=STATE.fig_step_x)
    with right:
        chart(gx_figure, key=STATE.fig_step_gx)
    left, right = st.columns(2)
    with left:
        chart(pointer_figure(story, maps.y, step), key=STATE.fig_step_y)
    with right:
        frame_words(keys=STATE.frames, lecture=False)
        overlap_note(story)


def overlap_note(story: LayerStory) -> None:
    if story.coverage.max() > 1:
        st.caption(OVERLAP_NOTE)


def _figure(frames: MapFrames, step: int, *, lecture: bool, values, **options):
    """The map of `frames` at `step` (`values`: (H, W)), built as the browser draws
    every other frame; `options`: the rest of its grid.GridOptions."""
    _, lines = frames.wrapped_titles(lecture=lecture)
    return cached(
        grids.grid_figure,
        values=values,
        title=frames.titles[step],
        options=grids.GridOptions(width_px=frames.width_px, title_lines=lines, **options),
    )


def step_figures(story: LayerStory, maps: StepMaps, step: int, *, lecture: bool) -> tuple:
    """x with the window of y's `step`-th cell (its winners marked for max pooling), and
    dL/dx after the windows up to that one, its window outlined."""
    marks = maps.x.marks[step] if maps.x.marks is not None else ()
    x_figure = _figure(
        maps.x,
        step,
        lecture=lecture,
        values=story.x,
        overlay=grids.Overlay(
            window=maps.x.windows[step],
            marks=marks,
            padding=story.config.padding,
            pad_label=story.pad_label,
        ),
    )
    gx_figure = _figure(
        maps.gx,
        step,
        lecture=lecture,
        values=maps.gx.values[step],
        kind="gradient",
        shared_range=gradient_maps(story),
        overlay=grids.Overlay(window=maps.gx.windows[step], marks=marks),
        fit_over=maps.gx.values,
        receiving=maps.gx.receiving,
    )
    return x_figure, gx_figure


def pointer_figure(story: LayerStory, frames: MapFrames, step: int):
    """y with the current window's cell outlined: pointing at a cell follows its window."""
    return _figure(
        frames,
        step,
        lecture=False,
        values=story.output,
        overlay=grids.Overlay(window=frames.windows[step]),
        clickable=True,
    )


def lecture_step(story: LayerStory, maps: StepMaps, step: int, controls) -> None:
    """x, dL/dx and the words side by side, each map as wide as it is drawn."""
    x_figure, gx_figure = step_figures(story, maps, step, lecture=True)

    def words() -> None:
        controls()
        overlap_note(story)

    maps_beside_words(
        [Placed(x_figure, STATE.fig_step_x), Placed(gx_figure, STATE.fig_step_gx)], words
    )
