"""What the lecturer's page computes and says (pure: no Streamlit): the rooms whose key
this browser keeps, the join link's address, the question in words, and every sentence
the projector states about the class's answers, true for the numbers at hand (no
answers, one, everyone right, nobody right...).

A tally is ui/room/tally.Tally: count, right, cell_share (H, W) or values, the wrong
answers grouped by the known mistake each shows (None: "other").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from pooling import PoolConfig, backward, forward

from ...exercises.replies import plural, quantity, shown
from ...pure.numbers import fmt
from ...pure.words import MODE_LABELS, TIE_WORDS
from ..codes import normal_code
from ..questions import Question
from ..tally import Tally

MOST_ROOMS = 5  # the rooms whose keys a browser keeps, newest first
SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{12,64}")  # a key or a recovery code
MOST_NAMED = 3  # wrong answers named one by one on the projector; the rest summed
MOST_BARS = 10  # bars of typed answers; the rarer ones are summed in "others"


# -- the keys this browser keeps ---------------------------------------------------------


@dataclass(frozen=True)
class RoomKey:
    """code: the room's join code; secret: its key (or its recovery code, typed)."""

    code: str
    secret: str


def rooms_from_stored(stored: object) -> list[RoomKey]:
    """The keys a browser gave back (user input: any JSON): a list of {"code",
    "secret"}; what does not fit is dropped, a code met twice kept once, at most
    MOST_ROOMS."""
    if not isinstance(stored, list):
        return []
    ring: list[RoomKey] = []
    for entry in stored[: 4 * MOST_ROOMS]:
        if not isinstance(entry, dict):
            continue
        code, secret = entry.get("code"), entry.get("secret")
        if not (isinstance(secret, str) and SECRET_PATTERN.fullmatch(secret)):
            continue
        try:
            code = normal_code(code) if isinstance(code, str) else None
        except ValueError:
            code = None
        if code is not None and all(key.code != code for key in ring):
            ring.append(RoomKey(code, secret))
    return ring[:MOST_ROOMS]


def rooms_to_stored(ring: list[RoomKey]) -> list[dict]:
    return [{"code": key.code, "secret": key.secret} for key in ring[:MOST_ROOMS]]


def with_room(ring: list[RoomKey], key: RoomKey) -> list[RoomKey]:
    """`key` first, its code's older key dropped, at most MOST_ROOMS."""
    return [key, *(old for old in ring if old.code != key.code)][:MOST_ROOMS]


def without_room(ring: list[RoomKey], code: str) -> list[RoomKey]:
    return [key for key in ring if key.code != code]


def merged_rooms(session: list[RoomKey], stored: list[RoomKey]) -> list[RoomKey]:
    """This session's keys first (opened here), then the browser's."""
    ring = list(stored)
    for key in reversed(session):
        ring = with_room(ring, key)
    return ring


def secret_for(ring: list[RoomKey], code: str) -> str | None:
    return next((key.secret for key in ring if key.code == code), None)


# -- the join link ----------------------------------------------------------------------


def app_root(page_url: str, page_path: str) -> str:
    """The app's address from a page's (st.context.url: no query), ending in "/":
    'http://h:8501/lab/class' with page path 'class' -> 'http://h:8501/lab/'."""
    parts = urlsplit(page_url)
    path = parts.path.rstrip("/")
    if page_path and path.endswith("/" + page_path):
        path = path[: -len(page_path) - 1]
    return urlunsplit((parts.scheme, parts.netloc, path + "/", "", ""))


def join_link(root: str, join_path: str, code: str) -> str:
    """The students' link: '<root><join_path>?code=K7QX3M' (the QR code's)."""
    return f"{root.rstrip('/')}/{join_path}?code={code}"


# -- the question in words ---------------------------------------------------------------


def _pair(pair) -> str:
    return f"{pair[0]}×{pair[1]}"


def ties_matter(x: np.ndarray, config: PoolConfig) -> bool:
    """Max pooling where some window's maximum is tied, so the tie rule decides: the
    first and the last tied cell then get different gradients."""
    if config.mode != "max":
        return False
    ones = np.ones(forward(x, config).output.shape)
    first = backward(forward(x, replace(config, ties="first")), ones)
    last = backward(forward(x, replace(config, ties="last")), ones)
    return not np.array_equal(first, last)


def layer_words(config: PoolConfig, x: np.ndarray) -> str:
    """'max pooling, window 3×3, stride 2×2, padding 1×1; on a tie, …': each setting
    that is not its default, the tie rule only where x has a tie it decides."""
    mode = MODE_LABELS[config.mode].lower()
    if config.adaptive:
        words = [f"adaptive {mode} pooling to an output of {_pair(config.output_size)}"]
    else:
        words = [f"{mode} pooling, window {_pair(config.kernel_size)}"]
        words.append(f"stride {_pair(config.stride)}")
        if any(config.padding):
            words.append(f"padding {_pair(config.padding)}")
        if config.dilation != (1, 1):
            words.append(f"dilation {_pair(config.dilation)}")
        if config.ceil_mode:
            words.append("ceil mode")
    if config.mode == "avg" and config.divisor_override is not None:
        words.append(f"every window divides by {config.divisor_override}")
    elif config.mode == "avg" and any(config.padding):
        counted = "counts" if config.count_include_pad else "does not count"
        words.append(f"the divisor {counted} padding cells")
    text = ", ".join(words)
    if ties_matter(x, config):
        text += f"; on a tie, {TIE_WORDS[config.ties].rule}"
    return text


def question_words(question: Question) -> str:
    """The question as the projector asks it (plain text: no markup)."""
    problem = question.problem
    layer = layer_words(problem.config, problem.x)
    if question.kind == "size":
        rows, cols = problem.x.shape
        return f"An input of {rows}×{cols}, {layer}. What is the output size?"
    if question.kind == "value":
        return f"Layer: {layer}. What is {quantity(problem)}?"
    sent = np.unique(problem.grad_output)
    upstream = (
        f"every cell of y sends back dL/dy = {fmt(sent[0])}"
        if sent.size == 1
        else "every cell of y sends back a positive dL/dy"
    )
    return f"Layer: {layer}; {upstream}. Which cells of x get gradient?"


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
    if question.kind == "cells":
        return f"{plural(count, 'answer')}: the cells you get if you {how}."
    given = shown(question.problem, answer)
    return f"{plural(count, 'answer')} gave {given}: what you get if you {how}."


def wrong_lines(question: Question, tally: Tally) -> list[str]:
    """The most common wrong answers named with the mistake each shows (at most
    MOST_NAMED), then how many show another known mistake, then the "other" ones."""
    named = [w for w in tally.wrong if w.mistake is not None]
    lines = [_mistake_line(question, w.answer, w.count, w.how) for w in named[:MOST_NAMED]]
    more = sum(w.count for w in named[MOST_NAMED:])
    if more:
        lines.append(f"{plural(more, 'more answer')} show other known mistakes.")
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
    """Each named wrong answer of either vote with its count before and after, the
    most common first (at most MOST_NAMED), then the "other" answers' counts."""
    words = {w.key: w for w in [*second.wrong, *first.wrong] if w.mistake is not None}
    rows = []
    for key, wrong in words.items():
        before = next((w.count for w in first.wrong if w.key == key), 0)
        after = next((w.count for w in second.wrong if w.key == key), 0)
        rows.append((max(before, after), before, after, wrong))
    rows.sort(key=lambda row: -row[0])
    lines = []
    for _, before, after, wrong in rows[:MOST_NAMED]:
        what = "the cells" if question.kind == "cells" else shown(question.problem, wrong.answer)
        lines.append(
            f"{what}, what you get if you {wrong.how}: {before} → {plural(after, 'answer')}."
        )
    if first.other or second.other:
        lines.append(f"Other wrong answers: {first.other} → {second.other}.")
    return [line[0].upper() + line[1:] for line in lines]


# -- typed numbers as bars ---------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """label: the answer as written; count: how many gave it; right: it is the answer
    (only said once revealed); order: where it goes along the axis."""

    label: str
    count: int
    right: bool
    order: tuple


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
        shown(problem, problem.answer), tally.right, revealed, _order(question, problem.answer)
    )
    wrong = [
        Bar(shown(problem, w.answer), w.count, False, _order(question, w.answer))
        for w in tally.wrong
    ]
    kept = wrong[: MOST_BARS - 1]  # tally.wrong: the most common first
    rest = sum(bar.count for bar in wrong[MOST_BARS - 1 :])
    chosen = [bar for bar in [right, *kept] if bar.count or (revealed and bar.right)]
    chosen.sort(key=lambda bar: bar.order)
    if rest:
        chosen.append(Bar("others", rest, False, (1, 0.0, 0)))
    return chosen
