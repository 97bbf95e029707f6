"""Page state: settings read from the link once per session, kept alive on every run,
and the notices for link values that could not be used."""

from __future__ import annotations

import re

import streamlit as st

from ..pure.links import Field, Notice, restore


def keep_state(keys) -> None:
    """Streamlit forgets a widget's value in a run that does not draw it (another tab,
    an error above it); copying the value into session state makes it survive."""
    for key in keys:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def start_page_state(prefix: str, fields: list[Field], defaults: dict) -> bool:
    """Once per session, read the page's settings from the link (defaults, with a
    notice, for what does not fit) and set `defaults` for the rest; on every run, keep
    all of it alive. Returns True on the session's first run of the page."""
    state = st.session_state
    first = f"{prefix}_ready" not in state
    if first:
        state[f"{prefix}_notices"] = restore(fields, st.query_params.to_dict(), state)
        state.update(defaults)
        state[f"{prefix}_ready"] = True
    keep_state([field.key for field in fields] + list(defaults))
    return first


ECHO_CHARS = 40  # how much of a visitor's text (a link value, a typed answer) is echoed


def literal(text: str) -> str:
    """`text` as a markdown code span: shown character for character, so a link's
    value can never become a link, an image, an icon, a colour or a formula. Text
    longer than ECHO_CHARS is cut there and ends in "…" (the reason says what is wrong;
    a 100,000-character answer need not be shown whole to say so)."""
    flat = " ".join(text.split())  # a blank line would end the span
    if not flat:
        return "(empty)"
    if len(flat) > ECHO_CHARS:
        flat = flat[:ECHO_CHARS] + "…"
    # A span fenced by more backticks than any run inside it cannot be closed early.
    fence = "`" * (max((len(run) for run in re.findall("`+", flat)), default=0) + 1)
    return f"{fence} {flat} {fence}"


def notice_text(notice: Notice) -> str:
    return (
        f"Link value **{notice.name}** = {literal(notice.given)} {notice.reason}; "
        f"using {literal(notice.fallback)} instead."
    )


def show_notices(prefix: str) -> None:
    """The link's values that could not be used, said once."""
    for notice in st.session_state.pop(f"{prefix}_notices", []):
        st.warning(notice_text(notice), icon=":material/link_off:")
