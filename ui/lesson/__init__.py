"""The guided lesson: DESIGN.md's ten teaching points, one step each, each with a live
example, a question first and the answer after. model: what a step is; steps_*: the
steps, from the engine's numbers; state: the step in the link and the answers; memory:
the answers the browser keeps across a reload; views."""

from __future__ import annotations

from ..shared import browser
from ..shared.state import show_notices
from .state import STATE, init_state, publish, remember_work
from .views import step_view


def render() -> None:
    init_state()
    show_notices(STATE.page)
    step_view()
    publish()
    remember_work()
    browser.mount()
