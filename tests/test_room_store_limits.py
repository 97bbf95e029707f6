"""The rooms' rate limits and expiry, on SQLite and PostgreSQL; windows and 12 hours are
crossed by passing a later `now`, never by sleeping."""

from __future__ import annotations

from dataclasses import replace

import pytest
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    RIGHT,
    cells_question,
    engine_fixture,
    open_and_ask,
    rows,
    student,
    value_question,
)

from ui.room import codes, limits, store
from ui.room.schema import ANSWERS, MEMBERS, RATE_COUNTS, ROOMS, ROUNDS

# -- rate limits -------------------------------------------------------------------------------


def test_joins_are_limited_per_token(engine):
    room, _ = open_and_ask(engine)
    token = codes.new_token()
    for _ in range(limits.JOIN_PER_TOKEN.count):
        store.join(engine, room.code, token=token, now=NOW + 30)
    with pytest.raises(store.TooFast):
        store.join(engine, room.code, token=token, now=NOW + 59)
    store.join(engine, room.code, token=codes.new_token(), now=NOW + 59)  # another browser
    store.join(engine, room.code, token=token, now=NOW + 60)  # the next minute


def test_joins_are_limited_per_room(engine, monkeypatch):
    monkeypatch.setattr(limits, "JOIN_PER_ROOM", replace(limits.JOIN_PER_ROOM, count=5))
    room, _ = open_and_ask(engine)
    other, _ = open_and_ask(engine)
    for _ in range(5):
        student(engine, room.code)
    with pytest.raises(store.TooFast, match="this room"):
        student(engine, room.code)
    student(engine, other.code)  # another room is not held back
    student(engine, room.code, now=NOW + 60)
    assert store.member_count(engine, room.code, now=NOW) == 6  # the refused join left none


def test_guessing_codes_is_limited_for_everyone_at_once(engine):
    room, _ = open_and_ask(engine)
    guesses = [c * 6 for c in codes.ALPHABET if c * 6 != room.code]
    for guess in guesses[: limits.JOIN_UNKNOWN_CODE.count]:
        with pytest.raises(store.NoSuchRoom):
            store.join(engine, guess, token=codes.new_token(), now=NOW)
    with pytest.raises(store.TooFast, match="do not exist"):
        store.join(engine, guesses[-1], token=codes.new_token(), now=NOW + 59)
    # A real code is never refused for it; the next minute, guesses are answered again.
    store.join(engine, room.code, token=codes.new_token(), now=NOW + 59)
    with pytest.raises(store.NoSuchRoom):
        store.join(engine, guesses[-1], token=codes.new_token(), now=NOW + 60)


def test_answers_are_limited_per_token(engine):
    room, number = open_and_ask(engine, value_question())
    token, other = student(engine, room.code), student(engine, room.code)
    for step in range(limits.ANSWER_PER_TOKEN.count):
        store.answer(engine, room.code, token=token, round_number=number, raw=step, now=NOW)
    with pytest.raises(store.TooFast, match="this browser"):
        store.answer(engine, room.code, token=token, round_number=number, raw=-1, now=NOW + 1)
    assert store.my_answer(engine, room.code, token=token, round_number=number, now=NOW) == (
        limits.ANSWER_PER_TOKEN.count - 1
    )
    store.answer(engine, room.code, token=other, round_number=number, raw=1, now=NOW + 1)
    store.answer(engine, room.code, token=token, round_number=number, raw=-1, now=NOW + 60)


def test_answers_are_limited_per_room(engine, monkeypatch):
    monkeypatch.setattr(limits, "ANSWER_PER_ROOM", replace(limits.ANSWER_PER_ROOM, count=4))
    room, number = open_and_ask(engine, value_question())
    tokens = [student(engine, room.code) for _ in range(5)]
    for token in tokens[:4]:
        store.answer(engine, room.code, token=token, round_number=number, raw=1, now=NOW)
    with pytest.raises(store.TooFast, match="room is taking too many"):
        store.answer(engine, room.code, token=tokens[4], round_number=number, raw=1, now=NOW)
    assert store.answer_count(engine, room.code, number, now=NOW) == 4  # refused: not stored
    store.answer(engine, room.code, token=tokens[4], round_number=number, raw=1, now=NOW + 60)


# -- expiry --------------------------------------------------------------------------------------


def test_rooms_expire_after_12_hours_and_go_when_a_room_is_next_opened(engine):
    old, number = open_and_ask(engine)
    token = student(engine, old.code)
    store.answer(engine, old.code, token=token, round_number=number, raw=RIGHT, now=NOW)
    kept, _ = open_and_ask(engine, now=NOW + 3600)
    student(engine, kept.code, now=NOW + 3600)
    later = NOW + store.LIFETIME_S
    assert store.pulse(engine, old.code, now=later - 1).ended is False
    # Expired, not deleted yet: students see it ended; nothing more lands in it.
    assert store.pulse(engine, old.code, now=later).ended is True
    with pytest.raises(store.NoSuchRoom):
        store.answer(engine, old.code, token=token, round_number=number, raw=RIGHT, now=later)
    with pytest.raises(store.NoSuchRoom):
        store.ask(engine, old.code, secret=old.secret, question=cells_question(), now=later)
    assert rows(engine, ANSWERS, old.code) == 1
    store.open_room(engine, now=later)
    for table in (ANSWERS, MEMBERS, ROUNDS):
        assert rows(engine, table, old.code) == 0
    assert rows(engine, ROOMS) == 2  # the one an hour younger and the new one
    with pytest.raises(store.NoSuchRoom):
        store.pulse(engine, old.code, now=later)
    assert store.pulse(engine, kept.code, now=later).state == "open"
    assert rows(engine, MEMBERS, kept.code) == 1


def test_old_rate_counts_are_deleted(engine):
    room, _ = open_and_ask(engine)
    student(engine, room.code)
    assert rows(engine, RATE_COUNTS) > 0
    store.open_room(engine, now=NOW + 2 * limits.KEPT_S)
    assert rows(engine, RATE_COUNTS) == 0
