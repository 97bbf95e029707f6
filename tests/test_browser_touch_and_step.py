"""The two screens of a lecture in headless Chromium: a 390x844 touch phone (one tap
picks, the menu starts closed, grids keep their numbers) and the 1280x720 projector in
lecture mode (the Playground's step-through on one screen).

Every wait is for a condition on the page, never a fixed time.
"""

import pytest
from browser import TIMEOUT_MS, exceptions_on, expect_link, open_page, settle, wait_for_title
from playwright.sync_api import expect

from deploy.page_state import CELL_PIXEL
from ui.exercises.model import make_problem

pytestmark = pytest.mark.browser

OVERLAP = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"


def tap_chart_cell(page, title: str, row: int, col: int) -> None:
    """One finger tap on cell (row, col) of a chart, where Plotly draws it."""
    wait_for_title(page, title)
    plot = page.locator(".js-plotly-plot", has=page.locator(".gtitle", has_text=title)).first
    plot.scroll_into_view_if_needed()
    x, y = page.evaluate(CELL_PIXEL, [title, row, col])
    page.touchscreen.tap(x, y)


# -- one tap picks --------------------------------------------------------------------


def test_one_tap_on_y_follows_that_window_and_the_next_tap_another(phone_page, app_url):
    """Before: the first tap only showed the tooltip; the second picked the cell the
    first one had hovered."""
    page = phone_page
    open_page(page, f"{app_url}/playground?{OVERLAP}")
    tap_chart_cell(page, "Output y", 2, 2)
    expect_link(page, step="8")  # y is 3x3: window (2, 2) is the 9th
    wait_for_title(page, "Routing: where dL/dy[2,2]")
    settle(page)
    tap_chart_cell(page, "Output y", 0, 1)
    expect_link(page, step="1")
    wait_for_title(page, "Routing: where dL/dy[0,1]")
    assert exceptions_on(page) == []


def test_one_tap_on_an_exercise_cell_chooses_it_and_the_next_tap_another(phone_page, app_url):
    problem = make_problem("cells", 2, 4, 2)
    first, second = sorted(problem.answer)[:2]
    page = phone_page
    open_page(page, f"{app_url}/exercises?kind=cells&level=2&seed=4&n=2")
    captions = page.locator("[data-testid='stCaptionContainer']")
    tap_chart_cell(page, "x", *first)
    expect(captions.filter(has_text=f"{first[0]}, {first[1]})")).to_be_visible(timeout=TIMEOUT_MS)
    settle(page)
    tap_chart_cell(page, "x", *second)
    both = f"{first[0]}, {first[1]}), ({second[0]}, {second[1]})"
    expect(captions.filter(has_text=both)).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


# -- a phone opens on the page -----------------------------------------------------------

LECTURER_LINKS = [
    f"playground?{OVERLAP}&tab=step&step=3",
    f"playground?{OVERLAP}&tab=step&step=3&lecture=1",
    "exercises?kind=cells&level=2&seed=4&n=2",
    "lesson?step=5",
]


@pytest.mark.parametrize("link", LECTURER_LINKS)
def test_a_shared_link_opens_on_a_phone_with_the_menu_closed(phone_page, app_url, link):
    page = phone_page
    open_page(page, f"{app_url}/{link}")
    sidebar = page.locator("[data-testid='stSidebar']")
    expect(sidebar).to_have_attribute("data-collapsed", "true", timeout=TIMEOUT_MS)
    # What a finger lands on, across the screen's middle row, is the page, not the menu.
    on_top = "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=stMain]')"
    for x in (20, 195, 370):
        assert page.evaluate(on_top, [x, 422]), f"the menu covers x={x}"
    assert exceptions_on(page) == []
