"""The exercises page's state: which set and problem (in the link, so a class shares
it), the cells clicked, the text typed, the answers checked and the session's score;
the learner's work is kept in the browser too, so a reload brings it back (memory)."""

from __future__ import annotations

import streamlit as st

from ..pure.links import Field, int_in, label_in, snapshot
from ..shared import browser
from ..shared.lecture import with_lecture
from ..shared.state import start_page_state
from .memory import ProblemId, Work, from_stored, merged, problem_name, to_stored
from .model import KINDS, LEVELS, SET_SIZE

P = "ex"
KIND, LEVEL, SEED, NUMBER = f"{P}_kind", f"{P}_level", f"{P}_seed", f"{P}_n"
CHOSEN, CHECKED, FIRST = f"{P}_chosen", f"{P}_checked", f"{P}_first"
CLICKS = f"{P}_clicks"  # how many clicks so far: a fresh chart key after each
TYPED = f"{P}_typed"  # {problem: {field: text}}: outlives the answer box's widget
FIELDS = [
    Field(KIND, "kind", KINDS["cells"], *label_in(KINDS)),
    Field(LEVEL, "level", 1, int_in(1, len(LEVELS))),
    Field(SEED, "seed", 1, int_in(0, 10**6)),
    Field(NUMBER, "n", 1, int_in(1, SET_SIZE)),
]


def init_state() -> None:
    """The link's set (read once), then, once per session, the work the browser kept:
    it brings back answers and score, never which problem is shown."""
    defaults = {CHOSEN: {}, CHECKED: {}, FIRST: {}, TYPED: {}, CLICKS: 0}
    start_page_state(P, FIELDS, defaults)
    stored = browser.recalled(P)
    if stored is not None:
        restore(from_stored(stored))


def work() -> Work:
    state = st.session_state
    return Work(state[FIRST], state[CHECKED], state[CHOSEN], state[TYPED])


def restore(stored: Work) -> None:
    """Stored work under this session's; an answer box on screen that is still empty
    gets its stored text (before the box is drawn in this run)."""
    state = st.session_state
    both = merged(work(), stored)
    state[FIRST], state[CHECKED], state[CHOSEN], state[TYPED] = (
        both.first,
        both.checked,
        both.chosen,
        both.typed,
    )
    for pid, texts in both.typed.items():
        for name, text in texts.items():
            if not state.get(typed_key(pid, name)):
                state[typed_key(pid, name)] = text


def remember_work() -> None:
    browser.remember(P, to_stored(work()))


def publish() -> None:
    st.query_params.from_dict(with_lecture(snapshot(FIELDS, st.session_state)))


def kind_name() -> str:
    label = st.session_state[KIND]
    return next(name for name, text in KINDS.items() if text == label)


def problem_id() -> ProblemId:
    state = st.session_state
    return kind_name(), state[LEVEL], state[SEED], state[NUMBER]


def go(delta: int) -> None:
    state = st.session_state
    state[NUMBER] = min(max(state[NUMBER] + delta, 1), SET_SIZE)


def new_set() -> None:
    st.session_state[SEED] = (st.session_state[SEED] + 1) % 10**6
    st.session_state[NUMBER] = 1


def chosen_cells(pid: ProblemId) -> frozenset:
    return frozenset(st.session_state[CHOSEN].get(pid, frozenset()))


def toggle_cell(pid: ProblemId, chart_key: str) -> None:
    """A click on x: the cell goes in or out of the answer; the chart gets a new key,
    so a second click on the same cell is a click again, not a deselection."""
    state = st.session_state
    selection = state.get(chart_key)
    points = selection.selection.points if selection is not None else []
    if points:
        cell = int(round(points[0]["y"])), int(round(points[0]["x"]))
        state[CHOSEN][pid] = chosen_cells(pid) ^ {cell}
    state[CLICKS] += 1


def clear_cells(pid: ProblemId) -> None:
    st.session_state[CHOSEN].pop(pid, None)


def record(pid: ProblemId, given: str, right: bool) -> None:
    """A checked answer; the first one for a problem is its score."""
    st.session_state[CHECKED][pid] = (given, right)
    st.session_state[FIRST].setdefault(pid, right)


def typed_key(pid: ProblemId, name: str) -> str:
    """The answer box `name` ("typed", "rows", "cols") of problem `pid`."""
    return f"{P}_{name}_{problem_name(pid)}"


def recall_typed(pid: ProblemId) -> None:
    """Before the answer boxes are drawn: Streamlit dropped a box's text while another
    problem was shown, so it comes back from TYPED."""
    state = st.session_state
    for name, text in state[TYPED].get(pid, {}).items():
        if typed_key(pid, name) not in state:
            state[typed_key(pid, name)] = text


def keep_typed(pid: ProblemId, name: str) -> None:
    """An answer box changed: its text is kept for the problem (empty: forgotten)."""
    texts = st.session_state[TYPED].setdefault(pid, {})
    text = st.session_state[typed_key(pid, name)]
    if text:
        texts[name] = text
    else:
        texts.pop(name, None)
    if not texts:
        st.session_state[TYPED].pop(pid)
