"""What the lecturer's page computes (pure: no Streamlit): the rooms whose key this
browser keeps, the join link's address and the question in words. What the projector
says about the answers: answers.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from pooling import PoolConfig, backward, forward

from ...exercises.replies import quantity
from ...pure.numbers import fmt
from ...pure.words import MODE_LABELS, TIE_WORDS
from ..codes import normal_code
from ..questions import Question

MOST_ROOMS = 5  # the rooms whose keys a browser keeps, newest first
SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{12,64}")  # a key or a recovery code


# -- the keys this browser keeps ---------------------------------------------------------


@dataclass(frozen=True)
class RoomKey:
    """code: the room's join code; secret: its key (or its recovery code, typed)."""

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


# -- the question in words ---------------------------------------------------------------


def _pair(pair) -> str:
    return f"{pair[0]}×{pair[1]}"


def ties_matter(x: np.ndarray, config: PoolConfig) -> bool:
    """Max pooling where some window's maximum is tied, so the tie rule decides: the
    first and the last tied cell then get different gradients."""
    if config.mode != "max":
        return False
    ones = np.ones(forward(x, config).output.shape)
    first = backward(forward(x, replace(config, ties="first")), ones)
    last = backward(forward(x, replace(config, ties="last")), ones)
    return not np.array_equal(first, last)


def layer_words(config: PoolConfig, x: np.ndarray) -> str:
    """'max pooling, window 3×3, stride 2×2, padding 1×1; on a tie, …': each setting
    that is not its default, the tie rule only where x has a tie it decides."""
    mode = MODE_LABELS[config.mode].lower()
    if config.adaptive:
        words = [f"adaptive {mode} pooling to an output of {_pair(config.output_size)}"]
    else:
        words = [f"{mode} pooling, window {_pair(config.kernel_size)}"]
        words.append(f"stride {_pair(config.stride)}")
        if any(config.padding):
            words.append(f"padding {_pair(config.padding)}")
        if config.dilation != (1, 1):
            words.append(f"dilation {_pair(config.dilation)}")
        if config.ceil_mode:
            words.append("ceil mode")
    if config.mode == "avg" and config.divisor_override is not None:
        words.append(f"every window divides by {config.divisor_override}")
    elif config.mode == "avg" and any(config.padding):
        counted = "counts" if config.count_include_pad else "does not count"
        words.append(f"the divisor {counted} padding cells")
    text = ", ".join(words)
    if ties_matter(x, config):
        text += f"; on a tie, {TIE_WORDS[config.ties].rule}"
    return text


def question_words(question: Question) -> str:
    """The question as the projector asks it (plain text: no markup)."""
    problem = question.problem
    layer = layer_words(problem.config, problem.x)
    if question.kind == "size":
        rows, cols = problem.x.shape
        return f"An input of {rows}×{cols}, {layer}. What is the output size?"
    if question.kind == "value":
        return f"Layer: {layer}. What is {quantity(problem)}?"
    sent = np.unique(problem.grad_output)
    upstream = (
        f"every cell of y sends back dL/dy = {fmt(sent[0])}"
        if sent.size == 1
        else "every cell of y sends back a positive dL/dy"
    )
    return f"Layer: {layer}; {upstream}. Which cells of x get gradient?"
