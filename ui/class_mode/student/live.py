"""The room as the page draws it, and the watch for a change.

A full run reads the room fresh (its pulse, the round on screen, this browser's answers)
and hands the pulse to the process's cache. A change reaches the page two ways: the
process follows its pages' rooms and asks each page drawn from an old pulse to run
again (push.py: within PUSH_S and a run), and, should that ask be lost, a tiny
fragment asks the cache every POLL_S seconds; it draws nothing, so a run of it sends
almost nothing, and it reruns the page only when the round's number, state or vote
changed (or the room ended or went away).
"""

from __future__ import annotations

import time

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from rooms.pulses import PulseCache
from teaching.class_mode.student import must_redraw, pulse_key
from ui.class_mode.database import engine
from ui.class_mode.student import push
from ui.class_mode.student.state import STATE, joined_code, note_saved

POLL_S = 4  # the page's own look, behind the process's push: each tick is a run of
# every idle page (at 4 s, 200 idle students cost 0.11-0.22 of a core in
# benchmarks/bench_room.py); kept at 4 s while the push's worst case under a loaded
# machine is not yet known to beat it (at 10 s, rounds took 9-11 s at load 15-25)
PULSES = PulseCache()  # one per process: its students cost one read a second per room


def read_room(code: str, *, token: str) -> store.PhoneView:
    """The room now, in one read (store errors go to the caller); its pulse goes to
    the process's cache."""
    read_at = time.monotonic()
    now = store.phone_view(engine(), code, token=token)
    PULSES.put(code, now.pulse, read_at=read_at)
    st.session_state[STATE.seen] = pulse_key(now.pulse)
    if now.round is not None:
        note_saved(now.round.number, now.mine)  # a tap starts from what is drawn
    return now


def fresh_pulse(code: str):
    """The room's pulse read now, kept for the page's timers too (the push's read)."""
    read_at = time.monotonic()
    pulse = store.pulse(engine(), code)
    PULSES.put(code, pulse, read_at=read_at)
    return pulse


def follow_room() -> None:
    """After a full run: the process follows the room this page shows, drawn from the
    pulse it read (none when it shows no room)."""
    push.follow(joined_code(), st.session_state.get(STATE.seen), read=fresh_pulse)


def cached_pulse(code: str):
    """The room's pulse, at most about a second old; None when the room is gone."""
    try:
        return PULSES.get(code, lambda: store.pulse(engine(), code))
    except store.NoSuchRoom:
        return None


@st.fragment(run_every=POLL_S)
def watch(code: str) -> None:
    """Draws nothing: reruns the page when the room's pulse is not the one drawn. A
    database that does not answer is asked again next time."""
    try:
        pulse = cached_pulse(code)
    except (store.RoomError, SQLAlchemyError):
        return
    if must_redraw(st.session_state.get(STATE.seen), pulse):
        st.rerun()


def start_watch(code: str) -> None:
    """The fragment, in a box of its own that takes no room on the page."""
    with st.container(key=STATE.poll):
        watch(code)
