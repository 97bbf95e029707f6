"""The Batch page's state: its session-state keys (named once, here), its share-link
fields, and the callbacks that change them. The edited digits are kept in the browser
too, so a reload brings them back (memory)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pooling.batch import REDUCTIONS

from ..minibatch.data import SOURCES, Edits
from ..pure.links import Field, flag, int_in, label_in, one_of, snapshot, write_flag
from ..shared import browser
from ..shared.controls import pool_fields
from ..shared.lecture import with_lecture
from ..shared.state import start_page_state
from .memory import from_stored, to_stored

P = "bt"  # the page's key prefix
SOURCE, SIZE, SEED = f"{P}_source", f"{P}_size", f"{P}_seed"
KERNELS, KSIZE, RELU, REDUCTION = f"{P}_kernels", f"{P}_ksize", f"{P}_relu", f"{P}_reduction"
RATE, STEPS = f"{P}_lr", f"{P}_steps"
EXAMPLE, FEATURE, PLAYING, TAB = f"{P}_example", f"{P}_feature", f"{P}_playing", f"{P}_tab"
EDITS, EDITS_OF = f"{P}_edits", f"{P}_edits_of"  # {example: image}, the batch they belong to
EDITORS = f"{P}_img"  # the start of every image editor's keys
TRAINER = f"{P}_train"  # the training player's key prefix
TRAIN_PLAYING = f"{TRAINER}_playing"

BATCH_MAX, STEPS_MAX = 64, 200
LEARNING_RATES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
TABS = {
    "pair": "Two examples",
    "examples": "Per example",
    "step": "Step through",
    "result": "Batch result",
    "training": "Training",
    "weights": "Five weights",
}
PLAYERS = {"step": PLAYING, "training": TRAIN_PLAYING}  # tab -> its player's playing key


def parse_rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError("is not a number") from None
    if value not in LEARNING_RATES:
        raise ValueError(f"must be one of {', '.join(map(str, LEARNING_RATES))}")
    return value


FIELDS = pool_fields(P) + [
    Field(SOURCE, "data", "digits", one_of(tuple(SOURCES))),
    Field(SIZE, "n", 8, int_in(1, BATCH_MAX)),
    Field(SEED, "seed", 0, int_in(0, 10**6)),
    Field(KERNELS, "f", 2, int_in(1, 4)),
    Field(KSIZE, "k", 3, int_in(1, 5)),
    Field(RELU, "relu", True, flag, write_flag),
    Field(REDUCTION, "red", "mean", one_of(REDUCTIONS)),
    Field(RATE, "lr", 0.1, parse_rate),
    Field(STEPS, "steps", 0, int_in(0, STEPS_MAX)),
    Field(EXAMPLE, "ex", 0, int_in(0, BATCH_MAX - 1)),
    Field(FEATURE, "map", 0, int_in(0, 3)),
    Field(TAB, "tab", TABS["pair"], *label_in(TABS)),
]


def init_state() -> None:
    """The link's settings (read once), then, once per session, the edits the browser
    kept for the batch the link names."""
    start_page_state(P, FIELDS, {PLAYING: False, TRAIN_PLAYING: False, EDITS: {}})
    stored = browser.recalled(P)
    if stored is not None:
        restore_edits(from_stored(stored, batch_identity()))


def restore_edits(edits: dict[int, np.ndarray]) -> None:
    """Stored edits under this session's; the editors start again from the edited
    images (an editor drawn before they came back holds the drawn digit)."""
    state = st.session_state
    if not edits:
        return
    if state.get(EDITS_OF) != batch_identity():
        state[EDITS] = {}
    state[EDITS] = {**edits, **state[EDITS]}
    state[EDITS_OF] = batch_identity()
    drop_editors()


def remember_edits() -> None:
    browser.remember(P, to_stored(batch_identity(), st.session_state[EDITS]))


def drop_editors() -> None:
    """Every image editor's state: each starts again from its image."""
    for key in [key for key in st.session_state if str(key).startswith(EDITORS)]:
        del st.session_state[key]


def publish() -> None:
    st.query_params.from_dict(with_lecture(snapshot(FIELDS, st.session_state)))


def batch_identity() -> tuple[int, int]:
    """(seed, size): which digits are in the batch; edits belong to one batch."""
    return st.session_state[SEED], st.session_state[SIZE]


def forget_stale_edits() -> None:
    """Another seed or size draws other digits: edits made to the old ones go."""
    state = st.session_state
    if state.get(EDITS_OF) != batch_identity():
        state[EDITS] = {}
        state[EDITS_OF] = batch_identity()


def edits() -> Edits:
    """The user's edited images, as the cache key wants them: ((example, image), ...)."""
    return tuple(sorted(st.session_state[EDITS].items()))


def keep_edit(example: int, image: np.ndarray) -> None:
    st.session_state[EDITS][example] = image


def discard_edits() -> None:
    st.session_state[EDITS] = {}


def clamp_picks(*, size: int, kernels: int) -> None:
    state = st.session_state
    state[EXAMPLE] = min(state[EXAMPLE], size - 1)
    state[FEATURE] = min(state[FEATURE], kernels - 1)
