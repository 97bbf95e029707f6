"""The app's pages as Streamlit's navigation takes them (teaching/pages.py: script,
label, icon, URL path), made once per session.

`st.Page` resolves its script's path on the disk when it is made (a `resolve` and an
`is_file` per page): for eleven pages, 6 % of a phone's run at a round change, on every
run of every page. The pages are kept in the session's state, not shared by the
process: navigation marks the page it returns as the one that may run (`Page.run`
clears the mark), so two sessions running the same page object at once could clear
each other's mark.
"""

from __future__ import annotations

import streamlit as st

from teaching.pages import PAGES

SESSION_PAGES = "lab_pages"  # this session's st.Page objects, in PAGES' order


def session_pages() -> list:
    """This session's st.Page objects, one per page of PAGES (the home page the default)."""
    state = st.session_state
    if SESSION_PAGES not in state:
        state[SESSION_PAGES] = [
            st.Page(
                page.script,
                title=page.label,
                icon=page.icon,
                url_path=page.url_path,
                default=page.url_path == "",
            )
            for page in PAGES
        ]
    return state[SESSION_PAGES]
