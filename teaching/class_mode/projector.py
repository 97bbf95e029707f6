"""What the projector shows of a round, in one call (pure: no Streamlit): the round's
name, the question in words, the sentence a screen reader hears, the count, the share
right or the shift between two votes, the share map's legend, the wrong answers named,
and the charts' contents (a share map of cells or bars of typed answers; two side by
side beside a revealed second vote). The sentences are answers.py's; ui's room view
only formats and places them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from teaching.class_mode.answers import (
    bars,
    count_sentence,
    paired_bars,
    percent,
    right_sentence,
    share_legend,
    shift_lines,
    shift_sentence,
    vote_title,
    wrong_lines,
    wrong_picks,
)
from teaching.class_mode.lecturer import question_words
from teaching.class_mode.questions import Question
from teaching.class_mode.tally import Tally

VOTES = {1: "first vote", 2: "second vote"}
SHARE_TITLE = "% of the class who picked each cell"
BARS_TITLE = "Answers given"


@dataclass(frozen=True, eq=False)  # eq=False: percents is an array
class ShareMap:
    """A cells question's chart: percents (H, W) whole percents of the class that
    picked each cell (never 0 for some, never 100 for not all); answer_cells the cells
    that get gradient and wrong_cells those picked that get none (both empty until
    revealed), in reading order."""

    percents: np.ndarray
    title: str
    answer_cells: tuple[tuple[int, int], ...]
    wrong_cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class AnswerBars:
    """A typed answer's chart: one bar per answer (labels in the axis' order, counts,
    right: marked only once revealed); most: the count the axis reaches (shared by two
    votes side by side; None: the tallest bar's)."""

    labels: tuple[str, ...]
    counts: tuple[int, ...]
    right: tuple[bool, ...]
    title: str
    most: int | None = None


@dataclass(frozen=True)
class RoundScreen:
    """round_name: 'Round 3'; vote: 'first vote'; source: where the question is from;
    question: the question in words (plain text); paired: a revealed second vote shown
    beside the first (the question was on screen for both: only the round is named);
    news: the round's state in one sentence (announced when it changes); count: the
    count ('' once revealed); verdict: the share right, or the shift between the votes
    ('' before the reveal); legend: the revealed share map's marks ('' none); lines:
    the wrong answers named (or their shift); charts: one chart, two when paired, none
    while a typed question has no answers."""

    round_name: str
    vote: str
    source: str
    question: str
    paired: bool
    news: str
    count: str
    verdict: str
    legend: str
    lines: tuple[str, ...]
    charts: tuple[ShareMap | AnswerBars, ...]


def vote_name(vote: int) -> str:
    return VOTES.get(vote, f"vote {vote}")


def round_screen(
    question: Question,
    tally: Tally,
    *,
    number: int,
    vote: int,
    state: str,
    first: Tally | None = None,
) -> RoundScreen:
    """Round `number`'s vote `vote` in `state` ("open", "closed" or "revealed") as the
    projector shows it; `first`: the first vote's tally beside a revealed second vote
    (None otherwise)."""
    revealed = state == "revealed"
    paired = revealed and first is not None
    if paired:
        charts = _pair_charts(question, first, tally, vote)
    else:
        charts = _one_chart(question, tally, revealed)
    legend = share_legend(question, tally) if revealed and not paired and _cells(question) else ""
    return RoundScreen(
        round_name=f"Round {number}",
        vote=vote_name(vote),
        source=question.source,
        question=question_words(question),
        paired=paired,
        news=_news(tally, number=number, vote=vote, state=state, first=first),
        count="" if revealed else count_sentence(tally.count, state=state),
        verdict=_verdict(tally, state=state, first=first),
        legend=legend,
        lines=tuple(_lines(question, tally, state=state, first=first)),
        charts=charts,
    )


def _cells(question: Question) -> bool:
    return question.picks_cells  # x's cells, or a batch window's positions


def _news(tally: Tally, *, number: int, vote: int, state: str, first: Tally | None) -> str:
    if state == "open":
        return f"Round {number}, {vote_name(vote)}: answers are open."
    if state == "closed":
        return count_sentence(tally.count, state="closed")
    return shift_sentence(first, tally) if first is not None else right_sentence(tally)


def _verdict(tally: Tally, *, state: str, first: Tally | None) -> str:
    if state != "revealed":
        return ""
    return shift_sentence(first, tally) if first is not None else right_sentence(tally)


def _lines(question: Question, tally: Tally, *, state: str, first: Tally | None) -> list[str]:
    if state != "revealed":
        return []
    if first is not None:
        return shift_lines(question, first, tally)
    return wrong_lines(question, tally)


def share_percents(tally: Tally) -> np.ndarray:
    """(H, W) whole percents of the room that picked each cell (answers.percent)."""
    return np.vectorize(percent, otypes=[int])(tally.cell_share)


def _share_map(question: Question, tally: Tally, *, revealed: bool, title: str) -> ShareMap:
    return ShareMap(
        percents=share_percents(tally),
        title=title,
        answer_cells=tuple(sorted(question.answer)) if revealed else (),
        wrong_cells=wrong_picks(question, tally) if revealed else (),
    )


def _answer_bars(found, *, title: str, most: int | None = None) -> AnswerBars:
    return AnswerBars(
        labels=tuple(bar.label for bar in found),
        counts=tuple(bar.count for bar in found),
        right=tuple(bar.right for bar in found),
        title=title,
        most=most,
    )


def _one_chart(question: Question, tally: Tally, revealed: bool) -> tuple:
    if _cells(question):
        return (_share_map(question, tally, revealed=revealed, title=SHARE_TITLE),)
    found = bars(question, tally, revealed=revealed)
    # No answers, and none revealed: no chart (the count says so).
    return (_answer_bars(found, title=BARS_TITLE),) if found else ()


def _pair_charts(question: Question, first: Tally, second: Tally, second_vote: int) -> tuple:
    """The two votes side by side, each titled with its name (and its marks); bars
    over the same answers, on the same scale."""
    tallies = (first, second)
    titles = [
        vote_title(vote_name(vote).capitalize(), question, counted)
        for vote, counted in zip((1, second_vote), tallies, strict=True)
    ]
    if _cells(question):
        return tuple(
            _share_map(question, counted, revealed=True, title=title)
            for counted, title in zip(tallies, titles, strict=True)
        )
    both = paired_bars(question, first, second, revealed=True)
    most = max(bar.count for vote in both for bar in vote)
    return tuple(
        _answer_bars(found, title=title, most=most)
        for found, title in zip(both, titles, strict=True)
    )
