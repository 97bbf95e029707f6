"""The rooms' tables (SQLAlchemy Core) and how an engine is made ready for them.

rooms      one row per room; it also holds the current round's number and state, so a
           student's poll (store.pulse) is one read of one row by its unique code,
           and whether the lecturer locked it (no new members: store.lock_room).
rounds     one row per round: the question (questions.to_json) and its state.
members    the tokens that joined a room (and their optional nicknames).
answers    one row per (room, round, token): an upsert on that primary key is how an
           answer is given and changed, so two answers from one browser can never both
           count, and concurrent answers never overwrite each other's rows.
keys       the keys of devices that took a room over with its recovery code (digests).
schedule   when the next pruning of expired rooms is due (rooms/store_prune.py).

Times are seconds since the epoch (floats), passed in by the store, so tests inject
`now` instead of sleeping. The rate limits are counted in each process, not here
(rooms/limits.py: a refused event must cost no write); a database made by an older
version keeps an unused room_rate_counts table. SQLite gets WAL (readers never wait
for the writer), a busy timeout, enforced foreign keys and writes that take the write lock at BEGIN
(`BEGIN IMMEDIATE`, see `write_transaction`): a write transaction that first reads and
then writes would otherwise fail with "database is locked" instead of waiting.
"""

from __future__ import annotations

import contextlib
import threading
import weakref

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite

from rooms.writers import one_writer

METADATA = sa.MetaData()
CODE = sa.String(6)
TOKEN = sa.String(64)

ROOMS = sa.Table(
    "room_rooms",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", CODE, nullable=False, unique=True),
    sa.Column("key_digest", sa.String(64), nullable=False),
    sa.Column("recovery_digest", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
    sa.Column("round_number", sa.Integer, nullable=False, default=0),
    sa.Column("round_state", sa.String(8), nullable=False, default="waiting"),
    sa.Column("vote", sa.Integer, nullable=False, default=0),
    sa.Column("ended", sa.Boolean, nullable=False, default=False),
    sa.Column("locked", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
)

ROUNDS = sa.Table(
    "room_rounds",
    METADATA,
    sa.Column("room_id", sa.Integer, sa.ForeignKey(ROOMS.c.id), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("state", sa.String(8), nullable=False),  # open, closed, revealed
    sa.Column("vote", sa.Integer, nullable=False),
    sa.Column("first_round", sa.Integer, nullable=True),
    sa.Column("opened_at", sa.Float, nullable=False),
)

MEMBERS = sa.Table(
    "room_members",
    METADATA,
    sa.Column("room_id", sa.Integer, sa.ForeignKey(ROOMS.c.id), primary_key=True),
    sa.Column("token", TOKEN, primary_key=True),
    sa.Column("nickname", sa.String(40), nullable=False, default=""),
    sa.Column("joined_at", sa.Float, nullable=False),
)

ANSWERS = sa.Table(
    "room_answers",
    METADATA,
    sa.Column("room_id", sa.Integer, primary_key=True),
    sa.Column("round_number", sa.Integer, primary_key=True),
    sa.Column("token", TOKEN, primary_key=True),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("answered_at", sa.Float, nullable=False),
    sa.Column("changes", sa.Integer, nullable=False, default=0),
    sa.ForeignKeyConstraint(["room_id", "round_number"], [ROUNDS.c.room_id, ROUNDS.c.number]),
)

KEYS = sa.Table(
    "room_keys",
    METADATA,
    sa.Column("room_id", sa.Integer, sa.ForeignKey(ROOMS.c.id), primary_key=True),
    sa.Column("key_digest", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

SCHEDULE = sa.Table(
    "room_schedule",
    METADATA,
    sa.Column("chore", sa.String(32), primary_key=True),
    sa.Column("due_at", sa.Float, nullable=False),
)

SQLITE_BUSY_TIMEOUT_MS = 30_000  # a write waits this long for the lock before failing
_prepared: weakref.WeakSet = weakref.WeakSet()
_preparing = threading.Lock()


def _sqlite_connect(dbapi_connection, _record) -> None:
    # The driver's own transaction handling would BEGIN lazily (DEFERRED) before the
    # first write; switch it off and let `_sqlite_begin` say BEGIN itself.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in (
        "journal_mode=WAL",
        "synchronous=NORMAL",  # with WAL: durable at checkpoints, never corrupt
        f"busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
        "foreign_keys=ON",
    ):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_begin(connection) -> None:
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


def prepare(engine: sa.Engine) -> sa.Engine:
    """Make `engine` ready for the rooms, once per engine: SQLite's settings on every
    new connection, and the tables created when missing. Call it before first use."""
    with _preparing:
        if engine in _prepared:
            return engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        try:
            METADATA.create_all(engine)
        except sa.exc.DBAPIError:
            # Another process created them between the check and CREATE TABLE (two
            # replicas starting at once): the second look finds them.
            METADATA.create_all(engine)
        add_missing_columns(engine)
        _prepared.add(engine)
    return engine


# Columns added to a table after its first release: a database made before them (a
# SQLite file kept across an upgrade, a PostgreSQL that outlives the replicas) gets
# them by ALTER TABLE .. ADD COLUMN, with the server default the rows already there
# take. CREATE TABLE (create_all) never changes a table that exists.
ADDED_COLUMNS = ((ROOMS, "locked"),)


def add_missing_columns(engine: sa.Engine) -> None:
    """ALTER TABLE .. ADD COLUMN for each of ADDED_COLUMNS its table lacks. Two
    replicas may both see it missing: the second ALTER fails, and a second look
    finds the column there."""
    for table, name in ADDED_COLUMNS:
        if _has_column(engine, table, name):
            continue
        column = table.c[name]
        kind = column.type.compile(dialect=engine.dialect)
        default = column.server_default.arg.compile(dialect=engine.dialect)
        added = f"ALTER TABLE {table.name} ADD COLUMN {name} {kind} NOT NULL DEFAULT {default}"
        try:
            with engine.begin() as connection:
                connection.exec_driver_sql(added)
        except sa.exc.DBAPIError:
            if not _has_column(engine, table, name):
                raise


def _has_column(engine: sa.Engine, table: sa.Table, name: str) -> bool:
    found = sa.inspect(engine).get_columns(table.name, schema=table.schema)
    return any(column["name"] == name for column in found)


# Streamlit runs each session's script in a thread of its own, so a busy replica asks
# for many connections at once. SQLite's are cheap (a file handle); PostgreSQL's are
# a server process each, and two replicas of 25 stay well under its default 100.
POOLS = {
    "sqlite": {"pool_size": 10, "max_overflow": 40, "pool_timeout": 30},
    "postgresql": {"pool_size": 5, "max_overflow": 20, "pool_timeout": 30},
}


def engine_options(url: str) -> dict:
    """create_engine's options for `url`: its pool, and pre-ping (a database restarted
    under a running replica costs one reconnect, not an error on the page)."""
    backend = sa.make_url(url).get_backend_name()
    return {"pool_pre_ping": True, **POOLS.get(backend, {})}


def new_engine(url: str, **options) -> sa.Engine:
    """An engine for `url` (SQLite file or PostgreSQL), prepared."""
    return prepare(sa.create_engine(url, **{**engine_options(url), **options}))


def upsert(connection: sa.Connection, table: sa.Table):
    """INSERT for `table` in the connection's dialect, with .on_conflict_do_update."""
    dialect = {"sqlite": sqlite, "postgresql": postgresql}.get(connection.dialect.name)
    if dialect is None:
        raise ValueError(f"rooms need SQLite or PostgreSQL, not {connection.dialect.name}")
    return dialect.insert(table)


def write_transaction(engine: sa.Engine):
    """A transaction for writes: `with write_transaction(engine) as connection:`.
    On SQLite it takes the write lock at BEGIN (BEGIN IMMEDIATE), so it waits for
    another writer instead of failing halfway, after queueing for the file's writer
    lock (rooms/writers.py); PostgreSQL locks row by row. An error rolls it back."""
    return _Transaction(engine, {"sqlite_begin": "IMMEDIATE"}, queue=True)


def read_transaction(engine: sa.Engine):
    """A transaction for reads only (one consistent snapshot on SQLite)."""
    return _Transaction(engine, {})


class _Transaction:
    def __init__(self, engine: sa.Engine, options: dict, *, queue: bool = False):
        self.engine, self.options = engine, options
        self.queue = one_writer(engine) if queue else contextlib.nullcontext()

    def __enter__(self) -> sa.Connection:
        self.queue.__enter__()
        try:
            self.connection = self.engine.connect().execution_options(**self.options)
            self.transaction = self.connection.begin()
        except BaseException:
            self.queue.__exit__(None, None, None)
            raise
        return self.connection

    def __exit__(self, kind, error, traceback) -> None:
        try:
            if kind is None:
                self.transaction.commit()
            else:
                self.transaction.rollback()
        finally:
            try:
                self.connection.close()
            finally:
                self.queue.__exit__(None, None, None)
