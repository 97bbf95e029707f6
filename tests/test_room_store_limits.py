"""The rooms' rate limits and expiry, on SQLite and PostgreSQL; windows and 12 hours are
crossed by passing a later `now`, never by sleeping."""

from __future__ import annotations

import threading
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
from rooms.schema import ANSWERS, MEMBERS, ROOMS, ROUNDS, new_engine
from teaching.class_mode import codes

HALL, ELSEWHERE = "198.51.100.7", "203.0.113.40"  # two networks' addresses

# -- rate limits -------------------------------------------------------------------------------


def test_a_browsers_joins_are_counted_and_its_rejoins_never(engine):
    room, _ = open_and_ask(engine)
    token = student(engine, room.code)  # its first join: one
    for _ in range(3 * limits.JOIN_PER_TOKEN.count):  # reloads: never counted
        store.join(engine, room.code, token=token, now=NOW + 30)
    for _ in range(limits.JOIN_PER_TOKEN.count - 1):  # probing codes: counted
        with pytest.raises(store.NoSuchRoom):
            store.join(engine, "AAAAAA", token=token, now=NOW + 30)
    with pytest.raises(store.TooFast, match="from this browser"):
        store.join(engine, "AAAAAA", token=token, now=NOW + 59)
    with pytest.raises(store.TooFast, match="from this browser"):
        store.join(engine, open_and_ask(engine)[0].code, token=token, now=NOW + 59)
    store.join(engine, room.code, token=token, now=NOW + 59)  # its own room: a rejoin
    store.join(engine, room.code, token=codes.new_token(), now=NOW + 59)  # another browser
    with pytest.raises(store.NoSuchRoom):
        store.join(engine, "AAAAAA", token=token, now=NOW + 60)  # the next minute


def test_joins_are_limited_per_address_and_never_a_members_rejoin(engine, monkeypatch):
    monkeypatch.setattr(limits, "JOIN_PER_ADDRESS", replace(limits.JOIN_PER_ADDRESS, count=5))
    room, _ = open_and_ask(engine)
    hall = [codes.new_token() for _ in range(6)]
    for token in hall[:5]:
        store.join(engine, room.code, token=token, address=HALL, now=NOW)
    with pytest.raises(store.TooFast, match="from this network"):
        store.join(engine, room.code, token=hall[5], address=HALL, now=NOW)
    store.join(engine, room.code, token=hall[0], address=HALL, now=NOW + 1)  # a reload
    store.join(engine, room.code, token=hall[0], nickname="Ada", address=HALL, now=NOW + 1)
    store.join(engine, room.code, token=codes.new_token(), address=ELSEWHERE, now=NOW + 1)
    store.join(engine, room.code, token=codes.new_token(), now=NOW + 1)  # no address known
    store.join(engine, room.code, token=hall[5], address=HALL, now=NOW + 60)
    assert store_reads.member_count(engine, room.code, now=NOW) == 8  # the refused: none


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
        assert store_prune.prune_if_due(replica, now=later + 2) is None
        open_and_ask(replica, now=later + 3)  # lives until later + 3 + 12 hours
        assert store_prune.prune_if_due(replica, now=later + 2 + store_prune.PRUNE_EVERY_S) == 0
        assert store_prune.prune_now(engine, now=later + 2 + 2 * store_prune.PRUNE_EVERY_S) == 0
    finally:
        replica.dispose()
    assert rows(engine, ROOMS) == 1


def test_the_process_forgets_windows_long_past():
    counts = limits.Counts()
    for minute in range(10):
        assert counts.hit(limits.JOIN_PER_TOKEN, "browser", now=NOW + 60 * minute)
        assert counts.hit(limits.JOIN_PER_ADDRESS, None, now=NOW + 60 * minute)  # not counted
    assert counts.windows() <= 3  # this minute and the one or two before it


def test_counts_are_per_process_and_thread_safe():
    """Eight threads counting one subject at once lose no count."""
    counts = limits.Counts()
    limit = replace(limits.ANSWER_PER_TOKEN, count=10_000)
    allowed = []

    def hammer():
        allowed.append(sum(counts.hit(limit, "one", now=NOW) for _ in range(2000)))

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(allowed) == 10_000  # exactly the limit, of 16,000


def test_the_class_mode_docs_state_the_limits_and_the_pruning_as_they_are():
    text = " ".join((Path(__file__).parents[1] / "docs" / "class-mode.md").read_text().split())
    assert {limit.window_s for limit in limits.LIMITS} == {60}  # "a minute allows"
    assert (
        f"a browser {limits.RECOVERY_PER_TOKEN.count} wrong recovery codes, "
        f"{limits.JOIN_PER_TOKEN.count} joins, {limits.ANSWER_PER_TOKEN.count} answers and "
        f"{limits.OPEN_PER_TOKEN.count} new rooms, and a network address "
        f"{limits.RECOVERY_PER_ADDRESS.count} wrong recovery codes, "
        f"{limits.JOIN_PER_ADDRESS.count} new members, {limits.UNKNOWN_PER_ADDRESS.count} "
        f"joins to codes that do not exist and {limits.OPEN_PER_ADDRESS.count} new rooms"
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
