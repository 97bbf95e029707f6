"""What the projector says about a round's answers (pure: no Streamlit): the count,
the share right, the wrong answers named with the mistake each shows, the shift from
the first vote to the second, and the typed answers as bars; each sentence true for
the numbers at hand (no answers, one, everyone right, nobody right...). A wrong answer
that several known mistakes give is said with all of them (WrongAnswer.how_all).

A tally is teaching/class_mode/tally.Tally: count, right, cell_share (H, W) or values, the wrong
answers grouped by the known mistake each shows (None: "other").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from teaching.class_mode.questions import Question
from teaching.class_mode.tally import Tally
from teaching.exercises.replies import written_answer
from teaching.map_twin import MapTwin
from teaching.numbers import fmt, plural
from teaching.words import WRONG_LEGEND

MOST_NAMED = 2  # wrong answers named one by one on the projector; the rest summed
MOST_BARS = 10  # bars of typed answers; the rarer ones are summed in "others"


# -- what the projector says about the answers -----------------------------------------


def percent(share: float) -> int:
    """A share 0..1 as a whole percent that never says 0 of some nor 100 of not all."""
    whole = round(share * 100)
    if 0 < share < 1:
        return min(99, max(1, whole))
    return whole


def count_sentence(count: int, *, state: str) -> str:
    """How many have answered, while answers come in ("open") or after."""
    if state == "open":
        return "No answers yet." if count == 0 else f"{plural(count, 'answer')} so far."
    if count == 0:
        return "Answers closed: nobody answered."
    return f"Answers closed: {plural(count, 'answer')}."


def right_sentence(tally: Tally) -> str:
    """How many are right, once the answer is shown."""
    count, right = tally.count, tally.right
    if count == 0:
        return "Nobody answered; the right answer is drawn."
    if count == 1:
        return "The one answer is right." if right else "The one answer is wrong."
    if right == count:
        return f"Everyone is right: all {count} answers."
    if right == 0:
        return f"Nobody is right: 0 of {count}."
    return f"{right} of {count} right ({percent(right / count)} %)."


def _mistake_line(question: Question, answer, count: int, how: str) -> str:
    if question.picks_cells:
        return f"{plural(count, 'answer')}: the cells you get if you {how}."
    given = written_answer(question.problem, answer)
    return f"{plural(count, 'answer')} gave {given}: what you get if you {how}."


def wrong_lines(question: Question, tally: Tally) -> list[str]:
    """The most common wrong answers named with the mistake each shows (at most
    MOST_NAMED), then how many show another known mistake, then the "other" ones."""
    named = [w for w in tally.wrong if w.mistake is not None]
    lines = [_mistake_line(question, w.answer, w.count, w.how_all) for w in named[:MOST_NAMED]]
    more = sum(w.count for w in named[MOST_NAMED:])
    if more:
        verb = "shows" if more == 1 else "show"
        lines.append(f"{plural(more, 'more answer')} {verb} other known mistakes.")
    if tally.other and not tally.analysed:
        lines.append(
            f"{plural(tally.other, 'wrong answer')}: no mistake is named for this "
            "layer (adaptive or dilated windows)."
        )
    elif tally.other:
        lines.append(f"Other: {plural(tally.other, 'wrong answer')} no known mistake gives.")
    return lines


def shift_sentence(first: Tally, second: Tally) -> str:
    """The share right in the first vote and in the second."""

    def part(tally: Tally) -> str:
        if tally.count == 0:
            return "no answers"
        return f"{tally.right} of {tally.count} ({percent(tally.share_right)} %)"

    return f"Right: {part(first)} in the first vote, {part(second)} in the second."


def shift_lines(question: Question, first: Tally, second: Tally) -> list[str]:
    """The named wrong answers of either vote with their counts before and after, the
    most common first (at most MOST_NAMED), then every other wrong answer summed (an
    unknown one, or a known mistake not listed)."""
    words = {w.key: w for w in [*second.wrong, *first.wrong] if w.mistake is not None}
    rows = []
    for key, wrong in words.items():
        before = next((w.count for w in first.wrong if w.key == key), 0)
        after = next((w.count for w in second.wrong if w.key == key), 0)
        rows.append((max(before, after), before, after, wrong))
    rows.sort(key=lambda row: -row[0])
    lines = []
    for _, before, after, wrong in rows[:MOST_NAMED]:
        what = (
            "the cells" if question.picks_cells else written_answer(question.problem, wrong.answer)
        )
        lines.append(f"{what}, what you get if you {wrong.how_all}: {before} → {after}.")
    listed = [(before, after) for _, before, after, _ in rows[:MOST_NAMED]]
    rest_before = first.count - first.right - sum(before for before, _ in listed)
    rest_after = second.count - second.right - sum(after for _, after in listed)
    if rest_before or rest_after:
        label = "Other wrong answers" if listed else "Wrong answers"
        lines.append(f"{label}: {rest_before} → {rest_after}.")
    return [line[0].upper() + line[1:] for line in lines]


# -- the share map's marks, once revealed --------------------------------------------------


def wrong_picks(question: Question, tally: Tally) -> tuple[tuple[int, int], ...]:
    """The cells someone picked that get no gradient, in reading order (none for a
    question that is not about cells)."""
    if not question.picks_cells or tally.cell_share is None:
        return ()
    picked = (tuple(int(v) for v in cell) for cell in np.argwhere(tally.cell_share > 0))
    return tuple(cell for cell in picked if cell not in question.answer)


def share_legend(question: Question, tally: Tally) -> str:
    """What the revealed share map's marks mean: the outline, and the frames where
    some were drawn, counted."""
    text = "Outlined: the cells that get gradient."
    count = len(wrong_picks(question, tally))
    if not count:
        return text
    mark = WRONG_LEGEND[0].upper() + WRONG_LEGEND[1:]
    return f"{text} {mark}: picked, but gets none ({plural(count, 'cell')})."


def vote_title(name: str, question: Question, tally: Tally) -> str:
    """A vote's map title beside the other vote's, where no caption fits: its name,
    and what its frames mean when it has some ("First vote (dashed: wrong)")."""
    return f"{name} ({WRONG_LEGEND}: wrong)" if wrong_picks(question, tally) else name


# -- typed numbers as bars ---------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """label: the answer as written; count: how many gave it; right: it is the answer
    (only said once revealed); order: where it goes along the axis."""

    label: str
    count: int
    right: bool
    order: tuple


def bar_label(question: Question, answer) -> str:
    """An answer under its bar: 'H × W', or a number to 2 decimals (the answers'
    tolerance: two answers within it count as one)."""
    if question.kind == "size":
        return written_answer(question.problem, answer)
    return fmt(float(answer), 2)


def _order(question: Question, answer) -> tuple:
    if question.kind == "size":
        return (0, int(answer[0]), int(answer[1]))
    return (0, float(answer), 0)


def bars(question: Question, tally: Tally, *, revealed: bool) -> list[Bar]:
    """The typed answers grouped as the tally groups them (the right ones together,
    each wrong answer's group), in the axis' order; the right answer's bar is there
    (even at 0) and marked only once revealed; past MOST_BARS the rarest wrong groups
    are summed in one "others" bar, last."""
    problem = question.problem
    right = Bar(
        bar_label(question, problem.answer), tally.right, revealed, _order(question, problem.answer)
    )
    wrong = [
        Bar(bar_label(question, w.answer), w.count, False, _order(question, w.answer))
        for w in tally.wrong
    ]
    kept = wrong[: MOST_BARS - 1]  # tally.wrong: the most common first
    rest = sum(bar.count for bar in wrong[MOST_BARS - 1 :])
    chosen = [bar for bar in [right, *kept] if bar.count or (revealed and bar.right)]
    chosen.sort(key=lambda bar: bar.order)
    if rest:
        chosen.append(Bar("others", rest, False, (1, 0.0, 0)))
    return chosen


RIGHT_ANSWER = "the right answer"  # the bars' twin: the bar drawn green and ticked
BARS_COLUMNS = ("count", "share")


def bars_twin(
    name: str, *, labels: tuple[str, ...], counts: tuple[int, ...], right: tuple[bool, ...]
) -> MapTwin:
    """The bars' text twin (teaching/map_twin.py): a row per bar, named by its answer,
    holding how many gave it and their share of all the answers the bars count (as
    `percent` says a share); the right answer's row marked where its bar is (only once
    revealed). Its summary: "Answers given: 12 answers over 3 bars; most given: 4 (5,
    42 %); the right answer: 4 (5, 42 %)." labels, counts, right: one per bar, in the
    axis' order."""
    total = sum(counts)
    shares = [percent(count / total) if total else 0 for count in counts]
    cells = tuple((str(count), f"{share} %") for count, share in zip(counts, shares, strict=True))
    rights = tuple((row, 0) for row, is_right in enumerate(right) if is_right)
    said = [f"{name}: {plural(total, 'answer')} over {plural(len(counts), 'bar')}"]
    if total:
        most = max(range(len(counts)), key=lambda row: counts[row])
        tied = sum(count == counts[most] for count in counts) > 1
        if not tied:
            said.append(f"most given: {labels[most]} ({counts[most]}, {shares[most]} %)")
    said += [f"{RIGHT_ANSWER}: {labels[row]} ({counts[row]}, {shares[row]} %)" for row, _ in rights]
    return MapTwin(
        name=name,
        cells=cells,
        low=float(min(counts, default=0)),
        high=float(max(counts, default=0)),
        marks={RIGHT_ANSWER: rights} if rights else {},
        headers=(tuple(labels), BARS_COLUMNS),
        about="; ".join(said) + ".",
    )


def paired_bars(
    question: Question, first: Tally, second: Tally, *, revealed: bool
) -> tuple[list[Bar], list[Bar]]:
    """Two votes' bars over the same answers (each answer either vote gave, at 0 in
    the vote that did not), so that they stand side by side, bar for bar."""
    votes = [bars(question, counted, revealed=revealed) for counted in (first, second)]
    union = {}
    for vote in votes:
        for bar in vote:
            union.setdefault((bar.order, bar.label), bar)
    keys = sorted(union)
    paired = []
    for vote in votes:
        counts = {(bar.order, bar.label): bar.count for bar in vote}
        paired.append([replace(union[key], count=counts.get(key, 0)) for key in keys])
    return paired[0], paired[1]
