"""The frame every page shares: page config, the sidebar's top, title and intro.

The site menu is Streamlit's own, drawn from the one page list app.py registers
(teaching/pages.py); links between pages take their label and icon from that list too.
"""

from __future__ import annotations

import streamlit as st

from teaching.pages import PAGE_BY_LABEL, SEED_BATCH_LABEL, SEED_BATCH_QUERY
from ui.figures.style import PHONE_SCREEN_PX, VISUALLY_HIDDEN_CSS, theme_css
from ui.shared.formula import CLASS as SPOKEN_CLASS
from ui.shared.lecture import (
    LECTURE_CSS,
    current_look,
    lecture_on,
    lecture_switch,
    show_bad_link,
    start_lecture,
)
from ui.shared.twin import CLASS as TWIN_CLASS

# Less empty space above the title; keep the sidebar menu tight; tab labels wrap onto
# a second row instead of being cut off on a narrow screen or a zoomed projector. On a
# screen with no hover (a phone) Streamlit's chart tool bar cannot wait for the pointer:
# it would sit on the figure's top labels for good, so it goes (pinching still zooms;
# Plotly's own tool bar is drawn nowhere: ui/shared/chart.CHART_CONFIG).
# On a phone a worked formula (KaTeX, about 19 px) is drawn a little smaller, so that
# the output size's three lines with their numbers fit in an expander; one still wider
# scrolls sideways rather than being cut at the screen's edge. A map's text twin
# (ui/shared/twin.py) is out of sight and out of the layout (no gap), yet read aloud.
# A viewer who asks for less motion (prefers-reduced-motion) gets none: Streamlit
# still fades a page's elements over a second at every run, and slides and spins some
# of its own; every change is then drawn at once (Play steps frame by frame as ever).
PAGE_CSS = f"""
@media (prefers-reduced-motion: reduce) {{
  *, *::before, *::after {{
    animation-duration: 0s !important; animation-iteration-count: 1 !important;
    animation-delay: 0s !important;
    transition-duration: 0s !important; transition-delay: 0s !important;
    scroll-behavior: auto !important;
  }}
}}
@media (hover: none) {{
  [data-testid="stElementToolbar"] {{ display: none; }}
}}
@media (max-width: {PHONE_SCREEN_PX}px) {{
  .katex-display {{ font-size: 0.85em; overflow-x: auto; overflow-y: hidden; }}
}}
[data-testid="stMainBlockContainer"] {{ padding-top: 2.2rem; }}
[data-testid="stElementContainer"]:has(.{TWIN_CLASS}) {{ {VISUALLY_HIDDEN_CSS} }}
[data-testid="stElementContainer"]:has(.{SPOKEN_CLASS}) {{ {VISUALLY_HIDDEN_CSS} }}
[data-testid="stSidebarContent"] [data-testid="stSidebarUserContent"] {{ padding-top: 1rem; }}
[data-testid="stTabs"] [role="tablist"] {{ flex-wrap: wrap; row-gap: 0.25rem; }}
"""


def sidebar_top() -> None:
    """Under Streamlit's page menu, above the page's own controls."""
    with st.sidebar:
        lecture_switch()
        st.divider()


def page_link(label: str, description: str) -> None:
    """A link to another page of the lab, with a sentence on what it holds."""
    page = PAGE_BY_LABEL[label]
    st.page_link(page.script, label=page.label, icon=page.icon)
    st.markdown(description)


def seed_batch_link() -> None:
    """The Batch page at the first seed's size, 100 digits, on its Winners tab (in
    lecture mode too, where the link keeps it)."""
    query = dict(SEED_BATCH_QUERY, **({"lecture": "1"} if lecture_on() else {}))
    st.page_link(
        PAGE_BY_LABEL["Batch"].script,
        label=SEED_BATCH_LABEL,
        icon=":material/scatter_plot:",
        query_params=query,
    )


def page_frame(title: str, intro: str, *, heading: bool = True, menu_folded: bool = False) -> None:
    """Call first on every page. In lecture mode the sidebar starts folded away and the
    intro is left out: the screen is the lesson's. heading=False: the page draws its
    title and intro itself (page_heading), or none once its screen has a heading of
    its own (a room's join code, a joined student's room). menu_folded: the sidebar
    folds away outside lecture mode too (a screen for a projector; a lecturer who
    opens it by hand keeps it open: Streamlit keeps that choice in the browser)."""
    lecture = start_lecture()
    st.set_page_config(
        page_title=f"{title} · Pooling Backprop Lab",
        page_icon=":material/grid_on:",
        layout="wide",
        # auto: closed on a phone
        initial_sidebar_state="collapsed" if lecture or menu_folded else "auto",
    )
    css = PAGE_CSS + theme_css(dark=current_look().dark) + (LECTURE_CSS if lecture else "")
    # The page's style in an element of the main column, where it has always been (a
    # style-only st.html would go to Streamlit's event container instead and move every
    # page up by the column's gap). A page that lost its server reloads: browser.js.
    st.html(f"<style>{css}</style><span hidden></span>")
    sidebar_top()
    if heading:
        page_heading(title, intro)
    show_bad_link()


def page_heading(title: str, intro: str) -> None:
    """The page's title, and its intro outside lecture mode."""
    st.title(title)
    if not lecture_on():
        st.markdown(intro)
