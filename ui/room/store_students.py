"""The students' side of the store: joining a room and answering a round (SQLAlchemy
Core; no Streamlit). Use it through ui/room/store.py, which re-exports it; why answers
are never lost nor land in a closed round is told there."""

from __future__ import annotations

import unicodedata
from numbers import Integral

import sqlalchemy as sa

from . import limits
from .codes import valid_token
from .questions import answer_to_json, parse_answer
from .schema import ANSWERS, MEMBERS, ROOMS, ROUNDS, upsert, write_transaction
from .store_reads import (
    InvalidAnswer,
    NoSuchRoom,
    NoSuchRound,
    NotAllowed,
    Pulse,
    RoundClosed,
    TooFast,
    clock,
    normal,
    pulse_of,
    question_of,
    room_row,
)

NICKNAME_LENGTH = 24


def clean_nickname(text) -> str:
    """Plain text, one line, at most 24 characters (it is never rendered as markup)."""
    kept = "".join(c if not unicodedata.category(c).startswith("C") else " " for c in str(text))
    return " ".join(kept.split())[:NICKNAME_LENGTH]


def _check_token(token) -> None:
    if not valid_token(token):
        raise NotAllowed("This browser's answer token is not valid: reload the page.")


def join(
    engine: sa.Engine, code: str, *, token: str, nickname: str = "", now: float | None = None
) -> Pulse:
    """Join (or rejoin) a room; what its polling needs. Rate-limited per token and per
    room, and for codes that do not exist, for all clients together."""
    now, code = clock(now), normal(code)
    _check_token(token)
    with write_transaction(engine) as connection:
        room = connection.execute(sa.select(ROOMS).where(ROOMS.c.code == code)).first()
        if room is not None:
            return _join(connection, code, token=token, nickname=nickname, now=now)
        # Counted and committed (leaving the block): the refusal must not undo the count.
        guessing = not limits.hit(connection, limits.JOIN_UNKNOWN_CODE, "all", now=now)
    if guessing:
        raise TooFast("Too many tries of codes that do not exist: wait a minute.")
    raise NoSuchRoom("No room has this code: check it on the projector.")


def _join(connection, code: str, *, token: str, nickname: str, now: float) -> Pulse:
    room = room_row(connection, code, now=now)
    if not limits.hit(connection, limits.JOIN_PER_TOKEN, token, now=now):
        raise TooFast("Too many joins from this browser: wait a minute.")
    name = clean_nickname(nickname)
    connection.execute(
        upsert(connection, MEMBERS)
        .values(room_id=room.id, token=token, nickname=name, joined_at=now)
        .on_conflict_do_update(
            index_elements=[MEMBERS.c.room_id, MEMBERS.c.token], set_={"nickname": name}
        )
    )
    if not limits.hit(connection, limits.JOIN_PER_ROOM, room.id, now=now):
        raise TooFast("Too many joins to this room: wait a minute.")
    return pulse_of(room, now=now)


def answer(
    engine: sa.Engine, code: str, *, token: str, round_number: int, raw, now: float | None = None
):
    """Give or change this browser's answer to the round: validated (InvalidAnswer),
    only while the round is open (RoundClosed), rate-limited per token and per room
    (TooFast). The answer as stored (questions.parse_answer's)."""
    now, code = clock(now), normal(code)
    _check_token(token)
    if isinstance(round_number, bool) or not isinstance(round_number, Integral):
        raise NoSuchRound("This room has no such round.")
    round_number = int(round_number)
    with write_transaction(engine) as connection:
        room = room_row(connection, code, now=now)
        if room.ended:
            raise RoundClosed("This room has ended.")
        member = sa.select(MEMBERS.c.token).where(
            MEMBERS.c.room_id == room.id, MEMBERS.c.token == token
        )
        if connection.execute(member).first() is None:
            raise NotAllowed("Join the room before answering.")
        state = connection.execute(
            sa.select(ROUNDS.c.state, ROUNDS.c.question)
            .where(ROUNDS.c.room_id == room.id, ROUNDS.c.number == round_number)
            .with_for_update(key_share=True)  # FOR NO KEY UPDATE: see store.py
        ).first()
        if state is None:
            raise NoSuchRound("This room has no such round.")
        if state.state != "open":
            raise RoundClosed("This round is closed: answers are no longer taken.")
        try:
            parsed = parse_answer(question_of(state.question), raw)
        except ValueError as reason:
            raise InvalidAnswer(str(reason)) from None
        if not limits.hit(connection, limits.ANSWER_PER_TOKEN, token, now=now):
            raise TooFast("Too many answers from this browser: wait a minute.")
        _upsert_answer(connection, room.id, round_number, token, parsed, now=now)
        # Last: the room's counter is the one row every answer of the room touches.
        if not limits.hit(connection, limits.ANSWER_PER_ROOM, room.id, now=now):
            raise TooFast("This room is taking too many answers: wait a minute.")
    return parsed


def _upsert_answer(connection, room_id: int, number: int, token: str, parsed, *, now) -> None:
    connection.execute(
        upsert(connection, ANSWERS)
        .values(
            room_id=room_id,
            round_number=number,
            token=token,
            answer=answer_to_json(parsed),
            answered_at=now,
            changes=0,
        )
        .on_conflict_do_update(
            index_elements=[ANSWERS.c.room_id, ANSWERS.c.round_number, ANSWERS.c.token],
            set_={
                "answer": answer_to_json(parsed),
                "answered_at": now,
                "changes": ANSWERS.c.changes + 1,
            },
        )
    )
