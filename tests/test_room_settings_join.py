"""A class-mode setting that cannot be used (rooms/settings.py: here a number where
secrets.toml needs text), met by the Join page through AppTest: it says one sentence
naming the setting and what is wrong, with no traceback, and keeps what the student
had (the room joined, the code typed); once the file is fixed, answers are saved
again. The Class page: test_room_settings_class.py."""

from __future__ import annotations

from apptest import no_exceptions
from room_settings_helpers import BAD, SAID, secrets_toml  # noqa: F401  (the fixture)
from room_student_app import (  # noqa: F401  (the room and room_engine fixtures)
    room_engine_fixture,
    room_fixture,
    send,
    shown_text,
    student,
)

from rooms import store
from ui.class_mode.student.state import STATE


def test_a_student_in_a_room_is_told_and_stays_in_it(room, secrets_toml):  # noqa: F811
    room.ask("value")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    secrets_toml(BAD)
    send(app, text="2")
    assert no_exceptions(app), app.exception
    assert SAID in shown_text(app)
    assert app.session_state[STATE.code] == room.code  # still in the room
    assert room.answer_of(token) is None  # nothing saved
    app.run()  # the page drawn again reads the room: the same sentence
    assert no_exceptions(app), app.exception
    assert SAID in shown_text(app)
    secrets_toml({})  # the file fixed: the room is drawn again, and takes the answer
    app.run()
    send(app, text="2")
    assert no_exceptions(app), app.exception
    assert room.answer_of(token) is not None


def test_joining_says_a_bad_setting_and_keeps_the_typed_code(room, secrets_toml):  # noqa: F811
    app = student()
    secrets_toml(BAD)
    app.text_input(key=STATE.join_code).input(room.code)
    app.button(key=STATE.join_button).click().run()
    assert no_exceptions(app), app.exception
    assert SAID in shown_text(app)
    assert app.session_state.get(STATE.code) is None
    assert app.text_input(key=STATE.join_code).value == room.code
    assert store.pulse(room.engine, room.code).state == "waiting"
