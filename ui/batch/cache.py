"""The Batch page's process-wide caches: one training run per batch and network, one
lesson per step of it. Keyed by Settings, so every session on the same link shares them."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from .code import numpy_snippet, torch_snippet
from .model import BatchLesson, Settings, build_batch_lesson, start_trajectory
from .pair import PairStory, build_pair
from .trajectory import Trajectory


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_trajectory(untrained: Settings) -> Trajectory:
    """One training run per batch, network, reduction and learning rate, for the whole
    process: a step more computes that one step (every session sharing the run)."""
    return start_trajectory(untrained)


def trajectory_of(settings: Settings) -> Trajectory:
    return cached_trajectory(replace(settings, steps=0))


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_lesson(settings: Settings) -> BatchLesson:
    """One lesson per distinct input for the whole process: picking a map, an example
    or a tab replays neither the training nor the gradient check."""
    return build_batch_lesson(settings, trajectory_of(settings))


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_pair(settings: Settings, feature: int) -> PairStory:
    """The batch of two from the lesson's first two examples, kernel `feature`."""
    return build_pair(cached_lesson(settings), feature)


@st.cache_resource(max_entries=16, show_spinner=False)
def cached_snippets(settings: Settings) -> tuple[str, str]:
    """(PyTorch, NumPy) code reproducing the batch result: up to 100 kB each for a noisy
    batch of 64, so built once, not on every rerun of the tab."""
    lesson = cached_lesson(settings)
    return torch_snippet(lesson), numpy_snippet(lesson)
