"""The room screen's join panel (formatting and placing only): the join code, large
(the screen's heading in lecture mode), the QR code of the students' link at least
300 px tall on a projector, the link, and in the session that opened the room its
recovery code, folded."""

from __future__ import annotations

import streamlit as st

from ...figures.style import (
    QR_DARK,
    QR_DESK_PX,
    QR_LECTURE_PX,
    QR_LIGHT,
    QR_MODULE_BORDER,
    ROOM_CODE_DESK_PX,
    ROOM_CODE_LECTURE_PX,
)
from ...shared.lecture import lecture_on
from ...shared.state import literal
from .live import students_link
from .qr import qr_image
from .state import STATE

# On the projector the join code is the room screen's heading: the page's own title
# gives it its room (a 720-px screen has none to spare).
TITLE_OFF = '[data-testid="stMain"] h1 { display: none; }'


@st.cache_resource(max_entries=64, show_spinner=False)
def _qr(link: str, least_px: int):
    return qr_image(link, least_px=least_px, dark=QR_DARK, light=QR_LIGHT, border=QR_MODULE_BORDER)


def join_panel(code: str) -> None:
    """The code, large; the QR code of the join link; the link."""
    lecture = lecture_on()
    code_px = ROOM_CODE_LECTURE_PX if lecture else ROOM_CODE_DESK_PX
    with st.container(key=STATE.code_box):
        st.html(
            f'<style>[data-testid="stMain"] .st-key-{STATE.code_box} '
            f'[data-testid="stMarkdownContainer"] p {{ font-size: {code_px}px; '
            "font-family: monospace; letter-spacing: 0.12em; line-height: 1.15; "
            f"margin: 0; font-weight: 700; }} {TITLE_OFF if lecture else ''}</style>"
        )
        st.markdown(code)  # six characters of codes.ALPHABET: no markup can hide in it
    link = students_link(code)
    image = _qr(link, QR_LECTURE_PX if lecture else QR_DESK_PX)
    st.image(image.svg, width=image.side)
    st.caption(f"Join at {literal(link)}")


def recovery_code(code: str) -> None:
    """Folded, in the session that opened the room only: its recovery code."""
    recovery = st.session_state[STATE.recovery_codes].get(code)
    if recovery is not None:
        with st.expander("Recovery code", icon=":material/key:"):
            st.markdown(
                f"**{recovery}** opens this room in another browser. No page shows it again: "
                "note it now."
            )
