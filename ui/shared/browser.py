"""The lab's one browser-side component: what runs in the viewer's browser and not on
the server, mounted once at the end of a page's run (`mount`). It draws nothing.

Storage that outlives a reload: a page reloads itself after a lost connection (a
replica died), and its new session starts empty. So a page hands its learner's work to
`remember(namespace, value)` on every run, and the browser keeps it in localStorage
under "pooling-lab:<namespace>" (never in the link: a class shares one link). A fresh
session asks the browser once for what it kept; the answer comes back with the next run,
where `recalled(namespace)` hands it out once. Until it has come back nothing is
written, so a fresh session never overwrites what it has yet to read. What comes back
was written by a browser, so it is user input: the pages validate it.

Cookies: what localStorage kept reaches the server a run after the page's first (the
component answers the first run). A value a page needs in its first run (a student's
token: after a reload, or a replica's death, the room is drawn at once instead of a
run later, and the server runs the page once instead of twice) is also kept in a
cookie, `keep_cookie(name, value)`: the browser sends it with the page's connection,
where `cookie(name)` reads it (Streamlit's st.context.cookies). `known(namespace)` then
tells the component that the namespace need not be asked for: no answer comes, so no
run follows, and `remember` writes at once. The cookie lasts COOKIE_MAX_AGE_S after the
page that last kept it (Safari keeps a cookie a script set for 7 days: past that, the
page falls back to storage and its one run more). It goes to this host only (any port:
cookies know no ports), on its own pages' requests (SameSite=Strict; Secure over
HTTPS), and is plain text a browser sent: the pages validate it as they validate
storage. Where a sibling host or a plain-HTTP reply could set a cookie for this host, it
could choose the token a page takes; so a cookie carries nothing that storage would
not, and nothing that controls a room (a lecturer's key stays in storage alone).

Focus: `focus_on(key)` moves the focus to an element once a run has drawn it.
`leave_after_choice` names a radio group (a lesson's question) whose focus goes
away once an option is chosen, so the ← and → keys reach the page's Previous and Next
shortcuts instead of changing the answer. `enter_presses` makes Enter in text inputs
press a button (an answer box's Check).

Leaving: a page being left (a page link followed, or back or forward in the browser)
holds back its request for stored work, which would name it and so bring it back;
`on_page` (app.py) tells the browser which page a run draws. On a phone, where the menu
lies over the page, a page link followed in it folds it.

Announcing: `announce(text)` has the page's one polite live region (a screen reader
reads it when it changes: a verdict, an error) say `text`, at the end of a full run (it
goes with mount()'s data); the same text again is not said again. `announce_change`
says a sentence only when it differs from the one the session's last run drew for the
same topic (a round's state on a phone), never on first sight. Text a fragment redraws
without a full run (the projector's count) goes in `says_changes(name)`'s container:
browser.js says its visible text when it changes. The frame player (frames.js) says its
step's sentence in the same region.

Touch: one tap on a chart's cell picks it, as a click does (the hover Plotly picks from
is made under the finger first); a page with clickable charts mounts the component.

Reconnecting: once the connection to the server is back after a loss (a replica died),
the page reloads itself from its link, so that the process now serving it starts from
the screen shown (browser.js, reloadAfterReconnect); every page mounts the component.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib.resources import files

import streamlit as st

from teaching.pages import URL_PATHS
from ui.shared.lecture import dark_theme
from ui.shared.styles import css

KEY = "lab_browser"  # its element's key, hence its CSS class: st-key-lab_browser
ARRIVED = "browser_arrived"  # namespaces whose stored value has come back this session
RECALLED = "browser_recalled"  # {namespace: stored text} come back, not yet handed out
PENDING = "browser_pending"  # what this run asks of the browser, sent by mount()
PAGE = "browser_page"  # the URL path of the page this run draws, set by app.py
MAX_STORED_CHARS = 100_000  # per namespace; anything longer is ignored, never parsed
LEAVE_AFTER_MS = 5_000  # a page link followed that changed nothing by then led nowhere
SAY_GAP_MS = 5_000  # says_changes: at most one saying this often (a screen reader's sentence)
FOCUS_COUNT = "browser_focus_count"  # focus_on's requests so far: each is carried out once
TOLD = "browser_told"  # {topic: the sentence announce_change last sent for it}
SAY_PREFIX = "lab_say_"  # a container keyed so is said when its text changes (browser.js)
QUIET_PREFIX = "lab_quiet_"  # a container keyed so holds alerts that are no live region
CODE_SPAN = re.compile(r"(`+) (.*?) \1")  # state.literal's fences around typed text
SAY_NAME = re.compile(r"[A-Za-z0-9_-]{1,80}")  # a name fit for a CSS class
# A cookie's name or value as keep_cookie keeps it: no character a cookie must quote.
COOKIE_TEXT = re.compile(r"[A-Za-z0-9_-]{1,200}")
COOKIE_MAX_AGE_S = 180 * 24 * 3600  # half a year after the last page that kept it

# The element container holding the component is hidden: no empty row, no gap.
CSS = css(__package__, "browser.css", key=KEY)

# The script as the browser runs it (an ES module); the limits above reach it as data.
JS = files("ui.shared").joinpath("browser.js").read_text(encoding="utf-8")

_component = st.components.v2.component("pooling_lab_browser", css=CSS, js=JS, isolate_styles=False)


@dataclass
class Requests:
    """What one run asks of the browser. store: {namespace: JSON text}; wanted: the
    namespaces the run reads or writes; focus: radio groups to leave once chosen;
    enter: text inputs whose Enter presses a button; said: what the live region says
    (the last announced), or None; told: {topic: sentence} announce_change saw this
    run, kept for the next once mount() has sent them; move_focus: where focus_on
    sends the focus ({"key", "count"}), or None; cookies: {name: value} to keep
    (keep_cookie)."""

    store: dict[str, str] = field(default_factory=dict)
    wanted: set[str] = field(default_factory=set)
    focus: list[dict] = field(default_factory=list)
    enter: list[dict] = field(default_factory=list)
    said: str | None = None
    told: dict[str, str] = field(default_factory=dict)
    move_focus: dict | None = None
    cookies: dict[str, str] = field(default_factory=dict)


def _requests() -> Requests:
    return st.session_state.setdefault(PENDING, Requests())


def _arrived() -> set[str]:
    return st.session_state.setdefault(ARRIVED, set())


def remember(namespace: str, value) -> None:
    """Keep `value` (JSON-able) in this browser under `namespace`, written after this
    run once the session has read what was there before."""
    requests = _requests()
    requests.wanted.add(namespace)
    requests.store[namespace] = json.dumps(value, separators=(",", ":"), sort_keys=True)


def parse_stored(text) -> object | None:
    """Stored text as JSON, or None when it is not text, too long or not JSON."""
    if not isinstance(text, str) or len(text) > MAX_STORED_CHARS:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's limit
        return None


def recalled(namespace: str) -> object | None:
    """What this browser kept under `namespace` (parsed JSON, unvalidated), handed out
    once per session: None before it has come back, after, or when nothing usable was
    kept."""
    _requests().wanted.add(namespace)
    waiting = st.session_state.setdefault(RECALLED, {})
    if namespace not in waiting:
        return None
    return parse_stored(waiting.pop(namespace))


def known(namespace: str) -> None:
    """This session knows `namespace`'s value without asking the browser (its cookie
    came with the page's connection, `cookie`): the namespace counts as come back, so
    the component is not asked for it and `remember` writes it at once."""
    _arrived().add(namespace)


def keep_cookie(name: str, value: str) -> None:
    """Have the browser keep cookie `name` = `value` for this host (see the module's
    docstring), from the end of this run. Both are the lab's own: letters, digits, _
    and -, at most 200 (COOKIE_TEXT)."""
    for part, text in (("name", name), ("value", value)):
        if not COOKIE_TEXT.fullmatch(text):  # the text itself is not echoed: it may be a token
            raise ValueError(
                f"keep_cookie: the cookie's {part} must be 1 to 200 letters, digits, _ or -"
            )
    _requests().cookies[name] = value


def cookie(name: str) -> str | None:
    """The cookie `name` this browser sent with the page's connection, or None (none
    sent, no connection as under a test's stand-in, or text keep_cookie never keeps)."""
    sent = st.context.cookies.get(name)
    return sent if isinstance(sent, str) and COOKIE_TEXT.fullmatch(sent) else None


def has_arrived(namespace: str) -> bool:
    """Whether this browser's answer for `namespace` has come back this session, so
    that "nothing was kept" (arrived, `recalled` gave None) can be told from "not yet
    heard" (a page then waits a run before making up a new value)."""
    _requests().wanted.add(namespace)
    return namespace in _arrived()


def leave_after_choice(radio_key: str, *, arrows: dict[str, str] | None = None) -> None:
    """Once an option of radio `radio_key` is chosen, focus leaves the group; an arrow
    key pressed on it then presses the button keyed arrows[key] ("ArrowRight": ...)
    instead of changing the choice."""
    _requests().focus.append({"key": radio_key, "arrows": dict(arrows or {})})


def focus_on(key: str, *, if_lost: bool = False) -> None:
    """Once this run has drawn the element keyed `key`, the browser moves the focus
    there: its first control, else its first heading, else the element itself (a
    verdict's box). Where a keyboard or screen-reader user continues after an action
    that redrew the page (the control they pressed may be gone or disabled). What gets
    the focus is read then, so a Streamlit alert in it stops being a live region: it
    is said once. Call from a callback or during the run; the last call wins.
    `if_lost`: only when the focus is nowhere then (its element went: a grid taken
    away by a change the viewer did not make), never away from where the viewer is."""
    count = st.session_state.get(FOCUS_COUNT, 0) + 1
    st.session_state[FOCUS_COUNT] = count
    _requests().move_focus = {"key": key, "count": count, "if_lost": if_lost}


def enter_presses(input_keys: list[str], button_key: str) -> None:
    """Enter in any of the text inputs `input_keys` presses button `button_key`."""
    _requests().enter.append({"inputs": list(input_keys), "button": button_key})


def spoken(markdown: str) -> str:
    """A sentence drawn as markdown, as a screen reader should get it: no bold marks,
    no code-span fences (state.literal's echo of typed text), one space between words."""
    # Split on the code spans first: what they hold is the learner's text as typed,
    # said as it is ("a**b" stays a**b); only the markdown around them loses its marks.
    pieces = CODE_SPAN.split(markdown)  # [markdown, fence, typed, markdown, ...]
    said = [
        piece if index % 3 == 2 else piece.replace("**", "")
        for index, piece in enumerate(pieces)
        if index % 3 != 1
    ]
    return " ".join("".join(said).split())


def announce(text: str, *, if_silent: bool = False) -> None:
    """Have the page's polite live region say `text` (a verdict, an error; markdown is
    said as `spoken` makes it), once: the same text on the next run is not said again.
    One sentence a run, the last asked for; `if_silent`: only when nothing else was
    asked for yet this run (a round's news gives way to an error said before it)."""
    requests = _requests()
    if not (if_silent and requests.said is not None):
        requests.said = spoken(text)


def announce_change(topic: str, text: str, *, if_silent: bool = False) -> None:
    """announce(`text`) when the session's last run drew another sentence for `topic`;
    not on its first sight (a page loaded or a room joined says nothing of what is
    simply there), nor when it stayed. A run stopped before its end (a rerun asked
    for) keeps nothing: the next run compares with the one before it."""
    before = st.session_state.get(TOLD, {}).get(topic)
    _requests().told[topic] = text
    if before is not None and before != text:
        announce(text, if_silent=if_silent)


def says_changes(name: str):
    """A container (`with browser.says_changes(name):`) whose visible text the page's
    live region says each time it changes in the browser: for text that a fragment
    redraws without a full run, which `announce` (sent by mount() at a full run's end)
    cannot carry. browser.js's rules: not on first sight after the page loaded; only
    once nothing in the container is stale (the run drawing it has drawn it); never the
    same text twice in a row; at most one saying every SAY_GAP_MS, the latest text at
    the end of a burst (a count that ticks every second is said as it stands, not
    tick by tick). `name`: letters, digits, _ and - (it becomes a CSS class); the same
    name keeps its memory across the page's runs, so a new name (a new round's) starts
    silent."""
    if not SAY_NAME.fullmatch(name):
        raise ValueError(
            f"says_changes name {name!r}: use 1 to 80 letters, digits, _ or - (a CSS class)"
        )
    return st.container(key=SAY_PREFIX + name)


def quiet_alerts(name: str):
    """A container (`with browser.quiet_alerts(name):`) whose Streamlit alerts show as
    ever but are no live region of their own (st.success and st.info are role status,
    st.warning and st.error role alert: each is read when drawn). For what the page
    already says another way, through `announce` or `announce_change` or the focus
    (`focus_on`), so that a screen reader hears it once: browser.js takes the role
    away as the alert is drawn, before the browser tells the screen reader of it.
    `name`: as says_changes' (it becomes a CSS class)."""
    if not SAY_NAME.fullmatch(name):
        raise ValueError(
            f"quiet_alerts name {name!r}: use 1 to 80 letters, digits, _ or - (a CSS class)"
        )
    return st.container(key=QUIET_PREFIX + name)


def on_page(url_path: str) -> None:
    """The run draws the page at `url_path` ("" for home): the browser then tells a
    page being left (a link followed) from the one arriving."""
    st.session_state[PAGE] = url_path


def _theme_changed() -> None:
    """The viewer's theme changed with no run (browser.js watchTheme): the run this
    trigger brings draws the page again for the theme Streamlit now reports; nothing
    else is to do."""


def _take_recall() -> None:
    """The browser answered: note which namespaces came back and keep their text."""
    result = st.session_state.get(KEY) or {}
    found = result.get("recalled")
    if not isinstance(found, dict):
        return
    arrived, waiting = _arrived(), st.session_state.setdefault(RECALLED, {})
    for namespace, text in found.items():
        if isinstance(namespace, str) and namespace not in arrived:
            arrived.add(namespace)
            if isinstance(text, str):
                waiting[namespace] = text


def browser_data(
    requests: Requests, arrived: set[str], *, page: str | None, dark: bool = False
) -> dict:
    """What the component is given: the page's URL path (None when unknown) and every
    page's, the namespaces to read (not yet come back), the text to write (only for
    those that have), the focus and Enter rules, what the live region says, the cookies
    to keep and for how long (COOKIE_MAX_AGE_S), the two limits (MAX_STORED_CHARS,
    LEAVE_AFTER_MS) and says_changes' gap (SAY_GAP_MS) and class (SAY_PREFIX), and
    whether the run drew the page for the dark theme (`dark`: the browser asks for a run
    when the viewer's theme is no longer that one)."""
    return {
        "max_stored_chars": MAX_STORED_CHARS,
        "leave_after_ms": LEAVE_AFTER_MS,
        "say_gap_ms": SAY_GAP_MS,
        "say_prefix": SAY_PREFIX,
        "page": page,
        "pages": URL_PATHS,
        "recall": sorted(requests.wanted - arrived),
        "store": {ns: text for ns, text in sorted(requests.store.items()) if ns in arrived},
        "focus": requests.focus,
        "enter": requests.enter,
        "announce": requests.said,
        "move_focus": requests.move_focus,
        "cookies": requests.cookies,
        "cookie_max_age_s": COOKIE_MAX_AGE_S,
        "dark": dark,
    }


def mount() -> None:
    """Call once, last, on every page run that uses this module: sends what the run
    asked for. Its data only changes when the work does, so an unchanged run costs
    the browser nothing."""
    requests = st.session_state.pop(PENDING, None) or Requests()
    st.session_state.setdefault(TOLD, {}).update(requests.told)
    _component(
        key=KEY,
        data=browser_data(requests, _arrived(), page=st.session_state.get(PAGE), dark=dark_theme()),
        on_recalled_change=_take_recall,
        on_theme_change=_theme_changed,
        width="stretch",
        height="content",
    )
