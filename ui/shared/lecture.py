"""Lecture mode: for a projector. The sidebar starts folded away, the page intros go,
and every figure is drawn bigger (ui.figures.look). A switch in the menu, and the link
parameter lecture=1, so that a lecturer's link opens in lecture mode on every page."""

from __future__ import annotations

import streamlit as st

from teaching.links import flag
from ui.figures.look import Look
from ui.figures.style import LECTURE_BOTTOM_PX, LECTURE_TEXT_PX, LECTURE_TITLE_PX, LECTURE_TOP_PX
from ui.shared.state import literal
from ui.shared.styles import css

LECTURE = "lecture"  # session key and link parameter, shared by every page
# The switch has a key of its own: a widget's state does not outlive its page, LECTURE does.
SWITCH = "lecture_switch"
BAD_LINK = "lecture_bad_link"

# Lecture mode's text at LECTURE_TEXT_PX, less room above the title and below the page
# (lecture.css); the header's band see-through, only its buttons taking clicks
# (header.css: the room screen's first line sits in that band in either mode).
HEADER_SEE_THROUGH_CSS = css(__package__, "header.css")
LECTURE_CSS = (
    css(
        __package__,
        "lecture.css",
        text_px=LECTURE_TEXT_PX,
        top_px=LECTURE_TOP_PX,
        bottom_px=LECTURE_BOTTOM_PX,
        title_px=LECTURE_TITLE_PX,
    )
    + HEADER_SEE_THROUGH_CSS
)


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
    return Look(dark=dark_theme(), lecture=lecture_on())


def dark_theme() -> bool:
    """Whether this run draws for the dark theme: the viewer's, as Streamlit reports
    it for the run (browser.js asks for a run when it changes with none)."""
    return st.context.theme.type == "dark"


def folded_in_lecture(label: str):
    """Where a page's inputs go: folded into an expander in lecture mode (the screen
    is for one idea), else straight on the page."""
    if lecture_on():
        return st.expander(label, icon=":material/tune:", expanded=False)
    return st.container()
