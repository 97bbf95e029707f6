"""The Playground: one editable grid, one pooling layer, every number of the forward
and backward pass. What the page computes is teaching.playground (model: the layer
story, pure); here: cache (that story and its figures once per input), state (keys,
link fields, callbacks), inputs (the controls and editors), step_frames (the
step-through's frames for the frame player), views and views_passes, views_step,
views_share: one function per tab."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pooling import PoolConfig
from teaching.playground.model import LayerSettings, LayerStory
from ui.playground import cache
from ui.playground.inputs import (
    checked_config,
    custom_upstream,
    input_panel,
    output_shape_or_none,
    sidebar_controls,
    upstream_panel,
)
from ui.playground.state import STATE, TABS, clamp_picks, init_state, publish
from ui.playground.views import ledger_view, matrix_view, tie_view
from ui.playground.views_passes import forward_backward_view
from ui.playground.views_share import share_view
from ui.playground.views_step import step_through_view
from ui.shared import browser
from ui.shared.lecture import folded_in_lecture
from ui.shared.state import show_notices
from ui.shared.tabs import open_tab_only

TAB_VIEWS = {
    "forward": forward_backward_view,
    "step": step_through_view,
    "ledger": ledger_view,
    "matrix": matrix_view,
    "ties": tie_view,
    "share": share_view,
}


def checked_story(
    grid: np.ndarray, config: PoolConfig, custom: np.ndarray | None
) -> LayerStory | None:
    settings = LayerSettings(
        np.array(grid), config, STATE.chosen_upstream(), STATE.upstream_seed(), custom
    )
    try:
        return cache.story(settings)
    except ValueError as error:
        said = f"This layer does not fit the {grid.shape[0]}×{grid.shape[1]} grid: {error}."
        browser.announce(said)
        st.error(said, icon=":material/error:")
        return None


def story_from_inputs() -> LayerStory | None:
    """Inputs at the top of the page; the story, or None after the reason."""
    with folded_in_lecture("Input x and upstream dL/dy"):
        left, right = st.columns([2, 1], gap="medium")  # a 6-wide editor fits at 150 % zoom
        with left:
            grid = input_panel()
        config = checked_config()
        output_shape = output_shape_or_none(grid, config)
        with right:
            upstream_panel()
            custom = custom_upstream(output_shape) if output_shape else None
    if grid is None or config is None:
        return None
    if STATE.chosen_upstream() == "custom" and custom is None and output_shape is not None:
        return None  # the dL/dy editor said what is wrong with its grid
    # No output shape: the layer does not fit x, which checked_story says (before the
    # story asks for the edited dL/dy it has none of).
    return checked_story(grid, config, custom)


def render() -> None:
    page()
    browser.mount()  # last: touch picks a chart's cell with one tap (ui/shared/browser.py)


def page() -> None:
    init_state()
    sidebar_controls()
    show_notices(STATE.page)
    story = story_from_inputs()
    if story is None:
        publish()
        return
    clamp_picks(
        windows=story.windows,
        shape=story.x.shape,
        out_width=story.output_shape[1],
        first_cell=story.busiest_cell(),
    )
    publish()
    open_tab_only(key=STATE.tab, labels=TABS, views=TAB_VIEWS, story=story)
