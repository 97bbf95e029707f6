"""The app's rooms database through st.connection: where it is, and SQLite's settings.
The run's user data stays out of the checkout (conftest: a temporary data folder)."""

from __future__ import annotations

import os
import traceback
from pathlib import Path

import pytest
import sqlalchemy as sa
import streamlit as st

from deploy.local_server import start_app, stop
from rooms import settings, store
from rooms.schema import METADATA
from teaching.class_mode import codes
from ui.class_mode import database

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def no_configuration(monkeypatch, tmp_path):
    """No secrets, no database URL in the environment; the data folder in tmp_path."""
    monkeypatch.setattr(database, "secrets", dict)
    monkeypatch.delenv(database.URL_VARIABLE, raising=False)
    monkeypatch.setenv(database.DATA_VARIABLE, str(tmp_path / "data"))
    database.forget_settings()
    yield tmp_path / "data"
    database.forget_settings()  # none of this test's settings kept for the next


def test_the_default_is_sqlite_in_wal_mode_in_the_data_folder(no_configuration):
    engine = database.engine()
    assert engine.url.database == str(no_configuration / "rooms.sqlite3")
    assert database.engine() is engine  # st.connection keeps one per process
    with engine.connect() as connection:
        settings = [
            connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "busy_timeout", "foreign_keys")
        ]
    assert settings == ["wal", 30_000, 1]
    assert set(sa.inspect(engine).get_table_names()) == set(METADATA.tables)
    room = store.open_room(engine, token=codes.new_token())
    assert store.pulse(engine, room.code).state == "waiting"


def test_the_data_folder_defaults_to_the_users_data_folder(no_configuration, monkeypatch, tmp_path):
    monkeypatch.delenv(database.DATA_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    url = database.database_url()
    assert url == f"sqlite:///{tmp_path / 'share' / 'pooling-lab' / 'rooms.sqlite3'}"
    assert (tmp_path / "share" / "pooling-lab").is_dir()  # made for SQLite


def test_the_environment_url_comes_before_the_default(no_configuration, monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    monkeypatch.setenv(database.URL_VARIABLE, url)
    assert database.database_url() == url
    assert database.engine().url.database == str(tmp_path / "elsewhere.sqlite3")
    assert not no_configuration.exists()  # the default's folder is made only for it


def test_the_environment_comes_before_secrets(no_configuration, monkeypatch, tmp_path):
    """deploy/serve --database-url reaches its replicas as the environment variable:
    a database named in secrets.toml no longer hides it."""
    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    named = {"connections": {"rooms": {"url": f"sqlite:///{tmp_path / 'secret.sqlite3'}"}}}
    monkeypatch.setattr(database, "secrets", lambda: named)
    assert database.database_url() == named["connections"]["rooms"]["url"]
    monkeypatch.setenv(database.URL_VARIABLE, url)
    assert database.database_url() == url


def test_settings_are_resolved_once_until_a_variable_or_secrets_toml_changes(
    no_configuration, monkeypatch, tmp_path
):
    """engine() runs at every read of every page: secrets.toml (a deep copy) is read
    once, again only when an environment variable the settings read changes or
    Streamlit says the file changed."""
    reads = []
    monkeypatch.setattr(database, "secrets", lambda: reads.append(1) or {})
    for _ in range(3):
        database.engine()
    assert len(reads) == 1
    monkeypatch.setenv(database.URL_VARIABLE, f"sqlite:///{tmp_path / 'moved.sqlite3'}")
    assert database.engine().url.database == str(tmp_path / "moved.sqlite3")
    assert len(reads) == 2
    st.secrets.file_change_listener.send()  # Streamlit's watcher: the file changed
    database.engine()
    assert len(reads) == 3


def test_a_bad_setting_is_said_at_every_use_until_fixed(no_configuration, monkeypatch):
    monkeypatch.setattr(database, "secrets", lambda: {"data_folder": 7})
    raised = []
    for _ in range(3):
        with pytest.raises(
            database.BadSetting, match=r"^Class mode is not set up right: data_"
        ) as error:
            database.engine()
        raised.append(error.value)
    # A new error at every use: one kept and raised again gathers every raise's frames.
    assert len({id(error) for error in raised}) == 3
    depths = [len(traceback.extract_tb(error.__traceback__)) for error in raised]
    assert depths == [depths[0]] * 3
    monkeypatch.setattr(database, "secrets", dict)
    st.secrets.file_change_listener.send()
    assert database.engine().url.database == str(no_configuration / "rooms.sqlite3")


def test_a_data_folder_that_cannot_be_made_is_said(no_configuration, monkeypatch, tmp_path):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv(database.DATA_VARIABLE, str(tmp_path / "a-file" / "data"))
    with pytest.raises(database.BadSetting) as said:
        database.engine()
    assert str(said.value) == (
        "Class mode is not set up right: its data folder (data_folder or POOLING_LAB_DATA) "
        "cannot be made: Not a directory."
    )


def test_no_secrets_file_is_no_secrets():
    assert database.secrets() == {}  # Streamlit finds none in a test run


def test_the_run_keeps_user_data_out_of_the_checkout():
    """conftest gives the whole run (its workers and the apps it serves inherit the
    environment) a temporary data folder, and no database URL of the developer's."""
    folder = Path(os.environ[settings.DATA_FOLDER.variable])
    assert folder.is_dir() and not folder.is_relative_to(ROOT)
    assert settings.DATABASE_URL.variable not in os.environ
    found = settings.resolved(environment=os.environ, secrets={})
    assert found.database_url == f"sqlite:///{folder / 'rooms.sqlite3'}"


def test_a_served_app_keeps_its_rooms_in_the_runs_data_folder():
    _url, process = start_app()
    try:
        environment = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
    finally:
        stop(process)
    given = dict(pair.decode().split("=", 1) for pair in environment if b"=" in pair)
    assert given[settings.DATA_FOLDER.variable] == os.environ[settings.DATA_FOLDER.variable]
    assert not Path(given[settings.DATA_FOLDER.variable]).is_relative_to(ROOT)


def test_postgresql_through_st_connection(no_configuration, monkeypatch, postgres_url):
    monkeypatch.setenv(database.URL_VARIABLE, postgres_url)
    engine = database.engine()
    assert engine.dialect.name == "postgresql"
    room = store.open_room(engine, token=codes.new_token())
    assert store.authorize(engine, room.code, room.secret)
