"""A Streamlit session without a browser: the websocket protocol a browser speaks.

Learned from a captured Chromium session (Playwright, framesent/framereceived):
1. GET the page (a browser does; through the proxy this sets its sticky cookie);
2. open ws://HOST/_stcore/stream with that cookie;
3. send BackMsg.rerun_script with the link's query string and the page's name;
4. the server streams ForwardMsgs (new_session, deltas, ...) and ends each run with
   script_finished;
5. a widget change is another rerun_script carrying the widget's state; a widget's
   id ends with "-<key>", so ids are learned from the deltas of the previous run;
6. a fragment with run_every announces itself with an auto_rerun message (its id and
   interval); the browser, not the server, keeps its time, sending a rerun_script with
   that fragment_id and is_auto_rerun. A run that calls st.rerun() ends with
   script_finished FINISHED_EARLY_FOR_RERUN and the full run follows at once;
7. every run starts with new_session, and the server may start one nobody asked for
   (the class page's push, a source change): a reader takes every message as it
   comes, gives each run to the oldest rerun still waiting for one, and keeps the
   others in `pushed`. A run cut short by another (a new_session before its end)
   hands its rerun on to the one that follows.

Widget states as a browser sends them (WidgetState's fields): a text input's text is
a string_value, a button press a trigger_value; a plotly_chart with on_select sends
its selection as a string_value holding JSON ({"selection": {"points": [...], ...}});
a components v2 component (st.components.v2) sends its state as a json_value holding
a JSON object of its state keys (setStateValue("recalled", ...) sends
{"recalled": ...}).

Used by the class and room load benchmarks, the serving tests and by deploy/serve to
warm a replica up.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

RUN_TIMEOUT_S = 30.0


class RunFailed(Exception):
    """A run that raised in the page, lost its connection or did not finish in time."""


@dataclass
class Run:
    """seconds: from sending the rerun to its end; exceptions: shown on the page;
    full: whether the whole page ran (a fragment's run that called st.rerun() did);
    errors, warnings: the bodies of st.error and st.warning boxes drawn; keys: the widget keys
    drawn; fragments: the run_every fragments it announced (id -> seconds)."""

    seconds: float
    exceptions: list[str]
    full: bool = True
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    fragments: dict[str, float] = field(default_factory=dict)  # run_every announced


Widget = tuple[str, str, object]  # (key, WidgetState field such as "int_value", value)


@dataclass
class Waiting:
    """A rerun sent and not yet answered: its run goes to `answer`."""

    answer: asyncio.Future
    fragment: bool  # a fragment's timer: any full run of the page answers it too
    sent: float


def selection_state(row: int, col: int) -> str:
    """A plotly_chart's selection after a click on the point at x=col, y=row (the lab's
    click points sit at cell centres), as the chart's string_value."""
    point = {"curve_number": 0, "point_number": 0, "point_index": 0, "x": col, "y": row}
    return json.dumps(
        {"selection": {"points": [point], "point_indices": [0], "box": [], "lasso": []}}
    )


def component_state(**state) -> str:
    """A components v2 component's state keys, as its json_value."""
    return json.dumps(state)


@dataclass
class Session:
    """One student's connection to one page."""

    base_url: str  # http://host:port
    page: str  # "" for home, "playground", "batch"
    query: str = ""
    widget_ids: dict[str, str] = field(default_factory=dict)  # key -> id, latest last
    drawn: frozenset[str] = frozenset()  # widget keys on the page after its last full run
    fragments: dict[str, float] = field(default_factory=dict)  # run_every id -> seconds, now
    connection: object = None
    cookie: str = ""
    # The page's script hash from the server's navigation message: a browser sends it with
    # every rerun after the first, and a rerun a fragment asks for (st.rerun) runs the
    # page it names; without it that run would fall back to the home page.
    page_script_hash: str = ""
    # Called with every ForwardMsg received (a benchmark reads what a page shows).
    listener: Callable[[ForwardMsg], None] | None = None
    dropped: bool = False  # the server closed the websocket (its replica died, say)

    # The loopback address this session's connections come from (127.0.0.0/8): another
    # one stands for another device or network; None, the system's choice.
    source: str | None = None

    async def open(self, *, reload: bool = True) -> Run:
        """Load the page as a browser does and run its script once. reload=False: only
        the websocket, opened anew with the cookie kept, as a page reconnecting after
        its connection dropped (the server's session is a new one)."""
        if reload:
            self.cookie = await asyncio.to_thread(self._fetch_page)
        stream = f"ws://{urlsplit(self.base_url).netloc}/_stcore/stream"
        headers = {"Cookie": self.cookie} if self.cookie else {}
        local = {"local_addr": (self.source, 0)} if self.source else {}
        # A browser waits for the handshake as long as a run: a busy replica answers late.
        self.connection = await connect(
            stream,
            additional_headers=headers,
            max_size=2**26,
            open_timeout=RUN_TIMEOUT_S,
            **local,
        )
        self._waiting: deque[Waiting] = deque()
        self._run: Run | None = None  # the run whose messages are coming in
        self._run_for: Waiting | None = None  # the rerun it answers (None: pushed)
        self.pushed: list[Run] = []  # runs nobody here asked for, oldest first
        self._finishes: list[asyncio.Future] = []  # next_run's, answered at the next end
        self._reader = asyncio.create_task(self._read_all())
        return await self.rerun()

    def _fetch_page(self) -> str:
        """GET the page; the cookies it sets (the proxy's sticky one) as a header."""
        address = urlsplit(self.base_url)
        connection = http.client.HTTPConnection(
            address.hostname,
            address.port,
            timeout=30,
            source_address=(self.source, 0) if self.source else None,
        )
        try:
            connection.request("GET", f"/{self.page}?{self.query}")
            reply = connection.getresponse()
            reply.read()
            cookies = reply.headers.get_all("Set-Cookie") or []
        finally:
            connection.close()
        if reply.status >= 400:
            raise RunFailed(f"GET /{self.page} answered {reply.status} {reply.reason}")
        return "; ".join(cookie.split(";", 1)[0] for cookie in cookies)

    async def rerun(
        self,
        widget: Widget | None = None,
        *,
        widgets: tuple[Widget, ...] = (),
        fragment_id: str | None = None,
    ) -> Run:
        """A script run: the first one, one for changed widgets, each given as
        (key, WidgetState field such as "int_value", value), or the auto-rerun of the
        fragment `fragment_id` (one of `fragments`)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_name = self.page
        state.page_script_hash = self.page_script_hash
        if fragment_id is not None:
            state.fragment_id = fragment_id
            state.is_auto_rerun = True
        for key, kind, value in ((widget,) if widget else ()) + tuple(widgets):
            changed = state.widget_states.widgets.add()
            changed.id = self.widget_ids[key]
            setattr(changed, kind, value)
        waiting = Waiting(
            asyncio.get_running_loop().create_future(), fragment_id is not None, time.perf_counter()
        )
        self._waiting.append(waiting)
        try:
            await self.connection.send(message.SerializeToString())
        except ConnectionClosed as closed:
            self._forget(waiting)
            # Seen here first when the send beats the reader to the closed socket.
            self.dropped = True
            if waiting.answer.done():  # the reader saw the close first: said here instead
                waiting.answer.exception()
            raise RunFailed(f"the connection is closed ({closed})") from closed
        try:
            return await asyncio.wait_for(asyncio.shield(waiting.answer), RUN_TIMEOUT_S)
        finally:
            self._forget(waiting)

    def _forget(self, waiting: Waiting) -> None:
        """`waiting` is answered or failed: out of the queue, or off the run the reader
        took it up for (a run can start before the send is seen to have failed)."""
        if waiting in self._waiting:
            self._waiting.remove(waiting)
        if self._run_for is waiting:
            self._run_for = None

    async def _read_all(self) -> None:
        """Every message, as it comes (see the module's docstring, 7)."""
        try:
            while True:
                raw = await self.connection.recv()
                if isinstance(raw, bytes):
                    message = ForwardMsg()
                    message.ParseFromString(raw)
                    self._heard(message)
        except ConnectionClosed as closed:
            self.dropped = True
            failed = RunFailed(f"the server closed the connection ({closed})")
            failed.__cause__ = closed  # its close code, for a caller that asks (1009: too big)
            for waiting in [*self._waiting, self._run_for]:
                if waiting is not None and not waiting.answer.done():
                    waiting.answer.set_exception(failed)

    def _heard(self, message: ForwardMsg) -> None:
        if self.listener is not None:
            self.listener(message)
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self._start_run()
            return
        if self._run is None:  # a message outside any run (none expected): kept anyway
            self._start_run()
        run = self._run
        if kind == "delta":
            self._learn(message, run)
        elif kind == "navigation" and message.navigation.page_script_hash:
            self.page_script_hash = message.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string
        elif kind == "auto_rerun":
            run.fragments[message.auto_rerun.fragment_id] = message.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for stopped in message.stop_auto_rerun.fragment_ids:
                self.fragments.pop(stopped, None)
        elif kind == "script_finished":
            status = message.script_finished
            if status != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                run.full = status != ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
                self._finish_run(run)

    def _start_run(self) -> None:
        """A run begins: it answers the rerun of the run it cut short (a fragment's
        that called st.rerun(), a run stopped for another), else the oldest waiting."""
        cut_short = self._run
        if self._run_for is None and self._waiting:
            self._run_for = self._waiting.popleft()
        self._run = Run(0.0, [])
        if cut_short is not None:  # its trouble stays the run's trouble
            for name in ("exceptions", "errors", "warnings"):
                getattr(self._run, name).extend(getattr(cut_short, name))

    async def next_run(self) -> Run:
        """The next run to end, whoever asked for it (a pushed one too)."""
        finish = asyncio.get_running_loop().create_future()
        self._finishes.append(finish)
        return await asyncio.wait_for(finish, RUN_TIMEOUT_S)

    def _finish_run(self, run: Run) -> None:
        waiting, self._run, self._run_for = self._run_for, None, None
        finishes, self._finishes = self._finishes, []
        for finish in finishes:
            if not finish.done():
                finish.set_result(run)
        if run.full:
            # A browser keeps the timers of the fragments the page's run announced
            # (a fragment's id changes when the page around it does).
            self.drawn = frozenset(run.keys)
            self.fragments = dict(run.fragments)
        else:
            self.fragments.update(run.fragments)
        if waiting is None:
            self.pushed.append(run)
            if run.full:  # a fragment's tick sent meanwhile may be dropped: this answers it
                for ticking in [w for w in self._waiting if w.fragment]:
                    self._waiting.remove(ticking)
                    self._answer(ticking, run)
            return
        self._answer(waiting, run)

    @staticmethod
    def _answer(waiting: Waiting, run: Run) -> None:
        if not waiting.answer.done():
            run.seconds = time.perf_counter() - waiting.sent
            waiting.answer.set_result(run)

    def _learn(self, message: ForwardMsg, run: Run) -> None:
        """Widget ids by key, and any exception, error or warning the page showed."""
        if message.delta.WhichOneof("type") != "new_element":
            return
        element = message.delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            run.exceptions.append(element.exception.message)
            return
        if kind == "alert" and element.alert.format == Alert.ERROR:
            run.errors.append(element.alert.body)
            return
        if kind == "alert" and element.alert.format == Alert.WARNING:
            run.warnings.append(element.alert.body)
            return
        widget_id = getattr(getattr(element, kind), "id", "") if kind else ""
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
            key = widget_id.rsplit("-", 1)[-1]
            self.widget_ids.pop(key, None)  # re-inserted last: the latest keys last
            self.widget_ids[key] = widget_id
            run.keys.add(key)

    def latest_key(self, prefix: str) -> str | None:
        """The key starting with `prefix` learned last (keys that change per round or
        per tap, such as a chart's), or None."""
        found = [key for key in self.widget_ids if key.startswith(prefix)]
        return found[-1] if found else None

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self._reader.cancel()


async def visit(base_url: str, page: str, query: str = "") -> Run:
    """Open a page once and leave: how a replica is warmed up."""
    session = Session(base_url, page, query)
    try:
        return await session.open()
    finally:
        await session.close()


def run_apart(coroutine: Coroutine):
    """`asyncio.run(coroutine)` on a thread of its own, its result: it also works where
    the caller's thread already runs an event loop (Playwright's sync API does, for
    the rest of a test session once a browser test has run)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
