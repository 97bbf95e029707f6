"""SQLite writers queue on a lock file beside the database (rooms/writers.py)."""

from __future__ import annotations

import threading

import sqlalchemy as sa

from rooms import schema
from rooms.writers import SUFFIX, lock_path


def test_only_sqlite_files_have_a_writer_lock(tmp_path):
    database = tmp_path / "rooms.sqlite3"
    assert lock_path(sa.create_engine(f"sqlite:///{database}")) == f"{database}{SUFFIX}"
    assert lock_path(sa.create_engine("sqlite://")) is None  # in memory
    assert lock_path(sa.create_engine("postgresql+psycopg://u@h/db")) is None


def test_a_second_writer_waits_for_the_first_and_then_writes(tmp_path):
    engine = schema.new_engine(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    first_holds, second_in, release = threading.Event(), threading.Event(), threading.Event()

    def first() -> None:
        with schema.write_transaction(engine):
            first_holds.set()
            release.wait(30)

    def second() -> None:
        first_holds.wait(30)
        with schema.write_transaction(engine):
            second_in.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    assert first_holds.wait(30)
    # While the first holds the lock the second cannot be in (it would be at once).
    assert not second_in.wait(0.5)
    release.set()
    assert second_in.wait(30)
    for thread in threads:
        thread.join(30)
    engine.dispose()
