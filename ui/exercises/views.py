"""The exercises page's views (formatting and placing only): the set chooser, the
problem with its maps, the answer form; the reply and the score: views_reply. In
lecture mode the set folds into a bar and the problem sits beside its maps, so that
one problem, its answer and the reply fit a projector's screen."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from teaching.exercises.answers import (
    check_number,
    check_size,
    parse_number,
    parse_whole,
)
from teaching.exercises.model import KINDS, LEVELS, SET_SIZE, Problem
from teaching.exercises.text import question
from teaching.links import SEED_MAX
from teaching.words import pad_label
from ui.exercises.state import (
    STATE,
    ProblemId,
    check_picks,
    chosen_cells,
    clear_cells,
    go,
    keep_typed,
    new_set,
    picked_text,
    recall_typed,
    record,
    toggle_cell,
)
from ui.exercises.views_reply import explanation_view, legend_view, reply_view, score_view
from ui.figures import grid as grids
from ui.figures.style import ANSWER_MAP_PX, LECTURE_PICK_MAP_PX, SEED_INPUT_PX
from ui.shared import browser
from ui.shared.batch_question import batch_mosaics, lecture_mosaics
from ui.shared.beside import Placed, maps_in_a_row, words_beside_maps
from ui.shared.chart import cached, chart
from ui.shared.lecture import lecture_on
from ui.shared.player import back_and_next
from ui.shared.state import literal
from ui.shared.tappable import tappable_x


def set_chooser() -> None:
    """Which set: kind, level and seed, with Previous, Next and New set; in lecture
    mode the three fold into a bar beside the buttons and the problem's number."""
    if lecture_on():
        row = st.container(horizontal=True, gap="small", vertical_alignment="center")
        row.markdown(f"**Problem {STATE.problem_number()} of {SET_SIZE}**", width="content")
        moves(row)
        with row.expander("Exercise and level", icon=":material/tune:"):
            kind_and_level()
            seed_input(st)
        return
    kind_and_level()
    row = st.container(horizontal=True, gap="small", vertical_alignment="bottom")
    seed_input(row)
    moves(row)


def kind_and_level() -> None:
    left, right = st.columns([3, 2])
    left.radio("Exercise", list(KINDS.values()), key=STATE.kind, horizontal=True)
    right.select_slider(
        "Level",
        list(LEVELS),
        key=STATE.level,
        format_func=lambda level: f"{level} · {LEVELS[level]}",
        help="Each level adds one idea: overlap, padding, ties, ceil mode.",
    )


def seed_input(place) -> None:
    place.number_input(
        "Set (seed)",
        0,
        SEED_MAX,
        key=STATE.seed,
        width=SEED_INPUT_PX,
        help="The same set number gives everyone the same problems: share the link.",
    )


def moves(row) -> None:
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


@dataclass(frozen=True)
class Places:
    """Where each part of a problem goes: the question, its maps (None: drawn
    already), the answer form with the reply, the explanation of a wrong answer, the
    score, and a batch window's positions map (None: with the answer form)."""

    question: object
    maps: object
    answer: object
    explanation: object
    score: object
    plane: object = None


def places(problem: Problem) -> Places:
    """One column, top to bottom. In lecture mode two: a problem with maps has them and
    the ledger on the left, the question, answer, reply and score on the right; an
    output size has its question, answer and reply on the left, the formula right (a
    batch: lecture_batch_places)."""
    if not lecture_on():
        return Places(*(st.container() for _ in range(5)))
    if problem.kind == "size":
        left, right = st.columns([2, 3], gap="medium")
        return Places(question=left, maps=left, answer=left, explanation=right, score=left)
    left, right = st.columns([3, 2], gap="medium")
    return Places(question=right, maps=left, answer=right, explanation=left, score=right)


def problem_view(problem: Problem, pid: ProblemId) -> None:
    if not lecture_on():
        st.subheader(f"Problem {pid[3]} of {SET_SIZE}")
    lecture_batch = lecture_on() and problem.kind == "batch"
    where = lecture_batch_places(problem) if lecture_batch else places(problem)
    with where.question:
        st.markdown(question(problem))
    if where.maps is not None:
        with where.maps:
            if problem.kind in ("cells", "value"):
                plane_maps(problem, pid)
            elif problem.kind == "batch":
                batch_maps(problem, pid)
    if problem.picks_cells and problem.kind == "batch":  # a window's positions map
        with where.plane or where.answer:
            pick_plane(problem, pid, width_px=None)
    with where.answer:
        if problem.picks_cells:
            cells_form(problem, pid)
        else:
            typed_form(problem, pid)
        reply_view(problem, pid)
        legend_view(problem, pid)
    with where.explanation:
        explanation_view(problem, pid)
    with where.score:
        score_view()


def plane_maps(problem: Problem, pid: ProblemId) -> None:
    """x (to click, for cells), and dL/dy beside it (for a value). In lecture mode x
    alone takes the maps' column, at a width whose cells hold the marks clear of the
    numbers."""
    config = problem.config
    overlay = grids.Overlay(padding=config.padding, pad_label=pad_label(config.mode))
    alone = lecture_on() and problem.kind == "cells"
    if lecture_on() and problem.kind == "value":
        lecture_value_maps(problem, overlay)
        return
    left, right = (st.container(), None) if alone else st.columns(2)
    with left:
        if problem.kind == "cells":
            pick_plane(
                problem, pid, overlay=overlay, width_px=LECTURE_PICK_MAP_PX if alone else None
            )
        else:
            map_chart(problem.x, title="x", overlay=overlay, key=STATE.fig_x)
    if problem.kind == "value":
        with right:
            map_chart(problem.grad_output, title="dL/dy", kind="gradient", key=STATE.fig_gy)


def pick_plane(problem: Problem, pid: ProblemId, *, width_px: int | None, overlay=None) -> None:
    """The plane cells are picked on (x, or a batch window's positions): a click or
    tap puts a cell in or takes it out."""
    key = STATE.pick_chart(pid, STATE.clicks_so_far())
    tappable_x(
        problem,
        chosen_cells(pid),
        checked=STATE.checked_answer(pid) is not None,
        overlay=overlay or grids.Overlay(),
        width_px=width_px or ANSWER_MAP_PX,
        key=key,
        on_select=lambda: toggle_cell(pid, key),
    )


def lecture_value_maps(problem: Problem, overlay: grids.Overlay) -> None:
    """x and dL/dy at their drawn widths in one row, which wraps where the maps'
    column is too narrow for both (a projector at 150 %, where half columns cut x)."""
    maps_in_a_row(
        [
            Placed(map_figure(problem.x, title="x", overlay=overlay), STATE.fig_x),
            Placed(map_figure(problem.grad_output, title="dL/dy", kind="gradient"), STATE.fig_gy),
        ]
    )


def map_chart(values, *, title: str, key: str, kind: str = "value", overlay=None) -> None:
    """A problem's map to read, not click: x (H, W) or its dL/dy (OH, OW), at the
    answer maps' width (the Exercises and class mode's Join page draw them alike)."""
    chart(map_figure(values, title=title, kind=kind, overlay=overlay), key=key)


def map_figure(values, *, title: str, kind: str = "value", overlay=None):
    """The figure of map_chart."""
    return cached(
        grids.grid_figure,
        values=values,
        title=title,
        options=grids.GridOptions(
            kind=kind, overlay=overlay or grids.Overlay(), width_px=ANSWER_MAP_PX
        ),
    )


def batch_maps(problem: Problem, pid: ProblemId) -> None:
    """x_n above dL_n/dy (a projector's: lecture_batch_places)."""
    batch_mosaics(
        problem.x,
        problem.grad_output,
        (st.container(), st.container()),
        keys=BATCH_KEYS,
        width_px=None,
    )


def lecture_batch_places(problem: Problem) -> Places:
    """A batch problem on a projector: the question across the page, then its mosaics
    at their drawn widths, two examples a row (x_n alone for a window's cells: every
    dL_n/dy is 1 to 3, so only x_n decides, as on the Join page), and the answer in the
    rest of the row; a window's positions map beside its answer form."""
    question_box = st.container()
    shown = None if problem.picks_cells else problem.grad_output
    words = words_beside_maps(lecture_mosaics(problem.x, shown, keys=BATCH_KEYS))
    # The positions map (about 300 px wide) and, in the wider part, the answer and reply.
    plane, column = words.columns([3, 4], gap="small") if problem.picks_cells else (None, words)
    answer = column.container()  # before the explanation, whatever is drawn first
    rest = words.container()
    return Places(
        question=question_box, maps=None, answer=answer, explanation=rest, score=rest, plane=plane
    )


BATCH_KEYS = (STATE.batch_figure("value"), STATE.batch_figure("gradient"))


def cells_form(problem: Problem, pid: ProblemId) -> None:
    where = "x" if problem.kind == "cells" else "the positions map"
    st.caption(
        f"Your cells (marked on {where}; pick one again to take it back): {picked_text(pid)}."
    )
    row = st.container(horizontal=True, gap="small")
    row.button(
        "Check",
        key=STATE.check_cells_button,
        type="primary",
        icon=":material/check:",
        on_click=check_picks,
        args=(pid,),
    )
    row.button("Clear", key=STATE.clear_button, on_click=clear_cells, args=(pid,))


def typed_form(problem: Problem, pid: ProblemId) -> None:
    """The answer boxes and Check. No form: a form keeps typed text in the browser
    until it is sent, so text typed before Next would be gone on Previous; here each
    box's text reaches the server as it is left, and stays with its problem."""
    recall_typed(pid)
    boxes = {}
    if problem.kind == "size":
        left, right = st.columns(2)
        boxes_at = {"rows": (left, "Output height"), "cols": (right, "Output width")}
    else:
        boxes_at = {"typed": (st, "Your answer")}
    for name, (place, label) in boxes_at.items():
        key = STATE.typed_box(pid, name)
        boxes[name] = place.text_input(label, key=key, on_change=keep_typed, args=(pid, name))
    browser.enter_presses([STATE.typed_box(pid, name) for name in boxes], STATE.check_typed_button)
    if not st.button(
        "Check", key=STATE.check_typed_button, type="primary", icon=":material/check:"
    ):
        return
    if problem.kind == "size":
        given = (
            read(boxes["rows"], parse_whole, label="Output height"),
            read(boxes["cols"], parse_whole, label="Output width"),
        )
        if None not in given:
            record(pid, f"{given[0]} × {given[1]}", check_size(problem, given).right)
        return
    counting = problem.kind == "batch" and problem.asks_count
    typed = boxes["typed"]
    value = read(typed, parse_whole if counting else parse_number)
    if value is not None:
        record(pid, typed, check_number(problem, value).right)


def read(text: str, parse, *, label: str = "Your answer"):
    """parse(text), or None after a short message that keeps the typed text."""
    if not text.strip():
        st.warning(f"{label} is empty: type a number there, then check.", icon=":material/edit:")
        return None
    try:
        return parse(text)
    except ValueError as error:
        st.warning(f"{label} {literal(text)} {error}.", icon=":material/edit:")
        return None
