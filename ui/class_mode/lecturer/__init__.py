"""The lecturer's page of class mode ("Class", /class): open a room for a question (a
seeded exercise, or the Playground's layer a link brought), then run it on the
projector: the join code, the QR code and the link; the class's answers live; reveal,
vote again, a new question, end. What it computes: teaching/class_mode/lecturer.py (the
keys kept, the join link, the question in words) and projector.py (a round's whole
screen, in one call: its sentences from answers.py, the charts' contents). Here: qr:
the QR code (segno); state: its keys, the link, the keys this browser keeps; actions:
the buttons; live: the room read for a run; views (the chooser, the opening and
recovery screens), views_join (the join panel and who is in), views_room (the room
on the projector), views_keys (the recovery code, on the lecturer's own screen) and
views_results (the room's results, question by question; worked out in
results, pure)."""

from __future__ import annotations

import time

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from ui.class_mode.database import BadSetting, engine
from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.live import pulse
from ui.class_mode.lecturer.state import (
    ROOM_FIELD,
    STATE,
    init_state,
    key_for,
    keys_arrived,
    linked_code,
    remember_rooms,
    showing_keys,
    showing_results,
)
from ui.class_mode.lecturer.views import (
    ended_view,
    gone_view,
    opening_view,
    recovery_view,
    said_view,
    unreachable_view,
    waiting_for_keys_view,
)
from ui.class_mode.lecturer.views_keys import keys_view
from ui.class_mode.lecturer.views_results import results_view
from ui.class_mode.lecturer.views_room import GONE, UNREACHABLE, room_view, watch
from ui.shared import browser
from ui.shared.chrome import page_heading
from ui.shared.state import literal, show_notices


def render(title: str, intro: str) -> None:
    """The page under its title and intro, or, for a room this browser runs, the room
    screen with none (its heading is the join code: 720 px have no room for both)."""
    init_state()
    code, reason = code_from_link()
    if code is None or key_for(code) is None:
        page_heading(title, intro)
    show_notices(STATE.page)
    said_view()
    if reason is not None:
        given = st.query_params.get(ROOM_FIELD, "")
        said = f"Link value **room** = {literal(given)}: {reason}"
        browser.announce(said)
        st.warning(said, icon=":material/link_off:")
    if code is None:
        opening_view()
    else:
        room_screen(code)
    remember_rooms()
    browser.mount()


def room_in_link() -> bool:
    """Whether the link names a room: its screen is for the projector, the menu folded
    (1120 of a 1280-px projector's width hold the answers; 820 do not)."""
    return ROOM_FIELD in st.query_params


def code_from_link() -> tuple[str | None, ValueError | None]:
    """The room the link names (None: none), and why the link's value is no code."""
    try:
        return linked_code(), None
    except ValueError as reason:
        return None, reason


def room_screen(code: str) -> None:
    """The room for a browser holding its key; the recovery form otherwise."""
    secret = key_for(code)
    if secret is None:
        if keys_arrived():
            recovery_view(code)
        else:
            waiting_for_keys_view(code)
        return
    try:
        if not trusted(code, secret):
            actions.forget(code)
            recovery_view(code, stale=True)
            return
        if showing_results():
            results_view(code)
            return
        if showing_keys():  # the lecturer's own screen: never the room's
            keys_view(code)
            return
        current = pulse(code)
        if current.ended:
            ended_view(code, results=current.expires_at > time.time())
            return
        room_view(code, current)
    except store.NoSuchRoom:
        gone_view(code, "no room has this code now")
        watch(code, GONE)  # a room back (a database restored) is drawn again
    except SQLAlchemyError:
        unreachable_view(code)
        watch(code, UNREACHABLE)  # drawn again as soon as the room can be read
    except BadSetting as error:  # its sentence; the keys stay in this browser
        browser.announce(str(error))
        st.error(str(error), icon=":material/settings:")
        watch(code, UNREACHABLE)  # drawn again once the setting is fixed
    except store.RoomError as error:  # the store's own sentence
        browser.announce(str(error))
        st.error(str(error), icon=":material/error:")


def trusted(code: str, secret: str) -> bool:
    """Whether the store takes this browser's key for the room (asked once a session)."""
    known = st.session_state[STATE.trusted]
    if code not in known and store.authorize(engine(), code, secret):
        known.add(code)
    return code in known
