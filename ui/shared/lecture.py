"""Lecture mode: for a projector. The sidebar starts folded away, the page intros go,
and every figure is drawn bigger (ui.figures.look). A switch in the menu, and the link
parameter lecture=1, so that a lecturer's link opens in lecture mode on every page."""

from __future__ import annotations

import streamlit as st

from teaching.links import flag
from ui.figures.look import Look
from ui.figures.style import LECTURE_BOTTOM_PX, LECTURE_TEXT_PX, LECTURE_TITLE_PX, LECTURE_TOP_PX
from ui.shared.state import literal

LECTURE = "lecture"  # session key and link parameter, shared by every page
# The switch has a key of its own: a widget's state does not outlive its page, LECTURE does.
SWITCH = "lecture_switch"
BAD_LINK = "lecture_bad_link"

# Lecture mode's text: every sentence a student reads from the back of the hall at
# LECTURE_TEXT_PX (Streamlit's 14-16 px is for a screen at arm's length), and less room
# above the title, which a 720-px projector cannot spare: the title moves up into the
# header's row, whose opaque band would hide it, so the header is see-through there and
# only its buttons (the menu's, the toolbar's) take clicks. Below the page, Streamlit's
# 160 px of empty room (a fifth of the projector) goes too: a screen ends at its content.
_MAIN = '[data-testid="stMain"]'
_TEXT = ", ".join(
    f"{_MAIN} {selector}"
    for selector in (
        '[data-testid="stMarkdownContainer"] p',
        '[data-testid="stMarkdownContainer"] li',
        '[data-testid="stCaptionContainer"]',
        '[data-testid="stCaptionContainer"] p',
        '[data-testid="stWidgetLabel"] p',
        '[data-testid="stRadio"] label p',
        '[data-testid="stButton"] p',
        '[data-testid="stButton"] kbd',  # a button's shortcut key
        '[data-testid="stPageLink"] p',
        '[data-testid="stAlertContainer"] p',
        '[data-testid="stExpander"] summary p',
        '[data-testid="stTab"] p',
        '[data-testid="stIconMaterial"]',
        '[data-testid="stExpanderIcon"]',
        '[data-testid="stProgress"] p',
        '[data-testid="stTextInput"] input',
        '[data-testid="stNumberInput"] input',
    )
)
# The header's band, see-through, and only its buttons and links take clicks: the
# toolbar inside it spans the page's whole width and takes clicks of its own, so
# content drawn under the band (a room's controls at the top right) needs both.
HEADER_SEE_THROUGH_CSS = """
[data-testid="stHeader"] { background: transparent; pointer-events: none; }
[data-testid="stHeader"] [data-testid="stToolbar"] { pointer-events: none; }
[data-testid="stHeader"] button, [data-testid="stHeader"] a { pointer-events: auto; }
"""
LECTURE_CSS = f"""
:root {{ --lab-lecture-text: {LECTURE_TEXT_PX}px; }}
{_TEXT} {{ font-size: {LECTURE_TEXT_PX}px; line-height: 1.4; }}
{_MAIN} [data-testid="stMainBlockContainer"] {{
  padding-top: {LECTURE_TOP_PX}px; padding-bottom: {LECTURE_BOTTOM_PX}px;
}}
{_MAIN} h1 {{ font-size: {LECTURE_TITLE_PX}px; padding: 0; }}
{HEADER_SEE_THROUGH_CSS}"""


def start_lecture() -> bool:
    """Read lecture mode from the link on the session's first run; whether it is on."""
    state = st.session_state
    if LECTURE not in state:
        given = st.query_params.get(LECTURE)
        try:
            state[LECTURE] = False if given is None else flag(given)
        except ValueError:
            state[LECTURE] = False
            state[BAD_LINK] = given
    return bool(state[LECTURE])


def lecture_on() -> bool:
    return bool(st.session_state.get(LECTURE, False))


def show_bad_link() -> None:
    given = st.session_state.pop(BAD_LINK, None)
    if given is not None:
        st.warning(
            f"Link value **lecture** = {literal(given)} must be 0 or 1; lecture mode stays off.",
            icon=":material/link_off:",
        )


def _switched() -> None:
    state = st.session_state
    state[LECTURE] = state[SWITCH]
    st.query_params[LECTURE] = "1" if state[LECTURE] else "0"


def _switched_on() -> None:
    switch_lecture(True)


def switch_lecture(on: bool) -> None:
    """Lecture mode on or off, in the session and the link (a widget's callback)."""
    st.session_state[LECTURE] = on
    st.query_params[LECTURE] = "1" if on else "0"


def lecture_button(*, key: str) -> None:
    """Outside lecture mode, a button that turns it on: a screen made for a projector
    offers it where the lecturer looks, not only in the menu."""
    if not lecture_on():
        st.button(
            "Lecture mode",
            key=key,
            icon=":material/slideshow:",
            on_click=_switched_on,
            help="For a projector: every sentence at 20 px, the menu folded away.",
        )


def lecture_switch() -> None:
    st.session_state[SWITCH] = lecture_on()
    st.toggle(
        "Lecture mode",
        key=SWITCH,
        on_change=_switched,
        help="For a projector: bigger numbers, no intros, this menu folded away. "
        "The link keeps it.",
    )


def with_lecture(params: dict[str, str]) -> dict[str, str]:
    """A page's link parameters, with lecture mode's when it is on."""
    return {**params, LECTURE: "1"} if lecture_on() else params


def current_look() -> Look:
    """How this viewer's figures are drawn: their theme, and lecture mode."""
    return Look(dark=st.context.theme.type == "dark", lecture=lecture_on())


def folded_in_lecture(label: str):
    """Where a page's inputs go: folded into an expander in lecture mode (the screen
    is for one idea), else straight on the page."""
    if lecture_on():
        return st.expander(label, icon=":material/tune:", expanded=False)
    return st.container()
