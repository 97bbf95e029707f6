"""Back and Next on the server: buttons (with their shortcut keys) that move a number
kept in session state within its bounds (a lesson's step, an exercise, a lecture
walk's screen). Steps and Play through frames run in the browser: ui/shared/frame_player.py."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

# How a button's help names its shortcut key.
KEY_NAMES = {"left": "←", "right": "→", "pageup": "Page Up", "pagedown": "Page Down"}


def nudge(key: str, delta: int, *, first: int, last: int) -> None:
    """Move the number kept under `key` by `delta` (back if negative), within first..last:
    a step, a problem or a window, whichever Back and Next walk through."""
    state = st.session_state
    state[key] = min(max(state[key] + delta, first), last)


def back_and_next(
    container,
    *,
    keys: tuple[str, str],
    labels: tuple[str, str],
    on_move: Callable[[int], None],
    at_first: bool,
    at_last: bool,
    noun: str,
    icons: tuple[str, str] = (":material/arrow_back:", ":material/arrow_forward:"),
    shortcuts: tuple[str, str] = ("left", "right"),
) -> None:
    """Back and Next buttons in `container`, driven by the keys `shortcuts` too (the ←
    and → keys unless a player on the same screen has them); on_move(-1) or on_move(1)
    when pressed. keys: the two buttons' (Back, Next), from the page's state
    declaration."""
    for delta, label, icon, disabled, key, shortcut, where in (
        (-1, labels[0], icons[0], at_first, keys[0], shortcuts[0], "before"),
        (1, labels[1], icons[1], at_last, keys[1], shortcuts[1], "after"),
    ):
        container.button(
            label,
            key=key,
            icon=icon,
            on_click=on_move,
            args=(delta,),
            disabled=disabled,
            shortcut=shortcut,
            help=f"The {noun} {where} ({KEY_NAMES.get(shortcut, shortcut)} key).",
        )
