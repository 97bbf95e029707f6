"""The projector and a phone in Chromium while the class's database goes away: a
server of its own on a throw-away PostgreSQL (deploy/postgres.py). Mid-round the
cluster stops: the projector says so in a plain sentence (no traceback, no error box)
and keeps trying; the phone keeps its question on screen. The cluster starts again on
the same port: the projector's count comes back by itself, and the next round reaches
the phone with no touch. Then the room is deleted (expired and pruned, as the store
prunes): the projector says no room has the code."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from browser import TIMEOUT_MS, exceptions_on, open_page, settle
from browser_room import CLASS_LINK, join_by_link
from conftest import PROJECTOR, skip_or_fail
from playwright.sync_api import expect

from deploy.local_server import start_app, stop
from deploy.postgres import Cluster, missing
from rooms import store, store_prune
from rooms.schema import ROOMS, new_engine
from teaching.class_mode.codes import new_token
from teaching.class_mode.questions import question_from_exercise

pytestmark = pytest.mark.browser

UNREACHABLE = "the class's database does not answer right now"
ROOMS_JS = "() => JSON.parse(window.localStorage.getItem('pooling-lab:class-rooms'))"


@pytest.fixture(scope="module")
def served_on_postgres():
    """(the app's URL, an engine on its database, the cluster to stop and start)."""
    reason = missing()
    if reason:
        skip_or_fail(reason)
    cluster = Cluster()
    try:
        database_url = cluster.start()
    except (RuntimeError, OSError) as error:
        skip_or_fail(f"PostgreSQL did not start: {error}")
    url, process = start_app(env={"POOLING_LAB_DATABASE_URL": database_url})
    engine = new_engine(database_url)
    yield url, engine, cluster
    engine.dispose()
    stop(process)
    cluster.stop()


def open_room(page, url: str) -> str:
    open_page(page, f"{url}/{CLASS_LINK}")
    page.get_by_role("button", name="Open a room").click()
    page.wait_for_url("**/class?room=*", timeout=TIMEOUT_MS)
    expect(page.get_by_role("button", name="Close answers")).to_be_visible(timeout=TIMEOUT_MS)
    return page.url.split("room=")[1][:6]


def no_error_shown(page) -> None:
    assert exceptions_on(page) == []
    assert page.locator("[data-testid='stAlertContentError']").count() == 0


def test_the_projector_says_the_database_is_gone_and_comes_back_with_it(
    browser, phone_page, served_on_postgres
):
    url, engine, cluster = served_on_postgres
    projector = browser.new_context(**PROJECTOR).new_page()
    try:
        code = open_room(projector, url)
        join_by_link(phone_page, f"{url}/join?code={code}", code)
        expect(phone_page.get_by_text("Round 1")).to_be_visible(timeout=TIMEOUT_MS)
        token = new_token()
        store.join(engine, code, token=token)
        store.answer(engine, code, token=token, round_number=1, raw=[[0, 0]])
        expect(projector.get_by_text("1 answer so far.")).to_be_visible(timeout=TIMEOUT_MS)

        cluster.pause()
        expect(projector.get_by_text(UNREACHABLE)).to_be_visible(timeout=TIMEOUT_MS)
        no_error_shown(projector)
        expect(phone_page.get_by_text("Round 1")).to_be_visible()
        no_error_shown(phone_page)

        cluster.resume()
        expect(projector.get_by_text("1 answer so far.")).to_be_visible(timeout=TIMEOUT_MS)
        expect(projector.get_by_text(UNREACHABLE)).to_have_count(0)
        no_error_shown(projector)

        secret = lecturer_secret(projector)
        asked = question_from_exercise("value", level=2, seed=3, number=1)
        store.ask(engine, code, secret=secret, question=asked)
        expect(phone_page.get_by_text("Round 2")).to_be_visible(timeout=TIMEOUT_MS)
        no_error_shown(phone_page)
    finally:
        projector.context.close()


def test_the_projector_says_a_deleted_room_is_gone(browser, served_on_postgres):
    url, engine, _ = served_on_postgres
    projector = browser.new_context(**PROJECTOR).new_page()
    try:
        code = open_room(projector, url)
        settle(projector)
        with engine.begin() as connection:
            connection.execute(sa.update(ROOMS).where(ROOMS.c.code == code).values(expires_at=1.0))
            assert store_prune.delete_expired(connection, now=time.time()) == 1
        said = f"Room {code}: no room has this code now"
        expect(projector.get_by_text(said)).to_be_visible(timeout=TIMEOUT_MS)
        no_error_shown(projector)
    finally:
        projector.context.close()


def lecturer_secret(page) -> str:
    """The room's key as the projector's browser keeps it (ui.shared.browser)."""
    return page.evaluate(ROOMS_JS)[0]["secret"]
