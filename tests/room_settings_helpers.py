"""A class-mode setting that cannot be used, for the pages' tests
(test_room_settings_class.py, test_room_settings_join.py): secrets.toml holding a
number where it needs text, and the sentence the pages say about it."""

from __future__ import annotations

import pytest
import streamlit as st

from ui.class_mode import database

SAID = (
    "Class mode is not set up right: public_url in .streamlit/secrets.toml must be "
    "text in quotes, not int."
)
BAD = {"public_url": 8501}  # as `public_url = 8501` in secrets.toml


@pytest.fixture
def secrets_toml(monkeypatch):
    """write(mapping): secrets.toml now holds `mapping`, and Streamlit tells the app
    the file changed (its file watcher's signal); an empty file after the test."""

    def write(given: dict) -> None:
        monkeypatch.setattr(database, "secrets", lambda: given)
        st.secrets.file_change_listener.send()

    yield write
    monkeypatch.undo()
    st.secrets.file_change_listener.send()
