"""The lesson page's state: its one declaration (`STATE`: every session-state and
widget key, named once, here; its share-link field; typed reads): the step on screen
(in the link) and the answers given, which the browser keeps too, so a reload brings
them back (teaching/lesson/storage.py); and the callbacks that change them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import streamlit as st

from teaching.lesson.steps import STEP_COUNT, lesson_steps
from teaching.lesson.storage import from_stored, to_stored
from teaching.links import Field, int_in, snapshot
from ui.shared import browser
from ui.shared.lecture import with_lecture
from ui.shared.player import nudge
from ui.shared.state import PageKeys, start_page_state

P = "ls"  # the page's key prefix: every key below starts with it


@dataclass(frozen=True)
class LessonState:
    """The Lesson's one state declaration: every key it keeps in session state or
    gives a widget, its share link's field, and typed reads of its state. Its one
    limit is the number of steps, STEP_COUNT (steps.py)."""

    page: PageKeys = PageKeys.under(P)
    step: str = f"{P}_step"  # the step on screen, 1..STEP_COUNT
    answers: str = f"{P}_answers"  # {step: the first choice checked}
    checked: str = f"{P}_checked"  # {step: the choice last checked}: its verdict is shown
    reveals: str = f"{P}_reveals"  # {step}: answers revealed without a choice
    part: str = f"{P}_part"  # lecture mode: the part of the answer on screen, from 0
    answer: str = f"{P}_answer"  # the box the answer is shown in
    heading: str = f"{P}_heading"  # the box of the step's title, a heading
    score: str = f"{P}_score"  # the box of the learner's score, under the title
    verdict: str = f"{P}_verdict"  # the box of the verdict on the choice checked
    back: str = f"{P}_back"
    next: str = f"{P}_next"

    def pick(self, step: int) -> str:
        """The question's radio on step `step`."""
        return f"{P}_pick_{step}"

    def figure(self, step: int, index: int) -> str:
        return f"{P}_fig_{step}_{index}"

    def show_button(self, step: int) -> str:
        return f"{P}_show_{step}"

    def check_button(self, step: int) -> str:
        return f"{P}_check_{step}"

    @cached_property
    def fields(self) -> list[Field]:
        return [Field(self.step, "step", 1, int_in(1, STEP_COUNT))]

    def step_shown(self) -> int:
        return st.session_state[self.step]

    def answers_given(self) -> dict[int, int]:
        return st.session_state[self.answers]

    def revealed(self) -> set[int]:
        return st.session_state[self.reveals]

    def checked_choice(self, step: int) -> int | None:
        """The choice last checked on step `step` (a stored answer counts), or None."""
        return st.session_state[self.checked].get(step, self.answers_given().get(step))

    def part_shown(self, parts: int) -> int:
        """The part of an answer of `parts` parts on screen (0 when it has one)."""
        return min(st.session_state[self.part], parts - 1)


STATE = LessonState()
FIELDS = STATE.fields


def init_state() -> None:
    """The link's step (read once), then, once per session, the answers the browser
    kept: they come back, the link still says which step is shown."""
    fresh = {STATE.answers: {}, STATE.checked: {}, STATE.reveals: set(), STATE.part: 0}
    start_page_state(STATE.page, FIELDS, fresh)
    stored = browser.recalled(P)
    if stored is not None:
        restore(*from_stored(stored, lesson_steps()))


def restore(answers: dict[int, int], revealed: set[int]) -> None:
    """Stored answers under this session's (its first choices win); a question on
    screen still unanswered shows its stored choice (set before it is drawn)."""
    state = st.session_state
    state[STATE.answers] = {**answers, **state[STATE.answers]}
    state[STATE.reveals] = state[STATE.reveals] | revealed
    for number, choice in state[STATE.answers].items():
        if state.get(STATE.pick(number)) is None:
            state[STATE.pick(number)] = choice


def remember_work() -> None:
    """The answers to the browser. Once the choice on screen is checked, the question's
    focus goes (a click), and ← and → step through the lesson instead of changing the
    answer; before, the arrow keys move through the choices (judged only by Check)."""
    browser.remember(P, to_stored(STATE.answers_given(), STATE.revealed()))
    number = STATE.step_shown()
    chosen = st.session_state.get(STATE.pick(number))
    if chosen is not None and chosen == STATE.checked_choice(number):
        arrows = {"ArrowLeft": STATE.back, "ArrowRight": STATE.next}
        browser.leave_after_choice(STATE.pick(number), arrows=arrows)


def publish() -> None:
    st.query_params.from_dict(with_lecture(snapshot(FIELDS, st.session_state)))


def go(delta: int) -> None:
    before = st.session_state[STATE.step]
    nudge(STATE.step, delta, first=1, last=STEP_COUNT)
    if st.session_state[STATE.step] != before:
        browser.focus_on(STATE.heading)  # the new step's title, as a reader starts it


def walk(delta: int, *, parts: int) -> None:
    """← or → (delta -1 or 1): through the parts of the answer on screen first (lecture
    mode shows an answer of `parts` parts one at a time), then to the step before or
    after, at its first part."""
    state = st.session_state
    part = STATE.part_shown(parts) + delta
    if 0 <= part < parts:
        state[STATE.part] = part
        browser.focus_on(STATE.answer)  # the part now shown
    else:
        state[STATE.part] = 0
        go(delta)


def check(step: int) -> None:
    """Check pressed: the choice is judged (the first one checked counts for the
    score), and the focus goes to its verdict. Choosing alone judges nothing (WCAG
    3.2.2: the arrow keys move through a radio group's choices)."""
    choice = st.session_state[STATE.pick(step)]
    if choice is None:
        return
    STATE.answers_given().setdefault(step, choice)
    st.session_state[STATE.checked][step] = choice  # the part of the answer shown stays
    browser.focus_on(STATE.verdict)


def show_answer(step: int) -> None:
    STATE.revealed().add(step)
    st.session_state[STATE.part] = 0
    browser.focus_on(STATE.answer)  # the button is gone: on to what it showed
