"""The Batch page's state: its one declaration (`STATE`: every session-state and widget
key, named once, here; its share-link fields; its limits; typed reads), and the
callbacks that change the state. The edited digits are kept in the browser
too, so a reload brings them back (teaching/batch/storage.py)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import streamlit as st

from pooling.batch import REDUCTIONS
from teaching.batch.data import BATCH_MAX, SOURCES, Edits, Source
from teaching.batch.storage import from_stored, to_stored
from teaching.links import SEED_MAX, Field, flag, int_in, label_in, one_of, snapshot, write_flag
from ui.batch.step_frames import STEP_BLOCK
from ui.batch.train_frames import BLOCK, STEPS_MAX
from ui.shared import browser
from ui.shared.controls import PoolControls
from ui.shared.lecture import with_lecture
from ui.shared.state import FramePlayerKeys, GridKeys, PageKeys, WalkKeys, start_page_state

P = "bt"  # the page's key prefix: every key below starts with it
LEARNING_RATES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
TABS = {
    "pair": "Two examples",
    "examples": "Per example",
    "step": "Step through",
    "winners": "Winners",
    "result": "Batch result",
    "training": "Training",
    "weights": "Five weights",
}


@dataclass(frozen=True)
class BatchState:
    """The Batch page's one state declaration: every key it keeps in session state or
    gives a widget (its pooling controls, image editors and two players as bundles),
    its share link's fields, its limits (the pooling layer's in controls.py, the
    seed's in links.py, its own here), and typed reads of its state."""

    BATCH_MAX: ClassVar[int] = BATCH_MAX  # examples in a batch (teaching.batch.data)
    TRAIN_STEPS_MAX: ClassVar[int] = STEPS_MAX  # training steps the page takes
    KERNELS_MAX: ClassVar[int] = 4  # convolution kernels (feature maps)
    KERNEL_SIZE_MAX: ClassVar[int] = 5  # a kernel's height and width
    SCREENS_MAX: ClassVar[int] = 12  # screens of one tab in lecture mode

    page: PageKeys = PageKeys.under(P)
    pool: PoolControls = PoolControls.under(P)
    source: str = f"{P}_source"  # Source: where the images come from
    size: str = f"{P}_size"
    seed: str = f"{P}_seed"
    kernels: str = f"{P}_kernels"
    ksize: str = f"{P}_ksize"
    relu: str = f"{P}_relu"
    reduction: str = f"{P}_reduction"
    rate: str = f"{P}_lr"
    train_steps: str = f"{P}_steps"  # training steps taken
    example: str = f"{P}_example"  # the example stepped to (and edited)
    feature: str = f"{P}_feature"  # the kernel whose maps are shown
    examples_page: str = f"{P}_examples_page"  # Per example's page: (first, past the last)
    step_block: str = f"{P}_step_block"  # Step through's block: (first, past the last)
    step_at: str = f"{P}_step_at"  # the example's place in its block (the player's link)
    window: str = f"{P}_window"  # the pooling window whose winners the Winners tab counts
    tab: str = f"{P}_tab"
    # Lecture mode walks a tab's story a screen at a time: the screen shown (in the link),
    # the tab it belongs to (another tab starts at its first), the walk's two buttons.
    walk: WalkKeys = WalkKeys.under(P)
    frames: FramePlayerKeys = FramePlayerKeys.under(P)  # Step through's frame player
    trainer: FramePlayerKeys = FramePlayerKeys.under(f"{P}_train")  # Training's frames
    train_upto: str = f"{P}_train_upto"  # (stream id, the last step its frames go to)
    edits: str = f"{P}_edits"  # {example: image}
    edits_of: str = f"{P}_edits_of"  # (seed, size): the batch the edits belong to
    editors: str = f"{P}_img"  # the start of every image editor's keys
    discard: str = f"{P}_discard"
    code: tuple[str, str] = (f"{P}_code_torch", f"{P}_code_numpy")  # the two downloads
    fig_batch: str = f"{P}_fig_batch"
    fig_step_image: str = f"{P}_fig_step_image"
    fig_reached: str = f"{P}_fig_reached"
    fig_result_routing: str = f"{P}_fig_result_routing"
    fig_result_kernels: str = f"{P}_fig_result_kernels"
    result_kernels_box: tuple[str, str] = (f"scroll_{P}_result_kernels", f"wide_{P}_result_kernels")
    fig_averaged: str = f"{P}_fig_averaged"
    fig_wrong: str = f"{P}_fig_wrong"
    reduction_table: str = f"{P}_reduction_table"
    pair_sum: str = f"{P}_pair_sum"
    fig_picks: str = f"{P}_fig_picks"
    fig_received: str = f"{P}_fig_received"
    fig_split: str = f"{P}_fig_split"
    fig_loss: str = f"{P}_fig_loss"
    fig_trained_kernels: str = f"{P}_fig_trained_kernels"
    worked: GridKeys = GridKeys.under(f"{P}_worked")  # the five weights' editor
    worked_mean: str = f"{P}_worked_mean"

    def image_editor(self, seed: int, size: int, example: int) -> GridKeys:
        """The editor of one example of the batch (seed, size)."""
        return GridKeys.under(f"{self.editors}{seed}_{size}_{example}")

    def example_maps(self, name: str) -> str:
        """Per example's mosaics: "activation", "pooled", "upstream", "routed", "kernel"."""
        return f"{P}_fig_{name}"

    def step_figure(self, name: str) -> str:
        return f"{P}_fig_step_{name}"

    def pair_figure(self, stage: str, index: int) -> str:
        """Two examples' maps: stage ("input", "routed", "averaged", ...), map index."""
        return f"{P}_fig_pair_{stage}_{index}"

    def one_call_figure(self, index: int) -> str:
        """The one-backward-call screen's maps: 0, example #0's own; 1, after the call."""
        return f"{P}_fig_one_call_{index}"

    def pair_argmax(self, example: int) -> str:
        return f"{P}_pair_argmax_{example}"

    def parameters_table(self, index: int) -> str:
        return f"{P}_params_{index}"

    @cached_property
    def fields(self) -> list[Field]:
        """The share link: the layer, the network, the batch, the tab and what it shows."""
        return self.pool.fields + [
            Field(self.source, "data", "digits", one_of(tuple(SOURCES))),
            Field(self.size, "n", 8, int_in(1, self.BATCH_MAX)),
            Field(self.seed, "seed", 0, int_in(0, SEED_MAX)),
            Field(self.kernels, "f", 2, int_in(1, self.KERNELS_MAX)),
            Field(self.ksize, "k", 3, int_in(1, self.KERNEL_SIZE_MAX)),
            Field(self.relu, "relu", True, flag, write_flag),
            Field(self.reduction, "red", "mean", one_of(REDUCTIONS)),
            Field(self.rate, "lr", 0.1, parse_rate),
            Field(self.train_steps, "steps", 0, int_in(0, self.TRAIN_STEPS_MAX)),
            Field(self.example, "ex", 0, int_in(0, self.BATCH_MAX - 1)),
            # The step-through plays a block of STEP_BLOCK examples and writes the place
            # in it to the address bar (ex is then that of the block's example the
            # server last knew): ex's block and `at` name the example.
            Field(self.step_at, "at", 0, int_in(0, STEP_BLOCK - 1)),
            Field(self.feature, "map", 0, int_in(0, self.KERNELS_MAX - 1)),
            Field(self.tab, "tab", TABS["pair"], *label_in(TABS)),
            Field(self.walk.screen, "screen", 1, int_in(1, self.SCREENS_MAX)),
        ]

    def chosen_source(self) -> Source:
        return st.session_state[self.source]

    def train_steps_taken(self) -> int:
        return st.session_state[self.train_steps]

    def example_shown(self) -> int:
        return st.session_state[self.example]

    def feature_shown(self) -> int:
        return st.session_state[self.feature]


def parse_rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("is not a number") from None
    if value not in LEARNING_RATES:
        raise ValueError(f"must be one of {', '.join(map(str, LEARNING_RATES))}")
    return value


STATE = BatchState()
FIELDS = STATE.fields


def train_frames_wanted(stream: str) -> int:
    """The last step the training frames of `stream` go to: the step shown and a
    BLOCK more when the run (or its learning rate) is new to the session."""
    state = st.session_state
    kept_stream, upto = state.get(STATE.train_upto) or (None, 0)
    if kept_stream != stream:
        upto = min(STATE.TRAIN_STEPS_MAX, STATE.train_steps_taken() + BLOCK)
        state[STATE.train_upto] = (stream, upto)
    return upto


def on_train_more(stream: str, count: int) -> None:
    """The browser's player of `stream` has its `count` frames and wants BLOCK more."""
    state = st.session_state
    kept_stream, upto = state.get(STATE.train_upto) or (None, 0)
    if kept_stream == stream:
        state[STATE.train_upto] = (stream, min(STATE.TRAIN_STEPS_MAX, max(upto, count - 1 + BLOCK)))


def on_train_moved(position: int) -> None:
    """The browser's training player stopped at `position` steps taken."""
    st.session_state[STATE.train_steps] = min(max(position, 0), STATE.TRAIN_STEPS_MAX)


def init_state() -> None:
    """The link's settings (read once; past STEP_BLOCK examples, `at` is the place in
    ex's block the browser's step-through wrote), then, once per session, the edits the
    browser kept for the batch the link names."""
    defaults = {STATE.edits: {}}
    first = start_page_state(STATE.page, FIELDS, defaults)
    if first and "at" in st.query_params and st.session_state[STATE.size] > STEP_BLOCK:
        state = st.session_state
        block_start = state[STATE.example] - state[STATE.example] % STEP_BLOCK
        state[STATE.example] = min(block_start + state[STATE.step_at], BATCH_MAX - 1)
    stored = browser.recalled(P)
    if stored is not None:
        restore_edits(from_stored(stored, batch_identity()))


def restore_edits(edits: dict[int, np.ndarray]) -> None:
    """Stored edits under this session's; the editors start again from the edited
    images (an editor drawn before they came back holds the drawn digit)."""
    state = st.session_state
    if not edits:
        return
    if state.get(STATE.edits_of) != batch_identity():
        state[STATE.edits] = {}
    state[STATE.edits] = {**edits, **state[STATE.edits]}
    state[STATE.edits_of] = batch_identity()
    drop_editors()


def remember_edits() -> None:
    browser.remember(P, to_stored(batch_identity(), st.session_state[STATE.edits]))


def drop_editors() -> None:
    """Every image editor's state: each starts again from its image."""
    for key in [key for key in st.session_state if str(key).startswith(STATE.editors)]:
        del st.session_state[key]


def on_example_moved(position: int, *, first: int = 0) -> None:
    """The browser's step-through moved to frame `position` of its block, which starts
    at example `first`."""
    state = st.session_state
    state[STATE.example] = min(max(first + position, 0), state[STATE.size] - 1)


def on_block_picked() -> None:
    """Another block of the step-through: it starts at its first example."""
    state = st.session_state
    state[STATE.example] = state[STATE.step_block][0]


def publish() -> None:
    state = st.session_state
    if state[STATE.size] > STEP_BLOCK:  # the step-through plays blocks: its link's place
        state[STATE.step_at] = state[STATE.example] % STEP_BLOCK
    else:
        state.pop(STATE.step_at, None)
    st.query_params.from_dict(with_lecture(snapshot(FIELDS, state)))


def batch_identity() -> tuple[int, int]:
    """(seed, size): which digits are in the batch; edits belong to one batch."""
    return st.session_state[STATE.seed], st.session_state[STATE.size]


def forget_stale_edits() -> None:
    """Another seed or size draws other digits: edits made to the old ones go."""
    state = st.session_state
    if state.get(STATE.edits_of) != batch_identity():
        state[STATE.edits] = {}
        state[STATE.edits_of] = batch_identity()


def edits() -> Edits:
    """The user's edited images, as the cache key wants them: ((example, image), ...)."""
    return tuple(sorted(st.session_state[STATE.edits].items()))


def keep_edit(example: int, image: np.ndarray) -> None:
    st.session_state[STATE.edits][example] = image


def discard_edits() -> None:
    st.session_state[STATE.edits] = {}


def clamp_picks(*, size: int, kernels: int) -> None:
    state = st.session_state
    state[STATE.example] = min(state[STATE.example], size - 1)
    state[STATE.feature] = min(state[STATE.feature], kernels - 1)
