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


@dataclass(frozen=True)
class Steps:
    """What the player walks through: positions 0..count-1 kept in `position_key`.

    prefix: the page's key prefix (the player's own keys start with it);
    noun: what one position is ("window", "example"), for the buttons' help;
    single_note: shown instead of the controls when there is only one position;
    first_number: what the slider calls position 0 (1 where the page counts from 1,
    "window 1 of 9"; 0 where it names positions #0, #1, …). The state and the link
    keep the position itself, whatever the slider shows.
    """

    prefix: str
    position_key: str
    count: int
    noun: str
    slider_label: str
    help_text: str
    single_note: str
    seconds: float = 1.0
    first_number: int = 0

    @property
    def playing_key(self) -> str:
        return f"{self.prefix}_playing"

    @property
    def moved_key(self) -> str:
        """When Play last moved on (time.monotonic()), or was switched on."""
        return f"{self.prefix}_moved_at"


def move(steps: Steps, delta: int) -> None:
    """Stop playing and go `delta` positions on (back if negative), within 0..count-1."""
    state = st.session_state
    state[steps.playing_key] = False
    state[steps.position_key] = min(max(state[steps.position_key] + delta, 0), steps.count - 1)


def toggle(steps: Steps) -> None:
    """Play or Pause (Play at the end starts again)."""
    state = st.session_state
    playing = state[steps.playing_key]
    if not playing and state[steps.position_key] >= steps.count - 1:
        state[steps.position_key] = 0  # Play at the end starts again
    state[steps.playing_key] = not playing
    state[steps.moved_key] = time.monotonic()
    state[f"{steps.prefix}_play_toggled"] = True


def _advance_if_playing(steps: Steps) -> None:
    """One step on, when the timer is due. The fragment also runs with the page (a
    control changed while playing): those runs must not move on."""
    state = st.session_state
    if not state[steps.playing_key]:
        return
    now = time.monotonic()
    if now - state.get(steps.moved_key, 0.0) < 0.8 * steps.seconds:
        return
    state[steps.moved_key] = now
    if state[steps.position_key] >= steps.count - 1:
        state[steps.playing_key] = False
        st.rerun(scope="app")  # the end: the page again, with a fragment without a timer
    else:
        state[steps.position_key] += 1


def _controls(steps: Steps) -> None:
    """The slider on its own row (it needs the width), the buttons under it."""
    at = st.session_state[steps.position_key]
    _slider(steps)
    buttons = st.container(horizontal=True, gap="small")
    back_and_next(
        buttons,
        prefix=steps.prefix,
        labels=("Back", "Next"),
        icons=(":material/skip_previous:", ":material/skip_next:"),
        on_move=lambda delta: move(steps, delta),
        at_first=at == 0,
        at_last=at >= steps.count - 1,
        noun=steps.noun,
    )
    play_button(buttons, steps, help_text=f"Go through every {steps.noun}, one after another.")


def _slider(steps: Steps) -> None:
    """The position slider, numbered from steps.first_number."""
    first = steps.first_number
    if first == 0:
        st.slider(
            steps.slider_label, 0, steps.count - 1, key=steps.position_key, help=steps.help_text
        )
        return
    shown = f"{steps.position_key}_shown"
    st.session_state[shown] = st.session_state[steps.position_key] + first  # before the widget
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
    state[steps.position_key] = state[f"{steps.position_key}_shown"] - steps.first_number


def back_and_next(
    container,
    *,
    prefix: str,
    labels: tuple[str, str],
    on_move: Callable[[int], None],
    at_first: bool,
    at_last: bool,
    noun: str,
    icons: tuple[str, str] = (":material/arrow_back:", ":material/arrow_forward:"),
) -> None:
    """Back and Next buttons in `container`, driven by the ← and → keys too;
    on_move(-1) or on_move(1) when pressed. Keys: {prefix}_back, {prefix}_next."""
    for delta, label, icon, disabled, key, arrow, where in (
        (-1, labels[0], icons[0], at_first, "back", "left", "before"),
        (1, labels[1], icons[1], at_last, "next", "right", "after"),
    ):
        container.button(
            label,
            key=f"{prefix}_{key}",
            icon=icon,
            on_click=on_move,
            args=(delta,),
            disabled=disabled,
            shortcut=arrow,
            help=f"The {noun} {where} ({'←' if delta < 0 else '→'} key).",
        )


def play_button(container, steps: Steps, *, help_text: str, disabled: bool = False) -> None:
    """Play, or Pause while playing, in `container`."""
    playing = st.session_state[steps.playing_key]
    container.button(
        "Pause" if playing else "Play",
        key=f"{steps.prefix}_play",
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
    State: steps.playing_key (bool), set up by the page."""
    state = st.session_state

    @st.fragment(run_every=steps.seconds if state[steps.playing_key] else None)
    def stepper():
        if state.pop(f"{steps.prefix}_play_toggled", False):
            st.rerun(scope="app")  # a new timer needs a new fragment
        _advance_if_playing(steps)
        if steps.count > 1:
            (controls or _controls)(steps)
        else:
            st.caption(steps.single_note)
        draw(state[steps.position_key])
        publish()

    stepper()
