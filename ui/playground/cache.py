"""What the Playground computes, once per distinct input for the whole process.

Keyed by the frozen `Settings` (x, layer, dL/dy): a rerun that changes no input (a
click on a chart, another tab, a step) computes nothing again. Shared between sessions,
so a lesson's arrays are made read-only.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from .code import numpy_snippet, torch_snippet
from .model import Lesson, Settings, build_lesson, twin_settings
from .ties import TieRow, tie_lab


@st.cache_resource(max_entries=64, show_spinner=False)
def lesson(settings: Settings) -> Lesson:
    """build_lesson(settings); ValueError (not cached) when the layer does not fit."""
    built = build_lesson(settings)
    arrays = (built.x, built.output, built.argmax, built.grad_output, built.grad_x, built.shares)
    for array in (*arrays, built.coverage):
        if array is not None:
            array.flags.writeable = False
    return built


@st.cache_resource(max_entries=64, show_spinner=False)
def twin(settings: Settings) -> Lesson | None:
    """The same-y, different-winner lesson of `lesson(settings)`, or None."""
    moved = twin_settings(lesson(settings))
    return None if moved is None else lesson(moved)


@st.cache_resource(max_entries=32, show_spinner=False)
def ties(settings: Settings) -> tuple[list[TieRow], np.ndarray]:
    """tie_lab of `lesson(settings)`: every tie rule, and the central differences."""
    return tie_lab(lesson(settings))


@st.cache_resource(max_entries=32, show_spinner=False)
def snippets(settings: Settings) -> tuple[str, str]:
    """(PyTorch, NumPy) code reproducing `lesson(settings)`, built once."""
    built = lesson(settings)
    return torch_snippet(built), numpy_snippet(built)
