"""What a wrong answer to an exercise most likely came from (pure: NumPy, the standard
library and the engine; the Exercises page and class mode both use it).

Each known mistake is the problem worked again by the engine under one wrong
assumption (a window left out, another divisor, another tie rule, dL/dy left out, the
other reduction, padding or ceil mode forgotten...). A typed answer that equals the
number such a mistake gives, and not the right one, is named by it; any other wrong
answer gets no name. A mistake that gives the right answer for the problem at hand is
no mistake there and is never listed. The mistakes themselves: mistakes_gradient
(dL/dx at a cell), mistakes_batch (a batch's bias gradient and reach) and
mistakes_counting (the cells that receive gradient, the output size).
(A batch's window questions: mistakes_batch, where the first seed's idea is one.)
"""

from __future__ import annotations

from teaching.exercises.mistakes_batch import (
    bias_mistakes,
    count_mistakes,
    window_cells_mistakes,
    window_mean_mistakes,
)
from teaching.exercises.mistakes_counting import cells_mistakes, size_mistakes
from teaching.exercises.mistakes_gradient import Mistake, MistakeName, value_mistakes
from teaching.exercises.model import Problem
from teaching.tolerances import close_enough

__all__ = ["Mistake", "MistakeName", "diagnose", "known_mistakes", "same_answer"]


def diagnose(problem: Problem, given) -> Mistake | None:
    """The first known mistake that gives `given` (a number, a set of cells or a size,
    as the problem asks), or None: right, or no known mistake gives it."""
    if same_answer(problem, given, problem.answer):
        return None
    return next((m for m in known_mistakes(problem) if same_answer(problem, given, m.answer)), None)


def same_answer(problem: Problem, first, second) -> bool:
    """Numbers within the answer tolerance; sets and sizes exactly."""
    if problem.picks_cells:
        return first == second
    if problem.kind == "value" or (problem.kind == "batch" and not problem.asks_count):
        return close_enough(float(first), float(second))
    if problem.kind == "size":
        return tuple(first) == tuple(second)
    return first == second


def known_mistakes(problem: Problem) -> list[Mistake]:
    """Every known mistake for `problem` whose answer differs from the right one, the
    most specific first (where two give the same answer, the first is named)."""
    makers = {"value": value_mistakes, "cells": cells_mistakes, "size": size_mistakes}
    if problem.kind == "batch":
        found = batch_mistakes(problem)
    else:
        found = makers[problem.kind](problem)
    return [m for m in found if not same_answer(problem, m.answer, problem.answer)]


def batch_mistakes(problem: Problem) -> list[Mistake]:
    """The batch question's own: a count, a window's cells, a mean, or a bias."""
    if problem.asks_count:
        return count_mistakes(problem)
    if problem.picks_cells:
        return window_cells_mistakes(problem)
    return window_mean_mistakes(problem) if problem.asks_mean else bias_mistakes(problem)
