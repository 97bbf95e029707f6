"""Who is asking: this session's network address, for the store's per-address limits.

What Streamlit tells of the connection (`st.context.ip_address`: the websocket's peer,
None for loopback or no connection; `st.context.headers`: the headers of the request
that opened the session) goes to rooms/addresses.py with the trusted proxies of the
settings (rooms/settings.py, TRUSTED_PROXIES), which decides whether X-Forwarded-For is
believed. Read on each call: it is a dictionary lookup, and a session's connection is
its own. A setting that cannot be read gives None here: the store's engine, asked in
the same call, says it on the page (BadSetting).
"""

from __future__ import annotations

import streamlit as st

from rooms.addresses import client_address
from ui.class_mode.database import BadSetting, settings


def address() -> str | None:
    """This session's client address; None when it is not known (then the store counts
    per browser token only)."""
    try:
        trusted = settings().trusted_proxies
    except BadSetting:
        return None
    context = st.context
    return client_address(
        context.ip_address, context.headers.get_all("X-Forwarded-For"), trusted=trusted
    )
