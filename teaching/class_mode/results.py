"""The class's result, question by question (pure: no Streamlit): what the lecturer
keeps of a room. Each question asked is its first vote and, after discussion, its
second; for each, how many answered and how many were right, the wrong answers named
with the mistakes that give them, and the change between the votes: in answers right
(after − before) and normalized, (share after − share before) / (1 − share before),
the share of what was left to gain that the discussion gained.

It is worked out from the rounds the store keeps (store.every_round), so it is the
same on any replica and after a reload; `results_csv` writes it with no student token
and no nickname in it (the store never hands them out).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from teaching.class_mode.answers import percent
from teaching.class_mode.lecturer import question_words
from teaching.class_mode.questions import Question
from teaching.class_mode.tally import Tally, tally
from teaching.exercises.replies import written_answer


@dataclass(frozen=True)
class Vote:
    """One vote on a question: its round, answers counted, right, right / answered (0
    with no answers)."""

    round_number: int
    answered: int
    right: int
    share_right: float


@dataclass(frozen=True)
class WrongCount:
    """A wrong answer given in either vote: `words` say it (the answer and every
    known mistake that gives it, or "other wrong answers"), counted in each vote
    (`second` None without a second vote)."""

    words: str
    first: int
    second: int | None


@dataclass(frozen=True)
class QuestionResult:
    """number: 1, 2, ... in the order asked; question: the question asked; first,
    second: its votes (second None when it was not asked again); wrong: its wrong
    answers, named ones first (most common in the first vote first), then the others
    summed; change: right after − right before (None without a second vote); gain:
    the normalized change (None where it is undefined: `gain_note` says why)."""

    number: int
    question: Question
    first: Vote
    second: Vote | None
    wrong: list[WrongCount]
    change: int | None
    gain: float | None
    gain_note: str


def normalized_change(before: float, after: float) -> float | None:
    """(after − before) / (1 − before) for shares 0..1; None when everyone was right
    before (nothing was left to gain: 0 / 0 or a division by 0)."""
    if before >= 1:
        return None
    return (after - before) / (1 - before)


def gain_and_note(first: Tally, second: Tally | None) -> tuple[float | None, str]:
    """The normalized change and, where it is undefined, why, in words."""
    if second is None:
        return None, "no second vote"
    if first.count == 0 or second.count == 0:
        return None, f"no answers in the {'first' if first.count == 0 else 'second'} vote"
    gain = normalized_change(first.share_right, second.share_right)
    if gain is None:
        return None, "everyone was right in the first vote: nothing left to gain"
    return gain, ""


def results(rounds) -> list[QuestionResult]:
    """The room's questions from its rounds (store.RoundAnswers, in round order): each
    round of a first vote is a question; the round whose first_round is it, with vote
    2, its second vote."""
    seconds = {
        held.round.first_round: held
        for held in rounds
        if held.round.first_round is not None and held.round.vote == 2
    }
    firsts = [held for held in rounds if held.round.first_round is None]
    return [
        question_result(number, held, seconds.get(held.round.number))
        for number, held in enumerate(firsts, start=1)
    ]


def vote_of(held, counted: Tally) -> Vote:
    return Vote(held.round.number, counted.count, counted.right, counted.share_right)


def question_result(number: int, first_held, second_held) -> QuestionResult:
    question = first_held.round.question
    first = tally(question, first_held.answers)
    second = None if second_held is None else tally(question, second_held.answers)
    gain, note = gain_and_note(first, second)
    return QuestionResult(
        number=number,
        question=question,
        first=vote_of(first_held, first),
        second=None if second is None else vote_of(second_held, second),
        wrong=wrong_counts(question, first, second),
        change=None if second is None else second.right - first.right,
        gain=gain,
        gain_note=note,
    )


def wrong_words(question: Question, wrong) -> str:
    """A named wrong answer in words: the mistakes that give it (cells), or the
    number and what gives it."""
    if question.picks_cells:
        return f"the cells you get if you {wrong.how_all}"
    return f"{written_answer(question.problem, wrong.answer)}, what you get if you {wrong.how_all}"


def wrong_counts(question: Question, first: Tally, second: Tally | None) -> list[WrongCount]:
    """Each named wrong answer of either vote with its count in each, the most common
    in the first vote first (then those new in the second); then every other wrong
    answer summed, when there is one."""
    votes = [first] if second is None else [first, second]
    named = {}
    for counted in votes:
        for wrong in counted.wrong:
            if wrong.mistake is not None:
                named.setdefault(wrong.key, wrong)

    def count_in(counted: Tally | None, key) -> int | None:
        if counted is None:
            return None
        return sum(w.count for w in counted.wrong if w.key == key)

    rows = [
        WrongCount(wrong_words(question, wrong), count_in(first, key), count_in(second, key))
        for key, wrong in named.items()
    ]
    others = [None if counted is None else counted.other for counted in (first, second)]
    if others[0] or others[1]:
        rows.append(WrongCount("other wrong answers", others[0], others[1]))
    return rows


# -- in words and as a table ---------------------------------------------------------------


def vote_words(vote: Vote | None) -> str:
    """'5 of 8 right (63 %)', 'no answers', or '' without that vote."""
    if vote is None:
        return ""
    if vote.answered == 0:
        return "no answers"
    return f"{vote.right} of {vote.answered} right ({percent(vote.share_right)} %)"


def change_words(result: QuestionResult) -> str:
    """'+2 right' / '−1 right' / 'no change', or '' without a second vote."""
    if result.change is None:
        return ""
    if result.change == 0:
        return "no change"
    return f"{result.change:+d} right".replace("-", "−")


def gain_words(result: QuestionResult) -> str:
    """The normalized change to 2 decimals, or why it is undefined."""
    if result.gain is None:
        return f"undefined: {result.gain_note}"
    return f"{result.gain:.2f}".replace("-", "−")


def summary(found: list[QuestionResult]) -> str:
    """How many questions the room asked and how many were voted on twice."""
    if not found:
        return "No question has been asked in this room yet."
    twice = sum(result.second is not None for result in found)
    asked = "1 question" if len(found) == 1 else f"{len(found)} questions"
    if twice == 0:
        return f"{asked} asked, {'not' if len(found) == 1 else 'none'} voted on a second time."
    if len(found) == 1:
        return f"{asked} asked, voted on a second time."
    again = "all of them" if twice == len(found) else f"{twice}"
    return f"{asked} asked, {again} voted on a second time."


CSV_COLUMNS = (
    "question",
    "round_vote_1",
    "round_vote_2",
    "source",
    "asked",
    "answered_vote_1",
    "right_vote_1",
    "share_right_vote_1",
    "answered_vote_2",
    "right_vote_2",
    "share_right_vote_2",
    "change_right",
    "normalized_change",
    "normalized_change_undefined_because",
    "wrong_answers_vote_1_to_vote_2",
)


def _blank(value) -> object:
    return "" if value is None else value


def _share(share: float) -> str:
    return f"{share:.4f}"


def csv_row(result: QuestionResult) -> list:
    first, second = result.first, result.second
    wrong = "; ".join(
        f"{row.words}: {row.first}" + ("" if row.second is None else f" -> {row.second}")
        for row in result.wrong
    )
    return [
        result.number,
        first.round_number,
        _blank(second and second.round_number),
        result.question.source,
        question_words(result.question),
        first.answered,
        first.right,
        _share(first.share_right),
        _blank(second and second.answered),
        _blank(second and second.right),
        "" if second is None else _share(second.share_right),
        _blank(result.change),
        "" if result.gain is None else f"{result.gain:.4f}",
        result.gain_note,
        wrong,
    ]


def results_csv(found: list[QuestionResult]) -> str:
    """The results as CSV: a header, then one row per question (shares to 4
    decimals; a blank where a second vote or the normalized change is missing)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for result in found:
        writer.writerow(csv_row(result))
    return out.getvalue()
