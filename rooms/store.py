"""The rooms in a SQL database (SQLAlchemy Core; SQLite or PostgreSQL; no Streamlit).

Every function takes the engine first and keyword-only arguments after; every write
is one transaction; `now` (seconds since the epoch) is injectable for the tests.

Why no answer is ever lost or lands in a closed round:
- An answer is one upsert on the primary key (room, round, token): INSERT .. ON
  CONFLICT DO UPDATE. There is no read-modify-write, so concurrent students never
  overwrite each other, and one browser's second answer replaces its first.
- The answer's transaction locks the round's row (FOR NO KEY UPDATE, PostgreSQL) and
  reads its state there. Closing a round updates that row, so it waits for the answer
  in flight, and an answer that comes after waits for the close and then reads the
  round closed (read committed re-reads a row once its lock is granted). So once
  `close_round` returns, the count is final. Not FOR SHARE: share locks join each
  other without queueing, so a stream of answers could keep the close waiting for
  minutes (a test saw it); exclusive lockers queue in order.
  SQLite takes the write lock at BEGIN (schema.write_transaction): writes are serial.
- Lock order is always room, then round (control, expiry) or round alone (answers),
  so no two transactions wait on each other in a circle.

Who is held back, and by what (the numbers and why: limits.py):
- Nothing is counted for a room or for everyone: every limit is per browser token and
  per network address (`address`, None when the page does not know it), counted in
  the process, so a refusal costs no database write.
- Who is asking is read before anything shared is counted: a member's rejoin is never
  refused, a member's answer counts against its own token only, and the right
  recovery code is compared before any count can refuse it.
- A device holding a room's key (the opener's, or one `recover` gave for the recovery
  code) is checked by a read and never counted: others' wrong tries cannot lock it out.
- Every refusal of a student's join or answer is decided by reads, before the write
  transaction begins: a flood of refused events never takes the room's writer.
- A code with no room is answered and counted as a real one wherever the answer could
  tell them apart: the recovery form says "does not open room X" for both.
- Every text is capped at its box's length (store_reads: CODE_TEXT_LENGTH, ...)
  before it is cleaned or hashed: TooLong.
- Expired rooms go on a schedule shared by the replicas (store_prune).

Who is in, and who holds a key (the lecturer's, never counted):
- `lock_room` closes the room to new members: a locked room takes back a token that
  already joined (a reload, a replica's death) and refuses any other (RoomLocked,
  store_students.join); its members answer as before. `door` reads the member count
  and the lock.
- `replace_recovery_code` makes a new recovery code and keeps one key, the one that
  asked: the old code and every other device's key stop opening the room (a code that
  leaked, a laptop left behind).

Reads for the pages (`answers`, `round_of`, ...) live in store_reads, the students'
writes in store_students; the ones the pages use are re-exported here (__all__), so
`store` is the pages' whole interface: ui/ imports no other store module (an
import-linter contract). The counts and the pruning the tests check are theirs to
import from store_reads and store_prune.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

import sqlalchemy as sa

from rooms import limits
from rooms.schema import KEYS, ROOMS, ROUNDS, read_transaction, upsert, write_transaction
from rooms.store_prune import prune_if_due
from rooms.store_reads import (
    CODE_TEXT_LENGTH,
    LIFETIME_S,
    NICKNAME_LENGTH,
    RECOVERY_TEXT_LENGTH,
    Door,
    Joined,
    NoSuchRoom,
    NoSuchRound,
    NotAllowed,
    PhoneView,
    Pulse,
    RoomEnded,
    RoomError,
    RoomLocked,
    Round,
    RoundAnswers,
    RoundClosed,
    TooFast,
    TooLong,
    WrongRecoveryCode,
    answers,
    capped,
    clock,
    door,
    every_round,
    my_answer,
    normal,
    phone_view,
    pulse,
    room_row,
    round_of,
)
from rooms.store_students import (
    ANSWER_TEXT_LENGTH,
    answer,
    check_token,
    clean_nickname,
    join,
)
from teaching.class_mode.codes import (
    digest,
    new_code,
    new_recovery_code,
    new_secret,
    normal_recovery_code,
)
from teaching.class_mode.questions import Question, to_json

# The rooms' one public face (ui/ and the benchmarks import `rooms.store` only, an
# import-linter contract): the lecturer's writes here, the reads and the students'
# writes re-exported from the modules they live in.
__all__ = [
    "NewRoom",
    "open_room",
    "authorize",
    "recover",
    "ask",
    "SECOND_VOTE",
    "vote_again",
    "close_round",
    "reveal",
    "end_room",
    "lock_room",
    "replace_recovery_code",
    # store_reads
    "CODE_TEXT_LENGTH",
    "LIFETIME_S",
    "NICKNAME_LENGTH",
    "RECOVERY_TEXT_LENGTH",
    "Door",
    "Joined",
    "NoSuchRoom",
    "NoSuchRound",
    "NotAllowed",
    "PhoneView",
    "Pulse",
    "RoomEnded",
    "RoomError",
    "RoomLocked",
    "Round",
    "RoundAnswers",
    "RoundClosed",
    "TooFast",
    "TooLong",
    "WrongRecoveryCode",
    "answers",
    "capped",
    "clock",
    "door",
    "every_round",
    "my_answer",
    "normal",
    "phone_view",
    "pulse",
    "room_row",
    "round_of",
    # store_students
    "ANSWER_TEXT_LENGTH",
    "answer",
    "check_token",
    "clean_nickname",
    "join",
]


@dataclass(frozen=True)
class NewRoom:
    """code: the join code; secret: the lecturer's key (kept in the lecturer's browser,
    never shown); recovery_code: 12 characters, shown once (codes.grouped)."""

    code: str
    secret: str
    recovery_code: str


# -- the lecturer ----------------------------------------------------------------------------


def open_room(
    engine: sa.Engine, *, token: str, address: str | None = None, now: float | None = None
) -> NewRoom:
    """A new room for the browser `token` at network `address` (None: not known),
    counted per token and per address (limits.OPEN_PER_TOKEN, OPEN_PER_ADDRESS:
    TooFast, before anything is written)."""
    now = clock(now)
    check_token(token)
    counts = limits.counts(engine)
    if not counts.hit(limits.OPEN_PER_TOKEN, token, now=now):
        raise TooFast("Too many rooms opened from this browser: wait a minute.")
    if not counts.hit(limits.OPEN_PER_ADDRESS, address, now=now):
        raise TooFast("Too many rooms opened from this network just now: wait a minute.")
    prune_if_due(engine, now=now)
    secret, recovery = new_secret(), new_recovery_code()
    with write_transaction(engine) as connection:
        while True:  # a code already taken (1 in 244 million per room open): draw again
            code = new_code()
            inserted = connection.execute(
                upsert(connection, ROOMS)
                .values(
                    code=code,
                    key_digest=digest(secret),
                    recovery_digest=digest(recovery),
                    created_at=now,
                    expires_at=now + LIFETIME_S,
                )
                .on_conflict_do_nothing(index_elements=[ROOMS.c.code])
                .returning(ROOMS.c.id)
            ).first()
            if inserted is not None:
                return NewRoom(code, secret, recovery)


def _key_opens(connection, room, secret: str) -> bool:
    """Whether `secret` is the room's key or a key a device got for it (`recover`)."""
    wanted = digest(secret)
    if hmac.compare_digest(wanted, room.key_digest):
        return True
    found = sa.select(KEYS.c.key_digest).where(
        KEYS.c.room_id == room.id, KEYS.c.key_digest == wanted
    )
    return connection.execute(found).first() is not None


def authorize(engine: sa.Engine, code: str, secret: str, *, now: float | None = None) -> bool:
    """Whether `secret` is a key of the room: the opener's, or one `recover` gave.
    One read, never counted nor limited (a key is 256 random bits: nobody guesses
    one, and nobody's wrong tries can hold its holder back). False alike for a room
    that does not exist and for a wrong key; NoSuchRoom only for a key of a room that
    expired and is not yet deleted (its holder may know that)."""
    now, code = clock(now), normal(code)
    with read_transaction(engine) as connection:
        room = connection.execute(sa.select(ROOMS).where(ROOMS.c.code == code)).first()
        if room is None or not _key_opens(connection, room, str(secret)):
            return False
    if room.expires_at <= now:
        raise NoSuchRoom("No room has this code: check it on the projector.")
    return True


def recover(
    engine: sa.Engine,
    code: str,
    recovery_code: str,
    *,
    token: str,
    address: str | None = None,
    now: float | None = None,
) -> str:
    """A new key for room `code` for the browser `token`, given its recovery code.
    WrongRecoveryCode, the same for a wrong code and a room that does not exist. The
    right code is never refused for others' tries: it is compared first. A wrong one
    is counted per token and per address (limits.RECOVERY_PER_TOKEN,
    RECOVERY_PER_ADDRESS: TooFast past one); a browser past its own count is refused
    before its try is looked at. TooLong past RECOVERY_TEXT_LENGTH, before hashing."""
    now, code = clock(now), normal(code)
    check_token(token)
    typed = capped(recovery_code, RECOVERY_TEXT_LENGTH, what="recovery code")
    counts = limits.counts(engine)
    if not counts.within(limits.RECOVERY_PER_TOKEN, token, now=now):
        raise TooFast("Too many wrong recovery codes from this browser: wait a minute.")
    with read_transaction(engine) as connection:
        room = connection.execute(sa.select(ROOMS).where(ROOMS.c.code == code)).first()
    stored = _NO_DIGEST if room is None or room.expires_at <= now else room.recovery_digest
    if not hmac.compare_digest(digest(normal_recovery_code(typed)), stored):
        counts.hit(limits.RECOVERY_PER_TOKEN, token, now=now)
        if not counts.hit(limits.RECOVERY_PER_ADDRESS, address, now=now):
            raise TooFast("Too many wrong recovery codes from this network: wait a minute.")
        raise WrongRecoveryCode(f"That recovery code does not open room {code}.")
    key = new_secret()
    with write_transaction(engine) as connection:
        room = room_row(connection, code, now=now)
        connection.execute(
            sa.insert(KEYS).values(room_id=room.id, key_digest=digest(key), created_at=now)
        )
    return key


_NO_DIGEST = "-" * 64  # matches no digest (hex): a room that is not there compares alike


def _authorized(engine, code: str, secret: str, *, now: float) -> None:
    """NotAllowed unless `secret` is a key of the room (a read: nothing is counted)."""
    if not authorize(engine, code, secret, now=now):
        raise NotAllowed(f"This browser's key does not open room {normal(code)}.")


def _locked(connection, code: str, *, now: float):
    """The room's row, locked for a change by the lecturer."""
    room = room_row(connection, normal(code), now=now, lock=True)
    if room.ended:
        raise RoomEnded("This room has ended.")
    return room


def _set_round(connection, room, *, state: str, number=None, vote=None) -> None:
    """The room's current round (its own row and the room's copy for `pulse`)."""
    number = room.round_number if number is None else number
    connection.execute(
        sa.update(ROUNDS)
        .where(ROUNDS.c.room_id == room.id, ROUNDS.c.number == number)
        .values(state=state)
    )
    changes = {"round_state": state, "round_number": number}
    connection.execute(
        sa.update(ROOMS)
        .where(ROOMS.c.id == room.id)
        .values(**changes, **({} if vote is None else {"vote": vote}))
    )


def _new_round(connection, room, *, kind, question_json, vote, first_round, now) -> int:
    if room.round_state == "open":
        _set_round(connection, room, state="closed")
    number = room.round_number + 1
    connection.execute(
        sa.insert(ROUNDS).values(
            room_id=room.id,
            number=number,
            kind=kind,
            question=question_json,
            state="open",
            vote=vote,
            first_round=first_round,
            opened_at=now,
        )
    )
    _set_round(connection, room, state="open", number=number, vote=vote)
    return number


def ask(
    engine: sa.Engine, code: str, *, secret: str, question: Question, now: float | None = None
) -> int:
    """Open a round on `question` (closing the one before); its number (1, 2, ...)."""
    now = clock(now)
    _authorized(engine, code, secret, now=now)
    with write_transaction(engine) as connection:
        room = _locked(connection, code, now=now)
        return _new_round(
            connection, room, kind=question.kind, question_json=to_json(question),
            vote=1, first_round=None, now=now,
        )  # fmt: skip


SECOND_VOTE = 2  # peer instruction votes twice; the results pair vote 1 with vote 2


def vote_again(engine: sa.Engine, code: str, *, secret: str, now: float | None = None) -> int:
    """A new round on the current round's question (after discussion): vote 2 (one
    more than the round it repeats), first_round = the first vote's round."""
    now = clock(now)
    _authorized(engine, code, secret, now=now)
    with write_transaction(engine) as connection:
        room = _locked(connection, code, now=now)
        if room.round_number == 0:
            raise NoSuchRound("Ask a question first.")
        current = connection.execute(
            sa.select(ROUNDS).where(
                ROUNDS.c.room_id == room.id, ROUNDS.c.number == room.round_number
            )
        ).one()
        if current.vote >= SECOND_VOTE:  # a double click, or a second device: no vote 3
            raise NoSuchRound("This question has had its second vote: ask a new one.")
        return _new_round(
            connection, room, kind=current.kind, question_json=current.question,
            vote=current.vote + 1, first_round=current.first_round or current.number, now=now,
        )  # fmt: skip


def _next_state(current: str, wanted: str) -> str:
    """Closing keeps a round revealed (or closed); revealing closes it too."""
    if wanted == "closed" and current != "open":
        return current
    return wanted


def _change_state(engine, code, *, secret, now, wanted: str, end: bool = False) -> str:
    now = clock(now)
    _authorized(engine, code, secret, now=now)
    with write_transaction(engine) as connection:
        room = _locked(connection, code, now=now)
        if room.round_number == 0 and not end:
            raise NoSuchRound("Ask a question first.")
        state = _next_state(room.round_state, wanted) if room.round_number else "waiting"
        if state != room.round_state:
            _set_round(connection, room, state=state)
        if end:
            connection.execute(sa.update(ROOMS).where(ROOMS.c.id == room.id).values(ended=True))
        return state


def close_round(engine: sa.Engine, code: str, *, secret: str, now: float | None = None) -> str:
    """Close the current round: no answer lands in it after this returns. Its state
    ("closed", or "revealed" when it already was)."""
    return _change_state(engine, code, secret=secret, now=now, wanted="closed")


def reveal(engine: sa.Engine, code: str, *, secret: str, now: float | None = None) -> str:
    """Close the current round (if open) and mark it revealed: the answer is shown."""
    return _change_state(engine, code, secret=secret, now=now, wanted="revealed")


def end_room(engine: sa.Engine, code: str, *, secret: str, now: float | None = None) -> None:
    """End the room: an open round closes and students see that it ended. Its rounds
    and answers are kept for the lecturer until the room expires."""
    _change_state(engine, code, secret=secret, now=now, wanted="closed", end=True)


# -- who is in, and who holds a key ----------------------------------------------------------


def lock_room(
    engine: sa.Engine, code: str, *, secret: str, locked: bool, now: float | None = None
) -> bool:
    """Lock the room (`locked`: no new members; those in keep answering and
    rejoining) or open it again. Whether it is locked now."""
    now = clock(now)
    _authorized(engine, code, secret, now=now)
    with write_transaction(engine) as connection:
        room = _locked(connection, code, now=now)
        connection.execute(
            sa.update(ROOMS).where(ROOMS.c.id == room.id).values(locked=bool(locked))
        )
    return bool(locked)


def replace_recovery_code(
    engine: sa.Engine, code: str, *, secret: str, now: float | None = None
) -> str:
    """A new recovery code for the room (returned once, as new_recovery_code makes it;
    only its digest is kept), asked for by the device holding `secret`: the old code
    no longer opens the room, and no key does but `secret` (the opener's key, when
    another device asked, is revoked too: the room's key becomes `secret`'s)."""
    now = clock(now)
    _authorized(engine, code, secret, now=now)
    recovery = new_recovery_code()
    with write_transaction(engine) as connection:
        room = room_row(connection, normal(code), now=now, lock=True)
        if not _key_opens(connection, room, str(secret)):  # another device's new code won
            raise NotAllowed(f"This browser's key does not open room {room.code}.")
        connection.execute(
            sa.update(ROOMS)
            .where(ROOMS.c.id == room.id)
            .values(key_digest=digest(str(secret)), recovery_digest=digest(recovery))
        )
        connection.execute(sa.delete(KEYS).where(KEYS.c.room_id == room.id))
    return recovery
