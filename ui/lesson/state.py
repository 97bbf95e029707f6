"""The lesson page's state: the step on screen (in the link) and the answers given,
which the browser keeps too, so a reload brings them back (memory)."""

from __future__ import annotations

import streamlit as st

from ..pure.links import Field, int_in, snapshot
from ..shared import browser
from ..shared.lecture import with_lecture
from ..shared.state import start_page_state
from .memory import from_stored, to_stored
from .steps import STEP_COUNT, lesson_steps

P = "ls"
STEP, ANSWERS, SHOWN = f"{P}_step", f"{P}_answers", f"{P}_shown"  # answers: {step: choice}
FIELDS = [Field(STEP, "step", 1, int_in(1, STEP_COUNT))]


def init_state() -> None:
    """The link's step (read once), then, once per session, the answers the browser
    kept: they come back, the link still says which step is shown."""
    start_page_state(P, FIELDS, {ANSWERS: {}, SHOWN: set()})
    stored = browser.recalled(P)
    if stored is not None:
        restore(*from_stored(stored, lesson_steps()))


def restore(answers: dict[int, int], shown: set[int]) -> None:
    """Stored answers under this session's (its first choices win); a question on
    screen still unanswered shows its stored choice (set before it is drawn)."""
    state = st.session_state
    state[ANSWERS] = {**answers, **state[ANSWERS]}
    state[SHOWN] = state[SHOWN] | shown
    for number, choice in state[ANSWERS].items():
        if state.get(pick_key(number)) is None:
            state[pick_key(number)] = choice


def remember_work() -> None:
    """The answers to the browser; once answered, the question's focus goes, so the
    arrow keys step through the lesson instead of changing the answer."""
    state = st.session_state
    browser.remember(P, to_stored(state[ANSWERS], state[SHOWN]))
    arrows = {"ArrowLeft": f"{P}_back", "ArrowRight": f"{P}_next"}
    browser.leave_after_choice(pick_key(state[STEP]), arrows=arrows)


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
