"""The Batch page: a tiny CNN on a mini-batch, routed example by example, averaged
where the parameters are shared. data: the images; model: what the page computes
(pure); state: keys, link fields, callbacks; inputs: the sidebar and the image editor;
views, checks, training: one function per tab."""

from __future__ import annotations

import streamlit as st

from pooling.network import NetConfig

from ..shared import browser
from ..shared.code_view import reproduce_view
from ..shared.controls import config_from_state
from ..shared.lecture import folded_in_lecture
from ..shared.state import show_notices
from ..shared.tabs import open_tab_only
from .cache import cached_lesson, cached_snippets
from .checks import checks_view
from .inputs import edit_view, sidebar_controls
from .model import BatchLesson, Settings
from .pair_view import pair_view
from .parameters import parameters_view
from .state import (
    EXAMPLE,
    KERNELS,
    KSIZE,
    PLAYERS,
    RATE,
    REDUCTION,
    RELU,
    SEED,
    SIZE,
    SOURCE,
    STEPS,
    TAB,
    TABS,
    P,
    clamp_picks,
    edits,
    forget_stale_edits,
    init_state,
    publish,
    remember_edits,
)
from .training import training_view, worked_example_view
from .views import batch_view, per_example_view, result_view, step_view


def settings_from_state() -> Settings:
    """ValueError naming the broken rule when the pooling layer is not valid."""
    state = st.session_state
    network = NetConfig(state[KERNELS], state[KSIZE], state[RELU], config_from_state(P))
    return Settings(
        source=state[SOURCE],
        size=state[SIZE],
        seed=state[SEED],
        network=network,
        reduction=state[REDUCTION],
        learning_rate=state[RATE],
        steps=state[STEPS],
        edits=edits(),
    )


def checked_lesson() -> BatchLesson | None:
    """The lesson, or None after a message that names the broken rule."""
    try:
        settings = settings_from_state()
    except ValueError as error:
        st.error(f"This pooling layer is not valid: {error}.", icon=":material/error:")
        return None
    try:
        return cached_lesson(settings)
    except ValueError as error:
        st.error(f"This network does not fit the 8×8 images: {error}.", icon=":material/error:")
        return None


def result_and_checks(lesson: BatchLesson) -> None:
    result_view(lesson)
    checks_view(lesson)
    parameters_view(lesson)
    torch_code, numpy_code = cached_snippets(lesson.settings)
    reproduce_view(
        key=f"{P}_code",
        file_stem="pooling_batch",
        config=lesson.config.pool,
        torch_code=torch_code,
        numpy_code=numpy_code,
    )


TAB_VIEWS = {
    "pair": pair_view,
    "examples": per_example_view,
    "step": step_view,
    "result": result_and_checks,
    "training": training_view,
    "weights": lambda lesson: worked_example_view(lesson.reduction),
}


def render() -> None:
    init_state()
    sidebar_controls()
    show_notices(P)
    forget_stale_edits()
    lesson = checked_lesson()
    if lesson is not None:
        clamp_picks(size=lesson.size, kernels=lesson.config.kernels)
    publish()
    if lesson is not None:
        with folded_in_lecture(f"The batch: {lesson.size} example{'s' * (lesson.size > 1)}"):
            batch_view(lesson)
            if st.session_state[SOURCE] == "edit":
                edit_view(lesson.images[st.session_state[EXAMPLE]])
        open_tab_only(key=TAB, labels=TABS, views=TAB_VIEWS, lesson=lesson, players=PLAYERS)
    remember_edits()
    browser.mount()
