"""The Batch page: a tiny CNN on a mini-batch, routed example by example, averaged
where the parameters are shared. What it computes is the shared pure model
teaching.batch (the Lesson tells it too; its snippets are teaching.batch.code);
cache: that model and its snippets built once per input; state: the page's one
declaration and its callbacks; inputs: the sidebar and the image editor; step_frames
and train_frames: the step-through's and the training's frames for the frame player;
views and views_*: one function per tab."""

from __future__ import annotations

import streamlit as st

from cnn.network import NetConfig
from teaching.batch.story import BatchSettings, BatchStory
from ui.batch.cache import cached_snippets, cached_story
from ui.batch.inputs import image_editor, sidebar_controls
from ui.batch.state import (
    STATE,
    TABS,
    clamp_picks,
    edits,
    forget_stale_edits,
    init_state,
    publish,
    remember_edits,
)
from ui.batch.views import batch_view, result_view
from ui.batch.views_checks import checks_view, reduction_table, wrong_view
from ui.batch.views_examples import per_example_view
from ui.batch.views_one_call import one_call_view
from ui.batch.views_pair import pair_view
from ui.batch.views_parameters import parameters_view
from ui.batch.views_step import step_through_view
from ui.batch.views_training import training_view, worked_example_view
from ui.batch.views_winners import winners_view
from ui.shared import browser
from ui.shared.code_view import reproduce_view
from ui.shared.lecture import folded_in_lecture, lecture_on
from ui.shared.state import show_notices
from ui.shared.tabs import open_tab_only
from ui.shared.walk import Screen, tell


def settings_from_state() -> BatchSettings:
    """ValueError naming the broken rule when the pooling layer is not valid."""
    state = st.session_state
    network = NetConfig(
        state[STATE.kernels], state[STATE.ksize], state[STATE.relu], STATE.pool.config()
    )
    return BatchSettings(
        source=STATE.chosen_source(),
        size=state[STATE.size],
        seed=state[STATE.seed],
        network=network,
        reduction=state[STATE.reduction],
        learning_rate=state[STATE.rate],
        steps=STATE.train_steps_taken(),
        edits=edits(),
    )


def checked_story() -> BatchStory | None:
    """The story, or None after a message that names the broken rule."""
    try:
        settings = settings_from_state()
    except ValueError as error:
        browser.announce(f"This pooling layer is not valid: {error}.")
        st.error(f"This pooling layer is not valid: {error}.", icon=":material/error:")
        return None
    try:
        return cached_story(settings)
    except ValueError as error:
        browser.announce(f"This network does not fit the 8×8 images: {error}.")
        st.error(f"This network does not fit the 8×8 images: {error}.", icon=":material/error:")
        return None


def result_and_checks(story: BatchStory) -> None:
    """The batch result and its checks; in lecture mode a screen each."""
    screens = [
        Screen("The batch's gradients", lambda: result_view(story)),
        Screen("Checked on the spot", lambda: checks_view(story)),
        Screen("One backward call on the batch's loss", lambda: one_call_view(story)),
        Screen("The wrong way: one averaged example", lambda: wrong_view(story)),
        Screen("Mean against sum", lambda: reduction_table(story)),
        Screen("Every weight, and the code", lambda: own_notebook(story)),
    ]
    tell("result", screens, keys=STATE.walk, publish=publish)


def own_notebook(story: BatchStory) -> None:
    """The network's weights and the code that reproduces the tab (in lecture mode its
    downloads only: the code's box scrolls, a projector's screen must not)."""
    parameters_view(story)
    torch_code, numpy_code = cached_snippets(story.settings)
    reproduce_view(
        keys=STATE.code,
        file_stem="pooling_batch",
        config=story.config.pool,
        torch_code=torch_code,
        numpy_code=numpy_code,
        code_shown=not lecture_on(),
    )


TAB_VIEWS = {
    "pair": pair_view,
    "examples": per_example_view,
    "step": step_through_view,
    "winners": winners_view,
    "result": result_and_checks,
    "training": training_view,
    "weights": lambda story: worked_example_view(story.reduction),
}


def render() -> None:
    init_state()
    sidebar_controls()
    show_notices(STATE.page)
    forget_stale_edits()
    story = checked_story()
    if story is not None:
        clamp_picks(size=story.size, kernels=story.config.kernels)
    publish()
    if story is not None:
        with folded_in_lecture(f"The batch: {story.size} example{'s' * (story.size > 1)}"):
            batch_view(story)
            if STATE.chosen_source() == "edit":
                image_editor(story.images[STATE.example_shown()])
        open_tab_only(key=STATE.tab, labels=TABS, views=TAB_VIEWS, story=story)
    remember_edits()
    browser.mount()
