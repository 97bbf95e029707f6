"""Rate limits, counted in the database so that every replica shares them.

Each limit is a fixed window: a row (key, window start) whose count goes up by one per
event, in one statement (INSERT .. ON CONFLICT DO UPDATE SET count = count + 1
RETURNING count), so concurrent events never lose a count. The event is refused when the
count passes the limit; the counting happens inside the caller's transaction, so a
refused event (rolled back) costs nothing. A fixed window lets a burst of at most twice
the limit through at a window's edge; for these limits that is harmless.

A classroom shares one public address, so nothing here is per address: limits are per
token (one browser), per room and, for codes that do not exist, for everyone at once.

The numbers (per minute) and why:
- JOIN_PER_TOKEN 30: a student's page joins once per session; reloads and a replica's
  death rejoin. 30 is far above any person and stops a script looping on join.
- JOIN_PER_ROOM 1000: a 500-seat hall joining within one minute, twice over (every
  join counts, rejoins included). New tokens need a join, so this also caps how many
  tokens a script can bring into one room, and with them the answers per room.
- JOIN_UNKNOWN_CODE 20, for all clients together: joins to codes that do not exist.
  There are 25**6 = 244,140,625 codes. With 20 wrong guesses a minute, 12 hours (a
  room's life) allow 14,400 guesses; with 100 rooms open at once each guess hits one
  with probability 100 / 244,140,625, so all of them together hit with probability
  about 0.6 % per 12 hours (0.06 % with 10 rooms open), and a hit only lets one answer
  a poll. A student who mistypes a code is told to wait only while someone is
  guessing, and a right code is never refused for it (it exists).
- ANSWER_PER_TOKEN 120: cell questions save on every tap, so a student picking cells
  sends one answer per tap; two a second for a minute is more than any hand.
- ANSWER_PER_ROOM 12000: 200 a second in one room; 300 students tapping every 1.5 s.
  It bounds the writes one room (one script with many tokens) can cause.
- RECOVERY_PER_ROOM 10: wrong keys or recovery codes tried on one room. A recovery
  code is 12 of 25 characters (25**12, about 6e16): 10 a minute for 12 hours is 7,200
  tries, a chance of about 1e-13. A right one gives its count back, so a lecturer
  using the recovery code on a second device is never slowed by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from .schema import RATE_COUNTS, upsert


@dataclass(frozen=True)
class Limit:
    """At most `count` events per `window_s` seconds for one subject."""

    name: str
    count: int
    window_s: int = 60


JOIN_PER_TOKEN = Limit("join-token", 30)
JOIN_PER_ROOM = Limit("join-room", 1000)
JOIN_UNKNOWN_CODE = Limit("join-unknown", 20)
ANSWER_PER_TOKEN = Limit("answer-token", 120)
ANSWER_PER_ROOM = Limit("answer-room", 12000)
RECOVERY_PER_ROOM = Limit("recovery-room", 10)
LIMITS = (
    JOIN_PER_TOKEN,
    JOIN_PER_ROOM,
    JOIN_UNKNOWN_CODE,
    ANSWER_PER_TOKEN,
    ANSWER_PER_ROOM,
    RECOVERY_PER_ROOM,
)
KEPT_S = 2 * max(limit.window_s for limit in LIMITS)  # older windows are deleted


def _row(limit: Limit, subject, now: float) -> dict:
    window = int(now // limit.window_s) * limit.window_s
    return {"key": f"{limit.name}:{subject}", "window_start": window}


def hit(connection: sa.Connection, limit: Limit, subject, *, now: float) -> bool:
    """Count one event of `subject` under `limit`; True while within it."""
    row = _row(limit, subject, now)
    statement = upsert(connection, RATE_COUNTS).values(**row, count=1)
    statement = statement.on_conflict_do_update(
        index_elements=[RATE_COUNTS.c.key, RATE_COUNTS.c.window_start],
        set_={"count": RATE_COUNTS.c.count + 1},
    ).returning(RATE_COUNTS.c.count)
    return connection.execute(statement).scalar_one() <= limit.count


def give_back(connection: sa.Connection, limit: Limit, subject, *, now: float) -> None:
    """Undo one `hit` of this window (an attempt that turned out to be allowed)."""
    row = _row(limit, subject, now)
    connection.execute(
        sa.update(RATE_COUNTS)
        .where(RATE_COUNTS.c.key == row["key"], RATE_COUNTS.c.window_start == row["window_start"])
        .values(count=RATE_COUNTS.c.count - 1)
    )


def forget_old(connection: sa.Connection, *, now: float) -> None:
    """Delete the counts of windows long past (called when a room is opened)."""
    connection.execute(sa.delete(RATE_COUNTS).where(RATE_COUNTS.c.window_start < now - KEPT_S))
