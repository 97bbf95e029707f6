"""Class mode in the browser, for the tests that drive it (tests/test_browser_room.py):
the lecturer at the projector on the Class page, a student's tap at a cell's pixel (a
finger on a phone, a mouse elsewhere), and the join link opened as the QR code gives it;
the fixtures `database` (a module's rooms file), `served` (the app on it) and
`projector` (the lecturer's 1280x720 browser), which a test module imports (as
database_fixture, served_fixture and projector_fixture: pytest finds them by
their given names, and the tests' parameters shadow no import).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from browser import TIMEOUT_MS, expect_link, open_page, settle, wait_for_title, wait_for_values
from conftest import PROJECTOR
from playwright.sync_api import expect
from room_store_helpers import rooms_file

from deploy.local_server import start_app, stop
from deploy.page_state import CELL_PIXEL
from rooms import store
from teaching.class_mode.projector import share_percents
from teaching.class_mode.questions import question_from_exercise
from teaching.class_mode.student import cells_text
from teaching.class_mode.tally import tally
from ui.class_mode.student.state import TOKEN_NAMESPACE

TOKEN_JS = f"() => JSON.parse(window.localStorage.getItem('pooling-lab:{TOKEN_NAMESPACE}'))"
EXERCISE = dict(kind="cells", level=2, seed=4, number=2)  # on the Class page's link too
CLASS_LINK = "class?kind=cells&level=2&seed=4&n=2&lecture=1"
SHARE_MAP = "% of the class who picked each cell"


@pytest.fixture(name="database", scope="module")
def database_fixture(tmp_path_factory):
    """A SQLite file for the module: its URL in the environment the served apps start
    with, and the test's own engine on it (the lecturer's side)."""
    with rooms_file(tmp_path_factory) as engine:
        yield engine


@pytest.fixture(name="served", scope="module")
def served_fixture(database):
    """The app, served for the module on `database`'s rooms."""
    url, process = start_app()
    yield url
    stop(process)


@pytest.fixture(name="projector")
def projector_fixture(browser):
    """The lecturer's own browser at the projector's size: the room's key is kept there."""
    context = browser.new_context(**PROJECTOR)
    yield context.new_page()
    context.close()


class Lecturer:
    """The lecturer at the projector: the Class page in a 1280x720 browser of its own,
    in lecture mode; the room's key stays in that browser."""

    def __init__(self, page, base_url: str, engine):
        self.page, self.engine = page, engine
        open_page(page, f"{base_url}/{CLASS_LINK}")
        page.get_by_role("button", name="Open a room").click()
        self.expect_button("Close answers")
        self.code = parse_qs(urlsplit(page.url).query)["room"][0]
        self.question = question_from_exercise(**EXERCISE)
        self.round = 1

    @property
    def join_link(self) -> str:
        """The join link the projector shows (without its scheme, to type) and links
        to (with it: what the QR code encodes)."""
        link = self.page.locator("a", has_text="/join?code=").first
        shown, target = link.inner_text(), link.get_attribute("href")
        assert target.split("://", 1)[1] == shown, (shown, target)
        return target

    def expect_button(self, name: str) -> None:
        expect(self.page.get_by_role("button", name=name)).to_be_visible(timeout=TIMEOUT_MS)

    def press(self, name: str) -> None:
        settle(self.page)
        self.page.get_by_role("button", name=name).click()

    def expect_text(self, text: str, timeout: int = TIMEOUT_MS) -> None:
        expect(self.page.get_by_text(text).first).to_be_visible(timeout=timeout)

    def expect_shares(self, picks: list) -> None:
        """The heatmap: each cell's whole percent of the answers that picked it."""
        counted = tally(self.question, [frozenset(cells) for cells in picks])
        wait_for_values(self.page, SHARE_MAP, share_percents(counted).tolist())

    def answer_of(self, token: str, round_number=None):
        number = self.round if round_number is None else round_number
        return store.my_answer(self.engine, self.code, token=token, round_number=number)


def touch(page) -> bool:
    return page.evaluate("() => navigator.maxTouchPoints > 0")


def tap_cell(page, row: int, col: int) -> None:
    """A finger's tap on a phone, a mouse click elsewhere, at cell (row, col) of x,
    once the page has stopped drawing, as a person taps a map they see (a new round
    reaches a phone as a rerun of its page, which redraws the map under the finger)."""
    settle(page)
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


def join_by_link(page, link: str, code: str) -> str:
    """Open the join link as the QR code gives it; the browser's token once kept."""
    open_page(page, link)
    expect_link(page, code=code)
    page.wait_for_function(f"() => ({TOKEN_JS})() !== null", timeout=TIMEOUT_MS)
    return page.evaluate(TOKEN_JS)
