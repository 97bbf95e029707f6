"""The reply to an answer checked (pure: no Streamlit): what was given against what is
right, and the known mistake that gives it (teaching/exercises/mistakes.py), in words true
for this problem and this answer; for clicked cells, how many were right, missed and
extra, and what each mark on x means."""

from __future__ import annotations

from dataclasses import dataclass

from teaching.exercises.answers import Verdict, check_cells
from teaching.exercises.mistakes import diagnose, same_answer
from teaching.exercises.model import Problem
from teaching.numbers import fmt, plural
from teaching.tolerances import ANSWER_ROUNDING
from teaching.words import EXTRA_LEGEND, MISSED_LEGEND, RIGHT_LEGEND

DECIMALS_SHOWN = 4  # an answer's decimals in a reply (a typed one is never rounded more)


@dataclass(frozen=True)
class Reply:
    """right: the answer is right; said: what was given against the answer, one
    sentence; mistake: the known mistake that gives it, or that none does ("" when
    there is nothing to add)."""

    right: bool
    said: str
    mistake: str = ""


def quantity(problem: Problem) -> str:
    """What the problem asks for, as the subject of "… is 11"."""
    if problem.kind == "size":
        return "the output size"
    if problem.kind == "batch" and problem.asks_count:
        return "the number of positions that receive gradient"
    r, c = problem.cell
    if problem.asks_mean:
        return f"the mean gradient at ({r}, {c}) over the batch"
    return f"dL/dx at ({r}, {c})" if problem.kind == "value" else f"dL/db at ({r}, {c})"


def written_answer(problem: Problem, answer) -> str:
    """An answer as the reply writes it: 'H × W', a whole number or up to 4 decimals."""
    if problem.kind == "size":
        return f"{answer[0]} × {answer[1]}"
    if problem.kind == "batch" and problem.asks_count:
        return str(int(answer))
    return fmt(float(answer), DECIMALS_SHOWN)


def about(problem: Problem, given) -> str:
    """' is' where `written_answer` writes the answer exactly, ' is about' where it rounds it."""
    if problem.kind == "size" or (problem.kind == "batch" and problem.asks_count):
        return " is"
    value = float(given)
    return " is" if value == round(value, DECIMALS_SHOWN) else " is about"


def typed_reply(problem: Problem, given) -> Reply:
    """The reply to a typed answer `given` (a number, a whole number or (H, W))."""
    typed, answer, asked = (
        written_answer(problem, given),
        written_answer(problem, problem.answer),
        quantity(problem),
    )
    if same_answer(problem, given, problem.answer):
        if typed == answer:
            return Reply(True, f"Right: {asked} is {answer}.")
        return Reply(
            True,
            f"Right: {asked} is {answer}, and your {typed} is within "
            f"{fmt(ANSWER_ROUNDING)} of it: two decimals are enough.",
        )
    # The number the answer came to (a fraction such as 7/3 is accepted), not the text.
    said = f"Your answer{about(problem, given)} {typed}, but {asked} is {answer}."
    mistake = diagnose(problem, given)
    if mistake is None:
        return Reply(False, said, f"No known mistake gives {typed}.")
    sentence = mistake_sentence(problem, given, how=mistake.how, truth=mistake.truth)
    return Reply(False, said, sentence)


def mistake_sentence(problem: Problem, given, *, how: str, truth: str) -> str:
    """The wrong answer `given` named by what the mistake does (`how`, after "what you
    get if you") and what is true instead (`truth`): one sentence."""
    lead = "Your picks are" if problem.picks_cells else f"{written_answer(problem, given)} is"
    return f"{lead} what you get if you {how}: {truth}."


def cells_counts(verdict: Verdict) -> str:
    """'2 right, 1 missed, 1 extra' (the parts that are not zero; '0 right' alone)."""
    parts = [f"{len(verdict.hits)} right"]
    parts += [
        f"{len(cells)} {word}"
        for cells, word in ((verdict.missing, "missed"), (verdict.extra, "extra"))
        if cells
    ]
    return ", ".join(parts)


def cells_reply(problem: Problem, chosen: frozenset) -> Reply:
    """The reply to the cells picked."""
    verdict = check_cells(problem, chosen)
    if verdict.right and problem.kind == "batch":
        r, c = problem.window
        return Reply(
            True,
            f"Right: the {len(problem.answer)} cells of window ({r}, {c}) that some "
            "example picks, no other.",
        )
    if verdict.right:
        if len(problem.answer) == 1:
            ((r, c),) = problem.answer
            return Reply(True, f"Right: ({r}, {c}) is the only cell that receives gradient.")
        count = len(problem.answer)
        return Reply(True, f"Right: all {count} cells that receive gradient, no other.")
    said = f"Not quite: {cells_counts(verdict)}."
    mistake = diagnose(problem, frozenset(chosen))
    if mistake is None:
        return Reply(False, said)
    return Reply(
        False, said, mistake_sentence(problem, chosen, how=mistake.how, truth=mistake.truth)
    )


def marks_legend(verdict: Verdict, *, plane: str = "x") -> str:
    """What each mark on x means, for the marks drawn: 'On x, a tick marks each of your
    2 right picks, a dashed frame the cell you missed, a cross your 1 extra pick
    (receiving nothing).'"""
    said = []
    if verdict.hits:
        count = len(verdict.hits)
        each = "each of your" if count > 1 else "your"
        said.append((RIGHT_LEGEND, f"{each} {plural(count, 'right pick')}"))
    if verdict.missing:
        count = len(verdict.missing)
        said.append((MISSED_LEGEND, "the cell" if count == 1 else f"the {count} cells"))
        said[-1] = (said[-1][0], said[-1][1] + " you missed")
    if verdict.extra:
        count = len(verdict.extra)
        said.append((EXTRA_LEGEND, f"your {plural(count, 'extra pick')} (receiving nothing)"))
    if not said:
        return ""
    (mark, what), *rest = said
    return (
        f"On {plane}, " + ", ".join([f"{mark} marks {what}", *(f"{m} {w}" for m, w in rest)]) + "."
    )
