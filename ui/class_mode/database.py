"""The app's database for the rooms, through Streamlit's own SQL connection (the only
Streamlit import of the room model and store).

`engine()` is `st.connection("rooms", type="sql", url=...).engine`: st.connection
caches the connection for the process, so every session shares one engine and its
pool. Live reads and writes go through that engine (rooms/store.py), never through
the connection's cached `query()`, whose results would be stale.

Where the database is: rooms/settings.py resolves it, with every other setting, in
one order (the command line, through deploy/serve > the environment variable
POOLING_LAB_DATABASE_URL > `url` under `[connections.rooms]` in
`.streamlit/secrets.toml` > SQLite, `<data folder>/rooms.sqlite3`, the data folder
made if missing; it is per user, outside the checkout, unless POOLING_LAB_DATA or
`data_folder` in secrets.toml moves it).
PostgreSQL URLs look like postgresql+psycopg://user:password@host:5432/database
(psycopg[binary] is in the requirements: no system library needed).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import sqlalchemy as sa
import streamlit as st

from rooms.schema import engine_options, prepare
from rooms.settings import DATA_FOLDER, DATABASE_URL, Resolved, resolved, sqlite_url

CONNECTION = "rooms"
URL_VARIABLE = DATABASE_URL.variable
DATA_VARIABLE = DATA_FOLDER.variable


def secrets() -> Mapping:
    """.streamlit/secrets.toml as Streamlit reads it; empty when there is none."""
    try:
        return st.secrets.to_dict()
    except FileNotFoundError:  # Streamlit's "no secrets found" is one
        return {}


def settings() -> Resolved:
    """This process's settings (environment and secrets.toml; the module's order)."""
    return resolved(environment=os.environ, secrets=secrets())


def database_url() -> str:
    """The rooms' database URL; the default SQLite file's folder made if missing."""
    found = settings()
    if found.database_url == sqlite_url(found.data_folder):
        found.data_folder.mkdir(parents=True, exist_ok=True)
    return found.database_url


# {url: its prepared engine}: st.connection hashes its arguments and looks in its
# cache on every call (0.7 ms, the costliest step of a student's page read; see
# benchmarks/bench_room.py), so the engine it made for a URL is kept here.
_ENGINES: dict[str, sa.Engine] = {}


def engine() -> sa.Engine:
    """The process's engine for the rooms, prepared (tables made once per process;
    SQLite in WAL mode with a busy timeout on every connection)."""
    url = database_url()
    found = _ENGINES.get(url)
    if found is None:
        connection = st.connection(CONNECTION, type="sql", url=url, **engine_options(url))
        found = _ENGINES[url] = prepare(connection.engine)
    return found
