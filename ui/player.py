"""Play/Pause over a numbered sequence (windows, examples), with a slider beside it.

The timer of a Streamlit fragment is fixed when the fragment is defined, so switching
Play on or off reruns the whole page once; while playing, only the fragment reruns.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st


def _toggle(prefix: str, position_key: str, count: int) -> None:
    state = st.session_state
    if not state[f"{prefix}_playing"] and state[position_key] >= count - 1:
        state[position_key] = 0  # Play at the end starts again
    state[f"{prefix}_playing"] = not state[f"{prefix}_playing"]
    state[f"{prefix}_play_toggled"] = True


def player(
    prefix: str,
    position_key: str,
    count: int,
    label: str,
    help_text: str,
    draw: Callable[[int], None],
    seconds: float,
    single_note: str,
) -> None:
    """Slider and Play/Pause for positions 0..count-1 kept in `position_key`; `draw`
    shows position n. State: {prefix}_playing (bool), set up by the page."""
    state = st.session_state

    @st.fragment(run_every=seconds if state[f"{prefix}_playing"] else None)
    def animated():
        if state.pop(f"{prefix}_play_toggled", False):
            st.rerun(scope="app")
        if state[f"{prefix}_playing"]:
            if state[position_key] >= count - 1:
                state[f"{prefix}_playing"] = False
            else:
                state[position_key] += 1
        playing = state[f"{prefix}_playing"]
        left, right = st.columns([5, 1], vertical_alignment="bottom")
        right.button(
            "Pause" if playing else "Play",
            key=f"{prefix}_play",
            on_click=_toggle,
            args=(prefix, position_key, count),
            width="stretch",
            disabled=count == 1,
            icon=":material/pause:" if playing else ":material/play_arrow:",
            help="Go through them one after another.",
        )
        if count > 1:
            left.slider(label, 0, count - 1, key=position_key, help=help_text)
        else:
            left.caption(single_note)
        draw(state[position_key])

    animated()
