"""The lecturer's page state: its one declaration (`STATE`: every session-state and
widget key, named once, here; its link fields; typed reads): the room on screen (in
the link, `room=K7QX3M`), the keys this browser keeps for its rooms (never in the
link, never on screen: ui.shared.browser, namespace "class-rooms") and its token
(namespace "class-lecturer-token": the store counts its tries by it), the recovery code
made in this session (shown only on the lecturer's own screen, when asked: views_keys),
and the question being chosen (an exercise, or the Playground's layer the link
brought)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import streamlit as st

from pooling import PoolConfig
from teaching.class_link import read_layer_grids
from teaching.class_mode.codes import new_token, normal_code, valid_token
from teaching.class_mode.lecturer import (
    RoomKey,
    merged_rooms,
    rooms_from_stored,
    rooms_to_stored,
    secret_for,
)
from teaching.class_mode.questions import KINDS, question_from_layer
from teaching.exercises.model import LEVELS, SET_SIZE
from teaching.links import SEED_MAX, Field, int_in, restore
from ui.shared import browser
from ui.shared.controls import PoolControls
from ui.shared.lecture import with_lecture
from ui.shared.state import PageKeys, literal, start_page_state

P = "cls"  # the page's key prefix: every key below starts with it
ROOMS = "class-rooms"  # the browser storage's namespace for the lecturer's keys
TOKEN = "class-lecturer-token"  # ... and for this browser's token (a string)
ROOM_FIELD = "room"  # the link's room code
VIEW_FIELD = "view"  # the link's view of the room: "results", "keys", or none (the room)
RESULTS = "results"
KEYS = "keys"  # the recovery code's view, for the lecturer's own screen


@dataclass(frozen=True)
class Layer:
    """The Playground's layer a link brought: x (H, W), dL/dy (OH, OW), the layer."""

    x: np.ndarray
    grad_output: np.ndarray
    config: PoolConfig


@dataclass(frozen=True)
class LecturerState:
    """Every key of the Class page. Widgets: source, kind, level, seed, number, open
    (the room's opening), ask, cancel (a new question), close, reveal, vote_again,
    new, end (the room's controls), lock, unlock and restart (who is in), recovery and
    recover (the recovery code typed), keys, show_code, hide_code, new_code and
    keys_back (the recovery code's view)."""

    page: PageKeys = PageKeys.under(P)
    pool: PoolControls = PoolControls.under(f"{P}_pl")  # the Playground layer's fields
    rooms: str = f"{P}_rooms"  # [RoomKey]: this session's and this browser's keys
    trusted: str = f"{P}_trusted"  # codes whose key the store accepted this session
    token: str = f"{P}_token"  # this browser's token: the store counts its tries by it
    recovery_codes: str = f"{P}_recovery_codes"  # {code: grouped code}: made here
    code_shown: str = f"{P}_code_shown"  # the room whose recovery code was asked to be shown
    layer: str = f"{P}_layer"  # Layer | None: the Playground's, from the link
    layer_error: str = f"{P}_layer_error"  # why the link's layer cannot be asked
    layer_query: str = f"{P}_layer_query"  # the link text the layer was read from
    choosing: str = f"{P}_choosing"  # a new question is being chosen
    said: str = f"{P}_said"  # a message for the next run: (kind, text)
    source: str = f"{P}_source"
    kind: str = f"{P}_kind"
    level: str = f"{P}_level"
    seed: str = f"{P}_seed"
    number: str = f"{P}_number"
    open_button: str = f"{P}_open"
    ask_button: str = f"{P}_ask"
    cancel_button: str = f"{P}_cancel"
    close_button: str = f"{P}_close"
    reveal_button: str = f"{P}_reveal"
    vote_again_button: str = f"{P}_vote_again"
    new_button: str = f"{P}_new"
    end_button: str = f"{P}_end"
    recovery: str = f"{P}_recovery"
    recover_button: str = f"{P}_recover"
    lock_button: str = f"{P}_lock"  # the room closed to new phones
    unlock_button: str = f"{P}_unlock"
    restart_button: str = f"{P}_restart"  # the question again in a new room, this one ended
    door_box: str = f"{P}_door_box"  # how many joined, and the lock
    keys_button: str = f"{P}_keys"  # to the recovery code's view
    show_code_button: str = f"{P}_show_code"
    hide_code_button: str = f"{P}_hide_code"
    new_code_button: str = f"{P}_new_code"
    keys_back_button: str = f"{P}_keys_back"
    keys_lecture_button: str = f"{P}_keys_lecture"  # lecture mode off, in the keys view
    code_box: str = f"{P}_code_box"  # the join code's container (its CSS)
    verdict_box: str = f"{P}_verdict_box"  # a revealed round's words (Reveal focuses it)
    maps_on: str = f"{P}_maps_on"  # the question's maps in the answers' place
    results_button: str = f"{P}_results"  # the room's results, question by question
    back_button: str = f"{P}_back"  # from the results back to the room
    csv_button: str = f"{P}_csv"  # the results downloaded as CSV
    link_box: str = f"{P}_link_box"  # the join link's container (its CSS)
    room_row: str = f"{P}_room_row"  # the join panel and the room, side by side
    join_column: str = f"{P}_join_column"  # the join panel's column (never shrunk)
    lecture_button: str = f"{P}_lecture"  # lecture mode on, beside the join panel
    fig_share: str = f"{P}_fig_share"
    fig_first: str = f"{P}_fig_first"  # the first vote beside the second
    fig_second: str = f"{P}_fig_second"
    fig_x: str = f"{P}_fig_x"
    fig_gy: str = f"{P}_fig_gy"

    @cached_property
    def fields(self) -> list[Field]:
        """An exercise named in the link, as the Exercises' link names it."""
        return [
            Field(self.kind, "kind", "cells", _kind),
            Field(self.level, "level", 1, int_in(1, len(LEVELS))),
            Field(self.seed, "seed", 1, int_in(0, SEED_MAX)),
            Field(self.number, "n", 1, int_in(1, SET_SIZE)),
        ]

    def ring(self) -> list[RoomKey]:
        return st.session_state[self.rooms]

    def chosen_layer(self) -> Layer | None:
        return st.session_state.get(self.layer)


def _kind(text: str) -> str:
    if text not in KINDS:
        raise ValueError(f"must be one of {', '.join(KINDS)}")
    return text


STATE = LecturerState()
SOURCES = {"exercise": "An exercise", "layer": "The Playground's layer"}


def init_state() -> None:
    """The link's exercise once per session; the Playground's layer whenever a link
    brings one; the keys this browser kept, once they come back."""
    start_page_state(
        STATE.page,
        STATE.fields,
        {
            STATE.rooms: [],
            STATE.trusted: set(),
            STATE.token: new_token(),
            STATE.recovery_codes: {},
            STATE.choosing: False,
            STATE.source: SOURCES["exercise"],
        },
    )
    read_layer()
    stored = browser.recalled(ROOMS)
    if stored is not None:
        st.session_state[STATE.rooms] = merged_rooms(STATE.ring(), rooms_from_stored(stored))
    kept_token = browser.recalled(TOKEN)
    if valid_token(kept_token):  # user input: only a token's shape replaces the session's
        st.session_state[STATE.token] = kept_token


def read_layer() -> None:
    """The Playground's layer from the link (x, gy and its pooling fields), each time
    the link's text changes: a lecturer comes back with another layer in the same
    session."""
    query = st.query_params.to_dict()
    text = tuple(sorted(query.items()))
    state = st.session_state
    if "x" not in query or state.get(STATE.layer_query) == text:
        return
    state[STATE.layer_query] = text
    state[STATE.layer], state[STATE.layer_error] = None, None
    try:
        grids = read_layer_grids(query)
        notices = restore(STATE.pool.fields, query, state)
        if notices:
            first = notices[0]
            raise ValueError(f"link value {first.name} {first.reason}")
        config = STATE.pool.config()
    except ValueError as reason:  # the link's own text may be in it: shown as typed
        state[STATE.layer_error] = literal(str(reason))
        return
    try:  # checked as a room checks it, so a layer no room takes is never offered
        question_from_layer("size", x=grids[0], config=config, grad_output=grids[1])
    except ValueError as reason:  # the room's own sentence: sizes and signs, no link text
        state[STATE.layer_error] = str(reason)
        return
    state[STATE.layer] = Layer(grids[0], grids[1], config)
    state[STATE.source] = SOURCES["layer"]


def adopt_layer(question) -> None:
    """A room asked about a Playground layer (question_from_layer makes level 0) and
    this session has no layer of its own (a reload, another device): the room's
    layer is offered for the next question."""
    state = st.session_state
    problem = question.problem
    if state.get(STATE.layer) is None and problem.level == 0:
        state[STATE.layer] = Layer(problem.x, problem.grad_output, problem.config)
        state[STATE.source] = SOURCES["layer"]


def remember_rooms() -> None:
    """Every run: the keys and the token go to the browser (written once its own have
    come back)."""
    browser.remember(ROOMS, rooms_to_stored(STATE.ring()))
    browser.remember(TOKEN, st.session_state[STATE.token])


def linked_code() -> str | None:
    """The room the link names, in its stored form; None when it names none. A code
    that is not one raises ValueError with the reason."""
    text = st.query_params.get(ROOM_FIELD)
    return None if text is None else normal_code(text)


def session_token() -> str:
    """The token the store counts this browser's rooms opened and recovery codes tried
    by: the one the browser kept (made by the session that found none), or this
    session's own until the browser has answered. A script can make tokens at will:
    the store's per-room and overall counts bound it."""
    return st.session_state[STATE.token]


def key_for(code: str) -> str | None:
    return secret_for(STATE.ring(), code)


def keys_arrived() -> bool:
    return browser.has_arrived(ROOMS)


def show_room(code: str | None, *, results: bool = False, keys: bool = False) -> None:
    """The link names `code` (None: the opening screen), with `view=results` for its
    results or `view=keys` for its recovery code's view, in lecture mode if on."""
    params = {ROOM_FIELD: code} if code else {}
    if code and (results or keys):
        params[VIEW_FIELD] = RESULTS if results else KEYS
    st.query_params.from_dict(with_lecture(params))


def showing_results() -> bool:
    """The link asks for the room's results (a reload keeps them on screen)."""
    return st.query_params.get(VIEW_FIELD) == RESULTS


def showing_keys() -> bool:
    """The link asks for the recovery code's view (never the code itself: a reload
    shows it hidden, until asked again)."""
    return st.query_params.get(VIEW_FIELD) == KEYS


def say(kind: str, text: str) -> None:
    """A message for the next run's top ("success", "info", "warning", "error")."""
    st.session_state[STATE.said] = (kind, text)
