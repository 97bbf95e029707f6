"""A Streamlit session without a browser: the websocket protocol a browser speaks.

Learned from a captured Chromium session (Playwright, framesent/framereceived):
1. GET the page (a browser does; through the proxy this sets its sticky cookie);
2. open ws://HOST/_stcore/stream with that cookie;
3. send BackMsg.rerun_script with the link's query string and the page's name;
4. the server streams ForwardMsgs (new_session, deltas, ...) and ends each run with
   script_finished;
5. a widget change is another rerun_script carrying the widget's state; a widget's
   id ends with "-<key>", so ids are learned from the deltas of the previous run.

Used by the class load benchmark and by deploy/serve to warm a replica up.
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

RUN_TIMEOUT_S = 30.0


class RunFailed(Exception):
    """A run that raised in the page, lost its connection or did not finish in time."""


@dataclass
class Run:
    seconds: float
    exceptions: list[str]


@dataclass
class Session:
    """One student's connection to one page."""

    base_url: str  # http://host:port
    page: str  # "" for home, "playground", "batch"
    query: str = ""
    widget_ids: dict[str, str] = field(default_factory=dict)  # key -> widget id
    connection: object = None
    cookie: str = ""

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

    async def rerun(self, widget: tuple[str, str, object] | None = None) -> Run:
        """A script run: the first one, or one for a changed widget given as
        (key, WidgetState field such as "int_value", value)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_name = self.page
        if widget is not None:
            key, kind, value = widget
            changed = state.widget_states.widgets.add()
            changed.id = self.widget_ids[key]
            setattr(changed, kind, value)
        started = time.perf_counter()
        await self.connection.send(message.SerializeToString())
        exceptions = await asyncio.wait_for(self._until_finished(), RUN_TIMEOUT_S)
        return Run(time.perf_counter() - started, exceptions)

    async def _until_finished(self) -> list[str]:
        exceptions = []
        while True:
            try:
                raw = await self.connection.recv()
            except ConnectionClosed as closed:
                raise RunFailed(f"the server closed the connection ({closed})") from None
            if isinstance(raw, str):
                continue
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "delta":
                self._learn(message, exceptions)
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "script_finished":
                return exceptions

    def _learn(self, message: ForwardMsg, exceptions: list[str]) -> None:
        """Widget ids by key, and any exception the page showed."""
        if message.delta.WhichOneof("type") != "new_element":
            return
        element = message.delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            exceptions.append(element.exception.message)
            return
        widget_id = getattr(getattr(element, kind), "id", "") if kind else ""
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
            self.widget_ids[widget_id.rsplit("-", 1)[-1]] = widget_id

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
