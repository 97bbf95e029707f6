"""The exercises: seeded problems, checked on the spot, explained with the engine's own
ledger. problems: the generator; answers: reading and checking; text: questions and
explanations; state: the set in the link and the score; views."""

from __future__ import annotations

from ..shared.state import show_notices
from .problems import make_problem
from .state import P, init_state, problem_id, publish
from .views import problem_view, score_view, set_chooser


def render() -> None:
    init_state()
    show_notices(P)
    set_chooser()
    pid = problem_id()
    problem_view(make_problem(*pid), pid)
    score_view()
    publish()
