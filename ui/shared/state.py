"""Page state: settings read from the link once per session, kept alive on every run,
and the notices for link values that could not be used; and the key bundles of the
shared widgets (a page's own keys, a grid editor's, a player's, the pooling controls'),
each made here from the prefix a page's state declaration gives it. A key is built
from an id only in a state module (ui/shared/state.py and each page's state.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

from teaching.links import Field, Notice, restore


@dataclass(frozen=True)
class PageKeys:
    """What every page keeps for itself: that the link was read, and its notices."""

    ready: str  # set once the link has been read (the session's first run of the page)
    notices: str  # [Notice]: link values that could not be used, shown once

    @classmethod
    def under(cls, prefix: str) -> PageKeys:
        return cls(ready=f"{prefix}_ready", notices=f"{prefix}_notices")


@dataclass(frozen=True)
class GridKeys:
    """The keys of one grid editor (ui/shared/grid_editor.py): the grid handed to the
    editor, how often it was replaced, the last valid edit, the row and column inputs,
    the expander it may be folded in, the text field beside it and that field's
    refusal."""

    base: str
    version: str
    current: str
    rows: str
    cols: str
    fold: str  # the expander the editor is folded in, where a page folds it
    editor_stem: str  # the editor's own key is this and the version
    text: str = ""  # the grid as text, in the link's format (grid_editor.grid_text_field)
    text_refused: str = ""  # (why the text typed there was not taken, that text), or None

    @classmethod
    def under(cls, prefix: str) -> GridKeys:
        names = ("base", "version", "current", "rows", "cols", "fold", "text", "text_refused")
        return cls(**{name: f"{prefix}_{name}" for name in names}, editor_stem=f"{prefix}_editor")

    def editor(self, version: int) -> str:
        """A new key for each replaced grid: the editor starts again from it."""
        return f"{self.editor_stem}_{version}"


@dataclass(frozen=True)
class FramePlayerKeys:
    """The keys of one frame player (ui/shared/frame_player.py): its controls' element (which
    also keeps the position the browser last sent) and its words' element."""

    player: str
    words: str

    @classmethod
    def under(cls, prefix: str) -> FramePlayerKeys:
        return cls(player=f"{prefix}_frames", words=f"{prefix}_frames_words")


@dataclass(frozen=True)
class WalkKeys:
    """The keys of lecture mode's walk through a tab (ui/shared/walk.py): the screen
    shown (from 1, in the link), the tab it belongs to, and its two buttons."""

    screen: str
    screen_of: str
    back: str
    next: str

    @classmethod
    def under(cls, prefix: str) -> WalkKeys:
        screen = f"{prefix}_screen"
        return cls(screen, f"{screen}_of", f"{screen}_back", f"{screen}_next")


@dataclass(frozen=True)
class PoolKeys:
    """The widget keys of the pooling controls (ui/shared/controls.py)."""

    mode: str
    kh: str
    kw: str
    sh: str
    sw: str
    pad: str
    dil: str
    ceil: str
    cip: str
    div: str
    ties: str
    sizing: str
    oh: str
    ow: str

    @classmethod
    def under(cls, prefix: str) -> PoolKeys:
        names = ("mode", "kh", "kw", "sh", "sw", "pad", "dil", "ceil", "cip", "div", "ties")
        names += ("sizing", "oh", "ow")
        return cls(**{name: f"{prefix}_{name}" for name in names})


def keep_state(keys) -> None:
    """Streamlit forgets a widget's value in a run that does not draw it (another tab,
    an error above it); copying the value into session state makes it survive."""
    for key in keys:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def start_page_state(page: PageKeys, fields: list[Field], defaults: dict) -> bool:
    """Once per session, read the page's settings from the link (defaults, with a
    notice, for what does not fit) and set `defaults` for the rest; on every run, keep
    all of it alive. Returns True on the session's first run of the page."""
    state = st.session_state
    first = page.ready not in state
    if first:
        state[page.notices] = restore(fields, st.query_params.to_dict(), state)
        state.update(defaults)
        state[page.ready] = True
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


def show_notices(page: PageKeys) -> None:
    """The link's values that could not be used, said once."""
    for notice in st.session_state.pop(page.notices, []):
        st.warning(notice_text(notice), icon=":material/link_off:")
