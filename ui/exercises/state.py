"""The exercises page's state: which set and problem (in the link, so a class shares
it), the cells clicked, the answers checked and the session's score."""

from __future__ import annotations

import streamlit as st

from ..shared.lecture import with_lecture
from ..shared.links import Field, int_in, label_in, snapshot
from ..shared.state import start_page_state
from .problems import KINDS, LEVELS, SET_SIZE

P = "ex"
KIND, LEVEL, SEED, NUMBER = f"{P}_kind", f"{P}_level", f"{P}_seed", f"{P}_n"
CHOSEN, CHECKED, FIRST = f"{P}_chosen", f"{P}_checked", f"{P}_first"
CLICKS = f"{P}_clicks"  # how many clicks so far: a fresh chart key after each
FIELDS = [
    Field(KIND, "kind", KINDS["cells"], *label_in(KINDS)),
    Field(LEVEL, "level", 1, int_in(1, len(LEVELS))),
    Field(SEED, "seed", 1, int_in(0, 10**6)),
    Field(NUMBER, "n", 1, int_in(1, SET_SIZE)),
]
ProblemId = tuple[str, int, int, int]


def init_state() -> None:
    defaults = {CHOSEN: {}, CHECKED: {}, FIRST: {}, CLICKS: 0}
    start_page_state(P, FIELDS, defaults)


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
