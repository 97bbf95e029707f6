"""The guided lesson: the lab's ten teaching points (docs/pages.md's Lesson), one step
each, each with a live example, a question first and the answer after. What a step is
and the steps themselves, from the engine's numbers: teaching/lesson/ (model, steps,
steps_layer, steps_batch; storage: the answers the browser keeps across a reload).
Here: state (the step in the link and the answers) and views."""

from __future__ import annotations

from ui.lesson.state import STATE, init_state, publish, remember_work
from ui.lesson.views import step_view
from ui.shared import browser
from ui.shared.state import show_notices


def render() -> None:
    init_state()
    show_notices(STATE.page)
    step_view()
    publish()
    remember_work()
    browser.mount()
