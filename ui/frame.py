"""The frame every page shares: page config, the site menu, title and intro.

Streamlit's own page menu would call the home page "app", so it is hidden
(.streamlit/config.toml) and drawn here once, with real labels.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from .urlstate import restore

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    ("app.py", "Home", ":material/home:"),
    ("pages/1_playground.py", "Playground", ":material/grid_on:"),
    ("pages/2_batch.py", "Batch", ":material/stacks:"),
]


# Less empty space above the title; keep the sidebar menu tight.
PAGE_CSS = """
[data-testid="stMainBlockContainer"] { padding-top: 2.2rem; }
[data-testid="stSidebarContent"] [data-testid="stSidebarUserContent"] { padding-top: 1rem; }
"""


def site_menu() -> None:
    with st.sidebar:
        for path, label, icon in PAGES:
            if (ROOT / path).exists():
                st.page_link(path, label=label, icon=icon)
        st.divider()


def page_frame(title: str, intro: str) -> None:
    """Call first on every page."""
    st.set_page_config(
        page_title=f"{title} · Pooling Backprop Lab",
        page_icon=":material/grid_on:",
        layout="wide",
        initial_sidebar_state="expanded",
    )
    st.html(f"<style>{PAGE_CSS}</style>")
    site_menu()
    st.title(title)
    st.markdown(intro)


def keep_state(keys) -> None:
    """Streamlit forgets a widget's value in a run that does not draw it; copying the
    value into session state makes it survive (the settings must outlive an error)."""
    for key in keys:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def start_page_state(prefix: str, fields, defaults: dict) -> bool:
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


def show_notices(prefix: str) -> None:
    """The link's values that could not be used, said once."""
    for notice in st.session_state.pop(f"{prefix}_notices", []):
        st.warning(notice, icon=":material/link_off:")


CHART_CONFIG = {
    "displaylogo": False,
    "modeBarButtonsToRemove": [
        "zoom",
        "pan",
        "select",
        "lasso2d",
        "zoomIn",
        "zoomOut",
        "autoScale",
    ],
}


def chart(figure, key: str | None = None, on_select=None) -> None:
    """Show a figure with the PNG download kept and the zoom tools (no use on a grid)
    removed; `on_select` turns clicks on its points into a callback."""
    if on_select is None:
        st.plotly_chart(figure, config=CHART_CONFIG, key=key)
    else:
        st.plotly_chart(
            figure, config=CHART_CONFIG, key=key, on_select=on_select, selection_mode="points"
        )
