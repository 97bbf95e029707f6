"""A new round on every phone within about a second, for no idle CPU.

A page's own timer (live.watch, every POLL_S) costs a run per page per tick, and 200
idle pages ticking every second would cost most of a core. Instead the process follows
its students' rooms (followers.Followers): one thread reads each followed room's pulse
every PUSH_S (one read per room and process, however many phones), and asks Streamlit
to run again the page of every session drawn from another pulse, the way Streamlit
itself reruns a session when the app's source changes: AppSession.request_rerun with
the page and link of the session's last client state but none of its widget values
(`replayed`: replaying them would fire the last tap's callback a second time). It is
asked on the session's own event loop, where the browser's messages are handled, and
only while the session runs nothing: a tap's run under way is never cut short, and
the next tick asks again.

Those are Streamlit's private internals (the runtime's session manager, a session's
state and client state), so every use of them goes through `_sessions` and
`_rerun_if_idle`, which find them missing quietly: without a real runtime (AppTest's
stand-in has no session manager, a bare run has no runtime, a Streamlit release may
rename them) nothing is followed, no thread starts, a running thread stops without a
word, and the page's own timer (live.watch, every POLL_S) brings every round.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy.exc import SQLAlchemyError
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

try:  # private: a Streamlit without it pushes nothing (`_sessions`)
    from streamlit.runtime.app_session import AppSessionState
except ImportError:  # pragma: no cover  (the installed Streamlit has it)
    AppSessionState = None

from rooms import store
from rooms.followers import Followers
from teaching.class_mode.student import pulse_key

PUSH_S = 0.1  # how often the process reads its followed rooms' pulses (a read of one row)
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
    if context is None or _sessions() is None:
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


def _sessions():
    """The runtime's session manager (private), or None where there is none: no
    runtime, AppTest's stand-in, or a Streamlit whose internals moved."""
    if AppSessionState is None or not Runtime.exists():
        return None
    try:
        return Runtime.instance()._session_mgr  # noqa: SLF001  (no public lookup by id)
    except (RuntimeError, AttributeError):
        return None


def _pushing(read: Callable[[str], object]) -> None:
    """The thread: a tick every PUSH_S while there are sessions to push to; it ends,
    saying nothing, when there are none to reach (the page's timer goes on)."""
    while True:
        time.sleep(PUSH_S)
        if _sessions() is None:
            with _start_lock:
                _started.clear()  # a later page under a real runtime starts it again
            return
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
    sessions = _sessions() if due else None
    if sessions is None:
        return
    for session_id in due:
        found = sessions.get_active_session_info(session_id)
        if found is None:  # the browser has gone
            FOLLOWERS.forget(session_id)
            _PAGES.pop(session_id, None)
            continue
        try:
            call_soon = found.session._call_soon_on_event_loop  # noqa: SLF001
        except AttributeError:  # the internals moved: the page's timer does it
            return
        call_soon(lambda session=found.session: _rerun_if_idle(session))


def _rerun_if_idle(session) -> None:
    """On the session's event loop: a rerun unless a run is under way (asked again at
    the next tick); none when the browser has gone to another page since (a rerun
    there would draw that page, and never stop being due), nor when the internals
    read here are missing (the page's timer does it)."""
    try:
        client_state, running = session._client_state, session._state  # noqa: SLF001
        page = client_state.page_script_hash
    except AttributeError:
        FOLLOWERS.forget(session.id)
        return
    if page != _PAGES.get(session.id):
        FOLLOWERS.forget(session.id)
        _PAGES.pop(session.id, None)
        return
    if running != AppSessionState.APP_NOT_RUNNING:
        FOLLOWERS.unask(session.id)
        return
    session.request_rerun(replayed(client_state))


def replayed(client_state):
    """The session's last client state (a ClientState protobuf) as a plain rerun of
    its whole page asks it: the same page, link and browser, and no widget values.

    Streamlit keeps a widget's callback after the widget leaves the page, and forgets
    its value: the values of the last message, sent again, would read as a fresh
    change and fire that callback once more (a phone's last tap on x, taken back). A
    fragment's id would run that fragment alone, not the page."""
    rerun = type(client_state)()
    rerun.CopyFrom(client_state)
    rerun.ClearField("widget_states")
    rerun.ClearField("fragment_id")
    rerun.is_auto_rerun = rerun.is_history_navigation = False
    return rerun
