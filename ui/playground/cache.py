"""What the Playground computes, once per distinct input for the whole process.

Keyed by the frozen `LayerSettings` (x, layer, dL/dy): a rerun that changes no input (a
click on a chart, another tab, a step) computes nothing again. Shared between sessions,
so a story's arrays are made read-only.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from teaching.playground.code import numpy_snippet, torch_snippet
from teaching.playground.model import LayerSettings, LayerStory, build_layer_story, same_y_settings
from teaching.playground.ties import TieRow, tie_lab
from ui.playground.step_frames import StepMaps, frames_data, step_maps
from ui.shared.frame_player import FrameSpec, FrameWords


@st.cache_resource(max_entries=64, show_spinner=False)
def story(settings: LayerSettings) -> LayerStory:
    """build_layer_story(settings); ValueError (not cached) when the layer does not fit."""
    built = build_layer_story(settings)
    arrays = (built.x, built.output, built.argmax, built.grad_output, built.grad_x, built.shares)
    for array in (*arrays, built.coverage):
        if array is not None:
            array.flags.writeable = False
    return built


@st.cache_resource(max_entries=64, show_spinner=False)
def same_y_story(settings: LayerSettings) -> LayerStory | None:
    """The same-y, different-winner story of `story(settings)`, or None."""
    moved = same_y_settings(story(settings))
    return None if moved is None else story(moved)


@st.cache_resource(max_entries=32, show_spinner=False)
def ties(settings: LayerSettings) -> tuple[list[TieRow], np.ndarray]:
    """tie_lab of `story(settings)`: every tie rule, and the central differences."""
    return tie_lab(story(settings))


@st.cache_resource(max_entries=32, show_spinner=False)
def snippets(settings: LayerSettings) -> tuple[str, str]:
    """(PyTorch, NumPy) code reproducing `story(settings)`, built once."""
    built = story(settings)
    return torch_snippet(built), numpy_snippet(built)


@st.cache_resource(max_entries=32, show_spinner=False)
def step_frames(
    settings: LayerSettings,
    *,
    width_px: int,
    lecture: bool,
    keys: tuple[tuple[str, str], ...],
    link: str,
    words: FrameWords,
) -> tuple[StepMaps, dict]:
    """The step-through's maps of `story(settings)` over every window, and what the
    browser plays (steps.frames_data as a FrameSpec's payload; `link`: the link
    parameter of the step), built once per input and look."""
    built = story(settings)
    maps = step_maps(built, width_px=width_px)
    data = frames_data(built, maps, keys=dict(keys), lecture=lecture)
    return maps, FrameSpec(**data, link=link, text=words).payload()
