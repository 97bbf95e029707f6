"""The lesson page's state: the step on screen (in the link) and the answers given."""

from __future__ import annotations

import streamlit as st

from ..shared.lecture import with_lecture
from ..shared.links import Field, int_in, snapshot
from ..shared.state import start_page_state
from .steps import STEP_COUNT

P = "ls"
STEP, ANSWERS, SHOWN = f"{P}_step", f"{P}_answers", f"{P}_shown"  # answers: {step: choice}
FIELDS = [Field(STEP, "step", 1, int_in(1, STEP_COUNT))]


def init_state() -> None:
    start_page_state(P, FIELDS, {ANSWERS: {}, SHOWN: set()})


def publish() -> None:
    st.query_params.from_dict(with_lecture(snapshot(FIELDS, st.session_state)))


def pick_key(step: int) -> str:
    return f"{P}_pick_{step}"


def go(delta: int) -> None:
    state = st.session_state
    state[STEP] = min(max(state[STEP] + delta, 1), STEP_COUNT)


def answered(step: int) -> None:
    """The learner chose: the first choice counts for the score."""
    choice = st.session_state[pick_key(step)]
    if choice is not None:
        st.session_state[ANSWERS].setdefault(step, choice)


def show_answer(step: int) -> None:
    st.session_state[SHOWN].add(step)
