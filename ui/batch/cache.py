"""The Batch page's process-wide caches: one training run per batch and network, one
story per step of it. Keyed by BatchSettings, so every session on the same link shares them."""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import replace

import streamlit as st

from teaching.batch.code import numpy_snippet, torch_snippet
from teaching.batch.pair import PairStory, build_pair
from teaching.batch.story import BatchSettings, BatchStory, build_batch_story, start_trajectory
from teaching.batch.trajectory import Trajectory
from ui.batch.step_frames import StepLayout, step_frames, step_map_figures
from ui.batch.train_frames import (
    AHEAD,
    KernelFrames,
    KernelLook,
    TrainingBlock,
    run_states,
    training_block,
)
from ui.figures.look import Look
from ui.shared.frame_player import FrameSpec, FrameWords


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_trajectory(untrained: BatchSettings) -> Trajectory:
    """One training run per batch, network, reduction and learning rate, for the whole
    process: a step more computes that one step (every session sharing the run)."""
    return start_trajectory(untrained)


def trajectory_of(settings: BatchSettings) -> Trajectory:
    return cached_trajectory(replace(settings, steps=0))


def stream_id(settings: BatchSettings, look: KernelLook) -> str:
    """What a run's frames are frames of: its batch, network, loss and learning rate
    (not the step), and their look."""
    untrained = pickle.dumps((replace(settings, steps=0), look))
    return hashlib.blake2b(untrained, digest_size=8).hexdigest()


@st.cache_resource(max_entries=16, show_spinner=False)
def kernel_frames(untrained: BatchSettings, look: KernelLook) -> KernelFrames:
    """The kernels' figures of one run's states in one look, kept as blocks grow."""
    return KernelFrames(look)


@st.cache_resource(max_entries=64, show_spinner=False)
def training_frames(
    settings: BatchSettings,
    *,
    last: int,
    look: KernelLook,
    keys: tuple[str, str],
    link: str,
    words: FrameWords,
    jumps: tuple[dict, ...],
) -> tuple[TrainingBlock, dict]:
    """The run's frames up to step `last` (fewer where it diverges before), and what
    the browser plays of them (a FrameSpec payload, one block of the run's stream)."""
    untrained = replace(settings, steps=0)
    states = run_states(trajectory_of(untrained), last)
    block = training_block(
        states,
        kernel_frames(untrained, look),
        keys=keys,
        rate=settings.learning_rate,
        reduction=settings.reduction,
    )
    spec = FrameSpec(
        count=len(states),
        charts=block.charts,
        words=block.words,
        link=link,
        text=words,
        jumps=jumps,
        stream={"id": stream_id(settings, look), "final": block.final, "ahead": AHEAD},
        first=0,
    )
    return block, spec.payload()


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_story(settings: BatchSettings) -> BatchStory:
    """One story per distinct input for the whole process: picking a map, an example
    or a tab replays neither the training nor the gradient check."""
    return build_batch_story(settings, trajectory_of(settings))


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_pair(settings: BatchSettings, feature: int) -> PairStory:
    """The batch of two from the story's first two examples, kernel `feature`."""
    return build_pair(cached_story(settings), feature)


@st.cache_resource(max_entries=16, show_spinner=False)
def cached_snippets(settings: BatchSettings) -> tuple[str, str]:
    """(PyTorch, NumPy) code reproducing the batch result: up to 100 kB each for a noisy
    batch of 64, so built once, not on every rerun of the tab."""
    story = cached_story(settings)
    return torch_snippet(story), numpy_snippet(story)


@st.cache_resource(max_entries=8, show_spinner=False)
def cached_step_frames(
    settings: BatchSettings,
    feature: int,
    *,
    layout: StepLayout,
    look: Look,
    keys: tuple[tuple[str, str], ...],
    link: str,
    words: FrameWords,
    block: tuple[int, int],
) -> tuple[dict, dict]:
    """The step-through's figures of the examples of `block` ((first, past the last);
    map name -> one per example) and what the browser plays (a FrameSpec's payload, its
    frames numbered from the block's first example), built once per input and look."""
    story = cached_story(settings)
    figures = step_map_figures(story, feature, layout=layout, look=look, block=block)
    data = step_frames(story, feature, figures, keys=dict(keys), block=block)
    return figures, FrameSpec(**data, link=link, text=words, first=block[0] + 1).payload()
