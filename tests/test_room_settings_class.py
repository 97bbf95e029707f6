"""A class-mode setting that cannot be used (rooms/settings.py: here a number where
secrets.toml needs text), met by the Class page through AppTest: it says one sentence
naming the setting and what is wrong, with no traceback, and keeps what the lecturer
had (the room's key, the question chosen); once the file is fixed, the room is back.
The Join page: test_room_settings_join.py."""

from __future__ import annotations

from apptest import no_exceptions, open_app
from room_settings_helpers import BAD, SAID, secrets_toml  # noqa: F401  (the fixture)
from test_room_lecturer import (  # noqa: F401  (the fixtures)
    CLASS,
    ROOMS,
    data_folder,
    keys_on,
    open_from_exercise,
    remembered,
    texts,
)
from test_room_lecturer import arrive as lecturer_arrives

from teaching.class_mode import lecturer as model


def test_the_projector_says_a_bad_setting_and_keeps_its_room(remembered, secrets_toml):  # noqa: F811
    app, code, secret = open_from_exercise(remembered)
    assert "cls_close" in keys_on(app)
    secrets_toml(BAD)
    app.run()
    assert no_exceptions(app), app.exception
    assert SAID in texts(app)
    assert "cls_close" not in keys_on(app)
    kept = model.rooms_from_stored(remembered[ROOMS])
    assert model.secret_for(kept, code) == secret  # the key stays in the browser
    secrets_toml({})  # the file fixed
    app.run()
    assert no_exceptions(app), app.exception
    assert SAID not in texts(app) and "cls_close" in keys_on(app)


def test_opening_a_room_says_a_bad_setting_and_keeps_the_question_chosen(secrets_toml):  # noqa: F811
    query = {"kind": "value", "level": "2", "seed": "3", "n": "4"}
    app = lecturer_arrives(open_app(CLASS, query))
    chosen = {key: app.session_state[key] for key in ("cls_kind", "cls_level", "cls_seed")}
    secrets_toml(BAD)
    app.button(key="cls_open").click().run()
    assert no_exceptions(app), app.exception
    assert SAID in texts(app)
    assert "room" not in app.query_params  # no room opened
    assert {key: app.session_state[key] for key in chosen} == chosen
