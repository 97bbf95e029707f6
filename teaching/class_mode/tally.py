"""What a class answered, counted (pure: NumPy, the standard library, the engine and
teaching/exercises).

`tally` counts a round's answers: how many, how many right, the share of the room that
picked each cell (cell questions) or the numbers given (number questions), and the
wrong answers grouped by the known mistake each shows, from the Exercises' own mistake
analysis (teaching/exercises/mistakes.py: `known_mistakes` worked out once per tally, then
matched exactly as `diagnose` matches). Where several known mistakes give the same
answer, the wrong answer names them all, together (`WrongAnswer.hows`,
`mistakes_words`): one of them alone would be one explanation picked among equals. A
wrong answer no known mistake gives is counted as "other". `shift` sets two votes on
the same question side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from teaching.class_mode.questions import Question
from teaching.exercises.mistakes import Mistake, known_mistakes, same_answer
from teaching.words import TIE_WORDS


@dataclass(frozen=True)
class WrongAnswer:
    """answer: what was given (for a named mistake, what that mistake gives; a number
    no mistake gives is rounded to 2 decimals, the answer tolerance); count: how many
    gave it; mistake: the mistake's name (teaching.exercises.mistakes.MistakeName) or None
    ("other"); how / truth: the mistake's own words (None for "other"); hows, truths:
    what every known mistake that gives this answer does, and what is true instead,
    in the analysis' order (`how`, `truth` first; empty for "other")."""

    answer: object
    count: int
    mistake: str | None
    how: str | None = None
    truth: str | None = None
    hows: tuple[str, ...] = ()
    truths: tuple[str, ...] = ()

    @property
    def how_all(self) -> str | None:
        """Every mistake that gives this answer, together, as a clause after "what
        you get if you" (None for "other")."""
        return mistakes_words(self.hows or ((self.how,) if self.how else ()))

    @property
    def truth_all(self) -> str | None:
        """What is true instead, for every mistake that gives this answer: their
        distinct truths joined by "; " (tie rules share one: "here, on a tie, ...")."""
        said = tuple(dict.fromkeys(self.truths or ((self.truth,) if self.truth else ())))
        return "; ".join(said) if said else None

    @property
    def key(self) -> tuple:
        """What makes two wrong answers the same one (across two votes too)."""
        return self.mistake, _hashable(self.answer)


@dataclass(frozen=True, eq=False)
class Tally:
    """count: answers; right: how many are right; share_right: right / count (0 with no
    answers); cell_share: (H, W) floats 0..1, the share of answerers who picked each
    cell (None unless cells are asked); values: the numbers given, a float each
    ("value") or (OH, OW) each ("size"), None for cells; wrong: the distinct wrong
    answers, most common first; other: how many wrong answers no known mistake gives;
    analysed: False when the mistake analysis does not cover this layer (adaptive or
    dilated pooling), so no wrong answer is named."""

    count: int
    right: int
    share_right: float
    cell_share: np.ndarray | None
    values: list | None
    wrong: list[WrongAnswer]
    other: int
    analysed: bool = True


def _hashable(answer):
    if isinstance(answer, (frozenset, tuple)):
        return answer
    return round(float(answer), 2) + 0.0  # + 0.0 folds -0.0 into 0.0


def mistakes_of(question: Question) -> list[Mistake] | None:
    """The known mistakes for the question (teaching.exercises.mistakes.known_mistakes), or
    None when the analysis cannot work this layer again (it raises ValueError for
    adaptive pooling and for dilation's other assumptions)."""
    try:
        return known_mistakes(question.problem)
    except ValueError:
        return None


def named(question: Question, given, mistakes: list[Mistake]) -> Mistake | None:
    """The first known mistake that gives `given`, exactly as `diagnose` picks it
    (`given` wrong)."""
    problem = question.problem
    return next((m for m in mistakes if same_answer(problem, given, m.answer)), None)


def alike(question: Question, mistake: Mistake, mistakes: list[Mistake]) -> list[Mistake]:
    """`mistake` and every other known mistake that gives its answer, in the analysis'
    order (each mistake's answer against the first's, so the group is the same for
    every answer it takes in)."""
    problem = question.problem
    return [m for m in mistakes if same_answer(problem, m.answer, mistake.answer)]


TIE_LEAD = "break ties so that "  # how every tie-rule mistake begins (tie_rule_mistakes)
# A tie-rule mistake's clause -> the rule's short name ("all (wrong on purpose)" -> "all").
TIE_NAMES = {f"{TIE_LEAD}{words.rule}": words.label.split(" (")[0] for words in TIE_WORDS.values()}


def mistakes_words(hows: tuple[str, ...]) -> str | None:
    """Clauses after "what you get if you", said together: ('a',) -> 'a'; ('a', 'b',
    'c') -> 'a, b, or c'. Two or more tie rules make one short clause, in the order
    given: 'break ties by another rule (last, split evenly, or all)' (a projector line
    each, not three). None for no clause."""
    hows = tuple(dict.fromkeys(hows))
    ties = [TIE_NAMES[how] for how in hows if how in TIE_NAMES]
    clauses = list(hows)
    if len(ties) > 1:
        at = next(i for i, how in enumerate(hows) if how in TIE_NAMES)
        clauses = [how for how in hows if how not in TIE_NAMES]
        clauses.insert(at, f"break ties by another rule ({_or(ties)})")
    return _or(clauses) if clauses else None


def _or(items: list[str]) -> str:
    """'a'; 'a or b'; 'a, b, or c'."""
    if len(items) <= 2:
        return " or ".join(items)
    return f"{', '.join(items[:-1])}, or {items[-1]}"


def tally(question: Question, answers: list) -> Tally:
    """Count `answers` (parsed, as questions.parse_answer gives them) to `question`."""
    problem = question.problem
    mistakes = mistakes_of(question)
    groups: dict[tuple, list] = {}  # key -> [answer, count, mistake, rank]
    right = 0
    for given in answers:
        if same_answer(problem, given, problem.answer):
            right += 1
            continue
        mistake = named(question, given, mistakes or [])
        shown = _hashable(given) if mistake is None else _shown(mistake.answer)
        key = (None if mistake is None else mistake.name, _hashable(shown))
        rank = len(mistakes or []) if mistake is None else mistakes.index(mistake)
        group = groups.setdefault(key, [shown, 0, mistake, rank])
        group[1] += 1
    wrong = [
        _wrong(question, shown, count, mistake=mistake, mistakes=mistakes or [])
        for shown, count, mistake, _ in sorted(groups.values(), key=_order)
    ]
    count = len(answers)
    return Tally(
        count=count,
        right=right,
        share_right=right / count if count else 0.0,
        cell_share=_cell_share(question, answers),
        values=None if question.picks_cells else list(answers),
        wrong=wrong,
        other=sum(w.count for w in wrong if w.mistake is None),
        analysed=mistakes is not None,
    )


def _wrong(question, shown, count: int, *, mistake, mistakes: list[Mistake]) -> WrongAnswer:
    if mistake is None:
        return WrongAnswer(shown, count, None)
    group = alike(question, mistake, mistakes)
    hows, truths = tuple(m.how for m in group), tuple(m.truth for m in group)
    return WrongAnswer(shown, count, mistake.name, mistake.how, mistake.truth, hows, truths)


def wrong_answer(question: Question, given) -> WrongAnswer | None:
    """One answer `given` to `question` as the projector names it among the round's
    wrong answers: tally's own grouping (every known mistake that gives it, together),
    so a phone's verdict and the projector's line never name different mistakes.
    None when it is right."""
    found = tally(question, [given]).wrong
    return found[0] if found else None


def _shown(answer):
    """A mistake's answer as a class answer is kept: floats as floats, sizes as
    tuples of ints, cells as frozensets."""
    if isinstance(answer, frozenset):
        return answer
    if isinstance(answer, tuple):
        return tuple(int(v) for v in answer)
    return float(answer)


def _order(group: list) -> tuple:
    """Most common first; among equals, named mistakes in the analysis' order (the most
    specific first), then the others in a fixed order."""
    shown, count, _, rank = group
    spelled = sorted(shown) if isinstance(shown, frozenset) else shown
    return -count, rank, str(spelled)


def _cell_share(question: Question, answers: list) -> np.ndarray | None:
    if not question.picks_cells:
        return None
    picks = np.zeros(question.grid_shape)
    for cells in answers:
        for cell in cells:
            picks[cell] += 1
    return picks / len(answers) if answers else picks


# -- two votes on one question --------------------------------------------------------------


@dataclass(frozen=True)
class WrongShift:
    """One wrong answer in either vote: how many gave it before and after, and that as
    a share of each vote's answers (0 with no answers)."""

    answer: object
    mistake: str | None
    before: int
    after: int
    share_before: float
    share_after: float


@dataclass(frozen=True)
class Shift:
    """What changed from the first vote to the second: the share right before and
    after, and every wrong answer given in either (most common in the first vote
    first, then those new in the second)."""

    share_right_before: float
    share_right_after: float
    right_before: int
    right_after: int
    count_before: int
    count_after: int
    wrong: list[WrongShift]


def shift(first: Tally, second: Tally) -> Shift:
    before = {w.key: w for w in first.wrong}
    after = {w.key: w for w in second.wrong}
    keys = list(before) + [key for key in after if key not in before]
    rows = []
    for key in keys:
        shown = (before.get(key) or after[key]).answer
        counts = [tally_.get(key).count if key in tally_ else 0 for tally_ in (before, after)]
        rows.append(
            WrongShift(
                shown,
                key[0],
                counts[0],
                counts[1],
                counts[0] / first.count if first.count else 0.0,
                counts[1] / second.count if second.count else 0.0,
            )
        )
    return Shift(
        share_right_before=first.share_right,
        share_right_after=second.share_right,
        right_before=first.right,
        right_after=second.right,
        count_before=first.count,
        count_after=second.count,
        wrong=rows,
    )
