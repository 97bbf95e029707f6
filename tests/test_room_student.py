"""The students' page (Join) through AppTest, joining: by the link and by a typed
code, bad codes said in a sentence, and the browser's token made once and reused.
Answers and the reveal: test_room_student_answers.py."""

from __future__ import annotations

import json

import pytest
from apptest import errors, no_exceptions, open_app
from room_student_app import (  # noqa: F401  (the room and room_engine fixtures)
    JOIN,
    arrive,
    room_engine_fixture,
    room_fixture,
    send,
    shown_text,
    student,
    warnings,
)

from teaching.class_mode.codes import new_token
from teaching.class_mode.student import token_or_none
from ui.class_mode.student.state import STATE, TOKEN_COOKIE, TOKEN_NAMESPACE
from ui.shared import browser
from ui.shared.state import literal

# -- joining ----------------------------------------------------------------------------


def test_the_page_waits_for_the_browser_before_it_makes_a_token(room):
    app = open_app(JOIN, {"code": room.code})
    assert STATE.token not in app.session_state
    assert any(text.startswith("Opening") for text in shown_text(app))
    arrive(app)
    assert token_or_none(app.session_state[STATE.token])


def test_the_link_joins_the_room_and_stays_in_the_link(room):
    app = student({"code": room.code.lower()})
    assert no_exceptions(app) and errors(app) == []
    assert dict(app.query_params)["code"] == room.code
    assert any(f"Room **{room.code}**" in text for text in shown_text(app))
    assert any("question appears here" in info.value for info in app.info)


def test_a_typed_code_with_a_nickname_joins_and_the_nickname_stays_plain(room):
    app = student()
    code = room.code
    app.text_input(key=STATE.join_code).input(f" {code[:3].lower()}-{code[3:]} ")
    app.text_input(key=STATE.join_nickname).input("**Ana** [x](http://a)\nyy")  # 24: its cap
    app.button(key=STATE.join_button).click().run()
    assert no_exceptions(app) and errors(app) == []
    header = next(text for text in shown_text(app) if text.startswith("Room **"))
    assert header == f"Room **{code}** as ` **Ana** [x](http://a) yy `"  # cleaned once
    assert dict(app.query_params)["code"] == code


@pytest.mark.parametrize("given", ["<b>K7QX3M</b>", "K7QX3", "12345678", "K7QX3M!", "**x**", " "])
def test_a_link_whose_code_is_not_a_code_is_said_and_leaves_the_link(room, given):
    app = student({"code": given})
    assert no_exceptions(app)
    (said,) = errors(app)
    assert said.startswith(f"The link's code {literal(given)} is not a join code. ")
    assert "code" not in dict(app.query_params)
    assert app.text_input(key=STATE.join_code).value == ""  # the form, empty


def test_an_unknown_code_is_said_for_a_link_and_for_a_typed_code(room):
    unknown = next(c for c in ("K7QX3M", "KKKKKK", "M3XQ7K") if c != room.code)
    app = student({"code": unknown})
    (said,) = errors(app)
    assert said.startswith(f"The link's code {unknown} opens no room")
    app.text_input(key=STATE.join_code).input(unknown)
    app.button(key=STATE.join_button).click().run()
    (said,) = errors(app)
    assert said.startswith(f"The code {unknown} opens no room")
    app.text_input(key=STATE.join_code).input("")
    app.button(key=STATE.join_button).click().run()
    assert any("Type the room's code first" in text for text in warnings(app))


# -- the token --------------------------------------------------------------------------


def test_the_token_is_made_once_kept_in_the_browser_and_reused(room):
    room.ask("value")
    first = student({"code": room.code})
    token = first.session_state[STATE.token]
    send(first, text="2")
    assert first.session_state[STATE.token] == token  # not made again by later runs
    assert room.answer_of(token) == 2.0
    # A reload: a new session, the same browser.
    again = student({"code": room.code}, stored=token)
    assert again.session_state[STATE.token] == token
    assert "Your answer: 2 (saved). You can change it until voting closes." in shown_text(again)
    assert again.text_input(key=STATE.number).value == "2"
    # Something that is not a token is replaced by a new one.
    other = student({"code": room.code}, stored={"token": token})
    assert token_or_none(other.session_state[STATE.token]) not in (None, token)


def browser_data(app) -> dict:
    """What this run hands the browser component (ui/shared/browser.py)."""
    (component,) = app.get("bidi_component")
    return json.loads(component.proto.json)


def test_a_token_its_cookie_brings_draws_the_room_in_the_first_run_asking_nothing(
    room, monkeypatch
):
    kept = new_token()
    monkeypatch.setattr(browser, "cookie", {TOKEN_COOKIE: kept}.get)
    app = open_app(JOIN, {"code": room.code})
    assert no_exceptions(app) and app.session_state[STATE.token] == kept
    assert any(f"Room **{room.code}**" in text for text in shown_text(app))
    sent = browser_data(app)
    assert sent["recall"] == [] and sent["store"] == {TOKEN_NAMESPACE: json.dumps(kept)}
    assert sent["cookies"] == {TOKEN_COOKIE: kept}


@pytest.mark.parametrize("sent", ["not-a-token", "x" * 33])
def test_a_cookie_that_is_no_token_leaves_the_page_waiting_for_the_browser(room, monkeypatch, sent):
    monkeypatch.setattr(browser, "cookie", {TOKEN_COOKIE: sent}.get)
    app = open_app(JOIN, {"code": room.code})
    assert STATE.token not in app.session_state
    assert browser_data(app)["recall"] == [TOKEN_NAMESPACE]
    assert browser_data(app)["cookies"] == {}


def test_the_page_asks_for_the_token_then_hands_it_back_on_every_run(room):
    app = open_app(JOIN, {"code": room.code})
    assert browser_data(app)["recall"] == [TOKEN_NAMESPACE]  # asked, nothing written yet
    assert browser_data(app)["store"] == {}
    arrive(app)
    token = app.session_state[STATE.token]
    for _ in range(2):
        assert browser_data(app)["store"] == {TOKEN_NAMESPACE: json.dumps(token)}
        assert browser_data(app)["recall"] == []
        assert browser_data(app)["cookies"] == {TOKEN_COOKIE: token}
        app.run()
