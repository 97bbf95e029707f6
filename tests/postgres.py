"""A real PostgreSQL for the tests: one throw-away cluster (deploy/postgres.py) for the
whole run, shared by its pytest-xdist workers.

The first process that asks for it (the session fixture `postgres_url`) starts it,
under a file lock in the run's folder (conftest.RUN_VARIABLE), and writes there where
the cluster lives and its URL; the others wait on the lock and read them. Each process
then works in a database of its own (CREATE DATABASE rooms_gw0, ...), so their tables
never meet. The process that started pytest stops the cluster and removes it when the
run ends, failed or not (conftest.pytest_unconfigure -> `stop_shared_cluster`).
Without PostgreSQL it skips with the reason, and under CI=true it fails instead
(conftest.skip_or_fail). `schema_url` gives a test a schema of its own in it."""

from __future__ import annotations

import fcntl
import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from deploy.postgres import Cluster, missing

# The run folder's record of its cluster: the lock, where it lives, its URL, or why
# it did not start (so the other workers skip at once instead of trying again).
LOCK, DIRECTORY, URL, FAILED = (
    "postgres.lock",
    "postgres.directory",
    "postgres.url",
    "postgres.failed",
)
NOT_STARTED = (RuntimeError, OSError, subprocess.SubprocessError)


def shared_cluster_url(run: Path) -> str:
    """The URL of the run's cluster, started by the first caller; RuntimeError (or
    OSError) when it could not start, for every caller."""
    with (run / LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if (run / URL).exists():
            return (run / URL).read_text(encoding="utf-8")
        if (run / FAILED).exists():
            raise RuntimeError((run / FAILED).read_text(encoding="utf-8"))
        cluster = Cluster()
        try:
            url = cluster.start()
        except NOT_STARTED as error:
            (run / FAILED).write_text(str(error), encoding="utf-8")
            raise
        (run / DIRECTORY).write_text(str(cluster.directory), encoding="utf-8")
        (run / URL).write_text(url, encoding="utf-8")
        return url


def stop_shared_cluster(run: Path) -> None:
    """Stop the run's cluster, if one was started, and remove its directory."""
    recorded = run / DIRECTORY
    if recorded.exists():
        Cluster.at(Path(recorded.read_text(encoding="utf-8"))).stop()
        recorded.unlink()


def own_database(url: str, name: str) -> str:
    """The URL of a new empty database `name` in the cluster at `url`."""
    engine = sa.create_engine(
        url, isolation_level="AUTOCOMMIT"
    )  # no CREATE DATABASE in a transaction
    with engine.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    engine.dispose()
    return f"{url.rsplit('/', 1)[0]}/{name}"


@pytest.fixture(scope="session")
def postgres_url():
    """postgresql+psycopg://postgres@127.0.0.1:PORT/rooms_WORKER: this process's database
    in the run's cluster."""
    from conftest import RUN_VARIABLE, skip_or_fail  # here: conftest imports this module

    reason = missing()
    if reason:
        skip_or_fail(reason)
    started = time.monotonic()
    try:
        base = shared_cluster_url(Path(os.environ[RUN_VARIABLE]))
    except NOT_STARTED as error:
        skip_or_fail(f"PostgreSQL did not start: {error}")
    url = own_database(base, f"rooms_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")
    print(f"\nPostgreSQL ready in {time.monotonic() - started:.1f} s: {url}")
    return url  # the cluster goes with the run (conftest.pytest_unconfigure)


def schema_url(url: str, schema: str | None = None) -> tuple[str, str]:
    """(a URL whose connections use a new empty schema, the schema's name): a test's
    tables then start empty and leave no trace (`drop_schema`)."""
    schema = schema or f"test_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    engine.dispose()
    return f"{url}?options=-csearch_path%3D{schema}", schema


def drop_schema(url: str, schema: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    engine.dispose()
