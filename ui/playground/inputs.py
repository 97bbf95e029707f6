"""The Playground's inputs: the pooling controls, the grid x with its presets, and the
upstream gradient dL/dy. Each returns what the user made, or None after saying what
is wrong with it (their work stays in the editor)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from pooling import PoolConfig
from pooling.geometry import plane_geometry
from teaching.links import SEED_MAX
from teaching.playground.model import UPSTREAM_LABELS, UPSTREAMS
from teaching.playground.presets import PRESETS
from ui.playground.state import STATE, load_preset
from ui.shared import browser
from ui.shared.grid_editor import (
    folded_grid_editor,
    grid_editor,
    grid_text_field,
    resized,
    set_grid,
    size_inputs,
)
from ui.shared.lecture import lecture_on

GY_SHAPE_WHY = "one value per cell of the output y"


def sidebar_controls() -> None:
    with st.sidebar:
        st.subheader("Pooling layer")
        STATE.pool.draw()


def checked_config() -> PoolConfig | None:
    try:
        return STATE.pool.config()
    except ValueError as error:
        browser.announce(f"This pooling layer is not valid: {error}.")
        st.error(f"This pooling layer is not valid: {error}.", icon=":material/error:")
        return None


def input_panel() -> np.ndarray | None:
    st.subheader("Input x")
    buttons = st.container(horizontal=True, wrap=True, gap="small")  # wraps on narrow screens
    for name, preset in PRESETS.items():
        buttons.button(
            preset.label,
            key=STATE.preset_button(name),
            on_click=load_preset,
            args=(name,),
            help=preset.help,
        )
    size_inputs(STATE.grid)
    return folded_grid_editor(
        STATE.grid,
        "Select a cell (click or tap) to type a new value.",
        label="Edit the values of x",
        name="x",
        folded=not lecture_on(),
    )


def upstream_panel() -> None:
    st.subheader("Upstream dL/dy")
    st.radio(
        "dL/dy",
        UPSTREAMS,
        key=STATE.upstream,
        format_func=UPSTREAM_LABELS.get,
        label_visibility="collapsed",
        help="What the layers above send back: one number per output cell.",
    )
    if STATE.chosen_upstream() == "random":
        st.number_input(
            "Random seed",
            0,
            SEED_MAX,
            key=STATE.seed,
            help="Same seed, same numbers: handy when a class follows along.",
        )


def output_shape_or_none(grid: np.ndarray | None, config: PoolConfig | None):
    if grid is None or config is None:
        return None
    try:
        return plane_geometry(config, *grid.shape).output_shape
    except ValueError:
        return None


def custom_upstream(output_shape: tuple[int, int]) -> np.ndarray | None:
    """The editable dL/dy grid, kept the output's shape; its edits are kept while
    another upstream is chosen. Under it, dL/dy as text: a text of another shape is
    refused, naming the shape y has."""
    state = st.session_state
    editor = STATE.upstream_grid
    pending = state.pop(STATE.gy_pending, None)
    known = state.get(editor.current)
    if pending is not None:
        set_grid(editor, resized(pending, output_shape, 1.0))
    elif known is None or known.shape != output_shape:
        start = np.ones((0, 0)) if known is None else known
        set_grid(editor, resized(start, output_shape, 1.0))
    if STATE.chosen_upstream() != "custom":
        return None
    grid = grid_editor(editor, "One value per output cell; it follows the output's shape.")
    grid_text_field(editor, name="dL/dy", shape=output_shape, why=GY_SHAPE_WHY)
    return grid
