"""A real PostgreSQL for the tests: the session fixture `postgres_url` starts one
throw-away cluster (deploy/postgres.py) for the whole run and removes it afterwards.
Without PostgreSQL it skips with the reason, and under CI=true it fails instead
(conftest.skip_or_fail). `schema_url` gives a test a schema of its own in it."""

from __future__ import annotations

import time
import uuid

import pytest
import sqlalchemy as sa

from deploy.postgres import Cluster, missing


@pytest.fixture(scope="session")
def postgres_url():
    """postgresql+psycopg://postgres@127.0.0.1:PORT/rooms of a cluster kept for the run."""
    from conftest import skip_or_fail  # here, not at the top: conftest imports this module

    reason = missing()
    if reason:
        skip_or_fail(reason)
    cluster = Cluster()
    started = time.monotonic()
    try:
        url = cluster.start()
    except (RuntimeError, OSError) as error:
        skip_or_fail(f"PostgreSQL did not start: {error}")
    print(f"\nPostgreSQL started in {time.monotonic() - started:.1f} s: {url}")
    yield url
    cluster.stop()


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
