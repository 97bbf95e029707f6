"""The Playground's state: its session-state keys (named once, here), its share-link
fields, and the callbacks that change them."""

from __future__ import annotations

from collections import ChainMap

import numpy as np
import streamlit as st

from ..pure.links import (
    Field,
    int_in,
    label_in,
    one_of,
    parse_cell,
    parse_grid,
    snapshot,
    write_cell,
    write_grid,
)
from ..shared.controls import pool_fields
from ..shared.grid_editor import current_grid, set_grid
from ..shared.lecture import with_lecture
from ..shared.state import start_page_state
from .model import UPSTREAMS
from .presets import PRESETS, seed_window

P = "pg"  # the page's key prefix
GRID, UPSTREAM_GRID = f"{P}_grid", f"{P}_gy"  # the two grid editors
LINK_X, LINK_GY, GY_PENDING = f"{P}_x", f"{P}_gy_url", f"{P}_gy_pending"
UPSTREAM, SEED = f"{P}_upstream", f"{P}_seed"
STEP, CELL, PLAYING = f"{P}_step", f"{P}_cell", f"{P}_playing"
TAB, OUT_WIDTH = f"{P}_tab", f"{P}_out_width"
PICK_Y, PICK_GX = f"{P}_pick_y", f"{P}_pick_gx"  # the clickable charts

# Short labels: all six fit one row of a projector's main column (1280x720 at 150 %).
TABS = {
    "forward": "Both passes",
    "step": "Step through",
    "ledger": "Ledger",
    "matrix": "Matrix",
    "ties": "Tie lab",
    "share": "Share",
}


def _write_optional(write):
    return lambda value: "" if value is None else write(value)


FIELDS = pool_fields(P) + [
    Field(LINK_X, "x", seed_window().grid, parse_grid, write_grid),
    Field(UPSTREAM, "g", "ones", one_of(UPSTREAMS)),
    Field(LINK_GY, "gy", None, parse_grid, _write_optional(write_grid)),
    Field(SEED, "seed", 0, int_in(0, 10**6)),
    Field(STEP, "step", 0, int_in(0, 255)),
    Field(CELL, "cell", None, parse_cell, _write_optional(write_cell)),
    Field(TAB, "tab", TABS["forward"], *label_in(TABS)),
]


def init_state() -> None:
    """Settings from the link on the session's first run; the grids from it too."""
    if start_page_state(P, FIELDS, {PLAYING: False}):
        state = st.session_state
        set_grid(GRID, state.pop(LINK_X))
        state[GY_PENDING] = state.pop(LINK_GY)  # sized once y's shape is known


def custom_upstream_in_use() -> np.ndarray | None:
    """The edited dL/dy while "Edit it" is chosen (it goes in the link then)."""
    state = st.session_state
    return state.get(f"{UPSTREAM_GRID}_current") if state[UPSTREAM] == "custom" else None


def publish() -> None:
    """Write every setting and the grids into the URL (the edited dL/dy only when used)."""
    grids = {LINK_X: current_grid(GRID), LINK_GY: custom_upstream_in_use()}
    params = snapshot(FIELDS, ChainMap(grids, st.session_state))
    filled = {name: value for name, value in params.items() if value != ""}
    st.query_params.from_dict(with_lecture(filled))


def load_preset(name: str) -> None:
    """Button callback: a preset grid and the settings that show it off."""
    state = st.session_state
    state[SEED] = (state[SEED] + 1) % 10**6
    start = PRESETS[name].make(np.random.default_rng(state[SEED]))
    set_grid(GRID, start.grid)
    for key, value in start.settings.items():
        state[f"{P}_{key}"] = value
    state[STEP] = 0
    state[CELL] = None
    state[PLAYING] = False


def clamp_picks(*, windows: int, shape: tuple[int, int], out_width: int, first_cell) -> None:
    """Keep the picked step and cell inside the grid after it shrank (before any widget)."""
    state = st.session_state
    state[STEP] = min(state[STEP], windows - 1)
    row, col = state[CELL] if state[CELL] is not None else first_cell
    state[CELL] = (min(row, shape[0] - 1), min(col, shape[1] - 1))
    state[OUT_WIDTH] = out_width


def _picked_point(chart_key: str) -> tuple[int, int] | None:
    selection = st.session_state.get(chart_key)
    points = selection.selection.points if selection is not None else []
    if not points:
        return None
    return int(round(points[0]["y"])), int(round(points[0]["x"]))


def on_pick_output() -> None:
    """Chart click on y: that output's window becomes the current step."""
    picked = _picked_point(PICK_Y)
    if picked is not None:
        st.session_state[STEP] = picked[0] * st.session_state[OUT_WIDTH] + picked[1]
        st.session_state[PLAYING] = False


def on_pick_input() -> None:
    """Chart click on dL/dx: that cell's ledger."""
    picked = _picked_point(PICK_GX)
    if picked is not None:
        st.session_state[CELL] = picked
