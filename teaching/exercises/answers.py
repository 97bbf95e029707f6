"""Reading and checking a learner's answer (pure: no Streamlit). A malformed answer
raises ValueError with a short reason, said on the page; it never counts as wrong."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pooling.config import Cell
from teaching.exercises.model import Problem
from teaching.tolerances import close_enough

LARGEST = 1e6  # no answer here comes near this
NOT_A_NUMBER = "is not a number (write it like 2.5, -1 or 7/3)"
TOO_LARGE = "is far larger than any gradient or size here"


def parse_number(text: str) -> float:
    """'2.5', '-1', '−1', '7/3', '2,5' -> a float; ValueError with the reason.

    Each side of a fraction is read as a float, never as an exact Fraction: a typed
    '1e9999999' would make Fraction build a ten-million-digit integer, and '1' with
    310 zeros over 1 overflows a float in the division."""
    cleaned = text.strip().replace("−", "-").replace(",", ".").replace(" ", "")
    if not cleaned:
        raise ValueError("is empty: type a number")
    sides = cleaned.split("/")
    if len(sides) > 2:
        raise ValueError(NOT_A_NUMBER)
    numerator, denominator = (_finite(side) for side in (*sides, "1")[:2])
    if denominator == 0:
        raise ValueError(f"{NOT_A_NUMBER}: it divides by zero")
    value = numerator / denominator
    if not math.isfinite(value) or abs(value) > LARGEST:
        raise ValueError(TOO_LARGE)
    return value


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(NOT_A_NUMBER) from None
    if math.isnan(value) or (math.isinf(value) and "inf" in text.lower()):
        raise ValueError("is not a finite number")
    if math.isinf(value):  # digits beyond float range
        raise ValueError(TOO_LARGE)
    return value


def parse_whole(text: str) -> int:
    value = parse_number(text)
    if value != int(value) or value < 1:
        raise ValueError("must be a whole number of at least 1")
    return int(value)


@dataclass(frozen=True)
class Verdict:
    right: bool
    missing: frozenset = frozenset()  # cells kind: cells that receive gradient, not chosen
    extra: frozenset = frozenset()  # cells kind: cells chosen that receive nothing
    hits: frozenset = frozenset()  # cells kind: cells chosen that receive gradient


def check_cells(problem: Problem, chosen: frozenset) -> Verdict:
    answer = problem.answer
    return Verdict(
        chosen == answer,
        missing=frozenset(answer - chosen),
        extra=frozenset(chosen - answer),
        hits=frozenset(chosen & answer),
    )


def cell_marks(problem: Problem, picks: frozenset, *, checked: bool) -> dict[str, tuple[Cell, ...]]:
    """The cells picked on x, marked as picks; once checked (or revealed, in class),
    marked right, missed and extra instead: {mark: its cells (row, col), sorted}, the
    fields of ui/figures/answer_marks.AnswerMarks."""
    if not checked:
        return {"picks": tuple(sorted(picks))}
    verdict = check_cells(problem, picks)
    return {
        "right": tuple(sorted(verdict.hits)),
        "missed": tuple(sorted(verdict.missing)),
        "extra": tuple(sorted(verdict.extra)),
    }


def check_number(problem: Problem, given: float) -> Verdict:
    return Verdict(close_enough(given, float(problem.answer)))


def check_size(problem: Problem, given: tuple[int, int]) -> Verdict:
    return Verdict(tuple(given) == tuple(problem.answer))


def checked_value(problem: Problem, text: str):
    """A typed answer read back from the text it was checked as (`size`: "H × W"): a
    number, a whole number or (H, W); None when the text does not read (it may come
    from a browser's storage)."""
    try:
        if problem.kind == "size":
            rows, cols = text.split(" × ")
            return parse_whole(rows), parse_whole(cols)
        if problem.kind == "batch" and problem.asks_count:
            return parse_whole(text)
        return parse_number(text)
    except ValueError:
        return None
