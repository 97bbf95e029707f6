"""The lecturer's page before and around a room (formatting and placing only): the
question chooser (a seeded exercise or the Playground's layer, and what to ask about
it), the opening screen, the rooms this browser holds keys for, the recovery code's
form for a browser without the key, and a room that has ended. The room itself:
views_room."""

from __future__ import annotations

import numpy as np
import streamlit as st

from rooms.store import RECOVERY_TEXT_LENGTH
from teaching.class_mode.lecturer import question_words
from teaching.class_mode.questions import KINDS
from teaching.exercises.model import LEVELS, SET_SIZE
from teaching.layer_words import layer_words
from teaching.links import SEED_MAX
from teaching.words import pad_label
from ui.class_mode.lecturer import actions
from ui.class_mode.lecturer.state import SOURCES, STATE, Layer
from ui.figures import grid as grids
from ui.figures.style import HALF_PX, SEED_INPUT_PX
from ui.shared import browser
from ui.shared.batch_question import batch_mosaics, lecture_mosaics
from ui.shared.beside import maps_in_a_row
from ui.shared.chart import cached, chart
from ui.shared.lecture import folded_in_lecture, lecture_on

SAID = {"success": st.success, "info": st.info, "warning": st.warning, "error": st.error}


def said_view() -> None:
    """The message a button left for this run (a refusal, say), once."""
    message = st.session_state.pop(STATE.said, None)
    if message is not None:
        kind, text = message
        SAID[kind](text)
        browser.announce(text)  # the room's own news (if_silent) gives way to it


def question_chooser() -> Layer | None:
    """What to ask: the source (when the link brought the Playground's layer), the
    kind, and for an exercise its level, set and problem. Returns the layer chosen
    (its maps go under the button: layer_maps), or None for an exercise."""
    layer = STATE.chosen_layer()
    if layer is not None:
        st.radio("Question on", list(SOURCES.values()), key=STATE.source, horizontal=True)
    from_layer = layer is not None and st.session_state[STATE.source] == SOURCES["layer"]
    st.radio("Ask", list(KINDS), key=STATE.kind, format_func=KINDS.get, horizontal=True)
    if from_layer:
        st.caption(f"Layer: {layer_words(layer.config, layer.x)}.")
    else:
        exercise_fields()
    if layer is None and (error := st.session_state.get(STATE.layer_error)):
        st.warning(
            f"The Playground's layer in this link cannot be asked: {error}",
            icon=":material/link_off:",
        )
    return layer if from_layer else None


def exercise_fields() -> None:
    row = st.container(horizontal=True, gap="small")
    row.select_slider(
        "Level",
        list(LEVELS),
        key=STATE.level,
        format_func=lambda level: f"{level} · {LEVELS[level]}",
        width=2 * SEED_INPUT_PX,
    )
    row.number_input("Set (seed)", 0, SEED_MAX, key=STATE.seed, width=SEED_INPUT_PX)
    row.number_input("Problem", 1, SET_SIZE, key=STATE.number, width=SEED_INPUT_PX)


def layer_maps(layer: Layer | None) -> None:
    """A preview of the question the chooser describes (a seeded exercise's or the
    Playground layer's): the question as the projector will ask it, with x and dL/dy
    (x alone for an output size, which dL/dy's shape would give away). Folded in
    lecture mode: the screen is the question's, the button above the maps."""
    try:
        question = actions.chosen_question()
    except ValueError as reason:
        st.warning(f"This question cannot be asked: {reason}.", icon=":material/error:")
        return
    label = "Preview: the layer's x and dL/dy" if layer is not None else "Preview: the question"
    with folded_in_lecture(label):
        source = f" ({question.source})" if question.kind == "batch" else ""
        st.caption(f"Preview{source}. {question_words(question)}")
        problem = question.problem
        question_maps(
            problem.x,
            None if question.kind == "size" else problem.grad_output,
            padding=problem.config.padding,
            mode=problem.config.mode,
        )


def question_maps(x, grad_output, *, padding, mode) -> None:
    """x (with its padding) and dL/dy (None: x alone), side by side, each column as
    wide as its map asks (x with its padding is the wider); a batch's x_n (N, H, W) and
    dL_n/dy as two mosaics, side by side (on a projector each at its drawn width, two
    examples a row: one a row stood 1.5 screens tall)."""
    if np.ndim(x) == 3:
        keys = (STATE.fig_x, STATE.fig_gy)
        if lecture_on():
            maps_in_a_row(lecture_mosaics(x, grad_output, keys=keys))
        else:
            batch_mosaics(x, grad_output, st.columns(2), keys=keys, width_px=HALF_PX)
        return
    overlay = grids.Overlay(padding=padding, pad_label=pad_label(mode))
    figures = [
        (
            cached(
                grids.grid_figure,
                values=x,
                title="x",
                options=grids.GridOptions(overlay=overlay, width_px=HALF_PX),
            ),
            STATE.fig_x,
        )
    ]
    if grad_output is not None:
        gy = cached(
            grids.grid_figure,
            values=grad_output,
            title="dL/dy",
            options=grids.GridOptions(kind="gradient", width_px=HALF_PX),
        )
        figures.append((gy, STATE.fig_gy))
    widths = [figure.layout.width or HALF_PX for figure, _ in figures]
    places = st.columns(widths if len(widths) == 2 else [1, 1])
    for place, (figure, key) in zip(places, figures, strict=False):
        with place:
            chart(figure, key=key)


def opening_view() -> None:
    """No room on screen: choose a question and open a room for it."""
    st.markdown(
        "Open a room for one question: students join on their phones with the code or "
        "the QR code, and the projector shows what the class answered."
    )
    layer = question_chooser()
    st.button(
        "Open a room",
        key=STATE.open_button,
        type="primary",
        icon=":material/groups:",
        on_click=actions.open_room,
    )
    layer_maps(layer)
    rooms_view()


def rooms_view() -> None:
    """Links to the rooms this browser holds keys for (their codes only)."""
    ring = STATE.ring()
    if not ring:
        return
    st.markdown("Rooms this browser can run:")
    row = st.container(horizontal=True, gap="small")
    for key in ring:
        row.page_link(
            "screens/class_page.py",
            label=f"Room {key.code}",
            icon=":material/co_present:",
            query_params={"room": key.code},
        )


def waiting_for_keys_view(code: str) -> None:
    st.caption(f"Looking for room {code}'s key in this browser…")


def recovery_view(code: str, *, stale: bool = False) -> None:
    """A browser without the room's key: the recovery code, and no controls."""
    if stale:
        st.warning(
            f"The key this browser kept does not open room {code}: the room may have "
            "expired (rooms last 12 hours)."
        )
    st.markdown(
        f"This browser holds no key for room **{code}**. To run it here, type the "
        "recovery code shown when the room was opened."
    )
    row = st.container(horizontal=True, gap="small", vertical_alignment="bottom")
    row.text_input(
        "Recovery code",
        key=STATE.recovery,
        placeholder="XXXX-XXXX-XXXX",
        type="password",
        max_chars=RECOVERY_TEXT_LENGTH,
        width=2 * SEED_INPUT_PX,
    )
    row.button(
        "Open the room here", key=STATE.recover_button, on_click=actions.recover, args=(code,)
    )
    st.button("Open a new room instead", key=STATE.new_button, on_click=actions.leave_room)


def gone_view(code: str, reason: str) -> None:
    said = f"Room {code}: {reason} (rooms last 12 hours)."
    browser.announce(said, if_silent=True)
    st.info(said, icon=":material/door_front:")
    st.button("Open a new room", key=STATE.new_button, type="primary", on_click=actions.leave_room)


def unreachable_view(code: str) -> None:
    """The database did not answer: said plainly; the page tries again every second."""
    said = (
        f"Room {code}: the class's database does not answer right now. This screen "
        "tries again every second and shows the room as soon as it answers; the "
        "answers already given are kept."
    )
    browser.announce(said, if_silent=True)
    st.warning(said, icon=":material/cloud_off:")


def ended_view(code: str, *, results: bool) -> None:
    """`results`: the room's rounds can still be read (ended by the lecturer, not
    expired: an expired room's rows are the store's to delete)."""
    said = f"Room {code} has ended: students can no longer answer."
    browser.announce(said, if_silent=True)
    st.info(said, icon=":material/door_front:")
    row = st.container(horizontal=True, gap="small")
    if results:
        results_button(row, code)
    row.button("Open a new room", key=STATE.new_button, type="primary", on_click=actions.leave_room)


def results_button(place, code: str) -> None:
    """The button to the room's results, in `place`."""
    place.button(
        "Results",
        key=STATE.results_button,
        on_click=actions.show_results,
        args=(code, True),
    )
