"""The push to phones (ui/class_mode/student/push.py) rides on private Streamlit
internals: where they are missing (no runtime, AppTest's stand-in, a Streamlit that
renamed them), nothing raises, no thread is left running, and a phone still gets the
next round by its own poll."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from types import SimpleNamespace
from unittest.mock import MagicMock

import pytest
from browser import TIMEOUT_MS, open_page
from conftest import PHONE
from playwright.sync_api import expect
from room_store_helpers import rooms_file
from room_student_app import room_engine_fixture, room_fixture, student  # noqa: F401
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.runtime import Runtime

from deploy.local_server import start_app, stop
from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.questions import question_from_exercise
from ui.class_mode.student import push
from ui.class_mode.student.live import POLL_S


def pushes(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == push.__name__]


@pytest.mark.parametrize(
    "runtime",
    [None, MagicMock(spec=Runtime), SimpleNamespace(_session_mgr=None)],
    ids=["no runtime", "AppTest's stand-in", "no session manager"],
)
def test_no_push_raises_where_the_internals_are_missing(runtime, monkeypatch, caplog):
    monkeypatch.setattr(Runtime, "_instance", runtime)
    with caplog.at_level(logging.DEBUG, logger=push.__name__):
        assert push._sessions() is None
        push.ask(["a-session"])  # nothing to ask it of: quietly nothing
        push.tick(lambda code: store.Pulse(code, 1, "open", 1, False))
    assert pushes(caplog) == []


def test_a_session_whose_internals_moved_is_forgotten_quietly(monkeypatch):
    push.FOLLOWERS.follow("moved", "K7QX3M", None)
    push._PAGES["moved"] = "page"
    push._rerun_if_idle(SimpleNamespace(id="moved"))  # no _client_state, no _state
    assert "K7QX3M" not in push.FOLLOWERS.rooms()
    found = SimpleNamespace(session=SimpleNamespace(id="moved"))  # no event-loop hook
    sessions = SimpleNamespace(get_active_session_info=lambda _id: found)
    monkeypatch.setattr(push, "_sessions", lambda: sessions)
    push.ask(["moved"])


def test_a_pushed_run_replays_the_page_and_link_but_no_widget_value():
    """The last message of a phone carried its last tap on x; sent again, Streamlit
    would take the tap a second time (the chart's callback outlives its value)."""
    last = ClientState(
        query_string="code=K7QX3M",
        page_script_hash="join-page",
        fragment_id="the-watch",
        is_auto_rerun=True,
    )
    tap = last.widget_states.widgets.add(id="pick-chart-1-0")
    tap.json_value = '{"selection": {"points": [{"x": 1, "y": 0}]}}'
    rerun = push.replayed(last)
    assert (rerun.query_string, rerun.page_script_hash) == ("code=K7QX3M", "join-page")
    assert list(rerun.widget_states.widgets) == [] and rerun.fragment_id == ""
    assert not rerun.is_auto_rerun
    assert len(last.widget_states.widgets) == 1  # the session's own state is left alone


def test_the_push_thread_ends_without_a_word_when_there_is_no_runtime(monkeypatch, caplog):
    monkeypatch.setattr(Runtime, "_instance", None)
    monkeypatch.setattr(push, "PUSH_S", 0.01)
    push._started.set()
    thread = threading.Thread(target=push._pushing, args=(lambda code: None,))
    with caplog.at_level(logging.DEBUG, logger=push.__name__):
        thread.start()
        thread.join(timeout=10)
    assert not thread.is_alive() and not push._started.is_set()
    assert pushes(caplog) == []


def test_a_student_page_under_apptest_starts_no_push(room, caplog):
    before = {thread.ident for thread in threading.enumerate() if thread.name == "room-push"}
    with caplog.at_level(logging.DEBUG, logger=push.__name__):
        app = student({"code": room.code})
        assert not app.exception
    started = {thread.ident for thread in threading.enumerate() if thread.name == "room-push"}
    assert started <= before and pushes(caplog) == []


@pytest.fixture(name="unpushed", scope="module")
def unpushed_fixture(tmp_path_factory):
    """The Join page served without the push's internals, on a rooms file of its own."""
    with rooms_file(tmp_path_factory) as engine:
        url, process = start_app(script=Path(__file__).with_name("join_without_push.py"))
        yield url, engine
        stop(process)


@pytest.mark.browser
def test_without_the_push_a_phone_gets_the_next_round_by_its_own_poll(unpushed, browser):
    url, engine = unpushed
    room = store.open_room(engine, token=codes.new_token())
    cells = question_from_exercise("cells", level=2, seed=4, number=2)
    store.ask(engine, room.code, secret=room.secret, question=cells)
    context = browser.new_context(**PHONE)
    try:
        phone = context.new_page()
        open_page(phone, f"{url}/?code={room.code}")
        answer_box = phone.get_by_label("Your answer")
        expect(phone.get_by_text(f"Room {room.code}", exact=False).first).to_be_visible(
            timeout=TIMEOUT_MS
        )
        expect(answer_box).to_have_count(0)
        value = question_from_exercise("value", level=2, seed=4, number=2)
        store.ask(engine, room.code, secret=room.secret, question=value)
        # Nothing pushes: the page's own look, every POLL_S, brings the round.
        expect(answer_box).to_be_visible(timeout=(3 * POLL_S + 10) * 1000)
    finally:
        context.close()
