"""The exercises: seeded problems, checked on the spot, explained with the engine's own
ledger. In teaching/exercises/: model (the problems' generator), answers (reading and
checking), mistakes (with mistakes_gradient, mistakes_batch, mistakes_counting: the
known mistake a wrong answer comes from), replies (what the page says to an answer),
text (questions and explanations), storage (the work the browser keeps across a
reload). Here: state (the set in the link and the score), views and views_reply."""

from __future__ import annotations

from teaching.exercises.model import make_problem
from ui.exercises.state import STATE, init_state, problem_id, publish, remember_work
from ui.exercises.views import problem_view, set_chooser
from ui.shared import browser
from ui.shared.state import show_notices


def render() -> None:
    init_state()
    show_notices(STATE.page)
    set_chooser()
    pid = problem_id()
    problem_view(make_problem(*pid), pid)
    publish()
    remember_work()
    browser.mount()
