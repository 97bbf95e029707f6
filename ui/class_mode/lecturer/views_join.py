"""The room screen's join panel (formatting and placing only): the join code, large
(the screen's heading), the QR code of the students' link at least 300 px tall with
whole-pixel modules, the link on one line at lecture mode's text size, and in the
session that opened the room its recovery code, folded. Projector-ready in either
mode: a lecturer who never found the Lecture-mode switch still shows a room that
phones can read from the back of a hall."""

from __future__ import annotations

import html
import math

import streamlit as st

from teaching.class_mode.lecturer import typed_link

from ...figures.labels import label_px
from ...figures.style import (
    JOIN_LINK_COLOUR_CSS,
    QR_DARK,
    QR_LEAST_PX,
    QR_LIGHT,
    QR_MODULE_BORDER,
    ROOM_CODE_DESK_PX,
    ROOM_CODE_LECTURE_PX,
    ROOM_JOIN_PX,
    ROOM_LINK_PX,
    ROOM_LINK_SLACK_PX,
    VISUALLY_HIDDEN_CSS,
)
from ...shared.lecture import lecture_button, lecture_on
from .live import students_link
from .qr import QrImage, qr_image
from .state import STATE


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
        st.html(
            f'<style>[data-testid="stMain"] .st-key-{STATE.code_box} '
            f'[data-testid="stMarkdownContainer"] p {{ font-size: {code_px}px; '
            # A whole number of px tall: the QR code under it starts on a whole pixel,
            # each module's edge sharp on the projector.
            "font-family: monospace; letter-spacing: 0.12em; "
            f"line-height: {round(code_px * 1.15)}px; margin: 0; font-weight: 700; }}"
            f".st-key-{STATE.code_box} .lab-unseen {{ {VISUALLY_HIDDEN_CSS} }}</style>"
        )
        # Read "Room code K7QX3M", not a bare run of letters (opening a room puts the
        # focus here). Six characters of codes.ALPHABET: no markup can hide in it.
        st.markdown(f'<span class="lab-unseen">Room code </span>{code}', unsafe_allow_html=True)
    link = students_link(code)
    image = _qr(link)
    st.image(image.svg, width=image.side, alt=f"QR code of the link to join room {code}")
    link_line(link)


def link_line(link: str) -> None:
    """The link, one line, at ROOM_LINK_PX, without its scheme; a link to itself. Its
    host comes from the browser's address or the settings: escaped, never markup."""
    with st.container(key=STATE.link_box):
        st.html(
            f"<style>.st-key-{STATE.link_box} p {{ font-size: {ROOM_LINK_PX}px; "
            "line-height: 1.4; white-space: nowrap; margin: 0; font-weight: 600; } "
            f".st-key-{STATE.link_box} a {{ {JOIN_LINK_COLOUR_CSS} }}</style>"
            f'<p><a href="{html.escape(link, quote=True)}" target="_blank">'
            f"{html.escape(typed_link(link))}</a></p>"
        )


def recovery_code(code: str) -> None:
    """Folded, in the session that opened the room only: its recovery code; outside
    lecture mode, the switch to it."""
    recovery = st.session_state[STATE.recovery_codes].get(code)
    if recovery is not None:
        with st.expander("Recovery code", icon=":material/key:"):
            st.markdown(
                f"**{recovery}** opens this room in another browser. Once this page is "
                "closed, no page shows it again: note it now."
            )
    lecture_button(key=STATE.lecture_button)
