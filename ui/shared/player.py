"""Step through a numbered sequence (windows, examples): a slider, then Back, Next and
Play/Pause, all inside one fragment, so a step redraws the step figures and not the page.

The timer of a Streamlit fragment is fixed when the fragment is defined, so switching
Play on or off reruns the whole page once; while playing, only the fragment reruns.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from .state import PlayerKeys

# How a button's help names its shortcut key.
KEY_NAMES = {"left": "←", "right": "→", "pageup": "Page Up", "pagedown": "Page Down"}


@dataclass(frozen=True)
class Steps:
    """What the player walks through: positions 0..count-1 kept in keys.position.

    keys: the player's keys, from the page's state declaration; its playing key is
    read and set only through this module (at_rest, is_playing, stop);
    noun: what one position is ("window", "example"), for the buttons' help;
    single_note: shown instead of the controls when there is only one position;
    first_number: what the slider calls position 0 (1 where the page counts from 1,
    "window 1 of 9"; 0 where it names positions #0, #1, …). The state and the link
    keep the position itself, whatever the slider shows.
    """

    keys: PlayerKeys
    count: int
    noun: str
    slider_label: str
    help_text: str
    single_note: str
    seconds: float = 1.0
    first_number: int = 0


def at_rest(keys: PlayerKeys) -> dict[str, bool]:
    """The player's state before anything plays: a page's default for it."""
    return {keys.playing: False}


def is_playing(keys: PlayerKeys) -> bool:
    return st.session_state[keys.playing]


def stop(keys: PlayerKeys) -> None:
    st.session_state[keys.playing] = False


def nudge(key: str, delta: int, *, first: int, last: int) -> None:
    """Move the number kept under `key` by `delta` (back if negative), within first..last:
    a step, a problem or a window, whichever Back and Next walk through."""
    state = st.session_state
    state[key] = min(max(state[key] + delta, first), last)


def move(steps: Steps, delta: int) -> None:
    """Stop playing and go `delta` positions on (back if negative), within 0..count-1."""
    stop(steps.keys)
    nudge(steps.keys.position, delta, first=0, last=steps.count - 1)


def toggle(steps: Steps) -> None:
    """Play or Pause (Play at the end starts again)."""
    state = st.session_state
    playing = state[steps.keys.playing]
    if not playing and state[steps.keys.position] >= steps.count - 1:
        state[steps.keys.position] = 0  # Play at the end starts again
    state[steps.keys.playing] = not playing
    state[steps.keys.moved_at] = time.monotonic()
    state[steps.keys.toggled] = True


def _advance_if_playing(steps: Steps) -> None:
    """One step on, when the timer is due. The fragment also runs with the page (a
    control changed while playing): those runs must not move on."""
    state = st.session_state
    if not is_playing(steps.keys):
        return
    now = time.monotonic()
    if now - state.get(steps.keys.moved_at, 0.0) < 0.8 * steps.seconds:
        return
    state[steps.keys.moved_at] = now
    if state[steps.keys.position] >= steps.count - 1:
        stop(steps.keys)
        st.rerun(scope="app")  # the end: the page again, with a fragment without a timer
    else:
        state[steps.keys.position] += 1


def _controls(steps: Steps) -> None:
    """The slider on its own row (it needs the width), the buttons under it."""
    _slider(steps)
    _buttons(steps, st.container(horizontal=True, gap="small"))


def _buttons(steps: Steps, row) -> None:
    """Back, Next and Play in `row`."""
    at = st.session_state[steps.keys.position]
    back_and_next(
        row,
        keys=(steps.keys.back, steps.keys.next),
        labels=("Back", "Next"),
        icons=(":material/skip_previous:", ":material/skip_next:"),
        on_move=lambda delta: move(steps, delta),
        at_first=at == 0,
        at_last=at >= steps.count - 1,
        noun=steps.noun,
    )
    play_button(row, steps, help_text=f"Go through every {steps.noun}, one after another.")


def _slider(steps: Steps) -> None:
    """The position slider, numbered from steps.first_number."""
    first = steps.first_number
    if first == 0:
        st.slider(
            steps.slider_label, 0, steps.count - 1, key=steps.keys.position, help=steps.help_text
        )
        return
    shown = steps.keys.shown
    st.session_state[shown] = st.session_state[steps.keys.position] + first  # before the widget
    st.slider(
        steps.slider_label,
        first,
        steps.count - 1 + first,
        key=shown,
        help=steps.help_text,
        on_change=_slid,
        args=(steps,),
    )


def _slid(steps: Steps) -> None:
    state = st.session_state
    state[steps.keys.position] = state[steps.keys.shown] - steps.first_number


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


def play_button(container, steps: Steps, *, help_text: str, disabled: bool = False) -> None:
    """Play, or Pause while playing, in `container`."""
    playing = is_playing(steps.keys)
    container.button(
        "Pause" if playing else "Play",
        key=steps.keys.play,
        on_click=toggle,
        args=(steps,),
        icon=":material/pause:" if playing else ":material/play_arrow:",
        disabled=disabled and not playing,
        shortcut="p",
        help=f"{help_text} (P key)",
    )


def player(
    steps: Steps,
    *,
    draw: Callable[[int], None],
    publish: Callable[[], None],
    controls: Callable[[Steps], None] | None = None,
) -> None:
    """Controls for `steps` (a slider, Back, Next and Play unless `controls` draws
    others), then `draw(position)`; `publish` writes the share link after each move,
    so the link always names the step on screen.
    State: steps.keys.playing (bool), set up by the page (at_rest)."""
    state = st.session_state

    @st.fragment(run_every=steps.seconds if is_playing(steps.keys) else None)
    def stepper():
        if state.pop(steps.keys.toggled, False):
            st.rerun(scope="app")  # a new timer needs a new fragment
        _advance_if_playing(steps)
        if steps.count > 1:
            (controls or _controls)(steps)
        else:
            st.caption(steps.single_note)
        draw(state[steps.keys.position])
        publish()

    stepper()
