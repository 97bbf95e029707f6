"""Class mode's settings: one order for every setting (rooms/settings.py), the
command line > the environment > secrets.toml > the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from rooms import settings
from rooms.settings import DATA_FOLDER, DATABASE_URL, PUBLIC_URL, SETTINGS, resolve

# Each source gives its own value, so the value found names the source that won.
LINE, ENVIRONMENT, SECRETS = "from-the-command-line", "from-the-environment", "from-secrets"


def secrets_with(setting: settings.Setting, value) -> dict:
    """secrets.toml's tables with `value` at the setting's keys."""
    found = value
    for key in reversed(setting.secret_keys):
        found = {key: found}
    return found


# (sources that give a value, the one that must win): every subset of the three.
ORDER = [
    (("line", "environment", "secrets"), LINE),
    (("line", "environment"), LINE),
    (("line", "secrets"), LINE),
    (("line",), LINE),
    (("environment", "secrets"), ENVIRONMENT),
    (("environment",), ENVIRONMENT),
    (("secrets",), SECRETS),
    ((), None),
]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.variable)
@pytest.mark.parametrize(("given", "winner"), ORDER)
def test_one_order_for_every_setting(setting, given, winner):
    found = resolve(
        setting,
        command_line={setting: LINE} if "line" in given else {},
        environment={setting.variable: ENVIRONMENT} if "environment" in given else {},
        secrets=secrets_with(setting, SECRETS) if "secrets" in given else {},
    )
    assert found == winner


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.variable)
def test_empty_text_gives_no_value_and_the_next_source_speaks(setting):
    found = resolve(
        setting,
        command_line={setting: ""},
        environment={setting.variable: "  "},
        secrets=secrets_with(setting, SECRETS),
    )
    assert found == SECRETS


def test_the_secrets_keys_are_the_documented_ones():
    toml = {
        "public_url": "https://lab.example.org",
        "data_folder": "/srv/lab",
        "connections": {"rooms": {"url": "postgresql+psycopg://lab@db/lab"}},
    }
    found = settings.resolved(environment={}, secrets=toml)
    assert found == settings.Resolved(
        database_url="postgresql+psycopg://lab@db/lab",
        public_url="https://lab.example.org",
        data_folder=Path("/srv/lab"),
    )


def test_text_in_secrets_must_be_text():
    with pytest.raises(ValueError, match=r"public_url in \.streamlit/secrets\.toml must be text"):
        resolve(PUBLIC_URL, environment={}, secrets={"public_url": 8501})


def test_a_table_in_the_way_gives_no_value():
    assert resolve(DATABASE_URL, environment={}, secrets={"connections": "rooms"}) is None


def test_the_defaults_are_sqlite_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    found = settings.resolved(environment={}, secrets={})
    assert found.data_folder == tmp_path / "share" / "pooling-lab"
    assert found.database_url == f"sqlite:///{tmp_path / 'share' / 'pooling-lab' / 'rooms.sqlite3'}"
    assert found.public_url is None


def test_the_data_folder_moves_the_default_database_only(tmp_path):
    moved = {DATA_FOLDER.variable: str(tmp_path / "lab")}
    found = settings.resolved(environment=moved, secrets={})
    assert found.database_url == f"sqlite:///{tmp_path / 'lab' / 'rooms.sqlite3'}"
    given = {**moved, DATABASE_URL.variable: "postgresql+psycopg://db/lab"}
    assert settings.resolved(environment=given, secrets={}).database_url == (
        "postgresql+psycopg://db/lab"
    )


def test_the_command_line_moves_the_data_folder_over_the_environment(tmp_path):
    found = settings.resolved(
        command_line={DATA_FOLDER: str(tmp_path / "flag")},
        environment={DATA_FOLDER.variable: str(tmp_path / "environment")},
        secrets={"data_folder": str(tmp_path / "secrets")},
    )
    assert found.data_folder == tmp_path / "flag"
