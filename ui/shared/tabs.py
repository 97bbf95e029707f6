"""A page's tabs, of which only the open one runs."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st


def open_tab_only(
    *,
    key: str,
    labels: dict[str, str],
    views: dict[str, Callable],
    story,
) -> None:
    """Tabs labelled `labels` (name -> label; the open one kept in session state under
    `key`, and so in the share link), drawing only the open one: views[name](story)."""
    tabs = st.tabs(list(labels.values()), key=key, on_change="rerun")
    for name, tab in zip(labels, tabs, strict=True):
        if tab.open:
            with tab:
                views[name](story)
