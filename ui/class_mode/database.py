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
The settings are resolved once per process for each value of the environment
variables they read, and again when Streamlit says secrets.toml changed. One that
cannot be used (text expected, a data folder that cannot be made) is BadSetting: its
sentence is said on the page, as the store's refusals are.
PostgreSQL URLs look like postgresql+psycopg://user:password@host:5432/database
(psycopg[binary] is in the requirements: no system library needed).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping

import sqlalchemy as sa
import streamlit as st

from rooms.schema import engine_options, prepare
from rooms.settings import (
    DATA_FOLDER,
    DATABASE_URL,
    SETTINGS,
    Resolved,
    SettingError,
    resolved,
    sqlite_url,
)
from rooms.store import RoomError

CONNECTION = "rooms"
URL_VARIABLE = DATABASE_URL.variable
DATA_VARIABLE = DATA_FOLDER.variable
# What the settings are resolved from that can change while the process runs (a
# test's monkeypatch; secrets.toml is watched by Streamlit: `forget_settings`). The
# default data folder follows $XDG_DATA_HOME (platformdirs).
VARIABLES = (*(setting.variable for setting in SETTINGS), "XDG_DATA_HOME")


class BadSetting(RoomError):
    """A class-mode setting that cannot be used: one sentence naming it and what is
    wrong. A RoomError, so every place that says the store's refusals on the page (the
    lecturer's buttons, the student's join and answers, the projector) says it the
    same way, and the page keeps what it had."""


def secrets() -> Mapping:
    """.streamlit/secrets.toml as Streamlit reads it; empty when there is none."""
    try:
        return st.secrets.to_dict()
    except FileNotFoundError:  # Streamlit's "no secrets found" is one
        return {}


_kept: dict[tuple, Resolved | str] = {}  # {the variables' values: what they gave}
_kept_lock = threading.Lock()


def forget_settings(*_sender) -> None:
    """The settings resolved again at the next use (secrets.toml changed; a test)."""
    with _kept_lock:
        _kept.clear()


# Streamlit re-reads secrets.toml when the file changes; the settings follow it.
st.secrets.file_change_listener.connect(forget_settings)


def settings() -> Resolved:
    """This process's settings (environment and secrets.toml; the module's order),
    resolved once for each value of the environment variables they read (secrets.toml
    is read, a deep copy, only then), the default SQLite file's folder made.
    BadSetting when one cannot be used (said again at every use, until fixed)."""
    inputs = tuple(os.environ.get(variable) for variable in VARIABLES)
    found = _kept.get(inputs)
    if found is None:
        found = _resolve()
        with _kept_lock:
            _kept[inputs] = found
    if isinstance(found, str):
        # A new error each time: one kept and raised again would gather every raise's
        # traceback (and its frames) for as long as the setting stays wrong.
        raise BadSetting(found)
    return found


def _resolve() -> Resolved | str:
    """The settings, or what is wrong with them (BadSetting's sentence)."""
    try:
        found = resolved(environment=os.environ, secrets=secrets())
    except SettingError as error:
        return f"Class mode is not set up right: {error}."
    if found.database_url == sqlite_url(found.data_folder):
        try:
            found.data_folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return (
                f"Class mode is not set up right: its data folder ({DATA_FOLDER.secret_name} "
                f"or {DATA_FOLDER.variable}) cannot be made: {error.strerror}."
            )
    return found


def database_url() -> str:
    """The rooms' database URL (the default SQLite file's folder made)."""
    return settings().database_url


# {url: its prepared engine}: st.connection hashes its arguments and looks in its
# cache on every call (0.7 ms, the costliest step of a student's page read; see
# benchmarks/bench_room.py), so the engine it made for a URL is kept here.
_ENGINES: dict[str, sa.Engine] = {}


def engine() -> sa.Engine:
    """The process's engine for the rooms, prepared (tables made once per process;
    SQLite in WAL mode with a busy timeout on every connection). BadSetting when a
    setting cannot be used."""
    url = database_url()
    found = _ENGINES.get(url)
    if found is None:
        connection = st.connection(CONNECTION, type="sql", url=url, **engine_options(url))
        found = _ENGINES[url] = prepare(connection.engine)
    return found
