"""What the lecturer's buttons do (widget callbacks): open a room, ask, close, reveal,
vote again, end; lock it, unlock it, start it again under a new code; take a
recovery code, show it, make a new one. Each change goes to the store with this
browser's key for the room; a refusal (RoomError: a short sentence fit for the page)
or a database that does not answer is said at the top of the next run. A key the
store no longer takes (another browser made a new recovery code) is dropped: the page
then offers the recovery form."""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from rooms import store
from teaching.class_mode.codes import grouped
from teaching.class_mode.lecturer import RoomKey, with_room, without_room
from teaching.class_mode.questions import Question, question_from_exercise, question_from_layer
from ui.class_mode.client import address
from ui.class_mode.database import engine
from ui.class_mode.lecturer.live import pulse
from ui.class_mode.lecturer.state import SOURCES, STATE, key_for, say, session_token, show_room
from ui.shared import browser
from ui.shared.lecture import switch_lecture

NO_DATABASE = "The class's database did not answer: nothing was changed. Try again in a moment."


def chosen_question() -> Question:
    """The question the chooser's widgets describe; ValueError with the reason."""
    state = st.session_state
    kind = state[STATE.kind]
    layer = STATE.chosen_layer()
    if state[STATE.source] == SOURCES["layer"] and layer is not None:
        return question_from_layer(
            kind, x=layer.x, config=layer.config, grad_output=layer.grad_output
        )
    return question_from_exercise(
        kind, level=state[STATE.level], seed=state[STATE.seed], number=state[STATE.number]
    )


def _question_or_say() -> Question | None:
    try:
        return chosen_question()
    except ValueError as reason:
        say("error", f"This question cannot be asked: {reason}.")
        return None


def open_room() -> None:
    """A new room with the chosen question as its first round."""
    question = _question_or_say()
    if question is not None:
        _open_with(question)


def _open_with(question: Question) -> str | None:
    """A new room with `question` as its first round; its key kept in this session
    (and, from this run's end, in this browser), its recovery code in this session
    (shown only when asked: views_keys); its code, or None after saying why not."""
    made = _refused_or(store.open_room, token=session_token(), address=address())
    if made is None:
        return None
    # The key is kept before the question is asked: a room whose first question fails
    # is still this browser's, and its screen offers to ask again.
    _keep_key(made.code, made.secret)
    state = st.session_state
    state[STATE.recovery_codes][made.code] = grouped(made.recovery_code)
    state[STATE.choosing] = False
    _control(made.code, store.ask, question=question)
    # The link names the room once its first round is asked (or its refusal said):
    # Streamlit sends a link change at once, and a page or a test that follows the link
    # read the room before its round, with no round 1 (CI saw it).
    show_room(made.code)
    browser.focus_on(STATE.code_box)  # "Room code K7QX3M": what the class needs first
    return made.code


def _control(code: str, change, **arguments):
    """store.<change>(engine, code, secret=this browser's key, ...), said when refused;
    its result, or None. A key the store no longer takes is dropped."""
    secret = key_for(code)
    if secret is None:
        say("error", "This browser holds no key for this room.")
        return None
    try:
        return change(engine(), code, secret=secret, **arguments)
    except store.NotAllowed as error:
        say("error", f"{error} Another browser may have made a new recovery code: type it here.")
        forget(code)
    except store.RoomError as error:
        say("error", str(error))
    except SQLAlchemyError:
        say("error", NO_DATABASE)
    return None


def _refused_or(change, *arguments, **keywords):
    """change(engine, *arguments, **keywords); None after saying why when the store
    refused it (its sentence; a setting that cannot be used is one) or the database
    did not answer."""
    try:
        return change(engine(), *arguments, **keywords)
    except store.RoomError as error:
        say("error", str(error))
    except SQLAlchemyError:
        say("error", NO_DATABASE)
    return None


def _keep_key(code: str, key: str) -> None:
    """This session holds `key` for room `code` (the browser keeps it from this run's
    end), trusted: the store gave it."""
    state = st.session_state
    state[STATE.rooms] = with_room(STATE.ring(), RoomKey(code, key))
    state[STATE.trusted].add(code)


def ask(code: str) -> None:
    question = _question_or_say()
    if question is not None:
        _control(code, store.ask, question=question)
        st.session_state[STATE.choosing] = False


def close_answers(code: str) -> None:
    _control(code, store.close_round)
    # The Close button is gone with the open round: on to Reveal, the next step (a
    # keyboard user was left on the page's body, and Tab began again at its top).
    browser.focus_on(STATE.reveal_button)


def reveal(code: str) -> None:
    _control(code, store.reveal)
    browser.focus_on(STATE.verdict_box)  # the Reveal button is gone: on to the result


def vote_again(code: str) -> None:
    _control(code, store.vote_again)


def end_room(code: str) -> None:
    _control(code, store.end_room)


def choose(on: bool) -> None:
    """Open or close the new question's chooser."""
    st.session_state[STATE.choosing] = on


def show_results(code: str, on: bool) -> None:
    """The room's results on screen (on) or the room again."""
    show_room(code, results=on)


def leave_room() -> None:
    """Back to the opening screen (the room goes on without the projector)."""
    st.session_state[STATE.choosing] = False
    show_room(None)


def recover(code: str) -> None:
    """The recovery code typed for `code`, traded for a key of this browser's own when
    it opens the room (the store's sentence when not: wrong, or too many tries). The
    typed text is never echoed."""
    typed = st.session_state.get(STATE.recovery, "")
    key = _refused_or(store.recover, code, typed, token=session_token(), address=address())
    if key is None:
        return
    _keep_key(code, key)
    st.session_state[STATE.recovery] = ""


def forget(code: str) -> None:
    """The key kept for `code` no longer opens it: drop it."""
    st.session_state[STATE.rooms] = without_room(STATE.ring(), code)
    st.session_state[STATE.trusted].discard(code)


# -- who is in --------------------------------------------------------------------------------


def lock(code: str, locked: bool) -> None:
    """Close the room to new phones (`locked`) or open it again."""
    _control(code, store.lock_room, locked=locked)


def restart(code: str) -> None:
    """Start again without the intruders: the room's current question asked as round
    1 of a new room, under a new code and QR code, and this room ended (its results
    kept). Why a new room and not this one's members cleared: whoever got in from
    outside the hall has this code, and would rejoin within a second of the clearing,
    while a lock would keep out the hall's own phones too. The new code is only on the
    projector, seen in the hall; the lecturer locks the new room once the hall is in."""
    question = _current_question(code)
    if question is None:
        return
    if _open_with(question) is not None:
        _control(code, store.end_room)


def _current_question(code: str) -> Question | None:
    """The question of the room's current round (the chooser's before the first)."""
    try:
        current = pulse(code)
        if current.round_number == 0:
            return _question_or_say()
        return store.round_of(engine(), code, current.round_number).question
    except store.RoomError as error:
        say("error", str(error))
    except SQLAlchemyError:
        say("error", NO_DATABASE)
    return None


# -- the recovery code, on the lecturer's own screen -------------------------------------------


def show_keys(code: str, on: bool) -> None:
    """The recovery code's view (on) or the room again; the code hidden either way
    (it is shown only when asked, each time)."""
    st.session_state.pop(STATE.code_shown, None)
    show_room(code, keys=on)


def lecture_off() -> None:
    """Lecture mode off, on the lecturer's own screen; the code stays hidden until
    asked for there."""
    st.session_state.pop(STATE.code_shown, None)
    switch_lecture(False)


def show_code(code: str | None) -> None:
    """Show the recovery code this session holds for `code` (None: hide it)."""
    st.session_state[STATE.code_shown] = code


def new_recovery_code(code: str) -> None:
    """A new recovery code, shown at once (it was asked for): the old one and every
    other browser's key for the room stop opening it."""
    made = _control(code, store.replace_recovery_code)
    if made is None:
        return
    st.session_state[STATE.recovery_codes][code] = grouped(made)
    st.session_state[STATE.code_shown] = code
    say(
        "success",
        f"Room {code} has a new recovery code. The old one and every other "
        "browser's key no longer open the room.",
    )
