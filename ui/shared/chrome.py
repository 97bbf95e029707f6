"""The frame every page shares: page config, the sidebar's top, title and intro.

The site menu is Streamlit's own, drawn from the one page list app.py registers
(teaching/pages.py); links between pages take their label and icon from that list too.
"""

from __future__ import annotations

import streamlit as st

from teaching.pages import PAGE_BY_LABEL, SEED_BATCH_LABEL, SEED_BATCH_QUERY
from ui.figures.style import DARK_PRIMARY_TEXT, PHONE_SCREEN_PX, SYNTAX_COLOURS
from ui.shared.formula import CLASS as SPOKEN_CLASS
from ui.shared.lecture import (
    LECTURE_CSS,
    current_look,
    lecture_on,
    lecture_switch,
    show_bad_link,
    start_lecture,
)
from ui.shared.styles import UNSEEN, css, style_element
from ui.shared.twin import CLASS as TWIN_CLASS

# Every page's style (page.css): less motion where asked, no chart tool bar without
# hover, a phone's smaller formulas, the text twins out of sight, tabs that wrap.
PAGE_CSS = css(
    __package__,
    "page.css",
    phone_px=PHONE_SCREEN_PX,
    twin_class=TWIN_CLASS,
    spoken_class=SPOKEN_CLASS,
    unseen_class=UNSEEN,
)


def theme_css(*, dark: bool) -> str:
    """The page CSS that puts Streamlit's primary-coloured texts and its code's syntax
    colours at AA contrast in the viewer's theme (theme.css, theme_dark.css)."""
    text = css(__package__, "theme.css", **SYNTAX_COLOURS["dark" if dark else "light"])
    if dark:
        text += css(__package__, "theme_dark.css", primary_text=DARK_PRIMARY_TEXT)
    return text


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
    page_css = PAGE_CSS + theme_css(dark=current_look().dark) + (LECTURE_CSS if lecture else "")
    # The page's style in an element of the main column, where it has always been (a
    # style-only st.html would go to Streamlit's event container instead and move every
    # page up by the column's gap). A page that lost its server reloads: browser.js.
    st.html(style_element(page_css) + "<span hidden></span>")
    sidebar_top()
    if heading:
        page_heading(title, intro)
    show_bad_link()


def page_heading(title: str, intro: str) -> None:
    """The page's title, and its intro outside lecture mode."""
    st.title(title)
    if not lecture_on():
        st.markdown(intro)
