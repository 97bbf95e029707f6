"""The Playground's tabs, one function each (Both passes in views_passes, Step through
in views_step, Share in views_share): they format and place what the story computed (no maths
here), with every figure built through the figure cache."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from teaching.formulas import ledger_formula
from teaching.numbers import fmt
from teaching.playground import text
from teaching.playground.model import LayerStory
from ui.figures.matrix import jacobian_figure
from ui.figures.mosaic import MosaicOptions, small_multiples
from ui.playground import cache
from ui.playground.state import STATE, load_preset
from ui.shared import formula
from ui.shared.chart import cached, chart

MATRIX_LIMIT = 1600  # largest J (entries) drawn as a heatmap
SMALL_PRODUCT = (6, 16)  # largest J (outputs, inputs) written out as Jᵀ g


def ledger_view(story: LayerStory) -> None:
    cells = list(np.ndindex(*story.x.shape))
    st.selectbox(
        "Input cell",
        cells,
        key=STATE.cell,
        format_func=lambda c: f"x[{c[0]},{c[1]}]",
        help="Or pick a cell of dL/dx (click, tap, or arrows and Enter) in the first tab.",
    )
    cell = STATE.picked_cell()
    lines = story.ledger(cell)
    formula.latex(ledger_formula(cell, lines, story.grad_x[cell]))
    if lines:
        rows = [
            {
                "from output": text.cell_name("y", line.output_cell),
                "share": fmt(line.share),
                "dL/dy": fmt(line.upstream),
                "sent": fmt(line.amount),
            }
            for line in lines
        ]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="content", key=STATE.ledger_table)
    st.caption(text.ledger_caption(story, cell))


def matrix_view(story: LayerStory) -> None:
    st.markdown(text.matrix_sentence(story))
    matrix = story.matrix
    if matrix.size > MATRIX_LIMIT:
        st.info(
            f"J has {matrix.shape[0]}×{matrix.shape[1]} entries; shrink the grid to "
            f"at most {MATRIX_LIMIT} entries to draw it."
        )
        return
    figure = cached(
        jacobian_figure,
        matrix=matrix,
        out_shape=story.output_shape,
        in_shape=story.x.shape,
        title="J: rows are outputs, columns are inputs",
    )
    chart(figure, key=STATE.fig_jacobian, scroll=STATE.jacobian_box)
    if matrix.shape[0] <= SMALL_PRODUCT[0] and matrix.shape[1] <= SMALL_PRODUCT[1]:
        formula.latex(
            text.transpose_formula(matrix, story.grad_output.ravel(), story.transpose_product)
        )
    same_y_view(story)


def same_y_view(story: LayerStory) -> None:
    """Same y, different winner: J depends on x, not on y (max pooling only: an
    average window has no winner to move)."""
    if story.config.mode != "max":
        return
    st.markdown("**Same y, different winner**")
    same_y = cache.same_y_story(story.settings)
    if same_y is None:
        st.info(text.no_same_y_reason(story))
        return
    pairs = [
        ("x", "x", [story.x, same_y.x], "value", [story.winner_cells(), same_y.winner_cells()]),
        ("y", "y", [story.output, same_y.output], "value", None),
        ("dldx", "dL/dx", [story.grad_x, same_y.grad_x], "gradient", None),
    ]
    for key, name, maps, kind, marks in pairs:
        titles = [f"{name}: this x", f"{name}: winners moved"]
        figure = cached(
            small_multiples,
            maps=maps,
            titles=titles,
            options=MosaicOptions(kind=kind, marks=marks, most_columns=2),
        )
        chart(figure, key=STATE.same_y_figure(key))
    st.markdown(text.same_y_sentence(story, same_y))


def tie_view(story: LayerStory) -> None:
    if story.config.mode != "max":
        st.info(
            "Ties only matter for max pooling: an average window shares with every cell anyway."
        )
        return
    if not story.tied_windows:
        st.info("No window holds its maximum twice, so every tie rule gives the same dL/dx.")
        st.button("Load the Ties preset", key=STATE.load_ties, on_click=load_preset, args=("ties",))
        return
    rows, central = cache.ties(story.settings)
    st.markdown(text.tie_lab_sentence(story))
    maps = [row.grad_x for row in rows] + [central]
    titles = [f"ties = {row.ties}" for row in rows] + ["central differences"]
    chart(
        cached(small_multiples, maps=maps, titles=titles, options=MosaicOptions(most_columns=3)),
        key=STATE.fig_ties,
    )
    table = pd.DataFrame(
        [
            {
                "rule": row.ties,
                "Σ dL/dx": fmt(row.total),
                "dL/dt": fmt(row.slope),
                "sums agree": "yes" if row.total_matches else "no",
                "= central diff.": "yes" if row.matches_central else f"no ({fmt(row.central_gap)})",
            }
            for row in rows
        ]
    )
    st.dataframe(table, hide_index=True, width="stretch", key=STATE.tie_table)
    st.caption(text.tie_lab_caption(rows))
    with st.expander("Why?", key=STATE.tie_why):
        st.markdown(text.TIE_LAB_WHY)
