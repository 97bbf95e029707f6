"""The lecturer's page through AppTest: who is in (the projector counts the phones that
joined; Lock, Unlock; starting again under a new code without those who joined) and
the recovery code, which the projector's screen never draws: it is shown on the
lecturer's own screen when asked, never in lecture mode, and a new one revokes every
other browser's key."""

from __future__ import annotations

import json

import pytest
from apptest import no_exceptions, open_app
from test_room_lecturer import (  # noqa: F401  (data_folder, engine, remembered: fixtures)
    CLASS,
    ROOMS,
    arrive,
    asked_recovery_code,
    data_folder,
    engine,
    keys_on,
    open_from_exercise,
    remembered,
    texts,
)

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode import lecturer as model
from ui.shared import browser


@pytest.fixture
def announced(monkeypatch):
    """Every sentence the page asks its live region to say, in order."""
    said = []
    real = browser.announce

    def announce(text, *, if_silent=False):
        said.append(text)
        real(text, if_silent=if_silent)

    monkeypatch.setattr(browser, "announce", announce)
    return said


def join(database, code: str, count: int) -> list[str]:
    tokens = [codes.new_token() for _ in range(count)]
    for token in tokens:
        store.join(database, code, token=token)
    return tokens


def everything_drawn(app) -> str:
    """Every element's protobuf, as text: what the page sent to the browser."""
    return "\n".join(str(getattr(node, "proto", "")) for node in _walk(app._tree))


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


# -- who is in ---------------------------------------------------------------------------------


def test_the_projector_counts_who_joined_and_the_lock_keeps_new_phones_out(
    remembered,  # noqa: F811
    engine,  # noqa: F811
    announced,
):
    app, code, _ = open_from_exercise(remembered)
    assert "**No phone has joined yet.** Open: new phones can join." in texts(app)
    members = join(engine, code, 3)
    app.run()  # the door's fragment reads it every second; a run reads it too
    assert "**3 phones joined.** Open: new phones can join." in texts(app)
    app.button(key="cls_lock").click().run()
    assert no_exceptions(app), app.exception
    assert store.door(engine, code) == store.Door(members=3, locked=True)
    assert "**3 phones joined.** Locked: no new phone can join." in texts(app)
    assert announced[-1] == "Locked: no new phone can join."
    assert "cls_unlock" in keys_on(app) and "cls_lock" not in keys_on(app)
    with pytest.raises(store.RoomLocked):
        store.join(engine, code, token=codes.new_token())
    store.join(engine, code, token=members[0])  # a member's reload
    app.button(key="cls_unlock").click().run()
    assert store.door(engine, code) == store.Door(members=3, locked=False)
    assert announced[-1] == "Open: new phones can join."
    join(engine, code, 1)
    app.run()
    assert "**4 phones joined.** Open: new phones can join." in texts(app)


def test_a_lock_turned_by_another_of_the_lecturers_browsers_is_drawn(
    remembered,  # noqa: F811
    engine,  # noqa: F811
):
    app, code, secret = open_from_exercise(remembered)
    store.lock_room(engine, code, secret=secret, locked=True)
    app.run()
    assert "cls_unlock" in keys_on(app)
    assert "**No phone has joined yet.** Locked: no new phone can join." in texts(app)


def test_starting_again_asks_the_question_in_a_new_room_without_those_who_joined(
    remembered,  # noqa: F811
    engine,  # noqa: F811
):
    app, old, _ = open_from_exercise(remembered)
    join(engine, old, 5)
    asked = store.round_of(engine, old, 1).question
    app.button(key="cls_restart").click().run()
    assert no_exceptions(app), app.exception
    new = app.query_params["room"]
    assert new != old and codes.normal_code(new) == new
    assert store.pulse(engine, old).ended  # the intruders' room, ended: its results kept
    assert len(store.every_round(engine, old)) == 1
    fresh = store.round_of(engine, new, 1)
    assert (fresh.question.kind, fresh.question.answer, fresh.state) == (
        asked.kind,
        asked.answer,
        "open",
    )
    assert store.door(engine, new) == store.Door(members=0, locked=False)
    assert any(text.endswith(f"Room code </span>{new}") for text in texts(app))
    assert "**No phone has joined yet.** Open: new phones can join." in texts(app)
    # Both keys kept in this browser: the old room's results stay reachable.
    ring = model.rooms_from_stored(remembered[ROOMS])
    assert {key.code for key in ring} >= {old, new}


# -- the recovery code -------------------------------------------------------------------------


@pytest.mark.parametrize("lecture", ["0", "1"])
def test_the_projector_never_draws_the_recovery_code(
    remembered,  # noqa: F811
    lecture,
):
    query = {"kind": "cells", "level": "2", "seed": "4", "n": "2", "lecture": lecture}
    app, code, _ = open_from_exercise(remembered, query)
    recovery = app.session_state["cls_recovery_codes"][code]
    plain = codes.normal_recovery_code(recovery)
    for state in ("open", "closed", "revealed"):
        if state == "closed":
            app.button(key="cls_close").click().run()
        if state == "revealed":
            app.button(key="cls_reveal").click().run()
        drawn = everything_drawn(app)
        assert code in drawn and recovery not in drawn and plain not in drawn, state
    # In lecture mode the code's own view draws no code, even once asked for.
    app.button(key="cls_keys").click().run()
    if lecture == "1":
        assert "cls_show_code" not in keys_on(app)
        app.session_state["cls_code_shown"] = code
        app.run()
        drawn = everything_drawn(app)
        assert recovery not in drawn and plain not in drawn
        assert any("Lecture mode is on" in text for text in texts(app))
        app.button(key="cls_keys_lecture").click().run()  # on the lecturer's own screen
    assert "cls_show_code" in keys_on(app)
    assert recovery not in everything_drawn(app)  # not before it is asked for
    assert any("never on the projector" in text for text in texts(app))
    app.button(key="cls_show_code").click().run()
    assert f"Recovery code: **{recovery}**" in texts(app)
    app.button(key="cls_keys_back").click().run()
    assert recovery not in everything_drawn(app)  # back on the room: gone again


def test_a_new_recovery_code_revokes_every_other_browsers_key(
    remembered,  # noqa: F811
    engine,  # noqa: F811
):
    first, code, secret = open_from_exercise(remembered)
    old_code = asked_recovery_code(first)
    other = arrive(open_app(CLASS, {"room": code}), [])
    other.text_input(key="cls_recovery").input(old_code)
    other.button(key="cls_recover").click().run()
    assert "cls_close" in keys_on(other)
    first.button(key="cls_keys").click().run()
    first.button(key="cls_new_code").click().run()
    assert no_exceptions(first), first.exception
    new_code = first.session_state["cls_recovery_codes"][code]
    assert new_code != old_code and f"Recovery code: **{new_code}**" in texts(first)
    assert any("no longer open the room" in text for text in texts(first))
    # The maker's key still runs the room.
    first.button(key="cls_keys_back").click().run()
    first.button(key="cls_close").click().run()
    assert not first.error and store.round_of(engine, code, 1).state == "closed"
    # The other browser's key is refused: it is told, dropped, and the form offered.
    other.button(key="cls_reveal").click().run()
    assert no_exceptions(other), other.exception
    assert any(f"does not open room {code}" in e.value for e in other.error)
    assert "cls_recovery" in [box.key for box in other.text_input]
    assert store.round_of(engine, code, 1).state == "closed"
    # The old recovery code opens nothing now; the new one does.
    third = arrive(open_app(CLASS, {"room": code}), [])
    third.text_input(key="cls_recovery").input(old_code)
    third.button(key="cls_recover").click().run()
    assert any("does not open room" in e.value for e in third.error)
    third.text_input(key="cls_recovery").input(new_code)
    third.button(key="cls_recover").click().run()
    assert {"cls_reveal", "cls_end"} <= keys_on(third)
    assert store.authorize(engine, code, secret)
    assert json.dumps(dict(first.query_params)).count(new_code) == 0  # never in the link


def test_the_door_s_words_count_and_say_the_lock():
    assert model.joined_words(0) == "No phone has joined yet."
    assert model.joined_words(1) == "1 phone joined."
    assert model.joined_words(300) == "300 phones joined."
    assert model.door_words(True) == "Locked: no new phone can join."
    assert model.door_words(False) == "Open: new phones can join."
