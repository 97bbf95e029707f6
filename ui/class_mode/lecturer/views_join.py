"""The room screen's join panel (formatting and placing only): the join code, large
(the screen's heading), the QR code of the students' link at least 300 px tall with
whole-pixel modules, the link on one line at lecture mode's text size; under it the
door: how many phones joined (every 2 s), whether new ones can, Lock or Unlock, and
starting again under a new code; then the way to the recovery code's view (never the
code: views_keys). Projector-ready in either mode: a lecturer who never found the
Lecture-mode switch still shows a room that phones can read from the back of a
hall."""

from __future__ import annotations

import html
import math

# st.image imports Pillow on its first call, inside the session's thread: two sessions
# drawing their first room at once raced on a half-imported PIL.Image (bench_room's
# replica-kill runs saw it). Imported here, with the page, deploy's warm-up loads it.
import PIL.Image  # noqa: F401
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from teaching.class_mode.lecturer import door_words, joined_words, typed_link
from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.live import door, students_link
from ui.class_mode.lecturer.qr import QrImage, qr_image
from ui.class_mode.lecturer.state import STATE
from ui.figures.labels import label_px
from ui.figures.style import (
    QR_DARK,
    QR_LEAST_PX,
    QR_LIGHT,
    QR_MODULE_BORDER,
    ROOM_CODE_DESK_PX,
    ROOM_CODE_LECTURE_PX,
    ROOM_JOIN_PX,
    ROOM_LINK_PX,
    ROOM_LINK_SLACK_PX,
)
from ui.shared import browser
from ui.shared.lecture import lecture_button, lecture_on
from ui.shared.styles import UNSEEN, css, style_element


@st.cache_resource(max_entries=64, show_spinner=False)
def _qr(link: str) -> QrImage:
    return qr_image(
        link, least_px=QR_LEAST_PX, dark=QR_DARK, light=QR_LIGHT, border=QR_MODULE_BORDER
    )


def join_panel_px(code: str) -> int:
    """The join panel's width (CSS px): the QR code at its own size (a narrower column
    would scale it, and its modules would no longer be whole pixels) and the link on
    one line (label_px measures Arial, wider than the page's font: an estimate that
    errs on the safe side)."""
    link = students_link(code)
    text_px = label_px(typed_link(link), ROOM_LINK_PX) + ROOM_LINK_SLACK_PX
    return max(ROOM_JOIN_PX, _qr(link).side, math.ceil(text_px))


def join_panel(code: str) -> None:
    """The code, large; the QR code of the join link; the link."""
    code_px = ROOM_CODE_LECTURE_PX if lecture_on() else ROOM_CODE_DESK_PX
    with st.container(key=STATE.code_box):
        sized = css(
            __package__,
            "join_code.css",
            box=STATE.code_box,
            code_px=code_px,
            line_px=round(code_px * 1.15),
        )
        st.html(style_element(sized))
        # Read "Room code K7QX3M", not a bare run of letters (opening a room puts the
        # focus here). Six characters of codes.ALPHABET: no markup can hide in it.
        st.markdown(f'<span class="{UNSEEN}">Room code </span>{code}', unsafe_allow_html=True)
    link = students_link(code)
    image = _qr(link)
    st.image(image.svg, width=image.side, alt=f"QR code of the link to join room {code}")
    link_line(link)


def link_line(link: str) -> None:
    """The link, one line, at ROOM_LINK_PX, without its scheme; a link to itself. Its
    host comes from the browser's address or the settings: escaped, never markup."""
    with st.container(key=STATE.link_box):
        st.html(
            style_element(
                css(__package__, "join_link.css", box=STATE.link_box, link_px=ROOM_LINK_PX)
            )
            + f'<p><a href="{html.escape(link, quote=True)}" target="_blank">'
            f"{html.escape(typed_link(link))}</a></p>"
        )


DOOR_NEWS = "room_door"  # browser.announce_change's topic: the lock, as drawn
RESTART = (
    "A new code and QR code ask this question again, and this room ends: whoever "
    "joined it from outside the hall is left behind. Lock the new room once the hall "
    "is in."
)


def door_panel(code: str, locked: bool) -> None:
    """How many joined (live) and whether new phones can; Lock or Unlock; the room
    started again under a new code (behind a popover: it ends this room). A change of
    the lock is said (the room's news gives way to it)."""
    browser.announce_change(DOOR_NEWS, door_words(locked))
    joined(code, locked)
    row = st.container(horizontal=True, gap="small")
    if locked:
        row.button(
            "Unlock",
            key=STATE.unlock_button,
            icon=":material/lock_open:",
            on_click=actions.lock,
            args=(code, False),
        )
    else:
        row.button(
            "Lock the room",
            key=STATE.lock_button,
            icon=":material/lock:",
            on_click=actions.lock,
            args=(code, True),
        )
    with row.popover("New code", icon=":material/restart_alt:"):
        st.markdown(RESTART)
        st.button(
            "Start again with a new code",
            key=STATE.restart_button,
            type="primary",
            on_click=actions.restart,
            args=(code,),
        )


# Ticking every second, this fragment raised the servers' idle CPU by about 0.025 cores
# (benchmarks/bench_room.py, 40 students, on a loaded machine); the store's read is
# 0.4 ms with 500 members: the rest is the fragment's run. A count two seconds old
# serves a lecturer watching the hall join, at half that cost.
DOOR_EVERY_S = 2


@st.fragment(run_every=DOOR_EVERY_S)
def joined(code: str, locked: bool) -> None:
    """Every DOOR_EVERY_S: how many phones joined, and the lock; the whole page again
    when the lock changed (another of the lecturer's browsers turned it). Nothing when
    the room cannot be read: the room's own watch says so."""
    try:
        now = door(code)
    except (store.RoomError, SQLAlchemyError):
        return
    if now.locked != locked:
        st.rerun(scope="app")
    with st.container(key=STATE.door_box):
        st.markdown(f"**{joined_words(now.members)}** {door_words(now.locked)}")


def keys_button(code: str) -> None:
    """To the recovery code's view (for the lecturer's own screen); beside it, outside
    lecture mode, the switch to it."""
    row = st.container(horizontal=True, gap="small")
    row.button(
        "Recovery code",
        key=STATE.keys_button,
        icon=":material/key:",
        on_click=actions.show_keys,
        args=(code, True),
        help="On your own screen, not the projector's: the code that opens this room elsewhere.",
    )
    with row:
        lecture_button(key=STATE.lecture_button)
