"""The rooms' rate limits and expiry, on SQLite and PostgreSQL; windows and 12 hours are
crossed by passing a later `now`, never by sleeping."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
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

from rooms import limits, store, store_prune, store_reads
from rooms.schema import ANSWERS, MEMBERS, RATE_COUNTS, ROOMS, ROUNDS, new_engine
from teaching.class_mode import codes

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
    assert store_reads.member_count(engine, room.code, now=NOW) == 6  # the refused join left none


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
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == 4  # refused: not stored
    store.answer(engine, room.code, token=tokens[4], round_number=number, raw=1, now=NOW + 60)


# -- expiry --------------------------------------------------------------------------------------


def test_rooms_expire_after_12_hours_and_go_at_the_next_pruning_with_no_room_opened(engine):
    old, number = open_and_ask(engine)
    token = student(engine, old.code)
    store.answer(engine, old.code, token=token, round_number=number, raw=RIGHT, now=NOW)
    kept, _ = open_and_ask(engine, now=NOW + 3600)
    student(engine, kept.code, now=NOW + 3600)
    later = NOW + store.LIFETIME_S
    assert store.pulse(engine, old.code, now=later - 1).ended is False
    # Expired, not deleted yet: students see it ended; its key holder is told it is gone.
    assert store.pulse(engine, old.code, now=later).ended is True
    with pytest.raises(store.NoSuchRoom):
        store.ask(engine, old.code, secret=old.secret, question=cells_question(), now=later)
    assert rows(engine, ANSWERS, old.code) == 1
    # A student's answer (here to the expired room) is the first write that sees the
    # pruning due: the room goes with everything in it, and no room was opened.
    with pytest.raises(store.NoSuchRoom):
        store.answer(engine, old.code, token=token, round_number=number, raw=RIGHT, now=later)
    for table in (ANSWERS, MEMBERS, ROUNDS):
        assert rows(engine, table, old.code) == 0
    assert rows(engine, ROOMS) == 1  # the one an hour younger
    with pytest.raises(store.NoSuchRoom):
        store.pulse(engine, old.code, now=later)
    assert store.pulse(engine, kept.code, now=later).state == "open"
    assert rows(engine, MEMBERS, kept.code) == 1


def test_one_process_prunes_when_due_and_the_others_find_it_done(engine):
    """The next pruning's time is stored: a second engine on the same database (a
    replica) finds it not due until PRUNE_EVERY_S later."""
    old, _ = open_and_ask(engine)
    replica = new_engine(engine.url.render_as_string(hide_password=False))
    try:
        later = NOW + store.LIFETIME_S
        assert store_prune.prune_now(engine, now=later) == 1
        assert store_prune.prune_now(replica, now=later + 1) is None  # done by the other
        assert store.prune_if_due(replica, now=later + 2) is None
        open_and_ask(replica, now=later + 3)  # lives until later + 3 + 12 hours
        assert store.prune_if_due(replica, now=later + 2 + store_prune.PRUNE_EVERY_S) == 0
        assert store_prune.prune_now(engine, now=later + 2 + 2 * store_prune.PRUNE_EVERY_S) == 0
    finally:
        replica.dispose()
    assert rows(engine, ROOMS) == 1


def test_old_rate_counts_are_deleted(engine):
    room, _ = open_and_ask(engine)
    student(engine, room.code)
    assert rows(engine, RATE_COUNTS) > 0
    assert limits.KEPT_S < store_prune.PRUNE_EVERY_S  # the next pruning finds them all old
    # no room expired
    assert store_prune.prune_now(engine, now=NOW + store_prune.PRUNE_EVERY_S) == 0
    assert rows(engine, RATE_COUNTS) == 0


def test_the_class_mode_docs_state_the_limits_and_the_pruning_as_they_are():
    text = " ".join((Path(__file__).parents[1] / "docs" / "class-mode.md").read_text().split())
    assert {limit.window_s for limit in limits.LIMITS} == {60}  # "a minute allows"
    assert (
        f"a browser {limits.RECOVERY_PER_TOKEN.count} wrong recovery codes, "
        f"{limits.JOIN_PER_TOKEN.count} joins, {limits.ANSWER_PER_TOKEN.count} answers and "
        f"{limits.OPEN_PER_TOKEN.count} new rooms, a room {limits.RECOVERY_PER_ROOM.count} "
        f"wrong recovery codes and {limits.JOIN_PER_ROOM.count:,} joins, and everyone "
        f"together {limits.JOIN_UNKNOWN_CODE.count} joins to codes that do not exist and "
        f"{limits.OPEN_ALL.count} new rooms"
    ) in text
    assert store_prune.PRUNE_EVERY_S == 10 * 60 and "every ten minutes or so" in text
    assert store.LIFETIME_S == 12 * 3600 and "Rooms expire after 12 hours" in text


def test_a_pruning_that_fails_costs_the_student_nothing(engine, monkeypatch):
    room, number = open_and_ask(engine, value_question())
    token = student(engine, room.code)

    tried = []

    def blink(*_args, **_kwargs):
        tried.append(True)
        raise sa.exc.OperationalError("DELETE", {}, Exception("the database blinked"))

    monkeypatch.setattr(store_prune, "prune_now", blink)
    later = NOW + store_prune.PRUNE_EVERY_S  # the pruning is due: it is tried, and fails
    assert store.answer(engine, room.code, token=token, round_number=number, raw=2, now=later)
    assert store.my_answer(engine, room.code, token=token, round_number=number, now=later) == 2
    assert tried == [True]
