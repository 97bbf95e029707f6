"""What the lecturer's page computes (pure: no Streamlit): the rooms whose key this
browser keeps, the join link's address, who is in (the door) and the question in
words. What the projector says about the answers: answers.py."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from teaching.class_mode.codes import normal_code
from teaching.class_mode.questions import Question
from teaching.exercises.replies import quantity
from teaching.exercises.text import asked_layer
from teaching.layer_words import layer_words, upstream_words
from teaching.numbers import plural

MOST_ROOMS = 5  # the rooms whose keys a browser keeps, newest first
SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{12,64}")  # a key or a recovery code


# -- the keys this browser keeps ---------------------------------------------------------


@dataclass(frozen=True)
class RoomKey:
    """code: the room's join code; secret: its key (the opener's, or one a recovery code gave)."""

    code: str
    secret: str


def rooms_from_stored(stored: object) -> list[RoomKey]:
    """The keys a browser gave back (user input: any JSON): a list of {"code",
    "secret"}; what does not fit is dropped, a code met twice kept once, at most
    MOST_ROOMS."""
    if not isinstance(stored, list):
        return []
    ring: list[RoomKey] = []
    for entry in stored[: 4 * MOST_ROOMS]:
        if not isinstance(entry, dict):
            continue
        code, secret = entry.get("code"), entry.get("secret")
        if not (isinstance(secret, str) and SECRET_PATTERN.fullmatch(secret)):
            continue
        try:
            code = normal_code(code) if isinstance(code, str) else None
        except ValueError:
            code = None
        if code is not None and all(key.code != code for key in ring):
            ring.append(RoomKey(code, secret))
    return ring[:MOST_ROOMS]


def rooms_to_stored(ring: list[RoomKey]) -> list[dict]:
    return [{"code": key.code, "secret": key.secret} for key in ring[:MOST_ROOMS]]


def with_room(ring: list[RoomKey], key: RoomKey) -> list[RoomKey]:
    """`key` first, its code's older key dropped, at most MOST_ROOMS."""
    return [key, *(old for old in ring if old.code != key.code)][:MOST_ROOMS]


def without_room(ring: list[RoomKey], code: str) -> list[RoomKey]:
    return [key for key in ring if key.code != code]


def merged_rooms(session: list[RoomKey], stored: list[RoomKey]) -> list[RoomKey]:
    """This session's keys first (opened here), then the browser's."""
    ring = list(stored)
    for key in reversed(session):
        ring = with_room(ring, key)
    return ring


def secret_for(ring: list[RoomKey], code: str) -> str | None:
    return next((key.secret for key in ring if key.code == code), None)


# -- the join link ----------------------------------------------------------------------


def app_root(page_url: str, page_path: str) -> str:
    """The app's address from a page's (st.context.url: no query), ending in "/":
    'http://h:8501/lab/class' with page path 'class' -> 'http://h:8501/lab/'."""
    parts = urlsplit(page_url)
    path = parts.path.rstrip("/")
    if page_path and path.endswith("/" + page_path):
        path = path[: -len(page_path) - 1]
    return urlunsplit((parts.scheme, parts.netloc, path + "/", "", ""))


def join_link(root: str, join_path: str, code: str) -> str:
    """The students' link: '<root><join_path>?code=K7QX3M' (the QR code's)."""
    return f"{root.rstrip('/')}/{join_path}?code={code}"


def typed_link(link: str) -> str:
    """The join link as the projector writes it for typing: without its scheme (a
    browser adds it), 'http://h:8501/join?code=K7QX3M' -> 'h:8501/join?code=K7QX3M'.
    The QR code keeps the whole link: a phone's camera opens only a link with one."""
    parts = urlsplit(link)
    return urlunsplit(("", parts.netloc, parts.path, parts.query, "")).removeprefix("//")


# -- who is in ----------------------------------------------------------------------------


def joined_words(members: int) -> str:
    """How many phones joined the room: 'No phone has joined yet.', '1 phone joined.'"""
    if members == 0:
        return "No phone has joined yet."
    return f"{plural(members, 'phone')} joined."


def door_words(locked: bool) -> str:
    """Whether a new phone can join (a member's reload always can)."""
    return "Locked: no new phone can join." if locked else "Open: new phones can join."


# -- the question in words ---------------------------------------------------------------


def question_words(question: Question) -> str:
    """The question as the projector asks it (plain text: no markup)."""
    problem = question.problem
    if question.kind == "batch":
        return batch_words(problem)
    layer = layer_words(problem.config, problem.x, kind=question.kind)
    if question.kind == "size":
        rows, cols = problem.x.shape
        return f"An input of {rows}×{cols}, {layer}. What is the output size?"
    if question.kind == "value":
        return f"Layer: {layer}. What is {quantity(problem)}?"
    return f"Layer: {layer}. {upstream_words(problem.grad_output)} Which cells of x get gradient?"


def batch_words(problem) -> str:
    """A batch's window question as the projector asks it (plain text)."""
    count = problem.x.shape[0]
    layer = asked_layer(problem)
    if problem.picks_cells:
        r, c = problem.window
        return (
            f"{count} examples, one layer: {layer}. Which cells of window ({r}, {c}) get "
            "gradient from at least one example?"
        )
    return f"{count} examples, one layer: {layer}; the mean loss. What is {quantity(problem)}?"
