"""Expired rooms pruned on a schedule (SQLAlchemy Core; no Streamlit). Use it through
rooms/store.py, which re-exports it.

A room lives 12 hours; its rows (rounds, members, answers, keys) must go even on a
day when nobody opens a room. The next pruning's time is stored
(schedule table), so every replica shares it: whichever process first sees it due
claims it with one conditional UPDATE (due_at <= now), moves it PRUNE_EVERY_S on, and
prunes in the same transaction; the others find it no longer due. Each process looks
at the stored time at most once per PRUNE_EVERY_S (kept in memory per engine), so the
store's busy paths (joins, answers) pay one comparison for it.
"""

from __future__ import annotations

import logging
import weakref

import sqlalchemy as sa

from rooms.schema import ANSWERS, KEYS, MEMBERS, ROOMS, ROUNDS, SCHEDULE, upsert, write_transaction

PRUNE_EVERY_S = 600  # expired rooms stay at most this long past their 12 hours
CHORE = "prune"
_next_look: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # {engine: when}
_log = logging.getLogger(__name__)


def delete_expired(connection: sa.Connection, *, now: float) -> int:
    """Delete rooms past their 12 hours with their rounds, members, answers and keys;
    how many rooms went. Rooms and rounds are locked first, so an answer in flight
    either commits before (and is deleted) or finds no round."""
    expired = sa.select(ROOMS.c.id).where(ROOMS.c.expires_at <= now)
    ids = list(connection.execute(expired.with_for_update()).scalars())
    if not ids:
        return 0
    rounds = sa.select(ROUNDS.c.number).where(ROUNDS.c.room_id.in_(ids))
    connection.execute(rounds.with_for_update()).all()
    for table in (ANSWERS, MEMBERS, ROUNDS, KEYS):
        connection.execute(sa.delete(table).where(table.c.room_id.in_(ids)))
    connection.execute(sa.delete(ROOMS).where(ROOMS.c.id.in_(ids)))
    return len(ids)


def _claim(connection: sa.Connection, *, now: float) -> bool:
    """Whether this transaction takes the due pruning (and moves the next one on)."""
    connection.execute(
        upsert(connection, SCHEDULE)
        .values(chore=CHORE, due_at=now)
        .on_conflict_do_nothing(index_elements=[SCHEDULE.c.chore])
    )
    claimed = connection.execute(
        sa.update(SCHEDULE)
        .where(SCHEDULE.c.chore == CHORE, SCHEDULE.c.due_at <= now)
        .values(due_at=now + PRUNE_EVERY_S)
    )
    return claimed.rowcount == 1


def prune_now(engine: sa.Engine, *, now: float) -> int | None:
    """Prune if the stored time says it is due: how many rooms went (None: not due)."""
    with write_transaction(engine) as connection:
        if not _claim(connection, now=now):
            return None
        return delete_expired(connection, now=now)


def prune_if_due(engine: sa.Engine, *, now: float) -> int | None:
    """prune_now, when this process has not looked for PRUNE_EVERY_S (else None). A
    pruning that fails (the database busy or away) waits for the next look: the
    caller's own join or answer must not fail for it."""
    if now < _next_look.get(engine, float("-inf")):
        return None
    _next_look[engine] = now + PRUNE_EVERY_S
    try:
        return prune_now(engine, now=now)
    except sa.exc.SQLAlchemyError as error:
        _log.warning("pruning the expired rooms failed, tried again later: %s", error)
        return None
