"""Rate limits, counted in the database so that every replica shares them.

Each limit is a fixed window: a row (key, window start) whose count goes up by one per
event, in one statement (INSERT .. ON CONFLICT DO UPDATE SET count = count + 1
RETURNING count), so concurrent events never lose a count. The event is refused when the
count passes the limit. Refused events count too (store_reads.counted_transaction keeps
the counts of a refusal): a refused answer or join still took SQLite's writer lock, so
a script sending refused writes is held back like one sending accepted ones. A fixed
window lets a burst of at most twice the limit through at a window's edge; for these
limits that is harmless.

A classroom shares one public address, so nothing here is per address: limits are per
token (one browser: the Join and Class pages each keep one in the browser's storage),
per room (keyed by the typed code, so a code with no room is
counted exactly as a real one), and for everyone at once. A script can make tokens
freely, so each per-token limit is a courtesy to a person who typed wrong; what bounds
a script is the per-room or overall count beside it.

What each protects, and its number (per minute):
- JOIN_PER_TOKEN 30: every try of the join form (real or unknown code). A student's
  page joins once per session; reloads and a replica's death rejoin. 30 is far above
  any person and stops one browser probing codes: of 2,000 tries, all past the 30th
  are refused before the code is looked up.
- JOIN_PER_ROOM 1000: a 500-seat hall joining within one minute, twice over. New
  tokens need a join, so this also caps how many tokens a script can bring into one
  room, and with them the answers per room.
- JOIN_UNKNOWN_CODE 20, for all clients together: joins to codes that do not exist
  (the join form must say "no room", so this bounds what it tells). There are 25**6 =
  244,140,625 codes. With 20 wrong guesses a minute, 12 hours (a room's life) allow
  14,400 guesses; with 100 rooms open at once each guess hits one with probability
  100 / 244,140,625, so all of them together hit with probability about 0.6 % per 12
  hours, and a hit only lets one answer a poll. A right code is never refused for it.
- ANSWER_PER_TOKEN 120: cell questions save on every tap; two a second for a minute is
  more than any hand. Refused answers (malformed, a closed round, a token that never
  joined) count.
- ANSWER_PER_ROOM 12000: 200 a second in one room; 300 students tapping every 1.5 s.
  It bounds the writes one room (one script with many tokens) can cause.
- RECOVERY_PER_TOKEN 10 and RECOVERY_PER_ROOM 60: recovery codes tried on the Class
  page's recovery form, per browser and per room code (real or not: the form
  answers both alike). A right code gives its count back. A recovery code is 12 of 25
  characters (25**12, about 6e16): 60 a minute for 12 hours is 43,200 tries, a chance
  of about 7e-13. A device that holds the room's key (it opened the room, or traded
  the recovery code for a key of its own) is never counted nor refused: a key is 256
  random bits, checked by a read, so nobody's wrong tries can lock its lecturer out.
  A person who typed wrong ten times is told so; the right code from another
  browser still works unless 60 wrong ones reached that room within the minute.
- OPEN_PER_TOKEN 10 and OPEN_ALL 60: rooms opened per browser and by everyone
  together. A room lives 12 hours; a lecturer opens one per class (a few when trying
  things out). 60 a minute is far above a campus at the hour, and caps what a script
  can leave in the database at 43,200 rooms a 12 hours.
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
RECOVERY_PER_TOKEN = Limit("recovery-token", 10)
RECOVERY_PER_ROOM = Limit("recovery-room", 60)
OPEN_PER_TOKEN = Limit("open-token", 10)
OPEN_ALL = Limit("open-all", 60)
LIMITS = (
    JOIN_PER_TOKEN,
    JOIN_PER_ROOM,
    JOIN_UNKNOWN_CODE,
    ANSWER_PER_TOKEN,
    ANSWER_PER_ROOM,
    RECOVERY_PER_TOKEN,
    RECOVERY_PER_ROOM,
    OPEN_PER_TOKEN,
    OPEN_ALL,
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
    """Delete the counts of windows long past (with the expired rooms: store_prune)."""
    connection.execute(sa.delete(RATE_COUNTS).where(RATE_COUNTS.c.window_start < now - KEPT_S))
