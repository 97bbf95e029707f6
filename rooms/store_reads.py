"""The store's errors, records and reads (SQLAlchemy Core; no Streamlit). Use them
through rooms/store.py, which re-exports everything here.

Reads are single statements on primary keys or the unique room code: `pulse`, what
every student's page polls, is one row of one table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import sqlalchemy as sa

from rooms.schema import ANSWERS, MEMBERS, ROOMS, ROUNDS, read_transaction
from teaching.class_mode.codes import normal_code
from teaching.class_mode.questions import Question, answer_from_json, from_json

LIFETIME_S = 12 * 3600  # a room expires 12 hours after it was opened

# The longest text each box takes: its widget's max_chars and the store's cap, checked
# on the text as sent, before any cleaning, normalising or hashing, so an oversized
# value (a script's 20 MB) costs one len(). Room code: 6 characters, with room for
# spaces and dashes; recovery code: 12 in groups (XXXX-XXXX-XXXX) and spaces; a typed
# answer: a number such as -123.456 or 7/3.
CODE_TEXT_LENGTH = 32
NICKNAME_LENGTH = 24  # a nickname: a name, not a message
RECOVERY_TEXT_LENGTH = 32
ANSWER_TEXT_LENGTH = 32


class RoomError(Exception):
    """A refusal with a short message fit for the page (str(error))."""


class NoSuchRoom(RoomError):
    """No room has this code (or it expired)."""


class NotAllowed(RoomError):
    """Not the lecturer's key; or a token that may not do this."""


class RoomLocked(NotAllowed):
    """The lecturer locked the room: only its members may (re)join."""


class WrongRecoveryCode(NotAllowed):
    """The recovery code does not open the room (said alike when there is no room)."""


class RoundClosed(RoomError):
    """The round (or the whole room) takes no more answers."""


class TooFast(RoomError):
    """A rate limit: wait a minute."""


class TooLong(RoomError):
    """A text longer than its box allows: refused before it is cleaned or hashed."""


class InvalidAnswer(RoomError):
    """The answer is malformed or out of bounds (questions.parse_answer's reason)."""


class RoomEnded(RoomError):
    """The lecturer ended the room: nothing more can be asked."""


class NoSuchRound(RoomError):
    """No round of this number (or none yet)."""


@dataclass(frozen=True)
class Pulse:
    """What a student's polling needs. round_number: 0 before the first question;
    state: "waiting" (no round yet), "open", "closed" or "revealed"; vote: 1, or 2 for
    a vote again; ended: the lecturer ended the room, or it expired; expires_at: when
    the room goes (seconds since the epoch)."""

    code: str
    round_number: int
    state: str
    vote: int
    ended: bool
    expires_at: float = 0.0


@dataclass(frozen=True)
class Joined(Pulse):
    """A join's pulse, with the nickname as the store keeps it (cleaned there, once):
    what the page shows."""

    nickname: str = ""


@dataclass(frozen=True)
class Round:
    """One round: its number, question, state ("open", "closed", "revealed"), vote (1,
    2, ...) and, for a vote again, first_round: the round of the first vote (None)."""

    number: int
    question: Question
    state: str
    vote: int
    first_round: int | None


def clock(now: float | None) -> float:
    return time.time() if now is None else float(now)


def capped(text, most: int, *, what: str) -> str:
    """`text` as text when it is at most `most` characters; TooLong before any other
    work when it is longer (or is not text at all)."""
    if not isinstance(text, str):
        raise TooLong(f"The {what} must be text.")
    if len(text) > most:
        raise TooLong(f"The {what} is longer than {most} characters.")
    return text


def normal(code: str) -> str:
    """The code as stored; TooLong past CODE_TEXT_LENGTH (before any cleaning);
    NoSuchRoom with the reason when it cannot be one."""
    capped(code, CODE_TEXT_LENGTH, what="room code")
    try:
        return normal_code(code)
    except ValueError as reason:
        raise NoSuchRoom(str(reason)) from None


def room_row(connection: sa.Connection, code: str, *, now: float, lock: bool = False):
    """The room's row; NoSuchRoom when there is none or it expired."""
    query = sa.select(ROOMS).where(ROOMS.c.code == code)
    room = connection.execute(query.with_for_update() if lock else query).first()
    if room is None or room.expires_at <= now:
        raise NoSuchRoom("No room has this code: check it on the projector.")
    return room


def pulse_of(room, *, now: float) -> Pulse:
    return Pulse(
        code=room.code,
        round_number=room.round_number,
        state=room.round_state,
        vote=room.vote,
        ended=bool(room.ended) or room.expires_at <= now,
        expires_at=room.expires_at,
    )


_PULSE = sa.select(
    ROOMS.c.code,
    ROOMS.c.round_number,
    ROOMS.c.round_state,
    ROOMS.c.vote,
    ROOMS.c.ended,
    ROOMS.c.expires_at,
)


def pulse(engine: sa.Engine, code: str, *, now: float | None = None) -> Pulse:
    """The room's current round number and state: one indexed read of one row. An
    expired room that is not deleted yet reads as ended."""
    code = normal(code)
    with engine.connect() as connection:
        room = connection.execute(_PULSE.where(ROOMS.c.code == code)).first()
    if room is None:
        raise NoSuchRoom("No room has this code: check it on the projector.")
    return pulse_of(room, now=clock(now))


@lru_cache(maxsize=64)
def question_of(text: str) -> Question:
    """The stored question (parsed once per process and text: every answer to a round
    is checked against the same one)."""
    return from_json(text)


def _round_row(connection, code: str, number: int, *, now: float):
    room = room_row(connection, normal(code), now=now)
    found = _numbered_round(connection, room.id, number)
    if found is None:
        raise NoSuchRound(f"This room has no round {int(number)}.")
    return room, found


def round_of(engine: sa.Engine, code: str, round_number: int, *, now: float | None = None) -> Round:
    with read_transaction(engine) as connection:
        _, found = _round_row(connection, code, round_number, now=clock(now))
    return _as_round(found)


def _as_round(found) -> Round:
    """A round's row as a Round (its question parsed once per process: question_of)."""
    return Round(
        number=found.number,
        question=question_of(found.question),
        state=found.state,
        vote=found.vote,
        first_round=found.first_round,
    )


def _answers_of(room_id: int, number: int):
    return sa.select(ANSWERS.c.answer).where(
        ANSWERS.c.room_id == room_id, ANSWERS.c.round_number == number
    )


def my_answer(
    engine: sa.Engine, code: str, *, token: str, round_number: int, now: float | None = None
):
    """This browser's answer to the round (as parse_answer gives it), or None."""
    with read_transaction(engine) as connection:
        room, found = _round_row(connection, code, round_number, now=clock(now))
        return _answer_read(connection, room.id, found, token=token)


@dataclass(frozen=True)
class PhoneView:
    """What a student's page is drawn from, read at one moment. pulse: the room's;
    round: the round on screen, None while the room waits for its first question or
    has ended; mine: this browser's answer to it (None: none yet); first_vote: its
    answer in the round a second vote repeats (None: none, or not a second vote)."""

    pulse: Pulse
    round: Round | None = None
    mine: object = None
    first_vote: object = None


# A phone's three reads, built once (every phone of a round change runs them): a
# statement built per call cost more of the read than the database did.
_ROOM_BY_CODE = sa.select(ROOMS).where(ROOMS.c.code == sa.bindparam("code"))
_ROUND_BY_NUMBER = sa.select(ROUNDS).where(
    ROUNDS.c.room_id == sa.bindparam("room_id"), ROUNDS.c.number == sa.bindparam("number")
)
_ANSWER_BY_TOKEN = sa.select(ANSWERS.c.answer).where(
    ANSWERS.c.room_id == sa.bindparam("room_id"),
    ANSWERS.c.round_number == sa.bindparam("number"),
    ANSWERS.c.token == sa.bindparam("token"),
)


def phone_view(engine: sa.Engine, code: str, *, token: str, now: float | None = None) -> PhoneView:
    """The room as a student's page draws it, in one read transaction (a full run of
    every phone at a round change: one transaction, not one per row). An expired room
    that is not deleted yet reads as ended, as `pulse` reads it."""
    code, now = normal(code), clock(now)
    with read_transaction(engine) as connection:
        room = connection.execute(_ROOM_BY_CODE, {"code": code}).first()
        if room is None:
            raise NoSuchRoom("No room has this code: check it on the projector.")
        now_pulse = pulse_of(room, now=now)
        if now_pulse.ended or now_pulse.state == "waiting":
            return PhoneView(now_pulse)
        found = _numbered_round(connection, room.id, now_pulse.round_number)
        if found is None:
            raise NoSuchRound(f"This room has no round {now_pulse.round_number}.")
        mine = _answer_read(connection, room.id, found, token=token)
        first_vote = None
        if found.vote > 1 and found.first_round is not None:
            first = _numbered_round(connection, room.id, found.first_round)
            if first is not None:
                first_vote = _answer_read(connection, room.id, first, token=token)
    return PhoneView(now_pulse, _as_round(found), mine, first_vote)


def _numbered_round(connection, room_id: int, number: int):
    """The row of the room's round `number`, or None."""
    return connection.execute(_ROUND_BY_NUMBER, {"room_id": room_id, "number": int(number)}).first()


def _answer_read(connection, room_id: int, found, *, token: str):
    """The browser's answer to the round row `found` (its number and kind), parsed, or None."""
    text = connection.execute(
        _ANSWER_BY_TOKEN, {"room_id": room_id, "number": found.number, "token": str(token)}
    ).scalar()
    return None if text is None else answer_from_json(found.kind, text)


def answers(engine: sa.Engine, code: str, round_number: int, *, now: float | None = None) -> list:
    """Every answer to the round, parsed (for tally.tally), in token order."""
    with read_transaction(engine) as connection:
        room, found = _round_row(connection, code, round_number, now=clock(now))
        texts = connection.execute(
            _answers_of(room.id, found.number).order_by(ANSWERS.c.token)
        ).scalars()
        return [answer_from_json(found.kind, text) for text in texts]


def answer_count(
    engine: sa.Engine, code: str, round_number: int, *, now: float | None = None
) -> int:
    """How many browsers answered the round."""
    with read_transaction(engine) as connection:
        room = room_row(connection, normal(code), now=clock(now))
        counted = sa.select(sa.func.count()).where(
            ANSWERS.c.room_id == room.id, ANSWERS.c.round_number == int(round_number)
        )
        return int(connection.execute(counted).scalar_one())


def member_count(engine: sa.Engine, code: str, *, now: float | None = None) -> int:
    """How many browsers joined the room."""
    with read_transaction(engine) as connection:
        room = room_row(connection, normal(code), now=clock(now))
        counted = sa.select(sa.func.count()).where(MEMBERS.c.room_id == room.id)
        return int(connection.execute(counted).scalar_one())


@dataclass(frozen=True)
class RoundAnswers:
    """One round with every answer to it, parsed (as parse_answer gives them), in
    token order; the tokens themselves stay in the database."""

    round: Round
    answers: list


def every_round(engine: sa.Engine, code: str, *, now: float | None = None) -> list[RoundAnswers]:
    """Every round of the room, in order, each with its answers: the room's results,
    read in one snapshot (two statements, whatever the number of rounds)."""
    with read_transaction(engine) as connection:
        room = room_row(connection, normal(code), now=clock(now))
        rounds = connection.execute(
            sa.select(ROUNDS).where(ROUNDS.c.room_id == room.id).order_by(ROUNDS.c.number)
        ).all()
        given = connection.execute(
            sa.select(ANSWERS.c.round_number, ANSWERS.c.answer)
            .where(ANSWERS.c.room_id == room.id)
            .order_by(ANSWERS.c.round_number, ANSWERS.c.token)
        ).all()
    by_round: dict[int, list] = {found.number: [] for found in rounds}
    kinds = {found.number: found.kind for found in rounds}
    for number, text in given:
        by_round[number].append(answer_from_json(kinds[number], text))
    return [
        RoundAnswers(
            Round(
                number=found.number,
                question=question_of(found.question),
                state=found.state,
                vote=found.vote,
                first_round=found.first_round,
            ),
            by_round[found.number],
        )
        for found in rounds
    ]


@dataclass(frozen=True)
class Door:
    """Who is in: how many browsers joined the room, and whether the lecturer locked
    it (no new members; those in keep answering and rejoining)."""

    members: int
    locked: bool


def door(engine: sa.Engine, code: str, *, now: float | None = None) -> Door:
    """The room's Door, read in one snapshot (the room's row and its member count)."""
    with read_transaction(engine) as connection:
        room = room_row(connection, normal(code), now=clock(now))
        counted = sa.select(sa.func.count()).where(MEMBERS.c.room_id == room.id)
        return Door(int(connection.execute(counted).scalar_one()), bool(room.locked))
