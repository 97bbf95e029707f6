"""The attacks of issue 36's table, run against the store on SQLite and PostgreSQL: one
student's script with fresh browser tokens (which any page load mints), then the
rightful party's action, which must go through. Loops are bounded; windows are never
crossed (every event is within one minute, `NOW`), so nothing passes by waiting.

The script sits behind the hall's one NAT address (HALL) wherever the rightful party
could too: a per-address limit must not make the script's traffic anyone else's."""

from __future__ import annotations

import sqlalchemy as sa
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    RIGHT,
    engine_fixture,
    open_and_ask,
    rows,
    student,
)

from rooms import limits, store
from rooms.schema import ANSWERS, MEMBERS, ROOMS
from teaching.class_mode import codes

HALL = "198.51.100.7"  # the lecture hall's NAT address: the script's and the class's
ELSEWHERE = "203.0.113.40"  # another network
WRONG = "AAAA-AAAA-AAAA"  # a recovery code's shape, no room's (one in 6e16)


def refusal(call, *arguments, **keywords) -> str | None:
    """None when `call` went through, else the refusal's kind."""
    try:
        call(*arguments, **keywords)
    except store.RoomError as error:
        return type(error).__name__
    return None


def test_wrong_recovery_codes_from_six_browsers_never_refuse_the_right_one(engine):
    """Row 1: 6 browsers x 10 wrong recovery codes, twice over, from the hall; the
    lecturer's laptop, in the same hall, types the right code within the minute."""
    room, _ = open_and_ask(engine)
    said = [
        refusal(store.recover, engine, room.code, WRONG, token=browser, address=HALL, now=NOW + 1)
        for browser in [codes.new_token() for _ in range(12)]
        for _ in range(10)
    ]
    assert set(said) == {"WrongRecoveryCode", "TooFast"} and "TooFast" in said  # held back
    laptop = codes.new_token()
    key = store.recover(engine, room.code, codes.grouped(room.recovery_code), token=laptop,
                        address=HALL, now=NOW + 2)  # fmt: skip
    assert store.authorize(engine, room.code, key, now=NOW + 2)
    assert store.close_round(engine, room.code, secret=key, now=NOW + 2) == "closed"


def test_sixty_rooms_opened_from_six_browsers_never_refuse_another_lecturer(engine):
    """Row 2: 60 rooms opened from 6 browsers of one network (more than it may: the
    rest refused); another lecturer, on another network, opens a room."""
    said = [
        refusal(store.open_room, engine, token=browser, address=HALL, now=NOW)
        for browser in [codes.new_token() for _ in range(6)]
        for _ in range(10)
    ]
    lecturer = store.open_room(engine, token=codes.new_token(), address=ELSEWHERE, now=NOW + 1)
    assert store.authorize(engine, lecturer.code, lecturer.secret, now=NOW + 1)
    assert said.count(None) == limits.OPEN_PER_ADDRESS.count and "TooFast" in said
    assert rows(engine, ROOMS) == limits.OPEN_PER_ADDRESS.count + 1


def test_a_thousand_joins_never_refuse_a_members_rejoin_nor_a_late_student(engine):
    """Row 3: 1,000 joins to the room from fresh tokens in the hall; a member's reload
    rejoins (with its nickname kept) and a late student joins, from the hall too."""
    room, _ = open_and_ask(engine)
    member = student(engine, room.code, nickname="Ada")
    for _ in range(1000):
        refusal(store.join, engine, room.code, token=codes.new_token(), address=HALL, now=NOW)
    assert store.join(engine, room.code, token=member, address=HALL, now=NOW + 1).state == "open"
    with engine.connect() as connection:
        kept = connection.execute(
            sa.select(MEMBERS.c.nickname).where(MEMBERS.c.token == member)
        ).scalar_one()
    assert kept == "Ada"
    late = codes.new_token()
    store.join(engine, room.code, token=late, address=ELSEWHERE, now=NOW + 1)
    number = store.pulse(engine, room.code, now=NOW + 1).round_number
    store.answer(engine, room.code, token=late, round_number=number, raw=RIGHT, now=NOW + 1)


def test_answers_from_tokens_that_never_joined_never_refuse_a_members_answer(engine):
    """Row 4: answers from 1,200 tokens that never joined, from the hall; a member in
    the same hall answers and its answer is the one stored."""
    room, number = open_and_ask(engine)
    member = student(engine, room.code)
    said = {
        refusal(
            store.answer,
            engine,
            room.code,
            token=codes.new_token(),
            round_number=number,
            raw=RIGHT,
            address=HALL,
            now=NOW,
        )  # fmt: skip
        for _ in range(1200)
    }
    store.answer(engine, room.code, token=member, round_number=number, raw=RIGHT,
                 address=HALL, now=NOW + 1)  # fmt: skip
    assert said == {"NotAllowed"}
    assert rows(engine, ANSWERS, room.code) == 1
    assert store.answers(engine, room.code, number, now=NOW + 1) == [frozenset(map(tuple, RIGHT))]


def test_joins_to_unknown_codes_never_refuse_a_student_who_mistypes(engine):
    """Row 5: joins to codes with no room from fresh tokens, past what one network may
    send; a student elsewhere who mistypes the code is told there is no such room, and
    one in the hall too while the hall is under its count."""
    room, _ = open_and_ask(engine)
    guesses = [code for code in (c * 6 for c in codes.ALPHABET) if code != room.code]
    mistyped = guesses.pop()
    said = [
        refusal(
            store.join,
            engine,
            guesses[i % len(guesses)],
            token=codes.new_token(),
            address=HALL,
            now=NOW,
        )  # fmt: skip
        for i in range(25)
    ]
    assert refusal(store.join, engine, mistyped, token=codes.new_token(), address=HALL,
                   now=NOW) == "NoSuchRoom"  # fmt: skip
    assert set(said) == {"NoSuchRoom"}  # more than the whole server's 20 of old
    for i in range(limits.UNKNOWN_PER_ADDRESS.count + 5):
        refusal(store.join, engine, guesses[i % len(guesses)], token=codes.new_token(),
                address=HALL, now=NOW)  # fmt: skip
    assert (
        refusal(store.join, engine, mistyped, token=codes.new_token(), address=HALL, now=NOW)
        == "TooFast"
    )  # fmt: skip  (the script's network is held back)
    assert refusal(store.join, engine, mistyped, token=codes.new_token(), address=ELSEWHERE,
                   now=NOW) == "NoSuchRoom"  # fmt: skip
    student(engine, room.code, now=NOW)  # the right code from the hall still joins


class Writes:
    """Counts the statements that write (and, on SQLite, the BEGINs that take the
    file's writer lock) sent through an engine."""

    def __init__(self, engine):
        self.seen: list[str] = []
        sa.event.listen(engine, "before_cursor_execute", self._look)
        sa.event.listen(engine, "begin", self._begin)

    def _look(self, _connection, _cursor, statement, *_rest):
        if statement.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            self.seen.append(statement.split("(")[0].strip())

    def _begin(self, connection):
        if connection.get_execution_options().get("sqlite_begin") == "IMMEDIATE":
            self.seen.append("BEGIN IMMEDIATE")


def test_refused_events_cost_no_database_write(engine):
    """Every refusal of the table's attacks is decided by reads and the process's
    counts: none writes, and none takes SQLite's writer lock."""
    room, number = open_and_ask(engine)
    member = student(engine, room.code)
    spammer = codes.new_token()
    for _ in range(limits.JOIN_PER_TOKEN.count):
        refusal(store.join, engine, "AAAAAA", token=spammer, address=HALL, now=NOW)
    writes = Writes(engine)
    said = [
        refusal(
            store.answer,
            engine,
            room.code,
            token=codes.new_token(),
            round_number=number,
            raw=RIGHT,
            address=HALL,
            now=NOW,
        ),  # fmt: skip
        refusal(
            store.answer,
            engine,
            room.code,
            token=member,
            round_number=number,
            raw=[[9, 9]],
            address=HALL,
            now=NOW,
        ),  # fmt: skip
        refusal(
            store.answer,
            engine,
            room.code,
            token=member,
            round_number=number + 1,
            raw=RIGHT,
            address=HALL,
            now=NOW,
        ),  # fmt: skip
        refusal(store.join, engine, room.code, token=spammer, address=HALL, now=NOW),
        refusal(store.join, engine, "AAAAAA", token=codes.new_token(), address=HALL, now=NOW),
        refusal(store.recover, engine, room.code, WRONG, token=codes.new_token(), now=NOW),
        refusal(store.join, engine, room.code, token=member, address=HALL, now=NOW),  # a rejoin
    ]
    assert said == ["NotAllowed", "InvalidAnswer", "NoSuchRound", "TooFast", "NoSuchRoom",
                    "WrongRecoveryCode", None]  # fmt: skip
    assert writes.seen == []
    store.close_round(engine, room.code, secret=room.secret, now=NOW)
    writes.seen.clear()
    assert refusal(store.answer, engine, room.code, token=member, round_number=number,
                   raw=RIGHT, now=NOW) == "RoundClosed"  # fmt: skip
    assert writes.seen == []
