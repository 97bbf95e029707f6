"""A new round on every phone within about a second, for no idle CPU.

A page's own timer (live.watch, every POLL_S) costs a run per page per tick, and 200
idle pages ticking every second would cost most of a core. Instead the process follows
its students' rooms (followers.Followers): one thread reads each followed room's pulse
every PUSH_S (one read per room and process, however many phones), and asks Streamlit
to run again the page of every session drawn from another pulse, the way Streamlit
itself reruns a session when the app's source changes: AppSession.request_rerun with
the session's last client state (the same page and link, no widget changed). It is
asked on the session's own event loop, where the browser's messages are handled, and
only while the session runs nothing: a tap's run under way is never cut short, and
the next tick asks again. Without a Streamlit runtime (AppTest) nothing is followed and
the page's timer does it all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy.exc import SQLAlchemyError
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSessionState
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from rooms import store
from rooms.followers import Followers
from teaching.class_mode.student import pulse_key

PUSH_S = 0.25  # how often the process reads its followed rooms' pulses
IN_FLIGHT = 8  # pushed runs at once per process (followers.due)
_last_keys: dict[str, tuple | None] = {}  # the pulse keys the thread read last
FOLLOWERS = Followers()
_PAGES: dict[str, str] = {}  # {session id: the page (script hash) that follows}
_LOG = logging.getLogger(__name__)
_started = threading.Event()
_start_lock = threading.Lock()


def follow(code: str | None, drawn: tuple | None, *, read: Callable[[str], object]) -> None:
    """From a page's full run: it shows room `code` (None: none) drawn from pulse key
    `drawn`. `read(code)` reads a room's pulse (the thread's, started on first use)."""
    context = get_script_run_ctx()
    if context is None or not Runtime.exists():
        return
    FOLLOWERS.follow(context.session_id, code, drawn)
    if _last_keys:  # this page's run is done: the next page behind may start
        ask(FOLLOWERS.due(dict(_last_keys), now=time.monotonic(), most=IN_FLIGHT))
    if code is None:
        _PAGES.pop(context.session_id, None)
    else:
        _PAGES[context.session_id] = context.page_script_hash
    if code is not None and not _started.is_set():
        with _start_lock:
            if not _started.is_set():
                threading.Thread(
                    target=_pushing, args=(read,), name="room-push", daemon=True
                ).start()
                _started.set()


def _pushing(read: Callable[[str], object]) -> None:
    while True:
        time.sleep(PUSH_S)
        try:
            tick(read)
        except Exception:  # a bad tick must not end the thread: the next one tries again
            _LOG.exception("room push tick failed")


def pulse_keys(read: Callable[[str], object], codes: set[str]) -> dict[str, tuple | None]:
    """{code: the pulse key read now, None for a room gone}; rooms that could not be
    read are left out (their pages are left alone)."""
    keys = {}
    for code in codes:
        try:
            keys[code] = pulse_key(read(code))
        except store.NoSuchRoom:
            keys[code] = None
        except (store.RoomError, SQLAlchemyError):
            continue
    return keys


def tick(read: Callable[[str], object]) -> None:
    """One look at the followed rooms; a rerun asked of the pages drawn from another
    pulse (a few at a time: each page redrawn asks the next, `follow`)."""
    global _last_keys  # swapped whole: a page's run reads it while the rooms are read
    _last_keys = pulse_keys(read, FOLLOWERS.rooms())
    ask(FOLLOWERS.due(dict(_last_keys), now=time.monotonic(), most=IN_FLIGHT))


def ask(due: list[str]) -> None:
    """A rerun asked of each of these sessions, on its own event loop."""
    if not due:
        return
    sessions = Runtime.instance()._session_mgr  # noqa: SLF001  (no public lookup by id)
    for session_id in due:
        found = sessions.get_active_session_info(session_id)
        if found is None:  # the browser has gone
            FOLLOWERS.forget(session_id)
            _PAGES.pop(session_id, None)
            continue
        session = found.session
        session._call_soon_on_event_loop(lambda session=session: _rerun_if_idle(session))  # noqa: SLF001


def _rerun_if_idle(session) -> None:
    """On the session's event loop: a rerun unless a run is under way (asked again at
    the next tick); none when the browser has gone to another page since (a rerun
    there would draw that page, and never stop being due)."""
    if session._client_state.page_script_hash != _PAGES.get(session.id):  # noqa: SLF001
        FOLLOWERS.forget(session.id)
        _PAGES.pop(session.id, None)
        return
    if session._state != AppSessionState.APP_NOT_RUNNING:  # noqa: SLF001
        FOLLOWERS.unask(session.id)
        return
    session.request_rerun(session._client_state)  # noqa: SLF001  (as a source change does)
