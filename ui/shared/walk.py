"""Lecture mode's walk through a tab: the tab's story told one screen at a time, each
one idea that fits the projector, moved through with Previous and Next (the ← and →
keys; Page Up and Page Down where a player on the screen has the arrows). The screen
shown is in the page's state and its link, so a lecturer's link opens on it. Outside
lecture mode a tab tells its whole story, one stage under the other (a desk scrolls).
Any page's tab can walk: it gives its walk's keys (WalkKeys) and how it writes its
link."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from ui.shared.lecture import lecture_on
from ui.shared.player import back_and_next, nudge
from ui.shared.state import WalkKeys


@dataclass(frozen=True)
class Screen:
    """One stage of a tab's story: its name (said beside the buttons in lecture mode)
    and what draws it."""

    title: str
    draw: Callable[[], None]


def tell(
    tab: str,
    screens: Sequence[Screen],
    *,
    keys: WalkKeys,
    publish: Callable[[], None],
    beside: Callable[[], None] | None = None,
    shortcuts: tuple[str, str] = ("left", "right"),
) -> None:
    """Every stage of the tab `tab`, or in lecture mode the one screen shown under the
    walk's buttons. keys: the page's walk keys; publish(): writes the page's link (it
    names the screen drawn). beside: a control drawn in the buttons' row in lecture
    mode (the kernel picker), else above the story; it must take little room.
    shortcuts: the keys of Previous and Next; a tab whose screens hold a player of
    their own, which has ← and →, walks with Page Up and Page Down (what a presenter's
    clicker sends)."""
    if not lecture_on():
        if beside is not None:
            beside()
        for screen in screens:
            screen.draw()
        return
    number = screen_of_tab(tab, len(screens), keys=keys)
    row = st.container(horizontal=True, gap="small", vertical_alignment="center")
    back_and_next(
        row,
        keys=(keys.back, keys.next),
        labels=("Previous", "Next"),
        on_move=lambda delta: nudge(keys.screen, delta, first=1, last=len(screens)),
        at_first=number == 1,
        at_last=number == len(screens),
        noun="screen",
        shortcuts=shortcuts,
    )
    row.markdown(f"**{number} of {len(screens)}** · {screens[number - 1].title}")
    if beside is not None:
        with row:
            beside()
    screens[number - 1].draw()
    publish()  # the link names the screen drawn (a new tab's first, a number cut down)


def screen_of_tab(tab: str, count: int, *, keys: WalkKeys) -> int:
    """The screen of `tab` to show, 1..count: the state's, or 1 when another tab's walk
    left it there (a link's screen belongs to the link's tab)."""
    state = st.session_state
    if state.get(keys.screen_of, tab) != tab:
        state[keys.screen] = 1
    state[keys.screen_of] = tab
    state[keys.screen] = min(state[keys.screen], count)
    return state[keys.screen]
