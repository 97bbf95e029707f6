"""A student's token rides in a cookie too (ui/shared/browser.py keep_cookie, cookie;
ui/class_mode/student/state.py token): a phone's page that comes back (a reload, a
replica that died) brings it with its connection, and the Join page draws the room in
its first run, with no run waiting for the browser component. Served, over Streamlit's
own protocol (deploy/room_client), and the browser module's checks of what it keeps.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from browser_room import database_fixture, served_fixture  # noqa: F401  (module fixtures)

from deploy.room_client import TOKEN_COOKIE as CLIENT_TOKEN_COOKIE
from deploy.room_client import Student, sticky_of, with_cookies
from deploy.stream_client import run_apart
from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.questions import question_from_exercise
from ui.class_mode.student.state import TOKEN_COOKIE, TOKEN_NAMESPACE
from ui.shared import browser


def test_the_client_names_the_pages_cookie():
    assert CLIENT_TOKEN_COOKIE == TOKEN_COOKIE


@pytest.mark.parametrize("text", ["", "a b", "a;b", "a=b", "é", "x" * 201, '"x"'])
def test_keep_cookie_refuses_text_a_cookie_would_have_to_quote(text):
    with pytest.raises(ValueError, match="keep_cookie"):
        browser.keep_cookie(text, "value")
    with pytest.raises(ValueError, match="keep_cookie"):
        browser.keep_cookie("name", text)


@pytest.mark.parametrize(
    ("sent", "read"),
    [("Ab_9-x", "Ab_9-x"), ("a b", None), ("x" * 201, None), ("", None), (None, None)],
)
def test_a_cookie_is_read_only_as_text_keep_cookie_keeps(monkeypatch, sent, read):
    cookies = {} if sent is None else {"kept": sent}
    monkeypatch.setattr(browser.st, "context", SimpleNamespace(cookies=cookies))
    assert browser.cookie("kept") == read


def test_the_component_is_told_the_cookies_to_keep_and_for_how_long():
    requests = browser.Requests(cookies={"kept": "abc"})
    sent = browser.browser_data(requests, set(), page="join")
    assert sent["cookies"] == {"kept": "abc"}
    assert sent["cookie_max_age_s"] == browser.COOKIE_MAX_AGE_S == 180 * 24 * 3600


def test_a_cookie_kept_replaces_one_of_its_name_and_keeps_the_others():
    header = with_cookies("sticky=r1; other=2", {"other": "3", "new": "4"})
    assert header == "sticky=r1; other=3; new=4"
    assert with_cookies("", {"a": "1"}) == "a=1"


def test_the_replica_is_read_from_the_proxys_cookie_alone():
    """The benchmark tells replicas apart by the proxy's sticky cookie, which a phone
    now sends beside its token's."""
    assert sticky_of("LAB_REPLICA=r2; pooling_lab_token=abc") == "LAB_REPLICA=r2"
    assert sticky_of("pooling_lab_token=abc; LAB_REPLICA=r1") == "LAB_REPLICA=r1"
    assert sticky_of("pooling_lab_token=abc") == sticky_of("") == ""


@pytest.fixture
def asked(database):
    """A room with a question asked: (room, round number)."""
    made = store.open_room(database, token=codes.new_token())
    question = question_from_exercise("cells", level=2, seed=4, number=2)
    return made, store.ask(database, made.code, secret=made.secret, question=question)


def test_a_phone_back_with_its_cookie_draws_the_room_in_one_run(served, asked):
    """Joined by the link: two runs (the browser hands the token over), the second
    asking the browser to keep the token in its cookie. The page opened again on a
    new connection with that cookie: one run, which asks for nothing and shows the
    round open for taps."""
    made, number = asked
    phone = Student(served, made.code, codes.new_token())

    async def join_then_come_back():
        try:
            joined = await phone.join()
            kept = dict(phone.browser["cookies"])
            back = await phone.reconnect()
            return joined, kept, back, phone.browser, phone.pick_key(number)
        finally:
            await phone.close()

    joined, kept, back, data, pick = run_apart(join_then_come_back())
    assert len(joined) == 2 and kept == {TOKEN_COOKIE: phone.token}
    assert f"{TOKEN_COOKIE}={phone.token}" in phone.session.cookie.split("; ")
    assert len(back) == 1 and back[0].exceptions == back[0].errors == []
    assert data["recall"] == [] and data["cookies"] == {TOKEN_COOKIE: phone.token}
    assert pick is not None


def test_a_cookie_that_is_no_token_leaves_the_page_asking_the_browser(served, asked):
    made, _number = asked
    phone = Student(served, made.code, codes.new_token())

    async def open_with_a_bad_cookie():
        try:
            phone.session.cookie = f"{TOKEN_COOKIE}=not-a-token"
            first = await phone.session.open(reload=False)
            return first, phone.browser
        finally:
            await phone.close()

    first, data = run_apart(open_with_a_bad_cookie())
    assert first.exceptions == [] and data["recall"] == [TOKEN_NAMESPACE]
    assert data["cookies"] == {}
