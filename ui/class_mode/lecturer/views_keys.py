"""The room's recovery code, for the lecturer's own screen (formatting and placing
only): `view=keys` in the link, reached by a button beside the join panel. The
projector's room screen never draws the code. Here it is drawn only when asked (a
button each time the view is opened), under a sentence that it must not be projected,
and never in lecture mode (a screen in lecture mode may be the projector's: the view
offers to turn it off first). A new recovery code can be made here: it keeps this
browser's key and revokes every other (rooms/store.replace_recovery_code)."""

from __future__ import annotations

import streamlit as st

from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.state import STATE
from ui.shared import browser
from ui.shared.lecture import lecture_on

NOT_PROJECTED = (
    "Show this on your own screen only, never on the projector: whoever types the "
    "recovery code can run the room from any browser."
)
IN_LECTURE = (
    "Lecture mode is on, so this screen may be the projector's: the recovery code is "
    "not shown here. On your own screen, turn lecture mode off to see it."
)
NEW_CODE = (
    "A new recovery code replaces the old one, and every other browser's key for this "
    "room stops opening it: only this browser keeps running the room."
)


def keys_view(code: str) -> None:
    """The recovery code's view of room `code` (this browser holds its key)."""
    st.subheader(f"Room {code}: its recovery code", anchor=False)
    if lecture_on():
        browser.announce(IN_LECTURE, if_silent=True)
        st.info(IN_LECTURE, icon=":material/slideshow:")
        row = st.container(horizontal=True, gap="small")
        row.button(
            "Turn lecture mode off",
            key=STATE.keys_lecture_button,
            on_click=actions.lecture_off,
        )
        back_button(row, code)
        return
    st.warning(NOT_PROJECTED, icon=":material/visibility_off:")
    code_part(code)
    st.markdown(NEW_CODE)
    row = st.container(horizontal=True, gap="small")
    row.button(
        "Make a new recovery code",
        key=STATE.new_code_button,
        icon=":material/key:",
        on_click=actions.new_recovery_code,
        args=(code,),
    )
    back_button(row, code)


def code_part(code: str) -> None:
    """The code this session holds for the room: behind a button, or drawn once asked;
    or why this browser has none."""
    held = st.session_state[STATE.recovery_codes].get(code)
    if held is None:
        st.markdown(
            "This browser does not hold the room's current recovery code: a code is "
            "kept only in the page that made it, until that page is closed."
        )
        return
    if st.session_state.get(STATE.code_shown) != code:
        st.button(
            "Show the recovery code",
            key=STATE.show_code_button,
            icon=":material/visibility:",
            on_click=actions.show_code,
            args=(code,),
        )
        return
    # Three groups of the codes' alphabet (codes.grouped): no markup can hide in it.
    st.markdown(f"Recovery code: **{held}**")
    st.caption(
        "It opens this room in another browser. Once this page is closed, no page "
        "shows it again: note it now."
    )
    st.button(
        "Hide the recovery code",
        key=STATE.hide_code_button,
        icon=":material/visibility_off:",
        on_click=actions.show_code,
        args=(None,),
    )


def back_button(place, code: str) -> None:
    place.button(
        "Back to the room",
        key=STATE.keys_back_button,
        icon=":material/arrow_back:",
        on_click=actions.show_keys,
        args=(code, False),
    )
