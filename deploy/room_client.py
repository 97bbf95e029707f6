"""Class mode without a browser: a student's phone and the projector as Streamlit
sessions over the websocket (deploy/stream_client), for the room benchmark and the
serving tests.

What the browser itself would add is sent as it would send it:
- the lab's browser component (ui/shared/browser.py, key `lab_browser`) answers a
  page's first run with what localStorage kept, as its state {"recalled": {namespace:
  stored text or null}} (a json_value); a student's token is kept under `class-token`
  as JSON text, the lecturer's rooms under `class-rooms`; a page that knows what it
  needs from a cookie asks for nothing, and none is sent;
- the cookies the component's data asks the browser to keep (browser.keep_cookie: a
  student's token) go with every later connection of the phone, as a browser's do;
- a tap on a cell of x is the pick chart's selection (a string_value), the chart keyed
  room_pick_<round>_<taps>; a typed number is room_number's text with room_send pressed;
- a fragment with run_every is rerun by the browser's timer: `poll` and `refresh` are
  one tick of it;
- a run the server starts on its own (the Join page's push of a new round) is drawn as
  it comes (stream_client's reader), and kept for `take_pushed`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time

from websockets.exceptions import InvalidStatus

from deploy.stream_client import Run, Session, Widget, component_state, selection_state

BROWSER_KEY = "lab_browser"
BROWSER_COMPONENT = "pooling_lab_browser"  # ui/shared/browser.py's component's name
TOKEN_NAMESPACE = "class-token"
TOKEN_COOKIE = "pooling_lab_token"  # ui/class_mode/student/state.py's copy of the token
STICKY_COOKIE = "LAB_REPLICA"  # the proxy's, naming a browser's replica (haproxy.cfg.template)
ROOMS_NAMESPACE = "class-rooms"
PICK_PREFIX = "room_pick_"
NUMBER_KEY, SEND_KEY = "room_number", "room_send"
# What the projector writes (ui/class_mode/lecturer: the question's header and count_sentence).
ROUND_SHOWN = re.compile(r"\*\*Round (\d+)\*\*")
COUNT_SHOWN = re.compile(r"^(?:Answers closed: )?(\d+) answers?(?: so far)?\.$")
NONE_SHOWN = re.compile(r"^(?:No answers yet|Answers closed: nobody answered)\.$")
# What a phone writes over a round (ui/class_mode/student/views: its one bold line).
PHONE_ROUND = re.compile(r"^\*\*Round (\d+)\*\*")
# Its caption on the answer saved (ui/class_mode/student/views: saved_line).
SAVED_ANSWER = "Your answer: "
SAVED_LINES = (SAVED_ANSWER, "No answer saved yet.", "Saved: ", "You did not answer.")
CELL_SHOWN = re.compile(r"\((\d+), (\d+)\)")  # a cell as answer_text writes it: (0, 1)


class NoFragment(Exception):
    """The page has no fragment running (it has not joined, or its room ended)."""


def browser_answer(**stored: str | None) -> Widget:
    """The browser component's answer to a page's first run: {namespace: the text
    localStorage kept (JSON), or None when it kept nothing}."""
    return (BROWSER_KEY, "json_value", component_state(recalled=stored))


async def tick(session: Session) -> list[Run]:
    """One run of each of the page's fragments, as the browser's timers send them."""
    if not session.fragments:
        raise NoFragment(f"/{session.page} has no fragment running")
    runs = []
    for fragment in list(session.fragments):
        if fragment in session.fragments:  # a full run before may have ended it
            runs.append(await session.rerun(fragment_id=fragment))
    return runs


def drawn(message, kind: str):
    """The element of type `kind` ("markdown", "bidi_component") this ForwardMsg draws,
    or None when it draws no such element."""
    if message.WhichOneof("type") != "delta":
        return None
    delta = message.delta
    if delta.WhichOneof("type") != "new_element":
        return None
    element = delta.new_element
    return getattr(element, kind) if element.WhichOneof("type") == kind else None


def markdown_of(message) -> str | None:
    """The text of a markdown element this ForwardMsg draws, or None."""
    element = drawn(message, "markdown")
    return None if element is None else element.body


def browser_data_of(message) -> dict | None:
    """The lab's browser component's data, when this ForwardMsg draws it; else None."""
    element = drawn(message, "bidi_component")
    if element is None or element.component_name != BROWSER_COMPONENT:
        return None
    try:
        data = json.loads(element.json)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def with_cookies(header: str, kept: dict[str, str]) -> str:
    """A Cookie header's `name=value; ...` with the cookies `kept` set (added, or
    replacing one of the same name), as a browser sends them after keeping them."""
    pairs = dict(pair.split("=", 1) for pair in header.split("; ") if "=" in pair)
    pairs.update(kept)
    return "; ".join(f"{name}={value}" for name, value in pairs.items())


def sticky_of(header: str) -> str:
    """The proxy's sticky cookie in a Cookie header, as `LAB_REPLICA=r1`; "" if none."""
    for pair in header.split("; "):
        if pair.startswith(f"{STICKY_COOKIE}="):
            return pair
    return ""


class BrowserKept:
    """A page on `session`, and what the lab's browser component does for it: the
    data of its last run (`browser`), and the cookies that data asks it to keep, added
    to the session for its later connections. A subclass reads the rest of what the
    page draws in `_heard`, every message the session receives."""

    def __init__(self, session: Session):
        self.session = session
        self.browser: dict = {}

    def _heard(self, message) -> None:
        raise NotImplementedError

    def _heard_browser(self, message) -> bool:
        """Whether `message` drew the component (its data noted; nothing else to read)."""
        data = browser_data_of(message)
        if data is None:
            return False
        self.browser = data
        if data.get("cookies"):
            self.session.cookie = with_cookies(self.session.cookie, data["cookies"])
        return True

    def asks_storage(self) -> bool:
        """Whether the component's last data asks for what the browser stored."""
        return bool(self.browser.get("recall"))

    async def answered(self, first: Run, kept: Widget) -> list[Run]:
        """[first], and the run of the component's state `kept` sent after it when
        that first run asked for what the browser stored (a browser sends nothing
        otherwise)."""
        if not self.asks_storage():
            return [first]
        return [first, await self.session.rerun(kept)]


def shown_count(text: str) -> int | None:
    """The answer count a line of the projector says, or None when it says none."""
    if NONE_SHOWN.match(text):
        return 0
    found = COUNT_SHOWN.match(text)
    return int(found.group(1)) if found else None


async def reopen(page: BrowserKept, kept: Widget) -> list[Run]:
    """page.session replaced by a new one on a new websocket to the same link with the
    same cookies (the proxy's sticky one takes it to a live replica), run as on a page's first
    load: one run, then, when that run asks the browser for what it stored, the
    browser component's state `kept` in a second. (Sent in the first run instead, the
    state would come before the component is drawn in the new session, and the page
    never reads it: the server-side session is a new one.)"""
    old = page.session
    await old.close()
    page.browser = {}
    page.session = Session(
        old.base_url, old.page, old.query, listener=page._heard, source=old.source
    )
    page.session.cookie = old.cookie
    return await page.answered(await open_again(page.session), kept)


# A browser's Streamlit client tries a dropped connection again, waiting longer each
# time: right after a replica dies, the proxy may still send a try to it (a 502 or
# 503 until its health check marks it down).
RETRY_WAITS_S = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
REFUSED_BY_PROXY = {502, 503, 504}


async def open_again(session: Session) -> Run:
    """session.open(), tried again after each wait of RETRY_WAITS_S while the proxy
    refuses the websocket (REFUSED_BY_PROXY); the last refusal is raised."""
    for wait in (*RETRY_WAITS_S, None):
        try:
            return await session.open(reload=False)
        except InvalidStatus as refused:
            if wait is None or refused.response.status_code not in REFUSED_BY_PROXY:
                raise
        await asyncio.sleep(wait)
    raise AssertionError("unreachable: the last try returns or raises")


class Student(BrowserKept):
    """One phone: joins room `code` by its link with `token` kept in its browser.
    `rounds_seen`: {round: time.perf_counter() when its page first drew it}."""

    def __init__(self, base_url: str, code: str, token: str, *, source: str | None = None):
        super().__init__(
            Session(base_url, "join", f"code={code}", listener=self._heard, source=source)
        )
        self.token = token
        self.rounds_seen: dict[int, float] = {}
        self.saved_line = ""  # the page's last line on the answer saved, "" before any

    def _heard(self, message) -> None:
        if self._heard_browser(message):
            return
        text = markdown_of(message)
        found = PHONE_ROUND.match(text) if text else None
        if found:
            self.rounds_seen.setdefault(int(found.group(1)), time.perf_counter())
        elif text and text.startswith(SAVED_LINES):
            self.saved_line = text

    async def join(self) -> list[Run]:
        """Open the join link; the browser hands over the token; the page joins."""
        first = await self.session.open()
        kept = json.dumps(self.token)
        return await self.answered(first, browser_answer(**{TOKEN_NAMESPACE: kept}))

    async def reconnect(self) -> list[Run]:
        """What the page does when its connection dropped (its replica died): a new
        websocket with the cookies it had (the proxy's sticky one takes it to a live
        replica, the token's brings the token), one run of the page's link as it stands
        (?code=...), and the browser component's state (the token) only if that run
        asks for it (reopen)."""
        self.saved_line = ""
        kept = json.dumps(self.token)
        return await reopen(self, browser_answer(**{TOKEN_NAMESPACE: kept}))

    def shows_saved(self) -> bool:
        """Whether the page's last line on this round says an answer is saved."""
        return self.saved_line.startswith(SAVED_ANSWER)

    def shown_answer(self, kind: str):
        """The answer its page last said is saved (None: none is): a frozenset of
        (row, col) for a question answered by cells, else the number."""
        if not self.shows_saved():
            return None
        said = self.saved_line.removeprefix(SAVED_ANSWER).split(" (saved)")[0]
        if kind in ("cells", "batch"):
            return frozenset((int(r), int(c)) for r, c in CELL_SHOWN.findall(said))
        return float(said.replace("\u2212", "-"))

    def take_pushed(self) -> list[Run]:
        """The runs the server started on its own (a new round pushed) since last asked."""
        runs, self.session.pushed = self.session.pushed, []
        return runs

    async def poll(self) -> Run:
        """The polling fragment's run (full when the round changed and it reran)."""
        return (await tick(self.session))[0]

    def pick_key(self, round_number: int) -> str | None:
        """The key of x to tap on screen for round `round_number`, or None when the
        page does not show that round open for taps."""
        prefix = f"{PICK_PREFIX}{round_number}_"
        found = [key for key in self.session.drawn if key.startswith(prefix)]
        return found[0] if found else None

    def can_type(self) -> bool:
        """Whether the page shows the number box and Send."""
        return {NUMBER_KEY, SEND_KEY} <= self.session.drawn

    async def tap(self, round_number: int, row: int, col: int) -> Run:
        """A tap on cell (row, col) of x: the cell goes in or out of the answer."""
        key = self.pick_key(round_number)
        if key is None:
            raise NoFragment(f"round {round_number} is not open for taps on this page")
        run = await self.session.rerun((key, "string_value", selection_state(row, col)))
        # A tap's run draws x under a new key. A run that kept `key` was one the server
        # pushed as the tap went out (taken for the tap's: runs carry no id); the
        # tap's own follows it.
        while run.full and self.pick_key(round_number) == key:
            run = await self.session.next_run()
        return run

    async def send_number(self, text: str) -> Run:
        """`text` typed in the answer box, then Send."""
        return await self.session.rerun(
            widgets=((NUMBER_KEY, "string_value", text), (SEND_KEY, "trigger_value", True))
        )

    async def close(self) -> None:
        await self.session.close()


class Projector(BrowserKept):
    """The lecturer's browser on /class?room=CODE, holding the room's key. `seen`:
    every count its page drew, as (time.perf_counter(), the round on screen, count)."""

    def __init__(self, base_url: str, code: str, secret: str):
        super().__init__(Session(base_url, "class", f"room={code}", listener=self._heard))
        self.code, self.secret = code, secret
        self.round: int | None = None
        self.seen: list[tuple[float, int | None, int]] = []

    def _heard(self, message) -> None:
        if self._heard_browser(message):
            return
        text = markdown_of(message)
        if text is None:
            return
        header = ROUND_SHOWN.search(text)
        if header:
            self.round = int(header.group(1))
            return
        count = shown_count(text)
        if count is not None:
            self.seen.append((time.perf_counter(), self.round, count))

    def count(self) -> int | None:
        """The count its page drew last."""
        return self.seen[-1][2] if self.seen else None

    async def open(self) -> list[Run]:
        first = await self.session.open()
        rooms = json.dumps([{"code": self.code, "secret": self.secret}])
        return await self.answered(first, browser_answer(**{ROOMS_NAMESPACE: rooms}))

    async def reconnect(self) -> list[Run]:
        """As Student.reconnect: the browser component's state holds the room's key."""
        rooms = json.dumps([{"code": self.code, "secret": self.secret}])
        return await reopen(self, browser_answer(**{ROOMS_NAMESPACE: rooms}))

    async def refresh(self) -> list[Run]:
        """One tick of its fragments' timers (the live count, the watch on the room)."""
        return await tick(self.session)

    async def close(self) -> None:
        await self.session.close()
