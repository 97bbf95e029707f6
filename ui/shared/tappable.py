"""The map of x a learner picks cells on: an exercise's "cells" question on the
Exercises page, and a class question on a student's phone (the Join page)."""

from __future__ import annotations

from collections.abc import Callable

from teaching.exercises.answers import cell_marks
from teaching.exercises.model import Problem
from ui.figures.answer_marks import AnswerMarks, answer_map
from ui.figures.grid import Overlay
from ui.shared.chart import cached, chart


def tappable_x(
    problem: Problem,
    picks: frozenset,
    *,
    checked: bool,
    overlay: Overlay,
    width_px: int,
    key: str,
    on_select: Callable[[], None] | None = None,
) -> None:
    """x (H, W) of `problem` (or the plane of a batch's window, Problem.pick_plane)
    with the cells picked marked; once checked (or revealed) marked right, missed and
    extra. A click or one tap on a cell calls `on_select`;
    without it the map takes no picks (answers closed)."""
    figure = cached(
        answer_map,
        values=problem.pick_plane,
        title="x" if problem.kind == "cells" else "positions (1: in the window)",
        overlay=overlay,
        marks=AnswerMarks(**cell_marks(problem, picks, checked=checked)),
        width_px=width_px,
        clickable=on_select is not None,
    )
    chart(figure, key=key, on_select=on_select, picked=picks if on_select else None)
