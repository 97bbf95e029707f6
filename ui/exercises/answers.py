"""Reading and checking a learner's answer (pure: no Streamlit). A malformed answer
raises ValueError with a short reason, said on the page; it never counts as wrong."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .problems import Problem

LARGEST = 1e6  # no answer here comes near this
TOLERANCE = 0.005  # an answer rounded to two decimals is right


def parse_number(text: str) -> float:
    """'2.5', '-1', '−1', '7/3', '2,5' -> a float; ValueError with the reason."""
    cleaned = text.strip().replace("−", "-").replace(",", ".").replace(" ", "")
    if not cleaned:
        raise ValueError("is empty: type a number")
    try:
        value = float(Fraction(cleaned)) if "/" in cleaned else float(cleaned)
    except (ValueError, ZeroDivisionError):
        raise ValueError("is not a number (write it like 2.5, -1 or 7/3)") from None
    if not math.isfinite(value):
        raise ValueError("is not a finite number")
    if abs(value) > LARGEST:
        raise ValueError("is far larger than any gradient or size here")
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


def check_cells(problem: Problem, chosen: frozenset) -> Verdict:
    answer = problem.answer
    return Verdict(chosen == answer, frozenset(answer - chosen), frozenset(chosen - answer))


def check_number(problem: Problem, given: float) -> Verdict:
    return Verdict(abs(given - float(problem.answer)) <= TOLERANCE)


def check_size(problem: Problem, given: tuple[int, int]) -> Verdict:
    return Verdict(tuple(given) == tuple(problem.answer))
