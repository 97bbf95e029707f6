"""The students' side of the store: joining a room and answering a round (SQLAlchemy
Core; no Streamlit). Use it through rooms/store.py, which re-exports it; why answers
are never lost nor land in a closed round is told there."""

from __future__ import annotations

import unicodedata
from numbers import Integral

import sqlalchemy as sa

from rooms import limits
from rooms.schema import (
    ANSWERS,
    MEMBERS,
    ROOMS,
    ROUNDS,
    read_transaction,
    upsert,
    write_transaction,
)
from rooms.store_prune import prune_if_due
from rooms.store_reads import (
    ANSWER_TEXT_LENGTH,
    NICKNAME_LENGTH,
    InvalidAnswer,
    Joined,
    NoSuchRoom,
    NoSuchRound,
    NotAllowed,
    RoomLocked,
    RoundClosed,
    TooFast,
    TooLong,
    capped,
    clock,
    normal,
    pulse_of,
    question_of,
    room_row,
)
from teaching.class_mode.codes import valid_token
from teaching.class_mode.questions import answer_to_json, parse_answer


def clean_nickname(text) -> str:
    """A nickname as plain text, one line: letters, marks, digits, punctuation, symbols
    and single spaces only (controls become spaces; format, private-use, unassigned and
    surrogate characters go). It is never rendered as markup either: the pages show it
    character for character. The one cleaning of a nickname: the store applies it to
    whatever a page sends, once that is known to be at most NICKNAME_LENGTH long."""
    kept = "".join(
        char if unicodedata.category(char)[0] in "LMNPS" else " "
        for char in unicodedata.normalize("NFC", capped(text, NICKNAME_LENGTH, what="nickname"))
        if unicodedata.category(char) not in ("Cf", "Co", "Cn", "Cs")
    )
    return " ".join(kept.split())[:NICKNAME_LENGTH].strip()


def check_token(token) -> None:
    """NotAllowed unless `token` has a token's shape (it keys the rate limits' counts)."""
    if not valid_token(token):
        raise NotAllowed("This browser's answer token is not valid: reload the page.")


# Built once, with bind parameters: a flood of refused events costs the read, not the
# building of its statement.
_ROOM_AND_MEMBER = (
    sa.select(ROOMS, MEMBERS.c.nickname, MEMBERS.c.token.label("member"))
    .select_from(
        ROOMS.outerjoin(
            MEMBERS,
            sa.and_(MEMBERS.c.room_id == ROOMS.c.id, MEMBERS.c.token == sa.bindparam("token")),
        )
    )
    .where(ROOMS.c.code == sa.bindparam("code"))
)


def _room_and_member(connection, code: str, token: str):
    """The room's row with this token's membership (member None: not one), or None."""
    return connection.execute(_ROOM_AND_MEMBER, {"code": code, "token": token}).first()


def join(
    engine: sa.Engine,
    code: str,
    *,
    token: str,
    nickname: str = "",
    address: str | None = None,
    now: float | None = None,
) -> Joined:
    """Join (or rejoin) a room; what its polling needs, with the nickname kept. The
    membership is read first: a member's rejoin always goes through (and writes only
    a changed nickname). A new member is counted per token and per address
    (limits.JOIN_PER_TOKEN, JOIN_PER_ADDRESS), a code with no room per token and per
    address too (UNKNOWN_PER_ADDRESS): TooFast past one, before anything is written.
    A room the lecturer locked takes back its members and refuses any other token
    (RoomLocked), before any count: a locked room's refusals use up nothing.
    TooLong for a code or nickname longer than its box, before it is cleaned."""
    now, code = clock(now), normal(code)
    check_token(token)
    name = clean_nickname(nickname)
    counts = limits.counts(engine)
    prune_if_due(engine, now=now)
    with read_transaction(engine) as connection:
        found = _room_and_member(connection, code, token)
    if found is None or found.expires_at <= now:
        _unknown_code(counts, token=token, address=address, now=now)
    if found.member is not None and name in ("", found.nickname):
        return _joined(found, found.nickname, now=now)  # a rejoin: nothing to write
    if found.member is not None and not counts.hit(limits.JOIN_PER_TOKEN, token, now=now):
        return _joined(found, found.nickname, now=now)  # a rejoin; the new name waits
    if found.member is None:
        _check_door(None, found, token=token, member=False)
        if not counts.hit(limits.JOIN_PER_TOKEN, token, now=now):
            raise TooFast("Too many joins from this browser: wait a minute.")
        if not counts.hit(limits.JOIN_PER_ADDRESS, address, now=now):
            raise TooFast("Too many joins from this network just now: wait a minute.")
    with write_transaction(engine) as connection:
        return _join(connection, code, token=token, name=name, now=now)


def _unknown_code(counts: limits.Counts, *, token: str, address, now: float):
    """A code with no room: counted per token and per address, on every form that could
    tell it from a real one, then NoSuchRoom (or TooFast). Nothing is written."""
    if not counts.hit(limits.JOIN_PER_TOKEN, token, now=now):
        raise TooFast("Too many joins from this browser: wait a minute.")
    if not counts.hit(limits.UNKNOWN_PER_ADDRESS, address, now=now):
        raise TooFast("Too many tries of codes that do not exist from this network: wait a minute.")
    raise NoSuchRoom("No room has this code: check it on the projector.")


def _check_door(connection, room, *, token: str, member: bool | None = None) -> None:
    """RoomLocked for a token that is not a member of a locked room (`member`: whether
    it is, when already read)."""
    if not room.locked:
        return
    if member is None:
        found = sa.select(MEMBERS.c.token).where(
            MEMBERS.c.room_id == room.id, MEMBERS.c.token == token
        )
        member = connection.execute(found).first() is not None
    if not member:
        raise RoomLocked(f"Room {room.code} is locked: the lecturer lets no new phones join.")


def _joined(room, nickname: str, *, now: float) -> Joined:
    return Joined(**vars(pulse_of(room, now=now)), nickname=nickname)


def _join(connection, code: str, *, token: str, name: str, now: float) -> Joined:
    room = room_row(connection, code, now=now)
    _check_door(connection, room, token=token)  # locked since the read: checked again
    # A rejoin (a reload, a replica's death) brings no nickname: the one given stays.
    kept = sa.case((sa.literal(name) == "", MEMBERS.c.nickname), else_=sa.literal(name))
    stored = connection.execute(
        upsert(connection, MEMBERS)
        .values(room_id=room.id, token=token, nickname=name, joined_at=now)
        .on_conflict_do_update(
            index_elements=[MEMBERS.c.room_id, MEMBERS.c.token], set_={"nickname": kept}
        )
        .returning(MEMBERS.c.nickname)
    )
    return _joined(room, stored.scalar_one(), now=now)


ANSWER_ITEMS = 64 * 64  # the most cells a question's x has (questions.LARGEST side)


def bounded_answer(raw):
    """`raw` when its size is within what any answer needs: a typed text at most
    ANSWER_TEXT_LENGTH, a list of at most ANSWER_ITEMS pairs; TooLong (before it is
    parsed) otherwise."""
    if isinstance(raw, (str, bytes)):
        if len(raw) > ANSWER_TEXT_LENGTH:
            raise TooLong(f"An answer is at most {ANSWER_TEXT_LENGTH} characters.")
        return raw
    if isinstance(raw, (list, tuple, set, frozenset)):
        if len(raw) > ANSWER_ITEMS:
            raise TooLong(f"An answer picks at most {ANSWER_ITEMS} cells.")
        for item in raw:
            if isinstance(item, (list, tuple)) and len(item) > 2:
                raise TooLong("A picked cell is a row and a column.")
            if isinstance(item, (str, bytes)) and len(item) > ANSWER_TEXT_LENGTH:
                raise TooLong(f"An answer is at most {ANSWER_TEXT_LENGTH} characters.")
    return raw


def answer(
    engine: sa.Engine,
    code: str,
    *,
    token: str,
    round_number: int,
    raw,
    address: str | None = None,
    now: float | None = None,
):
    """Give or change this browser's answer to the round: validated (InvalidAnswer),
    only while the round is open (RoundClosed), from a token that joined (NotAllowed),
    counted against its own token only (limits.ANSWER_PER_TOKEN: TooFast), refused
    ones too. Every refusal is decided by reads, before the write transaction: a flood
    of them never takes the writer. The answer as stored (parse_answer's)."""
    now, code = clock(now), normal(code)
    check_token(token)
    if isinstance(round_number, bool) or not isinstance(round_number, Integral):
        raise NoSuchRound("This room has no such round.")
    round_number = int(round_number)
    raw = bounded_answer(raw)
    counts = limits.counts(engine)
    if not counts.hit(limits.ANSWER_PER_TOKEN, token, now=now):
        raise TooFast("Too many answers from this browser: wait a minute.")
    prune_if_due(engine, now=now)  # due once in PRUNE_EVERY_S: a comparison otherwise
    with read_transaction(engine) as connection:
        found = _room_and_member(connection, code, token)
        if found is None or found.expires_at <= now:
            # An answer to a code with no room would tell it from a real one (whose
            # refusal is NotAllowed for a token that never joined): counted as a join's.
            _unknown_code(counts, token=token, address=address, now=now)
        if found.member is None:  # a stranger is refused after one read
            raise NotAllowed("Join the room before answering.")
        _checked(connection, found, token=token, round_number=round_number, raw=raw)
    with write_transaction(engine) as connection:
        room = room_row(connection, code, now=now)
        parsed = _checked(
            connection, room, token=token, round_number=round_number, raw=raw, lock=True
        )
        _upsert_answer(connection, room.id, round_number, token=token, parsed=parsed, now=now)
    return parsed


def _checked(connection, room, *, token: str, round_number: int, raw, lock: bool = False):
    """The answer parsed, once the room, the member and the round take it (RoomError:
    raised before anything is written). With `lock`, the round's row is locked."""
    if room.ended:
        raise RoundClosed("This room has ended.")
    member = sa.select(MEMBERS.c.token).where(
        MEMBERS.c.room_id == room.id, MEMBERS.c.token == token
    )
    if connection.execute(member).first() is None:
        raise NotAllowed("Join the room before answering.")
    query = sa.select(ROUNDS.c.state, ROUNDS.c.question).where(
        ROUNDS.c.room_id == room.id, ROUNDS.c.number == round_number
    )
    if lock:
        query = query.with_for_update(key_share=True)  # FOR NO KEY UPDATE: see store.py
    state = connection.execute(query).first()
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
