"""The Playground's Both passes tab: x and y (the forward pass), dL/dy and dL/dx (the
backward pass), where the followed window's dL/dy goes, and how many windows read
each cell with the output size. On a desk and a phone one stage under the other; in
lecture mode a screen each (ui/shared/walk.py), so that each fits the projector."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import streamlit as st

from teaching.formulas import size_formula
from teaching.numbers import fmt
from teaching.playground import text
from teaching.playground.model import LayerStory
from ui.figures import grid as grids
from ui.figures.routing import routing_figure
from ui.figures.style import HALF_PX, LECTURE_STEP_MAP_PX
from ui.playground.state import STATE, on_pick_input, on_pick_output, publish
from ui.shared import formula
from ui.shared.beside import Placed, maps_beside_words
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on
from ui.shared.walk import Screen, tell

PICK_Y = "Pick a cell of y (click, tap, or Tab to the map, arrows and Enter) to follow its window."
PICK_GX = "Pick a cell of dL/dx (click, tap, or arrows and Enter) to read its ledger (tab Ledger)."
SHARED_SCALE = "Orange is positive, purple negative; both gradient maps share one scale."


def input_overlay(story: LayerStory, out_cell, marks) -> grids.Overlay:
    return grids.Overlay(
        window=story.window_cells(out_cell),
        marks=tuple(marks),
        padding=story.config.padding,
        pad_label=story.pad_label,
    )


def gradient_maps(story: LayerStory) -> tuple[np.ndarray, ...]:
    """The arrays every gradient map of the page takes its one colour scale from."""
    return story.grad_x, story.grad_output


def gradient_map(
    values, *, title: str, story: LayerStory, clickable: bool = False, receiving: bool = False
):
    return cached(
        grids.grid_figure,
        values=values,
        title=title,
        options=grids.GridOptions(
            kind="gradient",
            shared_range=gradient_maps(story),
            width_px=map_width(),
            clickable=clickable,
            receiving=receiving,
        ),
    )


def forward_backward_view(story: LayerStory) -> None:
    out_cell = story.out_cell(STATE.step_shown())
    tell(
        "forward",
        [
            Screen("The forward pass: x and y", lambda: forward_pass(story, out_cell)),
            Screen("The backward pass: dL/dy and dL/dx", lambda: backward_pass(story)),
            Screen("Where one dL/dy goes", lambda: routing(story, out_cell)),
            Screen("Windows reading each cell, and the output size", lambda: coverage(story)),
        ],
        keys=STATE.walk,
        publish=publish,
    )


def map_width() -> int:
    """A map's width here and in the step-through: half the main column, or on a
    projector a third of it, which leaves a column for the words (a map over its words
    would overflow 720 px)."""
    return LECTURE_STEP_MAP_PX if lecture_on() else HALF_PX


def maps_in_a_row(placed: Sequence[tuple[Placed, Callable[[], None]]]) -> None:
    """Maps, each with the function drawing its words: two side by side on a desk,
    each over its words, and a lone map beside its words; on a projector the maps at
    their drawn width beside a column of all their words (ui/shared/beside.py)."""
    charts = [one for one, _ in placed]

    def all_words() -> None:
        for _, words in placed:
            words()

    if lecture_on():
        maps_beside_words(charts, all_words)
        return
    columns = st.columns(2)
    for column, (one, words) in zip(columns, placed, strict=False):
        with column:
            chart(one.figure, key=one.key, on_select=one.on_select, picked=one.picked)
            if len(placed) > 1:
                words()
    if len(placed) == 1:  # a lone map: its words in the other half
        with columns[1]:
            all_words()


def x_map(story: LayerStory, out_cell):
    """x with the window of y[out_cell] outlined and every window's winners marked."""
    return cached(
        grids.grid_figure,
        values=story.x,
        title="Input x",
        options=grids.GridOptions(
            overlay=input_overlay(story, out_cell, story.winner_cells()), width_px=map_width()
        ),
    )


def y_map(story: LayerStory, out_cell):
    """y with out_cell outlined; a click picks a cell."""
    return cached(
        grids.grid_figure,
        values=story.output,
        title="Output y",
        options=grids.GridOptions(
            overlay=grids.Overlay(window=(out_cell,)), clickable=True, width_px=map_width()
        ),
    )


def forward_pass(story: LayerStory, out_cell) -> None:
    maps_in_a_row(
        [
            (
                Placed(x_map(story, out_cell), STATE.fig_x),
                lambda: st.caption(text.input_caption(story)),
            ),
            (
                Placed(y_map(story, out_cell), STATE.pick_y, on_pick_output, picked=(out_cell,)),
                lambda: st.caption(PICK_Y),
            ),
        ]
    )


def dy_map(story: LayerStory):
    """The upstream dL/dy, on the gradient scale it shares with dL/dx."""
    return gradient_map(story.grad_output, title="Upstream dL/dy", story=story)


def dx_map(story: LayerStory):
    """dL/dx, on the shared gradient scale; a click picks a cell (its ledger)."""
    return gradient_map(story.grad_x, title="dL/dx", story=story, clickable=True, receiving=True)


def ledger_cell() -> tuple:
    """The cell of dL/dx whose ledger is read, as a pick grid's cells picked (chart)."""
    cell = st.session_state.get(STATE.cell)
    return () if cell is None else (tuple(cell),)


def backward_pass(story: LayerStory) -> None:
    gy_figure, gx_figure = dy_map(story), dx_map(story)

    def gx_words() -> None:
        if story.inflates:
            st.warning(text.inflation_warning(story), icon=":material/warning:")
        st.caption(PICK_GX)

    maps_in_a_row(
        [
            (Placed(gy_figure, STATE.fig_gy), lambda: st.caption(SHARED_SCALE)),
            (Placed(gx_figure, STATE.pick_gx, on_pick_input, picked=ledger_cell()), gx_words),
        ]
    )


def routing_map(story: LayerStory, out_cell):
    """Where dL/dy[out_cell] goes: dL/dy beside the shares it sends into x."""
    upstream = fmt(story.grad_output[out_cell])
    return cached(
        routing_figure,
        grad_output=story.grad_output,
        sent=story.sent_by(out_cell),
        out_cell=out_cell,
        window=story.window_cells(out_cell, real_only=True),
        shared_range=gradient_maps(story),
        title=f"Routing: where dL/dy[{out_cell[0]},{out_cell[1]}] = {upstream} goes",
    )


def coverage_map(story: LayerStory):
    """How many windows read each cell of x."""
    return cached(
        grids.grid_figure,
        values=story.coverage,
        title="Windows reading each cell",
        options=grids.GridOptions(kind="count", width_px=map_width()),
    )


def routing(story: LayerStory, out_cell) -> None:
    chart(routing_map(story, out_cell), key=STATE.fig_routing)  # a row of its own: two grids wide


def coverage(story: LayerStory) -> None:
    def words() -> None:
        st.caption(text.coverage_caption(story))
        output_size_fold(story)

    maps_in_a_row([(Placed(coverage_map(story), STATE.fig_coverage), words)])


def output_size_fold(story: LayerStory) -> None:
    """The output size, and PyTorch's rule with these numbers in an expander whose
    content runs only while open: its LaTeX needs KaTeX's scripts and fonts, which
    would cost every open of the page."""
    rows, cols = story.output_shape
    st.markdown(f"**Output size** {rows} × {cols}")
    # A label of its own, fixed: Streamlit takes a new label for a new expander, which
    # would close it each time the numbers change.
    label = "PyTorch's rule, with these numbers"
    fold = st.expander(label, key=STATE.size_fold, on_change="rerun", icon=":material/functions:")
    if fold.open:
        with fold:
            for line in size_formula(story.config, *story.x.shape):
                formula.latex(line)  # with its spoken form
