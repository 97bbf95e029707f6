"""The Join page and a locked room, through AppTest: a new phone is told in one
sentence and keeps what it typed (or the link's code); a phone that joined before the
lock comes back in on a reload and answers; once unlocked, the new phone gets in."""

from __future__ import annotations

from apptest import no_exceptions
from room_student_app import (  # noqa: F401  (the room and room_engine fixtures)
    room_engine_fixture,
    room_fixture,
    shown_text,
    student,
    warnings,
)

from rooms import store
from ui.class_mode.student.state import STATE
from ui.shared.state import literal


def locked_sentence(code: str) -> str:
    return f"Room {code} is locked: the lecturer lets no new phones join."


def lock(room, locked: bool = True) -> None:
    store.lock_room(room.engine, room.code, secret=room.secret, locked=locked)


def test_a_new_phone_is_told_the_room_is_locked_and_keeps_what_it_typed(room):
    room.ask("cells")
    lock(room)
    app = student()
    app.text_input(key=STATE.join_code).input(room.code.lower())
    app.text_input(key=STATE.join_nickname).input("Ana")
    app.button(key=STATE.join_button).click().run()
    assert no_exceptions(app), app.exception
    assert warnings(app) == [locked_sentence(room.code)]
    assert STATE.code not in app.session_state  # not in the room
    assert app.text_input(key=STATE.join_code).value == room.code.lower()
    assert app.text_input(key=STATE.join_nickname).value == "Ana"
    lock(room, False)  # unlocked: the same press gets in
    app.button(key=STATE.join_button).click().run()
    assert app.session_state[STATE.code] == room.code and warnings(app) == []
    assert f"Room **{room.code}** as {literal('Ana')}" in shown_text(app)


def test_the_join_link_of_a_locked_room_leaves_its_code_in_the_form(room):
    lock(room)
    app = student({"code": room.code})
    assert warnings(app) == [locked_sentence(room.code)]
    assert app.text_input(key=STATE.join_code).value == room.code
    assert "code" not in dict(app.query_params)


def test_a_member_s_reload_of_a_locked_room_comes_back_and_answers(room):
    room.ask("cells")
    first = student({"code": room.code})
    token = first.session_state[STATE.token]
    lock(room)
    reload = student({"code": room.code}, stored=token)  # the browser kept its token
    assert no_exceptions(reload) and warnings(reload) == []
    assert reload.session_state[STATE.code] == room.code
    right = sorted(store.round_of(room.engine, room.code, room.round).question.answer)
    store.answer(room.engine, room.code, token=token, round_number=room.round, raw=right)
    reload.run()
    assert room.answer_of(token) == frozenset(map(tuple, right))
