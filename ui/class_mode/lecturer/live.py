"""The room read for one run of the lecturer's page: its pulse, its rounds, their
tallies (each tally worked out once per distinct set of answers, for the whole
process: the projector's fragment asks every second, and answers change far less
often), and the address students join at."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from rooms import store
from teaching.class_mode.lecturer import app_root, join_link
from teaching.class_mode.questions import Question, answer_to_json
from teaching.class_mode.tally import Tally, tally
from teaching.pages import PAGES
from ui.class_mode.database import engine, settings

PAGE_PATHS = {page.label: page.url_path for page in PAGES}
FALLBACK_ROOT = "http://localhost:8501/"  # no browser address known (a test's session)


@dataclass(frozen=True)
class RoundView:
    """A round as the projector shows it: the store's Round and its tally."""

    round: store.Round
    tally: Tally

    @property
    def question(self) -> Question:
        return self.round.question


@st.cache_resource(max_entries=64, show_spinner=False)
def _tally(code: str, number: int, given: tuple[str, ...], _question: Question, _answers: list):
    """Keyed by the room, the round and the answers' JSON: the same answers are
    counted once."""
    return tally(_question, _answers)


def round_view(code: str, number: int) -> RoundView:
    """Round `number` of room `code` with its answers counted (RoomError if gone)."""
    found = store.round_of(engine(), code, number)
    given = store.answers(engine(), code, number)
    key = tuple(sorted(answer_to_json(answer) for answer in given))
    return RoundView(found, _tally(code, number, key, found.question, given))


def pulse(code: str) -> store.Pulse:
    return store.pulse(engine(), code)


def door(code: str) -> store.Door:
    """How many phones joined the room, and whether it is locked."""
    return store.door(engine(), code)


def public_root() -> str:
    """The app's address for students: the configured public address (behind a
    proxy), else the one this browser uses."""
    configured = settings().public_url  # rooms/settings.py: its one order
    if configured:
        return configured.rstrip("/") + "/"
    url = st.context.url
    return app_root(url, PAGE_PATHS["Class"]) if url else FALLBACK_ROOT


def students_link(code: str) -> str:
    return join_link(public_root(), PAGE_PATHS.get("Join", "join"), code)
