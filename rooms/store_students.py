"""The students' side of the store: joining a room and answering a round (SQLAlchemy
Core; no Streamlit). Use it through rooms/store.py, which re-exports it; why answers
are never lost nor land in a closed round is told there."""

from __future__ import annotations

import unicodedata
from numbers import Integral

import sqlalchemy as sa

from teaching.class_mode.codes import valid_token
from teaching.class_mode.questions import answer_to_json, parse_answer

from . import limits
from .schema import ANSWERS, MEMBERS, ROOMS, ROUNDS, upsert
from .store_prune import prune_if_due
from .store_reads import (
    InvalidAnswer,
    NoSuchRoom,
    NoSuchRound,
    NotAllowed,
    Pulse,
    RoomLocked,
    RoundClosed,
    TooFast,
    clock,
    counted_transaction,
    normal,
    pulse_of,
    question_of,
    room_row,
)

NICKNAME_LENGTH = 24  # a nickname is cut here: a name, not a message


def clean_nickname(text) -> str:
    """A nickname as plain text, one line: letters, marks, digits, punctuation, symbols
    and single spaces only (controls become spaces; format, private-use, unassigned and
    surrogate characters go), at most NICKNAME_LENGTH long. It is never rendered as
    markup either: the pages show it character for character. The one cleaning of a
    nickname: the store applies it to whatever a page sends."""
    kept = "".join(
        char if unicodedata.category(char)[0] in "LMNPS" else " "
        for char in unicodedata.normalize("NFC", str(text))
        if unicodedata.category(char) not in ("Cf", "Co", "Cn", "Cs")
    )
    return " ".join(kept.split())[:NICKNAME_LENGTH].strip()


def check_token(token) -> None:
    """NotAllowed unless `token` has a token's shape (it keys the rate counts)."""
    if not valid_token(token):
        raise NotAllowed("This browser's answer token is not valid: reload the page.")


def join(
    engine: sa.Engine, code: str, *, token: str, nickname: str = "", now: float | None = None
) -> Pulse:
    """Join (or rejoin) a room; what its polling needs. Every try is counted per token
    (real code or not); a real code per room, codes that do not exist for all clients
    together (TooFast past a limit). A room the lecturer locked takes back its members
    (a reload, a replica's death) and refuses any other token (RoomLocked), before the
    room's own join count: a locked room's refusals use up nothing of its members'."""
    now, code = clock(now), normal(code)
    check_token(token)
    prune_if_due(engine, now=now)
    with counted_transaction(engine) as connection:
        if not limits.hit(connection, limits.JOIN_PER_TOKEN, token, now=now):
            raise TooFast("Too many joins from this browser: wait a minute.")
        room = connection.execute(sa.select(ROOMS).where(ROOMS.c.code == code)).first()
        if room is None:
            _unknown_code(connection, now=now)
        _check_door(connection, room, token=token, now=now)
        if not limits.hit(connection, limits.JOIN_PER_ROOM, room.id, now=now):
            raise TooFast("Too many joins to this room: wait a minute.")
        return _join(connection, code, token=token, nickname=nickname, now=now)


def _is_member(connection, room_id: int, token: str) -> bool:
    member = sa.select(MEMBERS.c.token).where(
        MEMBERS.c.room_id == room_id, MEMBERS.c.token == token
    )
    return connection.execute(member).first() is not None


def _check_door(connection, room, *, token: str, now: float) -> None:
    """RoomLocked for a token that is not a member of a locked room (a room that
    expired is left to say so: NoSuchRoom)."""
    if room.locked and room.expires_at > now and not _is_member(connection, room.id, token):
        raise RoomLocked(f"Room {room.code} is locked: the lecturer lets no new phones join.")


def _unknown_code(connection, *, now: float):
    """A code with no room: counted for everyone together (limits.JOIN_UNKNOWN_CODE),
    on every form that could tell it from a real one, then NoSuchRoom (or TooFast)."""
    if not limits.hit(connection, limits.JOIN_UNKNOWN_CODE, "all", now=now):
        raise TooFast("Too many tries of codes that do not exist: wait a minute.")
    raise NoSuchRoom("No room has this code: check it on the projector.")


def _join(connection, code: str, *, token: str, nickname: str, now: float) -> Pulse:
    room = room_row(connection, code, now=now)
    name = clean_nickname(nickname)
    # A rejoin (a reload, a replica's death) brings no nickname: the one given stays.
    kept = sa.case((sa.literal(name) == "", MEMBERS.c.nickname), else_=sa.literal(name))
    connection.execute(
        upsert(connection, MEMBERS)
        .values(room_id=room.id, token=token, nickname=name, joined_at=now)
        .on_conflict_do_update(
            index_elements=[MEMBERS.c.room_id, MEMBERS.c.token], set_={"nickname": kept}
        )
    )
    return pulse_of(room, now=now)


def answer(
    engine: sa.Engine, code: str, *, token: str, round_number: int, raw, now: float | None = None
):
    """Give or change this browser's answer to the round: validated (InvalidAnswer),
    only while the round is open (RoundClosed), from a token that joined (NotAllowed),
    rate-limited per token and per room (TooFast). Refused answers count against the
    limits too: each took the writer lock. The answer as stored (parse_answer's)."""
    now, code = clock(now), normal(code)
    check_token(token)
    if isinstance(round_number, bool) or not isinstance(round_number, Integral):
        raise NoSuchRound("This room has no such round.")
    round_number = int(round_number)
    prune_if_due(engine, now=now)
    with counted_transaction(engine) as connection:
        if not limits.hit(connection, limits.ANSWER_PER_TOKEN, token, now=now):
            raise TooFast("Too many answers from this browser: wait a minute.")
        room = connection.execute(sa.select(ROOMS).where(ROOMS.c.code == code)).first()
        if room is None or room.expires_at <= now:
            # An answer to a code with no room would tell it from a real one (whose
            # refusal is NotAllowed for a token that never joined): counted as a join's.
            _unknown_code(connection, now=now)
        # Before the round's lock: lock order is rate counts, then round (store.py).
        if not limits.hit(connection, limits.ANSWER_PER_ROOM, room.id, now=now):
            raise TooFast("This room is taking too many answers: wait a minute.")
        parsed = _checked(connection, room, token=token, round_number=round_number, raw=raw)
        _upsert_answer(connection, room.id, round_number, token=token, parsed=parsed, now=now)
    return parsed


def _checked(connection, room, *, token: str, round_number: int, raw):
    """The answer parsed, once the room, the member and the round take it (RoomError:
    raised before anything is written, so the counts alone are kept)."""
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
        return parse_answer(question_of(state.question), raw)
    except ValueError as reason:
        raise InvalidAnswer(str(reason)) from None


def _upsert_answer(connection, room_id: int, number: int, *, token: str, parsed, now) -> None:
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
