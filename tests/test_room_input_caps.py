"""Every text box of class mode has one cap, in its widget (max_chars) and in the store,
and the store applies it to the text as sent, before any cleaning, normalising,
parsing or hashing: an oversized value (a script's 20 MB) is refused as TooLong and
none of that work runs. (How long a refusal takes is measured, not asserted: see the
note's command.)"""

from __future__ import annotations

import unicodedata
from types import SimpleNamespace

import pytest
from room_store_helpers import NOW, engine_fixture, open_and_ask  # noqa: F401
from room_store_helpers import student as store_student
from room_student_app import (  # noqa: F401  (the room and room_engine fixtures)
    room_engine_fixture,
    room_fixture,
    send,
    student,
    warnings,
)

from rooms import store, store_reads, store_students
from teaching.class_mode import codes
from ui.class_mode.student.state import STATE

HUGE = "x" * 20_000_000  # the 20 MB


def forbid_work(monkeypatch) -> None:
    """From now on, every cleaning, normalising, parsing and hashing step the store
    could run on a text fails the test if it is handed an oversized value."""

    def guarded(name, real):
        def call(*args, **kwargs):
            if any(len(arg) > 100_000 for arg in args if isinstance(arg, (str, list))):
                raise AssertionError(f"{name} ran on an oversized value")
            return real(*args, **kwargs)

        return call

    cleaning = SimpleNamespace(
        normalize=guarded("normalize", unicodedata.normalize), category=unicodedata.category
    )
    monkeypatch.setattr(store_students, "unicodedata", cleaning)  # this module's only
    monkeypatch.setattr(store_reads, "normal_code", guarded("normal_code", store_reads.normal_code))
    for module, name in ((store_students, "parse_answer"), (store, "normal_recovery_code"),
                         (store, "digest")):  # fmt: skip
        monkeypatch.setattr(module, name, guarded(name, getattr(module, name)))


def test_oversized_texts_are_refused_before_any_work(engine, monkeypatch):
    room, number = open_and_ask(engine)
    token = codes.new_token()
    forbid_work(monkeypatch)
    with pytest.raises(store.TooLong, match="room code is longer than 32"):
        store.join(engine, HUGE, token=token, now=NOW)
    with pytest.raises(store.TooLong, match="nickname is longer than 24"):
        store.join(engine, room.code, token=token, nickname=HUGE, now=NOW)
    with pytest.raises(store.TooLong, match="recovery code is longer than 32"):
        store.recover(engine, room.code, HUGE, token=token, now=NOW)
    with pytest.raises(store.TooLong, match="answer is at most 32 characters"):
        store.answer(engine, room.code, token=token, round_number=number, raw=HUGE, now=NOW)
    with pytest.raises(store.TooLong, match="at most 4096 cells"):
        store.answer(engine, room.code, token=token, round_number=number,
                     raw=[[0, 0]] * 5_000_000, now=NOW)  # fmt: skip
    with pytest.raises(store.TooLong, match="a row and a column"):
        store.answer(engine, room.code, token=token, round_number=number,
                     raw=[[0] * 5_000_000], now=NOW)  # fmt: skip


def test_texts_at_their_cap_are_taken(engine):
    room, number = open_and_ask(engine)
    name = "N" * store.NICKNAME_LENGTH
    token = store_student(engine, room.code, nickname=name)
    assert store.join(engine, room.code, token=token, now=NOW).nickname == name
    spaced = "  " + codes.grouped(room.recovery_code) + " " * 16
    assert len(spaced) == store.RECOVERY_TEXT_LENGTH
    assert store.recover(engine, room.code, spaced, token=token, now=NOW)
    code = f" {room.code[:3]} - {room.code[3:]} ".ljust(store.CODE_TEXT_LENGTH)
    assert store.pulse(engine, code, now=NOW).code == room.code


def test_the_join_forms_boxes_have_the_stores_caps(room):
    app = student()
    assert app.text_input(key=STATE.join_code).max_chars == store.CODE_TEXT_LENGTH
    nickname = app.text_input(key=STATE.join_nickname)
    assert nickname.max_chars == store.NICKNAME_LENGTH
    assert f"at most {store.NICKNAME_LENGTH} characters" in nickname.help


def test_a_typed_answer_past_its_cap_is_cut_by_streamlit_before_the_page_reads_it(room):
    """A script can send a box more than its max_chars: Streamlit keeps the first
    max_chars of it (its TextInputSerde), so the page never parses more."""
    room.ask("value")
    app = student({"code": room.code})
    token = app.session_state[STATE.token]
    assert app.text_input(key=STATE.number).max_chars == store.ANSWER_TEXT_LENGTH
    send(app, text="2.5")
    app.text_input(key=STATE.number).set_value("1" * 10_000)  # .input keeps max_chars
    app.button(key=STATE.send).click().run()
    assert app.text_input(key=STATE.number).value == "1" * store.ANSWER_TEXT_LENGTH
    assert any("far larger than any gradient" in text for text in warnings(app))
    assert room.answer_of(token) == 2.5
    room.ask("size")
    app.run()
    for key in (STATE.rows, STATE.cols):
        assert app.text_input(key=key).max_chars == store.ANSWER_TEXT_LENGTH


# -- over Streamlit's protocol -----------------------------------------------------------


@pytest.mark.browser  # a served app (the browser tests' own), no browser
def test_a_message_over_the_servers_limit_is_closed_on_its_header_and_the_next_is_served(
    app_url,
):
    """.streamlit/config.toml's maxMessageSize (16 MB): a script's 20 MB nickname is not
    read and parsed before the page refuses it (0.1 s of CPU at Streamlit's 200 MB);
    the server closes that connection on the message (RFC 6455's 1009, or as it goes
    out), and the next browser joins as usual. (Its CPU is measured by
    benchmarks/bench_attacks.py's oversized row.)"""
    from own_loop import run_in_own_loop

    from benchmarks.attack_pages import JoinForm
    from benchmarks.bench_attacks import run_or_too_big

    async def two_browsers() -> tuple[object, bool]:
        script = JoinForm(app_url, token=codes.new_token(), source=None)
        await script.open()
        try:
            refused = await run_or_too_big(script.join("K7QX3M", "N" * 20 * 2**20))
        finally:
            await script.close()
        late = JoinForm(app_url, token=codes.new_token(), source=None)
        await late.open()
        try:
            run = await late.join("K7QX3M", "Ann")
        finally:
            await late.close()
        return refused, not run.exceptions

    refused, served = run_in_own_loop(two_browsers())
    assert refused is None  # closed on the message, not a page run
    assert served
