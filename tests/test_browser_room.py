"""Class mode in headless Chromium, as a class uses it: students join by the link (one
of them on a 390x844 touch phone), answer by tapping x at a cell's pixel, see the answer
revealed over their own and vote again; and when the replica serving a student dies
mid-round, the page comes back with the same token, shows the answer saved and takes a
change. The rooms live in a SQLite file of the test's own (POOLING_LAB_DATABASE_URL in
the served app's environment); the lecturer acts through the store with the room's key,
as the Class page does.

Every wait is for a condition on the page or in the database, never a fixed time.
"""

from __future__ import annotations

import shutil

import pytest
from browser import TIMEOUT_MS, exceptions_on, expect_link, open_page, settle, wait_for_title
from conftest import PHONE, skip_or_fail
from playwright.sync_api import expect

from deploy.cluster import Cluster
from deploy.local_server import free_port, start_app, stop
from deploy.page_state import CELL_PIXEL
from ui.room import store
from ui.room.database import URL_VARIABLE
from ui.room.questions import question_from_exercise
from ui.room.schema import new_engine
from ui.room.student.model import cells_text
from ui.room.student.state import TOKEN_NAMESPACE

pytestmark = pytest.mark.browser

DESKTOP = dict(viewport={"width": 1400, "height": 900})
TOKEN_JS = f"() => JSON.parse(window.localStorage.getItem('pooling-lab:{TOKEN_NAMESPACE}'))"


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """A SQLite file for the module: its URL in the environment the served apps start
    with, and the test's own engine on it (the lecturer's side)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('rooms') / 'rooms.sqlite3'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(URL_VARIABLE, url)
        engine = new_engine(url)
        yield engine
        engine.dispose()


@pytest.fixture(scope="module")
def served(database):
    url, process = start_app()
    yield url
    stop(process)


class Lecturer:
    """The room's lecturer, through the store with the room's key."""

    def __init__(self, engine):
        self.engine = engine
        opened = store.open_room(engine)
        self.code, self.secret = opened.code, opened.secret

    def ask(self, kind: str, **problem):
        question = question_from_exercise(kind, **problem)
        self.round = store.ask(self.engine, self.code, secret=self.secret, question=question)
        return question.problem

    def reveal(self):
        store.reveal(self.engine, self.code, secret=self.secret)

    def again(self):
        self.round = store.vote_again(self.engine, self.code, secret=self.secret)

    def answers(self, round_number=None) -> list:
        number = self.round if round_number is None else round_number
        return store.answers(self.engine, self.code, number)

    def answer_of(self, token: str, round_number=None):
        number = self.round if round_number is None else round_number
        return store.my_answer(self.engine, self.code, token=token, round_number=number)


def touch(page) -> bool:
    return page.evaluate("() => navigator.maxTouchPoints > 0")


def tap_cell(page, row: int, col: int) -> None:
    """A finger's tap on a phone, a mouse click elsewhere, at cell (row, col) of x."""
    wait_for_title(page, "x")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    x, y = page.evaluate(CELL_PIXEL, ["x", row, col])
    if touch(page):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def expect_saved(page, problem, cells) -> None:
    said = f"Your answer: {cells_text(cells)} (saved)."
    expect(page.get_by_text(said)).to_be_visible(timeout=TIMEOUT_MS)
    settle(page)


def join_by_link(page, base_url: str, code: str) -> str:
    """Open the join link as the QR code gives it; the browser's token once kept."""
    open_page(page, f"{base_url}/join?code={code}")
    expect_link(page, code=code)
    page.wait_for_function(f"() => ({TOKEN_JS})() !== null", timeout=TIMEOUT_MS)
    return page.evaluate(TOKEN_JS)


@pytest.fixture
def students(browser):
    """Three students: a touch phone and two laptops, each a browser of its own."""
    contexts = [browser.new_context(**options) for options in (PHONE, DESKTOP, DESKTOP)]
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def test_a_class_joins_by_the_link_taps_its_answers_sees_the_reveal_and_votes_again(
    students, served, database
):
    lecturer = Lecturer(database)
    tokens = [join_by_link(page, served, lecturer.code) for page in students]
    assert len(set(tokens)) == 3  # one per browser
    for page in students:
        expect(page.get_by_text("question appears here")).to_be_visible(timeout=TIMEOUT_MS)
    problem = lecturer.ask("cells", level=2, seed=4, number=2)
    right = sorted(problem.answer)
    picks = [set(right), {right[0]}, {right[0], right[1]}]
    for page, cells in zip(students, picks, strict=True):
        # The page sees the new round by polling: no reload, no click.
        wait_for_title(page, "x")
        for count, cell in enumerate(sorted(cells), start=1):
            tap_cell(page, *cell)
            expect_saved(page, problem, sorted(cells)[:count])
    assert sorted(lecturer.answers(), key=len) == sorted(map(frozenset, picks), key=len)
    # The student on the phone takes a cell back with a second tap.
    tap_cell(students[0], *right[-1])
    expect_saved(students[0], problem, right[:-1])
    assert lecturer.answer_of(tokens[0]) == frozenset(right[:-1])
    lecturer.reveal()
    for page in students:
        expect(page.get_by_text("On x, ")).to_be_visible(timeout=TIMEOUT_MS)
    expect(students[0].get_by_text("Not quite")).to_be_visible()
    first_round = lecturer.round
    lecturer.again()
    phone = students[0]
    expect(phone.get_by_text(f"Your first vote: {cells_text(right[:-1])}.")).to_be_visible(
        timeout=TIMEOUT_MS
    )
    settle(phone)
    tap_cell(phone, *right[-1])
    expect_saved(phone, problem, [right[-1]])
    assert lecturer.answer_of(tokens[0]) == frozenset({right[-1]})
    assert lecturer.answer_of(tokens[0], first_round) == frozenset(right[:-1])
    for page in students:
        assert exceptions_on(page) == []


@pytest.fixture(scope="module")
def cluster(database):
    if shutil.which("haproxy") is None:
        skip_or_fail("haproxy is not installed (apt-get install haproxy)")
    running = Cluster(2, free_port()).start()
    yield running
    running.stop()


def replica_of(page) -> int:
    """Which replica (0-based) the proxy's sticky cookie sends this browser to."""
    cookie = next(c for c in page.context.cookies() if c["name"] == "LAB_REPLICA")
    return int(cookie["value"].removeprefix("r")) - 1


def test_a_students_page_survives_its_replica_with_the_same_token_and_answer(
    browser, cluster, database
):
    lecturer = Lecturer(database)
    problem = lecturer.ask("cells", level=2, seed=4, number=2)
    first, second = sorted(problem.answer)[:2]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    dead = None
    try:
        token = join_by_link(page, cluster.url, lecturer.code)
        tap_cell(page, *first)
        expect_saved(page, problem, [first])
        dead = replica_of(page)
        page.evaluate("() => { window.labBeforeTheKill = true; }")
        cluster.processes[dead].kill()
        cluster.processes[dead].wait()
        # The page reconnects through the proxy to the live replica and reloads from its
        # link: the same token from the browser's storage, the answer read back.
        page.wait_for_function("() => window.labBeforeTheKill === undefined", timeout=60_000)
        expect_saved(page, problem, [first])
        assert page.evaluate(TOKEN_JS) == token and replica_of(page) != dead
        tap_cell(page, *second)
        expect_saved(page, problem, [first, second])
        assert lecturer.answer_of(token) == frozenset({first, second})
        # The lecturer keeps control: the room takes the reveal, and the page shows it.
        lecturer.reveal()
        expect(page.get_by_text("On x, ")).to_be_visible(timeout=TIMEOUT_MS)
        assert exceptions_on(page) == []
    finally:
        context.close()
        if dead is not None:
            port = int(cluster.replica_urls[dead].rsplit(":", 1)[1])
            cluster.processes[dead] = start_app(port=port)[1]
