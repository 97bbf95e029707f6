"""A page's tabs, of which only the open one runs."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from .player import stop
from .state import PlayerKeys


def open_tab_only(
    *,
    key: str,
    labels: dict[str, str],
    views: dict[str, Callable],
    story,
    players: dict[str, PlayerKeys],
) -> None:
    """Tabs labelled `labels` (name -> label; the open one kept in session state under
    `key`, and so in the share link), drawing only the open one: views[name](story).
    players: tab name -> the keys of the player on it; a player stops when its tab is
    not the open one."""
    tabs = st.tabs(list(labels.values()), key=key, on_change="rerun")
    for name, tab in zip(labels, tabs, strict=True):
        if tab.open:
            with tab:
                views[name](story)
    for name, player_keys in players.items():
        if st.session_state[key] != labels[name]:
            stop(player_keys)
