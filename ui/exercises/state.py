"""The exercises page's state: its one declaration (`STATE`: every session-state and
widget key, named once, here; its share-link fields; typed reads): which set and
problem (in the link, so a class shares it), the cells clicked, the text typed, the
answers checked and the session's score; the learner's work is kept in the browser
too, so a reload brings it back (teaching/exercises/storage.py); and the callbacks
that change them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import streamlit as st

from teaching.exercises.answers import check_cells
from teaching.exercises.model import KINDS, LEVELS, SET_SIZE, Kind, make_problem
from teaching.exercises.storage import ProblemId, Work, from_stored, merged, problem_name, to_stored
from teaching.links import SEED_MAX, Field, int_in, label_in, snapshot
from ui.shared import browser
from ui.shared.chart import clicked_cell
from ui.shared.lecture import with_lecture
from ui.shared.player import nudge
from ui.shared.state import PageKeys, start_page_state

P = "ex"  # the page's key prefix: every key below starts with it


@dataclass(frozen=True)
class ExercisesState:
    """The Exercises page's one state declaration: every key it keeps in session state
    or gives a widget, its share link's fields, and typed reads of its state. Its
    limits: the levels and SET_SIZE (model.py), the seed's SEED_MAX (links.py)."""

    page: PageKeys = PageKeys.under(P)
    kind: str = f"{P}_kind"  # the kind's label (KINDS); kind_name() gives the Kind
    level: str = f"{P}_level"
    seed: str = f"{P}_seed"
    number: str = f"{P}_n"  # the problem on screen, 1..SET_SIZE
    chosen: str = f"{P}_chosen"  # {problem: cells clicked}
    checked: str = f"{P}_checked"  # {problem: (answer as checked, right)}
    first: str = f"{P}_first"  # {problem: right at the first try}: the score
    clicks: str = f"{P}_clicks"  # how many clicks so far: a fresh chart key after each
    typed: str = f"{P}_typed"  # {problem: {field: text}}: outlives the answer box's widget
    back: str = f"{P}_back"
    next: str = f"{P}_next"
    new_button: str = f"{P}_new"
    check_cells_button: str = f"{P}_check_cells"
    clear_button: str = f"{P}_clear"
    why: str = f"{P}_why"  # a batch window's explanation, folded on a projector
    check_typed_button: str = f"{P}_check_typed"
    fig_x: str = f"{P}_fig_x"
    fig_gy: str = f"{P}_fig_gy"

    def pick_chart(self, pid: ProblemId, clicks: int) -> str:
        """x as a chart to click, new after each click (a second click on a cell is
        then a click, not a deselection)."""
        return f"{P}_pick_{problem_name(pid)}_{clicks}"

    def batch_figure(self, kind: str) -> str:
        """A batch problem's maps: kind "value" (x_n) or "gradient" (dL_n/dy)."""
        return f"{P}_fig_batch_{kind}"

    def typed_box(self, pid: ProblemId, name: str) -> str:
        """The answer box `name` ("typed", "rows", "cols") of problem `pid`."""
        return f"{P}_{name}_{problem_name(pid)}"

    @cached_property
    def fields(self) -> list[Field]:
        return [
            Field(self.kind, "kind", KINDS["cells"], *label_in(KINDS)),
            Field(self.level, "level", 1, int_in(1, len(LEVELS))),
            Field(self.seed, "seed", 1, int_in(0, SEED_MAX)),
            Field(self.number, "n", 1, int_in(1, SET_SIZE)),
        ]

    def kind_name(self) -> Kind:
        label = st.session_state[self.kind]
        return next(name for name, text in KINDS.items() if text == label)

    def problem_number(self) -> int:
        return st.session_state[self.number]

    def clicks_so_far(self) -> int:
        return st.session_state[self.clicks]

    def first_tries(self) -> dict[ProblemId, bool]:
        return st.session_state[self.first]

    def checked_answer(self, pid: ProblemId) -> tuple[str, bool] | None:
        return st.session_state[self.checked].get(pid)


STATE = ExercisesState()
FIELDS = STATE.fields


def init_state() -> None:
    """The link's set (read once), then, once per session, the work the browser kept:
    it brings back answers and score, never which problem is shown."""
    keys = (STATE.chosen, STATE.checked, STATE.first, STATE.typed)
    defaults = {**{key: {} for key in keys}, STATE.clicks: 0}
    start_page_state(STATE.page, FIELDS, defaults)
    stored = browser.recalled(P)
    if stored is not None:
        restore(from_stored(stored))


def work() -> Work:
    state = st.session_state
    return Work(state[STATE.first], state[STATE.checked], state[STATE.chosen], state[STATE.typed])


def restore(stored: Work) -> None:
    """Stored work under this session's; an answer box on screen that is still empty
    gets its stored text (before the box is drawn in this run)."""
    state = st.session_state
    both = merged(work(), stored)
    state[STATE.first], state[STATE.checked], state[STATE.chosen], state[STATE.typed] = (
        both.first,
        both.checked,
        both.chosen,
        both.typed,
    )
    for pid, texts in both.typed.items():
        for name, text in texts.items():
            if not state.get(STATE.typed_box(pid, name)):
                state[STATE.typed_box(pid, name)] = text


def remember_work() -> None:
    browser.remember(P, to_stored(work()))


def publish() -> None:
    st.query_params.from_dict(with_lecture(snapshot(FIELDS, st.session_state)))


def problem_id() -> ProblemId:
    state = st.session_state
    return STATE.kind_name(), state[STATE.level], state[STATE.seed], STATE.problem_number()


def go(delta: int) -> None:
    nudge(STATE.number, delta, first=1, last=SET_SIZE)


def new_set() -> None:
    st.session_state[STATE.seed] = (st.session_state[STATE.seed] + 1) % SEED_MAX
    st.session_state[STATE.number] = 1


def chosen_cells(pid: ProblemId) -> frozenset:
    return frozenset(st.session_state[STATE.chosen].get(pid, frozenset()))


def toggle_cell(pid: ProblemId, chart_key: str) -> None:
    """A click on x: the cell goes in or out of the answer (and a check of the old
    picks is no longer shown on x); the chart gets a new key, so a second click on the
    same cell is a click again, not a deselection."""
    state = st.session_state
    cell = clicked_cell(chart_key)
    if cell is not None:
        state[STATE.chosen][pid] = chosen_cells(pid) ^ {cell}
        state[STATE.checked].pop(pid, None)
    state[STATE.clicks] += 1


def clear_cells(pid: ProblemId) -> None:
    st.session_state[STATE.chosen].pop(pid, None)
    st.session_state[STATE.checked].pop(pid, None)


def picked_text(pid: ProblemId) -> str:
    """The cells picked, as the page lists them: '(0, 1), (2, 2)' or 'none yet'."""
    chosen = sorted(chosen_cells(pid))
    return ", ".join(f"({r}, {c})" for r, c in chosen) if chosen else "none yet"


def check_picks(pid: ProblemId) -> None:
    """Check: before the run, so that x is drawn with the check's marks."""
    right = check_cells(make_problem(*pid), chosen_cells(pid)).right
    record(pid, picked_text(pid), right)


def record(pid: ProblemId, given: str, right: bool) -> None:
    """A checked answer; the first one for a problem is its score."""
    st.session_state[STATE.checked][pid] = (given, right)
    st.session_state[STATE.first].setdefault(pid, right)


def recall_typed(pid: ProblemId) -> None:
    """Before the answer boxes are drawn: Streamlit dropped a box's text while another
    problem was shown, so it comes back from TYPED."""
    state = st.session_state
    for name, text in state[STATE.typed].get(pid, {}).items():
        if STATE.typed_box(pid, name) not in state:
            state[STATE.typed_box(pid, name)] = text


def keep_typed(pid: ProblemId, name: str) -> None:
    """An answer box changed: its text is kept for the problem (empty: forgotten)."""
    texts = st.session_state[STATE.typed].setdefault(pid, {})
    text = st.session_state[STATE.typed_box(pid, name)]
    if text:
        texts[name] = text
    else:
        texts.pop(name, None)
    if not texts:
        st.session_state[STATE.typed].pop(pid)
