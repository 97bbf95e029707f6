"""One writer at a time on a SQLite file, queued in the kernel (flock) instead of by
SQLite's busy handler.

SQLite lets one transaction write at a time. A writer that finds the file locked
sleeps in SQLite's busy handler in growing steps (1, 2, 5, ... up to 100 ms) and tries
again, while writers arriving fresh take the lock before it wakes: with a class
answering through two replicas, most writes held the lock for about 4 ms, yet one in
twenty waited over 2 s for it, and some 6 s (benchmarks/bench_room.py). Every write
transaction on a SQLite file first takes an exclusive flock on a lock file beside it,
`<file>-writers.lock`, shared by every process and thread of this machine: a waiter
sleeps in the kernel and wakes as soon as the lock is free. SQLite's own lock and busy
timeout stay underneath for writers that do not take this one.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import sqlalchemy as sa

try:
    import fcntl
except ImportError:  # not a POSIX system: SQLite's busy handler alone
    fcntl = None

SUFFIX = "-writers.lock"


def lock_path(engine: sa.Engine) -> str | None:
    """The lock file of `engine`'s database: SQLite files only (None for an in-memory
    database, for a URI filename and for PostgreSQL, which locks rows)."""
    if fcntl is None or engine.dialect.name != "sqlite":
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database + SUFFIX


@contextmanager
def one_writer(engine: sa.Engine):
    """Hold the machine-wide writer lock of `engine`'s SQLite file (nothing else)."""
    path = lock_path(engine)
    if path is None:
        yield
        return
    # An open file description of its own per writer: flock locks are per description,
    # so two threads sharing one would both "hold" it.
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)  # sleeps in the kernel, GIL released
        yield
    finally:
        os.close(descriptor)  # releases the lock
