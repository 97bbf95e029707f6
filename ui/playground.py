"""The Playground screen: one input grid, one pooling layer, every number of the
forward and backward pass. Each function draws one part of the screen."""

from __future__ import annotations

import io
from collections import ChainMap
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st

from pooling import PoolConfig
from pooling.explain import ledger
from pooling.geometry import plane_geometry

from . import figures, text
from .controls import config_from_state, pool_controls, pool_fields
from .frame import chart, show_notices, start_page_state
from .grid_editor import current_grid, grid_editor, resized, set_grid, size_inputs
from .lesson import UPSTREAM_LABELS, UPSTREAMS, Lesson, build_lesson, tie_lab
from .numbers import fmt
from .player import player
from .presets import PRESET_HELP, PRESET_LABELS, PRESETS, seed_window
from .urlstate import (
    Field,
    int_in,
    one_of,
    parse_cell,
    parse_grid,
    snapshot,
    write_cell,
    write_grid,
)

P = "pg"  # session-state prefix of this page
GRID, UPSTREAM_GRID = f"{P}_grid", f"{P}_gy"
PLAY_SECONDS = 1.0
MATRIX_LIMIT = 1600  # largest J (entries) drawn as a heatmap
SMALL_PRODUCT = (6, 16)  # largest J (outputs, inputs) written out as Jᵀ g

FIELDS = pool_fields(P) + [
    Field(f"{P}_x", "x", seed_window(None).grid, parse_grid, write_grid),
    Field(f"{P}_upstream", "g", "ones", one_of(UPSTREAMS)),
    Field(f"{P}_gy_url", "gy", None, parse_grid, lambda g: "" if g is None else write_grid(g)),
    Field(f"{P}_seed", "seed", 0, int_in(0, 10**6)),
    Field(f"{P}_step", "step", 0, int_in(0, 255)),
    Field(f"{P}_cell", "cell", None, parse_cell, lambda c: "" if c is None else write_cell(c)),
]


# -- state ------------------------------------------------------------------------------


def init_state() -> None:
    """Settings from the link on the session's first run; the grids from it too."""
    if start_page_state(P, FIELDS, {f"{P}_playing": False}):
        state = st.session_state
        set_grid(GRID, state.pop(f"{P}_x"))
        state[f"{P}_gy_pending"] = state.pop(f"{P}_gy_url")  # sized once y's shape is known


def publish() -> None:
    """Write every setting and the grids into the URL (the edited dL/dy only when used)."""
    state = st.session_state
    custom = state.get(f"{UPSTREAM_GRID}_current") if state[f"{P}_upstream"] == "custom" else None
    grids = {f"{P}_x": current_grid(GRID), f"{P}_gy_url": custom}
    params = snapshot(FIELDS, ChainMap(grids, state))
    st.query_params.from_dict({name: value for name, value in params.items() if value != ""})


def load_preset(name: str) -> None:
    """Button callback: a preset grid and the settings that show it off."""
    state = st.session_state
    state[f"{P}_seed"] = (state[f"{P}_seed"] + 1) % 10**6
    preset = PRESETS[name](np.random.default_rng(state[f"{P}_seed"]))
    set_grid(GRID, preset.grid)
    for key, value in preset.settings.items():
        if key == "upstream":
            state[f"{P}_upstream"] = value
        else:
            state[f"{P}_{key}"] = value
    state[f"{P}_step"] = 0
    state[f"{P}_cell"] = None
    state[f"{P}_playing"] = False


# -- inputs -----------------------------------------------------------------------------


def sidebar_controls() -> None:
    with st.sidebar:
        st.subheader("Pooling layer")
        pool_controls(P)


def input_panel() -> np.ndarray | None:
    st.subheader("Input x")
    buttons = st.container(horizontal=True, wrap=True, gap="small")  # wraps on narrow screens
    for name in PRESETS:
        buttons.button(
            PRESET_LABELS[name],
            key=f"{P}_preset_{name}",
            on_click=load_preset,
            args=(name,),
            help=PRESET_HELP[name],
        )
    size_inputs(GRID)
    return grid_editor(GRID, "Click a cell to type a new value.")


def upstream_panel() -> None:
    st.subheader("Upstream dL/dy")
    st.radio(
        "dL/dy",
        UPSTREAMS,
        key=f"{P}_upstream",
        format_func=UPSTREAM_LABELS.get,
        label_visibility="collapsed",
        help="What the layers above send back: one number per output cell.",
    )
    if st.session_state[f"{P}_upstream"] == "random":
        st.number_input(
            "Random seed",
            0,
            10**6,
            key=f"{P}_seed",
            help="Same seed, same numbers: handy when a class follows along.",
        )


def custom_upstream(output_shape: tuple[int, int]) -> np.ndarray | None:
    """The editable dL/dy grid, kept the output's shape."""
    state = st.session_state
    pending = state.pop(f"{P}_gy_pending", None)
    known = state.get(f"{UPSTREAM_GRID}_current")
    if pending is not None:
        set_grid(UPSTREAM_GRID, resized(pending, output_shape, 1.0))
    elif known is None or known.shape != output_shape:
        set_grid(
            UPSTREAM_GRID, resized(np.ones((0, 0)) if known is None else known, output_shape, 1.0)
        )
    if state[f"{P}_upstream"] != "custom":
        return None
    return grid_editor(UPSTREAM_GRID, "One value per output cell; it follows the output's shape.")


def checked_config() -> PoolConfig | None:
    try:
        return config_from_state(P)
    except ValueError as error:
        st.error(f"This pooling layer is not valid: {error}.", icon=":material/error:")
        return None


def checked_lesson(
    grid: np.ndarray, config: PoolConfig, custom: np.ndarray | None
) -> Lesson | None:
    state = st.session_state
    try:
        return build_lesson(grid, config, state[f"{P}_upstream"], state[f"{P}_seed"], custom)
    except ValueError as error:
        st.error(
            f"This layer does not fit the {grid.shape[0]}×{grid.shape[1]} grid: {error}.",
            icon=":material/error:",
        )
        return None


def output_shape_or_none(grid: np.ndarray | None, config: PoolConfig | None):
    if grid is None or config is None:
        return None
    try:
        return plane_geometry(config, *grid.shape).output_shape
    except ValueError:
        return None


# -- views ------------------------------------------------------------------------------


def pad_label(config: PoolConfig) -> str:
    return "−∞" if config.mode == "max" else "0"


def clamp_picks(lesson: Lesson) -> None:
    """Keep the picked step and cell inside the grid after it shrank (before any widget)."""
    state = st.session_state
    state[f"{P}_step"] = min(state[f"{P}_step"], lesson.output.size - 1)
    if state[f"{P}_cell"] is None:  # start where the most windows send something
        senders = (lesson.shares != 0).sum(axis=(0, 1))
        state[f"{P}_cell"] = tuple(
            int(i) for i in np.unravel_index(senders.argmax(), senders.shape)
        )
    row, col = state[f"{P}_cell"]
    state[f"{P}_cell"] = (min(row, lesson.x.shape[0] - 1), min(col, lesson.x.shape[1] - 1))
    state[f"{P}_out_width"] = lesson.output_shape[1]


def current_out_cell(lesson: Lesson) -> tuple[int, int]:
    return divmod(st.session_state[f"{P}_step"], lesson.output_shape[1])


def window_bounds(lesson: Lesson, out_cell) -> tuple[int, int, int, int]:
    geometry = plane_geometry(lesson.config, *lesson.x.shape)
    rows = geometry.rows.index[out_cell[0]]
    cols = geometry.cols.index[out_cell[1]]
    return int(rows.min()), int(cols.min()), int(rows.max()), int(cols.max())


def winner_cells(lesson: Lesson) -> list[tuple[int, int]]:
    if lesson.config.mode != "max":
        return []
    receiving = (lesson.shares != 0).any(axis=(0, 1))  # (H, W): some window sends here
    return [tuple(map(int, cell)) for cell in np.argwhere(receiving)]


def on_pick_output() -> None:
    """Chart click: the picked y cell becomes the current step."""
    _pick(f"{P}_pick_y", f"{P}_step", as_step=True)


def on_pick_input() -> None:
    _pick(f"{P}_pick_gx", f"{P}_cell", as_step=False)


def _pick(chart_key: str, target: str, as_step: bool) -> None:
    state = st.session_state
    points = state[chart_key].selection.points if chart_key in state else []
    if not points:
        return
    row, col = int(round(points[0]["y"])), int(round(points[0]["x"]))
    if as_step:
        state[target] = row * state[f"{P}_out_width"] + col
        state[f"{P}_playing"] = False
    else:
        state[target] = (row, col)


def forward_backward_view(lesson: Lesson) -> None:
    config, x = lesson.config, lesson.x
    out_cell = current_out_cell(lesson)
    overlay = figures.Overlay(
        window=window_bounds(lesson, out_cell),
        marks=winner_cells(lesson),
        padding=config.padding,
        pad_label=pad_label(config),
    )
    left, right = st.columns(2)
    with left:
        chart(figures.grid_figure(x, "Input x", overlay=overlay))
        st.caption(
            "Grey cells are padding. Outlined: the current window. Rings: cells that won a window."
            if config.mode == "max"
            else "Grey cells are padding. Outlined: the current window."
        )
    with right:
        picked = figures.Overlay(window=out_cell + out_cell)
        chart(
            figures.with_click_targets(
                figures.grid_figure(lesson.output, "Output y", overlay=picked), lesson.output_shape
            ),
            key=f"{P}_pick_y",
            on_select=on_pick_output,
        )
        st.caption("Click a cell to follow its window.")
    limit = figures.symmetric_range(lesson.grad_x, lesson.grad_output)
    left, right = st.columns(2)
    with left:
        chart(figures.grid_figure(lesson.grad_output, "Upstream dL/dy", "gradient", limit=limit))
        st.caption("Red is positive, blue negative; both gradient maps share one scale.")
    with right:
        chart(
            figures.with_click_targets(
                figures.grid_figure(lesson.grad_x, "dL/dx", "gradient", limit=limit), x.shape
            ),
            key=f"{P}_pick_gx",
            on_select=on_pick_input,
        )
        st.caption("Click a cell to see its ledger (tab Ledger).")
    left, right = st.columns([3, 2])
    with left:
        chart(
            figures.routing_figure(
                lesson.output, x, lesson.shares, out_cell, "Routing: where each dL/dy goes"
            )
        )
    with right:
        chart(figures.grid_figure(lesson.coverage, "Windows reading each cell", "count"))
    st.markdown("**Output size**")
    for line in text.size_formula(config, *x.shape):
        st.latex(line)


def step_view(lesson: Lesson) -> None:
    player(
        P,
        f"{P}_step",
        lesson.output.size,
        "Window (reading order)",
        "Each step, one output cell sends its dL/dy back through its window.",
        lambda step: step_figures(lesson),
        PLAY_SECONDS,
        "One output cell: there is a single window to follow.",
    )


def step_figures(lesson: Lesson) -> None:
    config = lesson.config
    out_cell = current_out_cell(lesson)
    step = st.session_state[f"{P}_step"]
    receivers = lesson.receivers(out_cell)
    overlay = figures.Overlay(
        window=window_bounds(lesson, out_cell),
        marks=receivers if config.mode == "max" else [],
        padding=config.padding,
        pad_label=pad_label(config),
    )
    left, right = st.columns(2)
    with left:
        chart(
            figures.grid_figure(
                lesson.x, f"x: the window of y[{out_cell[0]},{out_cell[1]}]", overlay=overlay
            )
        )
    with right:
        limit = figures.symmetric_range(lesson.grad_x, lesson.grad_output)
        chart(
            figures.grid_figure(
                lesson.filled_after(step),
                f"dL/dx after {step + 1} of {lesson.output.size} windows",
                "gradient",
                overlay=figures.Overlay(marks=receivers),
                limit=limit,
            )
        )
    st.markdown(step_sentence(lesson, out_cell, receivers))
    if lesson.coverage.max() > 1:
        st.caption(
            "Where windows overlap, a cell keeps what earlier windows sent it and adds "
            "the new share: the running totals are on the right."
        )


def step_sentence(lesson: Lesson, out_cell, receivers) -> str:
    upstream = lesson.grad_output[out_cell]
    name = f"y[{out_cell[0]},{out_cell[1]}] = {fmt(lesson.output[out_cell])}"
    if lesson.config.mode == "avg":
        share = lesson.shares[out_cell][receivers[0]]
        return (
            f"{name} is the mean of its window, so each of its {len(receivers)} real cells "
            f"gets dL/dy ÷ divisor = {fmt(upstream)} × {fmt(share)} = **{fmt(upstream * share)}**."
        )
    cells = ", ".join(f"({r},{c})" for r, c in receivers)
    if len(receivers) == 1:
        return (
            f"{name} came from cell {cells}: only that cell moves y, with slope 1, so it gets "
            f"the whole dL/dy = **{fmt(upstream)}**; every other cell of the window gets 0."
        )
    return (
        f"{name} is tied between cells {cells}; under the tie rule "
        f"“{lesson.config.ties}” they get "
        + ", ".join(fmt(lesson.shares[out_cell][c] * upstream) for c in receivers)
        + "."
    )


def ledger_view(lesson: Lesson) -> None:
    state = st.session_state
    cells = list(np.ndindex(*lesson.x.shape))
    st.selectbox(
        "Input cell",
        cells,
        key=f"{P}_cell",
        format_func=lambda c: f"x[{c[0]},{c[1]}]",
        help="Or click a cell of dL/dx in the first tab.",
    )
    cell = state[f"{P}_cell"]
    lines = ledger(lesson.x, lesson.grad_output, lesson.config, cell)
    st.latex(text.ledger_formula(cell, lines, lesson.grad_x[cell]))
    if lines:
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "from output": f"y[{line.output_cell[0]},{line.output_cell[1]}]",
                        "share": fmt(line.share),
                        "dL/dy": fmt(line.upstream),
                        "sent": fmt(line.amount),
                    }
                    for line in lines
                ]
            ),
            hide_index=True,
            width="content",
        )
    st.caption(
        f"x[{cell[0]},{cell[1]}] is read by {lesson.coverage[cell]} window(s); "
        f"{len(lines)} of them send it something. The sum is its gradient."
    )


def matrix_view(lesson: Lesson) -> None:
    matrix = lesson.shares.reshape(lesson.output.size, lesson.x.size)
    rebuilt = matrix.T @ lesson.grad_output.ravel()
    kind = (
        "a 0/1 selection matrix: one 1 per row, at the winner"
        if lesson.config.mode == "max"
        else "1/divisor at every real cell of the window"
    )
    gap = float(np.abs(rebuilt - lesson.grad_x.ravel()).max())
    st.markdown(
        f"For this x the layer is linear, **y = J x**, with J {kind}. "
        f"Backward is **dL/dx = Jᵀ dL/dy**: here the largest gap between Jᵀg and "
        f"dL/dx is {fmt(gap) if gap == 0 else f'{gap:.1e} (rounding)'}."
    )
    if matrix.size > MATRIX_LIMIT:
        st.info(
            f"J has {matrix.shape[0]}×{matrix.shape[1]} entries; shrink the grid to "
            f"at most {MATRIX_LIMIT} entries to draw it."
        )
        return
    chart(
        figures.jacobian_figure(
            matrix, lesson.output_shape, lesson.x.shape, "J: rows are outputs, columns are inputs"
        )
    )
    if matrix.shape[0] <= SMALL_PRODUCT[0] and matrix.shape[1] <= SMALL_PRODUCT[1]:
        st.latex(text.transpose_product(matrix, lesson.grad_output.ravel(), rebuilt))


def tie_view(lesson: Lesson) -> None:
    if lesson.config.mode != "max":
        st.info(
            "Ties only matter for max pooling: an average window shares with every cell anyway."
        )
        return
    tied = lesson.tied_windows()
    if not tied:
        st.info("No window holds its maximum twice, so every tie rule gives the same dL/dx.")
        st.button(
            "Load the Ties preset", key=f"{P}_load_ties", on_click=load_preset, args=("ties",)
        )
        return
    rows, central = tie_lab(lesson)
    st.markdown(
        f"{tied} window(s) hold a tie. Max has a corner there: any split of dL/dy "
        "among the tied cells that adds up to dL/dy is a valid choice; giving all of "
        "it to every tied cell is not."
    )
    maps = [row.grad_x for row in rows] + [central]
    titles = [f"ties = {row.ties}" for row in rows] + ["central differences"]
    chart(figures.small_multiples(maps, titles, columns=3))
    table = pd.DataFrame(
        [
            {
                "rule": row.ties,
                "sum of dL/dx": fmt(row.total),
                "dL/dt, all of x moved up by t": fmt(row.slope),
                "sums agree": "yes" if row.total_matches else "no: not a gradient",
                "equals central differences": "yes"
                if row.matches_central
                else f"no (largest gap {fmt(row.central_gap)})",
            }
            for row in rows
        ]
    )
    st.dataframe(table, hide_index=True, width="stretch")
    st.caption(
        "Moving every input up by t moves every max up by t, so a true gradient must "
        "add up to dL/dt. A central difference at a tie gives each tied cell half of "
        "the upstream value (nudged up, the cell moves y; nudged down, it does not): "
        "with two tied cells that is exactly “split”; with three or more, no rule "
        "matches it, because max has no derivative there."
    )


def share_view(lesson: Lesson) -> None:
    st.markdown("**Share this screen**: the link holds every setting and both grids.")
    query = urlencode(st.query_params.to_dict(), safe=",;")
    base = (st.context.url or "").split("?")[0]
    st.code(f"{base}?{query}", language=None, wrap_lines=True)
    st.markdown("**Download the grids** (CSV). Every chart also has a camera button for a PNG.")
    grids = {"x": lesson.x, "y": lesson.output, "dL_dy": lesson.grad_output, "dL_dx": lesson.grad_x}
    for column, (name, grid) in zip(st.columns(len(grids)), grids.items(), strict=True):
        column.download_button(
            f"{name}.csv",
            csv_text(grid),
            file_name=f"{name}.csv",
            mime="text/csv",
            key=f"{P}_csv_{name}",
            width="stretch",
        )


def csv_text(grid: np.ndarray) -> str:
    buffer = io.StringIO()
    np.savetxt(buffer, grid, delimiter=",", fmt="%.10g")
    return buffer.getvalue()


# -- the screen -------------------------------------------------------------------------


def render() -> None:
    init_state()
    sidebar_controls()
    show_notices(P)
    left, right = st.columns([3, 2], gap="large")
    with left:
        grid = input_panel()
    config = checked_config()
    output_shape = output_shape_or_none(grid, config)
    with right:
        upstream_panel()
        custom = custom_upstream(output_shape) if output_shape else None
    lesson = None
    if grid is not None and config is not None:
        if st.session_state[f"{P}_upstream"] != "custom" or custom is not None:
            lesson = checked_lesson(grid, config, custom)
    publish()
    if lesson is None:
        return
    clamp_picks(lesson)
    tabs = st.tabs(
        [
            "Forward and backward",
            "Step through",
            "Ledger",
            "Matrix view",
            "Tie lab",
            "Share and export",
        ]
    )
    for tab, view in zip(
        tabs,
        (forward_backward_view, step_view, ledger_view, matrix_view, tie_view, share_view),
        strict=True,
    ):
        with tab:
            view(lesson)
