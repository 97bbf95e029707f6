"""The students' page of class mode: join a room by its link (`/join?code=K7QX3M`, the
QR code's) or its code, see the lecturer's question, answer it (a tap on a cell, a
number, a size) and change the answer until the round closes, then see the answer
revealed over one's own. What it computes: teaching/class_mode/student.py; the
process's cache of a room's pulse: rooms/pulses.py. Here: state (its keys, the token,
the room joined), actions (joining and answering: widget callbacks), live (the room
read for a run, and the polling fragment), views, and push (the process's redraw of
pages whose room moved on; which pages follow which room: rooms/followers.py)."""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from ui.class_mode.database import BadSetting
from ui.class_mode.student import actions
from ui.class_mode.student.live import follow_room, read_room, start_watch
from ui.class_mode.student.state import (
    STATE,
    UNREAD,
    init_state,
    joined_code,
    leave_room,
    say,
    take_link_code,
    token,
)
from ui.class_mode.student.views import (
    HIDDEN_CSS,
    join_form,
    notices_view,
    room_header,
    room_view,
    waiting_for_browser,
)
from ui.shared import browser
from ui.shared.chrome import page_heading


def render(title: str, intro: str) -> None:
    """The join form under the page's title and intro; once joined, the room under one
    line that names it (a phone's screen is the question's)."""
    init_state()
    mine = token()
    if mine is None:
        page_heading(title, intro)
        waiting_for_browser()
    else:
        in_room(mine, heading=lambda: page_heading(title, intro))
        follow_room()
    browser.mount()


def in_room(mine: str, *, heading) -> None:
    """The room joined (the link's, the first time), else `heading()` and the join
    form."""
    link_code = take_link_code()
    if link_code is not None and joined_code() is None:
        if not actions.join(link_code, "", token=mine, from_link=True):
            leave_room()  # the link's code goes from the link too
    code = joined_code()
    if code is not None:
        actions.finish_taps(mine)  # one a callback stopped short: the room is read after
    now = None if code is None else room_now(code, mine)
    if joined_code() is None:  # never joined, or the room went away
        heading()
        notices_view()
        join_form(mine)
        return
    notices_view()
    room_header(code, st.session_state[STATE.nickname])
    if now is not None:
        room_view(now, token=mine)
    if now is None or not now.pulse.ended:
        st.html(HIDDEN_CSS)
        start_watch(code)  # after a failed read too: the next pulse read redraws the page


def room_now(code: str, mine: str):
    """The room read fresh, or None after a sentence saying why not."""
    try:
        return read_room(code, token=mine)
    except store.NoSuchRoom as error:
        say("error", f"Room {code}: {error}")
        leave_room()
    except BadSetting as error:  # its sentence; the room stays joined
        say("error", str(error))
        st.session_state[STATE.seen] = UNREAD
    except (store.RoomError, SQLAlchemyError):
        say("warning", actions.NO_DATABASE)
        st.session_state[STATE.seen] = UNREAD
    return None
