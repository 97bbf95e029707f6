"""The Playground's state: its one declaration (`STATE`: every session-state and widget
key, named once, here; its share-link fields; its limits; typed reads), and the
callbacks that change the state."""

from __future__ import annotations

from collections import ChainMap
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np
import streamlit as st

from pooling.config import Cell
from teaching.links import (
    MAX_GRID,
    SEED_MAX,
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
from teaching.playground.model import UPSTREAMS, Upstream
from teaching.playground.presets import PRESETS, seed_window
from ui.shared.chart import clicked_cell
from ui.shared.controls import PoolControls
from ui.shared.grid_editor import current_grid, set_grid
from ui.shared.lecture import with_lecture
from ui.shared.state import FramePlayerKeys, GridKeys, PageKeys, WalkKeys, start_page_state

P = "pg"  # the page's key prefix: every key below starts with it

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


@dataclass(frozen=True)
class PlaygroundState:
    """The Playground's one state declaration: every key it keeps in session state or
    gives a widget (its pooling controls, grid editors and player as bundles), its
    share link's fields, its limits (the pooling layer's in controls.py, the grid's
    and the seed's in links.py, its own here), and typed reads of its state."""

    # The last window a link can name (numbered from 0). Padding is at most half the
    # window, so it adds at most one output row or column: (MAX_GRID + 1)^2 windows.
    STEP_MAX: ClassVar[int] = (MAX_GRID + 1) ** 2 - 1
    SCREENS_MAX: ClassVar[int] = 4  # Both passes' screens in lecture mode (views_passes)

    page: PageKeys = PageKeys.under(P)
    pool: PoolControls = PoolControls.under(P)
    grid: GridKeys = GridKeys.under(f"{P}_grid")  # x's editor
    upstream_grid: GridKeys = GridKeys.under(f"{P}_gy")  # the edited dL/dy's editor
    link_x: str = f"{P}_x"  # x as the link gives it, until the editor takes it
    link_gy: str = f"{P}_gy_url"  # the edited dL/dy as the link gives it
    gy_pending: str = f"{P}_gy_pending"  # ... kept until y's shape is known
    upstream: str = f"{P}_upstream"  # Upstream: where dL/dy comes from
    seed: str = f"{P}_seed"  # the random dL/dy's seed, and the presets'
    step: str = f"{P}_step"  # the window being stepped through (from 0)
    cell: str = f"{P}_cell"  # the ledger's input cell, (row, col)
    tab: str = f"{P}_tab"
    walk: WalkKeys = WalkKeys.under(P)  # lecture mode's screens of Both passes
    out_width: str = f"{P}_out_width"  # y's width: a click on y names its window
    pick_y: str = f"{P}_pick_y"  # the clickable charts
    pick_gx: str = f"{P}_pick_gx"
    fig_x: str = f"{P}_fig_x"
    fig_gy: str = f"{P}_fig_gy"
    fig_routing: str = f"{P}_fig_routing"
    fig_coverage: str = f"{P}_fig_coverage"
    size_fold: str = f"{P}_size_fold"  # the expander of the output size's rule
    fig_step_x: str = f"{P}_fig_step_x"
    fig_step_gx: str = f"{P}_fig_step_gx"
    fig_step_y: str = f"{P}_fig_step_y"  # y, whose cells the step-through follows
    frames: FramePlayerKeys = FramePlayerKeys.under(P)  # the step-through's frame player
    ledger_table: str = f"{P}_ledger"
    fig_jacobian: str = f"{P}_fig_jacobian"
    jacobian_box: tuple[str, str] = (f"scroll_{P}_fig_jacobian", f"wide_{P}_fig_jacobian")
    load_ties: str = f"{P}_load_ties"
    fig_ties: str = f"{P}_fig_ties"
    tie_table: str = f"{P}_tie_table"
    tie_why: str = f"{P}_tie_why"  # the Tie lab's "Why?" expander
    code: tuple[str, str] = (f"{P}_code_torch", f"{P}_code_numpy")  # the two downloads

    def preset_button(self, name: str) -> str:
        return f"{P}_preset_{name}"

    def same_y_figure(self, name: str) -> str:
        """The same-y view's maps: name is "x", "y" or "dldx"."""
        return f"{P}_fig_same_y_{name}"

    def csv_button(self, name: str) -> str:
        return f"{P}_csv_{name}"

    @cached_property
    def fields(self) -> list[Field]:
        """The share link: every setting, both grids, the step, the cell, the tab and
        lecture mode's screen."""
        return self.pool.fields + [
            Field(self.link_x, "x", seed_window().grid, parse_grid, write_grid),
            Field(self.upstream, "g", "ones", one_of(UPSTREAMS)),
            Field(self.link_gy, "gy", None, parse_grid, _write_optional(write_grid)),
            Field(self.seed, "seed", 0, int_in(0, SEED_MAX)),
            Field(self.step, "step", 0, int_in(0, self.STEP_MAX)),
            Field(self.cell, "cell", None, parse_cell, _write_optional(write_cell)),
            Field(self.tab, "tab", TABS["forward"], *label_in(TABS)),
            Field(self.walk.screen, "screen", 1, int_in(1, self.SCREENS_MAX)),
        ]

    def preset_keys(self) -> dict[str, str]:
        """What a preset may set (presets.PresetSettings' names) -> its key."""
        return {**asdict(self.pool.keys), "upstream": self.upstream}

    def chosen_upstream(self) -> Upstream:
        return st.session_state[self.upstream]

    def upstream_seed(self) -> int:
        return st.session_state[self.seed]

    def step_shown(self) -> int:
        return st.session_state[self.step]

    def picked_cell(self) -> Cell | None:
        return st.session_state[self.cell]


STATE = PlaygroundState()
FIELDS = STATE.fields


def init_state() -> None:
    """Settings from the link on the session's first run; the grids from it too."""
    if start_page_state(STATE.page, FIELDS, {}):
        state = st.session_state
        set_grid(STATE.grid, state.pop(STATE.link_x))
        state[STATE.gy_pending] = state.pop(STATE.link_gy)  # sized once y's shape is known


def custom_upstream_in_use() -> np.ndarray | None:
    """The edited dL/dy while "Edit it" is chosen (it goes in the link then)."""
    known = st.session_state.get(STATE.upstream_grid.current)
    return known if STATE.chosen_upstream() == "custom" else None


def publish() -> None:
    """Write every setting and the grids into the URL (the edited dL/dy only when used)."""
    grids = {STATE.link_x: current_grid(STATE.grid), STATE.link_gy: custom_upstream_in_use()}
    params = snapshot(FIELDS, ChainMap(grids, st.session_state))
    filled = {name: value for name, value in params.items() if value != ""}
    st.query_params.from_dict(with_lecture(filled))


def load_preset(name: str) -> None:
    """Button callback: a preset grid and the settings that show it off."""
    state = st.session_state
    state[STATE.seed] = (state[STATE.seed] + 1) % SEED_MAX
    start = PRESETS[name].make(np.random.default_rng(state[STATE.seed]))
    set_grid(STATE.grid, start.grid)
    keys = STATE.preset_keys()
    for setting, value in start.settings.items():
        state[keys[setting]] = value
    state[STATE.step] = 0
    state[STATE.cell] = None


def clamp_picks(*, windows: int, shape: tuple[int, int], out_width: int, first_cell) -> None:
    """Keep the picked step and cell inside the grid after it shrank (before any widget)."""
    state = st.session_state
    state[STATE.step] = min(state[STATE.step], windows - 1)
    row, col = state[STATE.cell] if state[STATE.cell] is not None else first_cell
    state[STATE.cell] = (min(row, shape[0] - 1), min(col, shape[1] - 1))
    state[STATE.out_width] = out_width


def on_pick_output() -> None:
    """Chart click on y: that output's window becomes the current step."""
    picked = clicked_cell(STATE.pick_y)
    if picked is not None:
        st.session_state[STATE.step] = picked[0] * st.session_state[STATE.out_width] + picked[1]


def on_frame_moved(position: int) -> None:
    """The browser's step-through moved to window `position` (reading order)."""
    state = st.session_state
    state[STATE.step] = min(max(position, 0), STATE.STEP_MAX)


def on_pick_input() -> None:
    """Chart click on dL/dx: that cell's ledger."""
    picked = clicked_cell(STATE.pick_gx)
    if picked is not None:
        st.session_state[STATE.cell] = picked
