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
   script_finished FINISHED_EARLY_FOR_RERUN and the full run follows at once.

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
import json
import time
import urllib.request
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

    async def open(self) -> Run:
        """Load the page as a browser does and run its script once."""
        self.cookie = await asyncio.to_thread(self._fetch_page)
        stream = f"ws://{urlsplit(self.base_url).netloc}/_stcore/stream"
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.connection = await connect(stream, additional_headers=headers, max_size=2**26)
        return await self.rerun()

    def _fetch_page(self) -> str:
        """GET the page; the cookies it sets (the proxy's sticky one) as a header."""
        with urllib.request.urlopen(
            f"{self.base_url}/{self.page}?{self.query}", timeout=30
        ) as reply:
            cookies = reply.headers.get_all("Set-Cookie") or []
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
        started = time.perf_counter()
        await self.connection.send(message.SerializeToString())
        run = Run(0.0, [])
        await asyncio.wait_for(self._until_finished(run), RUN_TIMEOUT_S)
        run.seconds = time.perf_counter() - started
        if run.full:
            # A browser keeps the timers of the fragments the page's run announced
            # (a fragment's id changes when the page around it does).
            self.drawn = frozenset(run.keys)
            self.fragments = dict(run.fragments)
        else:
            self.fragments.update(run.fragments)
        return run

    async def _until_finished(self, run: Run) -> None:
        """Read until the run ends, noting on `run` what it showed."""
        while True:
            try:
                raw = await self.connection.recv()
            except ConnectionClosed as closed:
                raise RunFailed(f"the server closed the connection ({closed})") from None
            if isinstance(raw, str):
                continue
            message = ForwardMsg()
            message.ParseFromString(raw)
            if self.listener is not None:
                self.listener(message)
            kind = message.WhichOneof("type")
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
                    return

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
