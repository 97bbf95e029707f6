"""The app's rooms database through st.connection: where it is, and SQLite's settings."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from ui.room import codes, database, store
from ui.room.schema import METADATA


@pytest.fixture
def no_configuration(monkeypatch, tmp_path):
    """No secrets, no database URL in the environment; the data folder in tmp_path."""
    monkeypatch.setattr(database.st, "secrets", {})
    monkeypatch.delenv(database.URL_VARIABLE, raising=False)
    monkeypatch.setenv(database.DATA_VARIABLE, str(tmp_path / "data"))
    return tmp_path / "data"


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


def test_the_data_folder_defaults_to_the_repositorys_ignored_data(monkeypatch):
    monkeypatch.delenv(database.DATA_VARIABLE, raising=False)
    assert database.data_folder() == database.ROOT / "data"
    ignored = (database.ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "/data/" in ignored


def test_the_environment_url_comes_before_the_default(no_configuration, monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    monkeypatch.setenv(database.URL_VARIABLE, url)
    assert database.database_url() == url
    assert database.engine().url.database == str(tmp_path / "elsewhere.sqlite3")


def test_secrets_come_before_the_environment(no_configuration, monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'secret.sqlite3'}"
    monkeypatch.setattr(database.st, "secrets", {"connections": {"rooms": {"url": url}}})
    monkeypatch.setenv(database.URL_VARIABLE, f"sqlite:///{tmp_path / 'env.sqlite3'}")
    assert database.database_url() == url


def test_postgresql_through_st_connection(no_configuration, monkeypatch, postgres_url):
    monkeypatch.setenv(database.URL_VARIABLE, postgres_url)
    engine = database.engine()
    assert engine.dialect.name == "postgresql"
    room = store.open_room(engine, token=codes.new_token())
    assert store.authorize(engine, room.code, room.secret)
