"""The app's database for the rooms, through Streamlit's own SQL connection (the only
Streamlit import of the room model and store).

`engine()` is `st.connection("rooms", type="sql", url=...).engine`: st.connection
caches the connection for the process, so every session shares one engine and its
pool. Live reads and writes go through that engine (ui/room/store.py), never through
the connection's cached `query()`, whose results would be stale.

Where the database is, the first that is set:
1. `url` under `[connections.rooms]` in `.streamlit/secrets.toml`;
2. the environment variable POOLING_LAB_DATABASE_URL;
3. SQLite, `<data>/rooms.sqlite3`, with <data> the environment variable
   POOLING_LAB_DATA or the repository's `data/` folder (git-ignored), made if missing.
PostgreSQL URLs look like postgresql+psycopg://user:password@host:5432/database
(psycopg[binary] is in the requirements: no system library needed).
"""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa
import streamlit as st

from .schema import engine_options, prepare

CONNECTION = "rooms"
URL_VARIABLE = "POOLING_LAB_DATABASE_URL"
DATA_VARIABLE = "POOLING_LAB_DATA"
ROOT = Path(__file__).resolve().parents[2]


def configured_url() -> str | None:
    """The URL from secrets.toml, else from the environment; None when neither."""
    try:
        url = st.secrets["connections"][CONNECTION]["url"]
    except (KeyError, FileNotFoundError):
        url = None
    return url or os.environ.get(URL_VARIABLE) or None


def data_folder() -> Path:
    folder = Path(os.environ.get(DATA_VARIABLE) or ROOT / "data")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def database_url() -> str:
    """The rooms' database URL (see the module's docstring for the order)."""
    return configured_url() or f"sqlite:///{data_folder() / 'rooms.sqlite3'}"


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
