"""What a student does, as widget callbacks: join a room, tap a cell of x, send a
number or a size, leave. Each goes to the store at once (an answer is an upsert: a
second one replaces the first until the round closes); what fails is said on the page
in a sentence, never as a traceback.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from teaching.class_mode.codes import normal_code
from teaching.class_mode.questions import LARGEST_OUTPUT_SIDE
from teaching.exercises.answers import parse_number, parse_whole
from ui.class_mode.client import address
from ui.class_mode.database import engine
from ui.class_mode.student.state import (
    STATE,
    PendingTap,
    clear_refusal,
    enter_room,
    leave_room,
    note_saved,
    note_sent,
    refuse,
    saved_answer,
    say,
)
from ui.shared import browser
from ui.shared.chart import clicked_cell
from ui.shared.state import literal

NO_DATABASE = "The class's database did not answer: try again in a moment."
CLOSED = "Voting on this question has closed: your saved answer stays as it was."


def join(code_text: str, nickname_text: str, *, token: str, from_link: bool) -> bool:
    """Join the room `code_text` names; a sentence on the page when it cannot be."""
    where = "The link's code" if from_link else "The code"
    try:
        code = normal_code(store.capped(code_text, store.CODE_TEXT_LENGTH, what="room code"))
    except store.TooLong as error:
        say("error", str(error))
        return False
    except ValueError as error:
        say("error", f"{where} {literal(code_text)} is not a join code. {error}")
        return False
    try:
        pulse = store.join(engine(), code, token=token, nickname=nickname_text, address=address())
    except store.NoSuchRoom:  # none has it, or it expired
        say(
            "error",
            f"{where} {code} opens no room (rooms last 12 hours): check it on the projector.",
        )
        return False
    except store.RoomLocked as error:  # a member's reload is let in: this one is new
        say("warning", str(error))
        if from_link:  # the form keeps the code, to try again once the room is open
            st.session_state[STATE.join_code] = code
        return False
    except store.RoomError as error:
        say("warning", str(error))
        return False
    except SQLAlchemyError:
        say("warning", NO_DATABASE)
        return False
    enter_room(code, pulse.nickname)
    browser.focus_on(STATE.question_box)  # the Join button is gone: on to the question
    return True


def join_pressed(token: str) -> None:
    state = st.session_state
    typed = state.get(STATE.join_code, "")
    if not typed.strip():
        say("warning", "Type the room's code first: 6 letters or digits, as on the projector.")
        return
    join(typed, state.get(STATE.join_nickname, ""), token=token, from_link=False)


def save(round_number: int, raw, *, token: str, tell=say) -> bool:
    """The answer `raw` (as parse_answer reads it) for `round_number`; False, said by
    `tell(kind, text)` (above the page; a typed answer's under its box), when the
    store refuses it. A room gone is said above the page: the page leaves it."""
    code = st.session_state.get(STATE.code)
    if code is None:
        return False
    try:
        store.answer(
            engine(), code, token=token, round_number=round_number, raw=raw, address=address()
        )
    except store.RoundClosed:
        tell("warning", CLOSED)
        return False
    except store.NoSuchRoom as error:
        say("error", str(error))
        leave_room()
        return False
    except store.RoomError as error:  # too fast, or an answer the store cannot take
        tell("warning", str(error))
        return False
    except SQLAlchemyError:
        tell("warning", NO_DATABASE)
        return False
    return True


def tapped(round_number: int, clicks: int, token: str) -> None:
    """A tap on x (the chart of `round_number` drawn after `clicks` taps), as the
    chart's callback: taken as take_tap says, and the chart gets a new key even when
    the tap selected nothing (a second tap on a selected cell deselects it). A chart of
    another round than the one drawn last is a replay of a round that is over."""
    drawn = st.session_state.get(STATE.pick_drawn)
    if drawn is not None and drawn[0] != round_number:
        return
    with st.session_state[STATE.tap_lock]:
        if not take_tap(round_number, clicks, token):
            fresh_chart(clicks)


def take_tap(round_number: int, clicks: int, token: str) -> bool:
    """The cell selected on that chart goes in or out of this browser's answer as the
    store holds it now, saved at once, then the chart gets a new key; False when it
    has no cell selected. Not the answer the page last drew: a second tap can come
    before the page is drawn again, and another tab of the same browser (the same
    token) may have saved since. Called under the session's tap lock.

    Any step may be a callback's last: Streamlit checks for a new request at each
    session-state access, and one that arrives mid-callback (another tap, a press, the
    push's redraw) stops it there, while a new run starts on another thread. So every
    step can be taken again, from there: the tap is noted first (PendingTap, one
    write), then the answer it makes is computed once and noted, saved (the same
    answer again is harmless), the tap marked done, and only then does the chart get
    its new key. The next full run finishes what a callback left (finish_taps), once
    the stopped callback has let go of the lock (it holds it while the store writes,
    which no stop interrupts: a late write of its answer must not land after the next
    tap's)."""
    finish_pending(token)  # a tap left by a callback stopped short comes first
    chart_key = STATE.pick_chart(round_number, clicks)
    cell = clicked_cell(chart_key)
    if cell is None:
        return False
    if not taken(chart_key, cell):
        code = st.session_state.get(STATE.code)
        st.session_state[STATE.pending_tap] = PendingTap(code, round_number, clicks, cell)
        finish_pending(token)
    fresh_chart(clicks)
    return True


def finish_pending(token: str) -> None:
    """The tap noted and not yet marked done: its answer computed (once), saved, the
    tap marked done; its chart gets a new key (its selection may be gone from the
    session by now, not from the page). A tap in a room since left is dropped."""
    pending = st.session_state.get(STATE.pending_tap)
    if pending is None:
        return
    chart_key = STATE.pick_chart(pending.round_number, pending.clicks)
    in_room = pending.code == st.session_state.get(STATE.code)
    if in_room and not taken(chart_key, pending.cell):
        if pending.picks is None:  # nothing of it saved yet: the store's answer now
            now = answer_now(pending.round_number, token)
            pending = replace(pending, picks=frozenset(now or ()) ^ {pending.cell})
            st.session_state[STATE.pending_tap] = pending
        picks = pending.picks
        if save(pending.round_number, [list(pick) for pick in sorted(picks)], token=token):
            note_saved(pending.round_number, picks)
            note_sent(pending.round_number)  # a refused tap is a notice, said as one
        mark_done(chart_key, pending.cell)
    fresh_chart(pending.clicks)
    st.session_state.pop(STATE.pending_tap, None)


def mark_done(chart_key: str, cell) -> None:
    """This tap (a chart's key and its cell) is taken: a run that replays its selection
    once its chart has left the page (Streamlit then calls the callback again; a test
    run saw (0, 3) taken back, then put back) takes nothing. Only this round's taps
    are kept."""
    done = st.session_state.get(STATE.taps_done, frozenset())
    round_prefix = chart_key.rsplit("_", 1)[0] + "_"
    kept = {tap for tap in done if tap[0].startswith(round_prefix)}
    st.session_state[STATE.taps_done] = frozenset({*kept, (chart_key, cell)})


def fresh_chart(clicks: int) -> None:
    """x is drawn next under a new key (the same one however often this is asked)."""
    st.session_state[STATE.clicks] = max(st.session_state[STATE.clicks], clicks + 1)


def finish_taps(token: str) -> None:
    """From a full run, before the room is read: a tap that a callback stopped short
    left noted, or did not take at all from the x last drawn, is finished here (under
    the lock, so after the stopped callback's store write, if it was in one)."""
    drawn = st.session_state.get(STATE.pick_drawn)
    if STATE.pending_tap not in st.session_state and not untaken(drawn):
        return
    with st.session_state[STATE.tap_lock]:
        if drawn is None:
            finish_pending(token)
        else:
            take_tap(*drawn, token)  # which finishes a noted tap first


def untaken(drawn: tuple[int, int] | None) -> bool:
    """Whether the x drawn as `drawn` (round, clicks) has a cell selected that no
    callback took."""
    if drawn is None:
        return False
    chart_key = STATE.pick_chart(*drawn)
    cell = clicked_cell(chart_key)
    return cell is not None and not taken(chart_key, cell)


def taken(chart_key: str, cell) -> bool:
    """Whether this tap (a chart's key and its cell) is marked done (mark_done)."""
    return (chart_key, cell) in st.session_state.get(STATE.taps_done, frozenset())


def answer_now(round_number: int, token: str):
    """This browser's answer in the round as the store holds it; when the store does
    not answer, the one this page last read or saved (the save that follows says
    what is wrong)."""
    code = st.session_state.get(STATE.code)
    if code is None:
        return saved_answer(round_number)
    try:
        return store.my_answer(engine(), code, token=token, round_number=round_number)
    except (store.RoomError, SQLAlchemyError):
        return saved_answer(round_number)


def read_box(key: str, parse, *, label: str, tell):
    """parse(the box's text), or None after a sentence (by `tell`) that echoes it."""
    text = st.session_state.get(key, "")
    if not text.strip():
        tell("warning", f"{label} is empty: type a number there, then send it.")
        return None
    try:
        return parse(text)
    except ValueError as error:
        tell("warning", f"{label} {literal(text)} {error}.")
        return None


def box_teller(round_number: int):
    """tell(kind, text) for a typed answer: said under its box, for this round, in
    place of what the last sending was told; the next run says either."""
    clear_refusal()
    note_sent(round_number)
    return lambda kind, text: refuse(round_number, kind, text)


def send_typed(round_number: int, token: str, value, *, tell) -> None:
    """A typed answer read from its boxes (None: refused there, said by `tell`) to the
    store."""
    if value is not None:
        save(round_number, value, token=token, tell=tell)


def send_number(round_number: int, token: str) -> None:
    tell = box_teller(round_number)
    value = read_box(STATE.number, parse_number, label="Your answer", tell=tell)
    send_typed(round_number, token, value, tell=tell)


def parse_side(text: str) -> int:
    """One side of an output size: a whole number 1..LARGEST_OUTPUT_SIDE; ValueError
    with the size's own reason (the number box's examples, 2.5 or 7/3, are no side)."""
    try:
        side = parse_whole(text)
    except ValueError:
        side = None
    if side is None or side > LARGEST_OUTPUT_SIDE:
        raise ValueError(f"is not a whole number from 1 to {LARGEST_OUTPUT_SIDE}")
    return side


def send_size(round_number: int, token: str) -> None:
    tell = box_teller(round_number)
    rows = read_box(STATE.rows, parse_side, label="Output height", tell=tell)
    cols = read_box(STATE.cols, parse_side, label="Output width", tell=tell)
    both = None if rows is None or cols is None else [rows, cols]
    send_typed(round_number, token, both, tell=tell)


def leave() -> None:
    leave_room()
