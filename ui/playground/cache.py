"""What the Playground computes, once per distinct input for the whole process.

Keyed by the frozen `LayerSettings` (x, layer, dL/dy): a rerun that changes no input (a
click on a chart, another tab, a step) computes nothing again. Shared between sessions,
so a story's arrays are made read-only.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from .code import numpy_snippet, torch_snippet
from .model import LayerSettings, LayerStory, build_layer_story, twin_settings
from .ties import TieRow, tie_lab


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
def twin(settings: LayerSettings) -> LayerStory | None:
    """The same-y, different-winner story of `story(settings)`, or None."""
    moved = twin_settings(story(settings))
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
