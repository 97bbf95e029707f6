"""The rooms' store tests' shared parts: the `engine` fixture (every store test runs on
SQLite and on a real PostgreSQL) and small helpers. Time is injected (`now`), never
slept: expiry and the rate-limit windows are crossed by passing a later `now`."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
import sqlalchemy as sa
from postgres import drop_schema, schema_url

from pooling import PoolConfig
from rooms import store
from rooms.schema import ROOMS, new_engine
from teaching.class_mode import codes
from teaching.class_mode.questions import question_from_layer
from ui.class_mode.database import URL_VARIABLE

NOW = 1_800_000_000.0  # a whole number of minutes: the limits' windows start here
X4 = [[1, 3, 2, 0], [4, 2, 1, 2], [0, 1, 5, 3], [2, 2, 4, 1]]
RIGHT = [[1, 0], [0, 2], [3, 0], [2, 2]]


@pytest.fixture(name="engine", params=["sqlite", "postgresql"])
def engine_fixture(request, tmp_path):
    """An engine on a new SQLite file, or on a new schema of the test PostgreSQL."""
    if request.param == "sqlite":
        made = new_engine(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
        yield made
        made.dispose()
        return
    base = request.getfixturevalue("postgres_url")
    url, schema = schema_url(base)
    made = new_engine(url)
    yield made
    made.dispose()
    drop_schema(base, schema)


def cells_question():
    return question_from_layer(
        "cells", x=X4, config=PoolConfig("max", 2), grad_output=np.ones((2, 2))
    )


def value_question():
    return question_from_layer(
        "value", x=X4, config=PoolConfig("avg", 2, stride=1), grad_output=np.ones((3, 3))
    )


def open_and_ask(engine, question=None, *, now=NOW):
    room = store.open_room(engine, token=codes.new_token(), now=now)
    number = store.ask(
        engine, room.code, secret=room.secret, question=question or cells_question(), now=now
    )
    return room, number


def student(engine, code, *, now=NOW, nickname=""):
    token = codes.new_token()
    store.join(engine, code, token=token, nickname=nickname, now=now)
    return token


def rows(engine, table, room_code=None) -> int:
    with engine.connect() as connection:
        query = sa.select(sa.func.count()).select_from(table)
        if room_code is not None:
            room_id = sa.select(ROOMS.c.id).where(ROOMS.c.code == room_code).scalar_subquery()
            query = query.where(table.c.room_id == room_id)
        return connection.execute(query).scalar_one()


@contextmanager
def rooms_file(tmp_path_factory):
    """A SQLite file of rooms: its URL in the environment, where the pages (AppTest)
    and the apps a test serves read it, and the test's own engine on it, yielded."""
    url = f"sqlite:///{tmp_path_factory.mktemp('rooms') / 'rooms.sqlite3'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(URL_VARIABLE, url)
        made = new_engine(url)
        yield made
        made.dispose()
