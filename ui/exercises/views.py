"""The exercises page's views (formatting and placing only): the set chooser, the
problem with its maps, the answer form, the verdict with its explanation, the score."""

from __future__ import annotations

import streamlit as st

from ..figures import grid as grids
from ..figures.mosaic import small_multiples
from ..figures.style import ANSWER_MAP_PX, SEED_INPUT_PX
from ..pure.links import SEED_MAX
from ..pure.words import pad_label
from ..shared import browser
from ..shared.chart import cached, chart
from ..shared.player import back_and_next
from ..shared.state import literal
from .answers import Verdict, check_cells, check_number, check_size, parse_number, parse_whole
from .model import KINDS, LEVELS, SET_SIZE, Problem
from .state import (
    STATE,
    ProblemId,
    chosen_cells,
    clear_cells,
    go,
    keep_typed,
    new_set,
    recall_typed,
    record,
    toggle_cell,
)
from .text import answer_text, explanation, question


def set_chooser() -> None:
    left, right = st.columns([3, 2])
    left.radio("Exercise", list(KINDS.values()), key=STATE.kind, horizontal=True)
    right.select_slider(
        "Level",
        list(LEVELS),
        key=STATE.level,
        format_func=lambda level: f"{level} · {LEVELS[level]}",
        help="Each level adds one idea: overlap, padding, ties, ceil mode.",
    )
    row = st.container(horizontal=True, gap="small", vertical_alignment="bottom")
    row.number_input(
        "Set (seed)",
        0,
        SEED_MAX,
        key=STATE.seed,
        width=SEED_INPUT_PX,
        help="The same set number gives everyone the same problems: share the link.",
    )
    number = STATE.problem_number()
    back_and_next(
        row,
        keys=(STATE.back, STATE.next),
        labels=("Previous", "Next"),
        on_move=go,
        at_first=number == 1,
        at_last=number == SET_SIZE,
        noun="problem",
    )
    row.button("New set", key=STATE.new_button, icon=":material/casino:", on_click=new_set)


def problem_view(problem: Problem, pid: ProblemId) -> None:
    st.subheader(f"Problem {pid[3]} of {SET_SIZE}")
    st.markdown(question(problem))
    if problem.kind in ("cells", "value"):
        plane_maps(problem, pid)
    elif problem.kind == "batch":
        batch_maps(problem, pid)
    if problem.kind == "cells":
        cells_form(problem, pid)
    else:
        typed_form(problem, pid)
    verdict_view(problem, pid)


def plane_maps(problem: Problem, pid: ProblemId) -> None:
    config = problem.config
    chosen = tuple(sorted(chosen_cells(pid))) if problem.kind == "cells" else ()
    left, right = st.columns(2)
    with left:
        overlay = grids.Overlay(
            marks=chosen, padding=config.padding, pad_label=pad_label(config.mode)
        )
        clickable = problem.kind == "cells"
        figure = cached(
            grids.grid_figure,
            values=problem.x,
            title="x",
            overlay=overlay,
            width_px=ANSWER_MAP_PX,
            clickable=clickable,
        )
        if clickable:
            key = STATE.pick_chart(pid, STATE.clicks_so_far())
            chart(figure, key=key, on_select=lambda: toggle_cell(pid, key))
        else:
            chart(figure, key=STATE.fig_x)
    if problem.kind == "value":
        with right:
            figure = cached(
                grids.grid_figure,
                values=problem.grad_output,
                title="dL/dy",
                kind="gradient",
                width_px=ANSWER_MAP_PX,
            )
            chart(figure, key=STATE.fig_gy)


def batch_maps(problem: Problem, pid: ProblemId) -> None:
    count = len(problem.x)
    names = [f"example #{n}" for n in range(count)]
    for maps, title, kind in (
        (problem.x, "x_n", "value"),
        (problem.grad_output, "dL_n/dy", "gradient"),
    ):
        figure = cached(
            small_multiples,
            maps=list(maps),
            titles=names,
            kind=kind,
            title=title,
            most_columns=count,
        )
        chart(figure, key=STATE.batch_figure(kind))


def cells_form(problem: Problem, pid: ProblemId) -> None:
    chosen = sorted(chosen_cells(pid))
    picked = ", ".join(f"({r}, {c})" for r, c in chosen) if chosen else "none yet"
    st.caption(f"Your cells (marked on x; click again to take one back): {picked}.")
    row = st.container(horizontal=True, gap="small")
    if row.button("Check", key=STATE.check_cells_button, type="primary", icon=":material/check:"):
        verdict = check_cells(problem, frozenset(chosen))
        record(pid, picked, verdict.right)
    row.button("Clear", key=STATE.clear_button, on_click=clear_cells, args=(pid,))


def typed_form(problem: Problem, pid: ProblemId) -> None:
    """The answer boxes and Check. No form: a form keeps typed text in the browser
    until it is sent, so text typed before Next would be gone on Previous; here each
    box's text reaches the server as it is left, and stays with its problem."""
    recall_typed(pid)
    boxes = {}
    if problem.kind == "size":
        left, right = st.columns(2)
        places = {"rows": (left, "Output height"), "cols": (right, "Output width")}
    else:
        places = {"typed": (st, "Your answer")}
    for name, (place, label) in places.items():
        key = STATE.typed_box(pid, name)
        boxes[name] = place.text_input(label, key=key, on_change=keep_typed, args=(pid, name))
    browser.enter_presses([STATE.typed_box(pid, name) for name in boxes], STATE.check_typed_button)
    if not st.button(
        "Check", key=STATE.check_typed_button, type="primary", icon=":material/check:"
    ):
        return
    if problem.kind == "size":
        given = read(boxes["rows"], parse_whole), read(boxes["cols"], parse_whole)
        if None not in given:
            record(pid, f"{given[0]} × {given[1]}", check_size(problem, given).right)
        return
    counting = problem.kind == "batch" and problem.asks_count
    typed = boxes["typed"]
    value = read(typed, parse_whole if counting else parse_number)
    if value is not None:
        record(pid, typed, check_number(problem, value).right)


def read(text: str, parse):
    """parse(text), or None after a short message that keeps the typed text."""
    try:
        return parse(text)
    except ValueError as error:
        st.warning(f"Your answer {literal(text)} {error}.", icon=":material/edit:")
        return None


def verdict_view(problem: Problem, pid: ProblemId) -> None:
    checked = STATE.checked_answer(pid)
    if checked is None:
        return
    given, right = checked
    if right:
        st.success(f"Right: {answer_text(problem)}.", icon=":material/check_circle:")
        return
    st.error(f"Not quite: the answer is {answer_text(problem)}.", icon=":material/cancel:")
    verdict = check_cells(problem, chosen_cells(pid)) if problem.kind == "cells" else Verdict(False)
    lead, formulas = explanation(problem, verdict)
    if lead:
        st.markdown(lead)
    for formula in formulas:
        st.latex(formula)


def score_view() -> None:
    first = STATE.first_tries()
    if first:
        st.caption(
            f"Score: {sum(first.values())} right at the first try, of {len(first)} "
            f"problem{'s' * (len(first) != 1)} checked (kept in this browser, not in the link)."
        )
