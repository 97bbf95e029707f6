"""The students' page state: its one declaration (`STATE`: every session-state and
widget key, named once, here), the student's token (kept in the browser, so a reload or
a replica's death keeps it), the room joined (in the link, `?code=K7QX3M`, so a reload
comes back to it), and notices said once.

The widget keys are a contract: deploy/room_client.py drives them for the room
benchmark (benchmarks/bench_room.py) and the serving tests.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import streamlit as st

from teaching.class_mode.codes import new_token
from teaching.class_mode.student import token_or_none
from ui.shared import browser

TOKEN_NAMESPACE = "class-token"  # the browser's storage: this browser's token, a string
# The token's copy in a cookie, which the page's connection brings to its first run.
TOKEN_COOKIE = "pooling_lab_token"
LINK_FIELD = "code"  # /join?code=K7QX3M
UNREAD = ("unread",)  # the pulse drawn when the room could not be read: any pulse differs


@dataclass(frozen=True)
class Notice:
    """Something to say once, above the page: kind "error", "warning" or "info"."""

    kind: str
    text: str


@dataclass(frozen=True)
class Refusal:
    """Why round `round_number`'s typed answer was not saved, said under its box
    (where the student is looking, the phone's keyboard up), not above the page."""

    round_number: int
    kind: str
    texts: tuple[str, ...]  # one per box refused (a size has two)


@dataclass(frozen=True)
class PendingTap:
    """A tap on x taken and not yet marked done (ui/class_mode/student/actions.py):
    the answer it makes (`picks`, the store's answer with `cell` toggled, computed once,
    None until then), so that saving it again is harmless."""

    code: str | None  # the room it was made in
    round_number: int
    clicks: int  # the chart tapped: STATE.pick_chart(round_number, clicks)
    cell: tuple[int, int]
    picks: frozenset | None = None


@dataclass(frozen=True)
class StudentState:
    """Every key the students' page keeps in session state or gives a widget."""

    token: str = "room_token"  # this browser's token, once it has come back or been made
    code: str = "room_code"  # the room joined (normalised), absent before joining
    nickname: str = "room_nickname"  # as joined: plain, cut short
    link_code: str = "room_link_code"  # the link's code, until it has been tried once
    seen: str = "room_seen"  # the pulse key (teaching.class_mode.student) last drawn from
    taps_done: str = "room_taps_done"  # (chart key, cell) of each tap taken (actions)
    pending_tap: str = "room_pending_tap"  # PendingTap: a tap taken and not yet done
    tap_lock: str = "room_tap_lock"  # one tap taken at a time (an RLock: actions)
    pick_drawn: str = "room_pick_drawn"  # (round, clicks) of the x to tap last drawn
    clicks: str = "room_clicks"  # taps on x so far: a fresh chart key after each
    saved: str = "room_saved"  # {round: the answer saved, as drawn}: a tap's start when
    # the store does not answer (actions.answer_now)
    boxes_round: str = "room_boxes_round"  # the round whose saved answer filled the boxes
    notices: str = "room_notices"  # [Notice], said once
    notices_box: str = "room_notices_box"  # always drawn: what follows keeps its place
    refused: str = "room_refused"  # Refusal: a typed answer not sent, said by its box
    refusal_box: str = "room_refusal_box"  # under the boxes, always drawn (as notices_box)
    question_box: str = "room_question_box"  # the question (joining puts the focus there)
    verdict_box: str = "room_verdict_box"  # the verdict, once revealed
    sent: str = "room_sent"  # the round a sending (a tap saved, Send) was made in: said
    join_code: str = "join_code"
    join_nickname: str = "join_nickname"
    join_button: str = "join_button"
    number: str = "room_number"
    rows: str = "room_rows"
    cols: str = "room_cols"
    send: str = "room_send"
    leave: str = "room_leave"
    fig_x: str = "room_x"
    fig_gy: str = "room_gy"
    fig_batch: tuple[str, str] = ("room_batch_x", "room_batch_gy")  # a batch's mosaics
    poll: str = "room_poll"  # the box the polling fragment sits in

    def pick_chart(self, round_number: int, clicks: int) -> str:
        """x to tap, new after each tap (a second tap on a cell is then a tap, not a
        deselection) and for each round (a second vote draws the same figure)."""
        return f"room_pick_{round_number}_{clicks}"


STATE = StudentState()


def init_state() -> None:
    """On the session's first run: the link's code, to be tried once the token is
    here; a tap count and no notices."""
    state = st.session_state
    if STATE.clicks not in state:
        state[STATE.clicks] = 0
        state[STATE.taps_done] = frozenset()
        state[STATE.tap_lock] = threading.RLock()
        state[STATE.saved] = {}
        state[STATE.notices] = []
        given = st.query_params.get(LINK_FIELD)
        if given is not None:
            state[STATE.link_code] = given


def token() -> str | None:
    """This browser's token: the one it kept, or a new one when it kept none (or
    something that is not a token); None until the browser has answered (a page
    then waits: a token made now would replace the one it kept). The copy in its
    cookie, sent with the page's connection, is the answer at once: a reloaded page
    (a replica died) draws the room in its first run, with no run waiting for the
    browser component."""
    state = st.session_state
    if STATE.token not in state:
        sent = token_or_none(browser.cookie(TOKEN_COOKIE))
        if sent is not None:
            browser.known(TOKEN_NAMESPACE)
            state[STATE.token] = sent
        elif not browser.has_arrived(TOKEN_NAMESPACE):
            return None
        else:
            state[STATE.token] = token_or_none(browser.recalled(TOKEN_NAMESPACE)) or new_token()
    browser.remember(TOKEN_NAMESPACE, state[STATE.token])
    browser.keep_cookie(TOKEN_COOKIE, state[STATE.token])
    return state[STATE.token]


def joined_code() -> str | None:
    return st.session_state.get(STATE.code)


def take_link_code() -> str | None:
    """The link's code, handed out once (it is tried once; a reload tries it again)."""
    return st.session_state.pop(STATE.link_code, None)


def say(kind: str, text: str) -> None:
    st.session_state[STATE.notices].append(Notice(kind, text))


def take_notices() -> list[Notice]:
    notices = st.session_state[STATE.notices]
    st.session_state[STATE.notices] = []
    return notices


def enter_room(code: str, nickname: str) -> None:
    """Joined: the room goes in the session and in the link."""
    st.session_state[STATE.code] = code
    st.session_state[STATE.nickname] = nickname
    st.query_params[LINK_FIELD] = code


def leave_room() -> None:
    """Back to the join form: the room leaves the session and the link."""
    st.session_state.pop(STATE.code, None)
    st.session_state.pop(STATE.seen, None)
    st.session_state.pop(STATE.pending_tap, None)
    st.session_state.pop(STATE.pick_drawn, None)
    st.session_state[STATE.saved] = {}
    st.session_state.pop(STATE.boxes_round, None)
    if LINK_FIELD in st.query_params:
        del st.query_params[LINK_FIELD]


def saved_answer(round_number: int):
    """The answer this browser saved in `round_number`, as the page last read it."""
    return st.session_state[STATE.saved].get(round_number)


def note_saved(round_number: int, answer) -> None:
    """The answer read from the store for `round_number` (only the shown round is
    kept: a session stays small however long the class)."""
    st.session_state[STATE.saved] = {round_number: answer}


def refuse(round_number: int, kind: str, text: str) -> None:
    """One more reason this round's sending was refused (a sending clears the last
    one's first: clear_refusal)."""
    said = refusal(round_number)
    texts = (*said.texts, text) if said is not None else (text,)
    st.session_state[STATE.refused] = Refusal(round_number, kind, texts)


def refusal(round_number: int) -> Refusal | None:
    """The refusal of this round's typed answer, if its last sending was refused."""
    found = st.session_state.get(STATE.refused)
    return found if found is not None and found.round_number == round_number else None


def clear_refusal() -> None:
    st.session_state.pop(STATE.refused, None)


def note_sent(round_number: int) -> None:
    """A sending was made in `round_number`: the next run says what it got."""
    st.session_state[STATE.sent] = round_number


def fill_boxes(round_number: int, texts: tuple[str, ...], keys: tuple[str, ...]) -> None:
    """Once per round, before the boxes are drawn: they hold the saved answer (after a
    reload too), or nothing (a new round must not show the last round's number)."""
    state = st.session_state
    if state.get(STATE.boxes_round) == round_number:
        return
    state[STATE.boxes_round] = round_number
    clear_refusal()
    for key, text in zip(keys, texts or ("",) * len(keys), strict=True):
        state[key] = text
