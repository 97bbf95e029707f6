"""The served app in headless Chromium: pages render, controls act, links work.

Every action is what a person does (a click at a pixel, typing, a key), and every wait
is for a condition on the page, never a fixed time.
"""

import json
import re

import pytest
from browser import (
    chart_values,
    click_chart_cell,
    exceptions_on,
    expect_link,
    open_page,
    select_editor_cell,
    settle,
    type_in_editor_cell,
    unfold_x_editor,
    wait_for_title,
    wait_for_values,
)
from conftest import fresh_page
from playwright.sync_api import expect

from deploy.page_state import CHART_TITLE
from teaching.pages import PAGES

pytestmark = pytest.mark.browser

MOSAIC_DATA = """(title) => {
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const titles = (plot._fullData || []).find(t => t.name === 'titles');
    if (titles && Array.from(titles.text).includes(title)) {
      const cells = plot._fullData.find(t => t.type === 'heatmap');
      return Array.from(cells.z, row => Array.from(row, v => (v === null ? null : Number(v))));
    }
  }
  return null;
}"""

OVERLAP = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"


def chart_values_named(page, map_title):
    """The mosaic (every small map of one figure) holding the map called `map_title`."""
    page.wait_for_function(f"() => ({MOSAIC_DATA})({map_title!r}) !== null", timeout=30_000)
    return page.evaluate(MOSAIC_DATA, map_title)


def test_home_page_renders_without_exception(page, app_url):
    open_page(page, app_url)
    assert page.locator("h1").first.inner_text() == "Pooling Backprop Lab"
    assert page.get_by_text("dL/da").first.is_visible()
    assert exceptions_on(page) == []


def test_playground_renders_its_charts(page, app_url):
    open_page(page, f"{app_url}/playground")
    assert chart_values(page, "Input x") == [[1, 3], [2, 0.5]]
    assert chart_values(page, "dL/dx") == [[0, 1], [0, 0]]
    assert page.locator(".js-plotly-plot").count() == 6  # the open tab's charts only
    assert exceptions_on(page) == []


def test_changing_a_control_changes_the_gradient_map(page, app_url):
    open_page(page, f"{app_url}/playground")
    page.locator("[data-testid='stSidebar']").get_by_text("Average", exact=True).click()
    wait_for_values(page, "dL/dx", [[0.25, 0.25], [0.25, 0.25]])
    assert exceptions_on(page) == []


def test_a_shared_link_restores_the_screen(page, app_url):
    query = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8&g=seed"
    open_page(page, f"{app_url}/playground?{query}")
    assert chart_values(page, "Input x") == [[1, 2, 0, 1], [0, 9, 1, 0], [2, 1, 4, 1], [0, 3, 1, 8]]
    assert chart_values(page, "Output y") == [[9, 9], [9, 9]]
    grad = chart_values(page, "dL/dx")
    assert grad[1][1] == 10 and sum(map(sum, grad)) == 10  # the 9 wins all four windows
    assert "kh=3" in page.url


def test_a_link_opens_the_tab_it_names(page, app_url):
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=ties")
    expect(page.get_by_role("tab", name="Tie lab")).to_have_attribute("aria-selected", "true")
    page.get_by_role("tab", name="Step through").click()
    wait_for_title(page, "dL/dx after 1 of 9 windows")
    expect_link(page, tab="step")


def test_a_tampered_link_shows_a_notice_not_a_traceback(page, app_url):
    open_page(page, f"{app_url}/playground?kh=zebra&x=1,2;3")
    expect(page.get_by_text("Link value").first).to_be_visible()
    assert exceptions_on(page) == []
    assert chart_values(page, "Input x") == [[1, 3], [2, 0.5]]


@pytest.mark.parametrize(
    "value",
    [
        "[click me](https://example.org/x)",
        "<https://example.org/x>",
        "![p](https://example.org/p.png)",
        "<img src=https://example.org/p.png>",
        ":red[alarm] $x^2$ **bold**",
    ],
)
def test_link_text_is_never_rendered_as_markdown(page, app_url, value):
    from urllib.parse import quote

    open_page(page, f"{app_url}/playground?kh={quote(value)}")
    notice = page.locator("[data-testid='stAlertContainer']").filter(has_text="Link value")
    expect(notice).to_be_visible()
    assert notice.locator("a").count() == 0 and notice.locator("img").count() == 0
    assert notice.locator(".katex").count() == 0
    assert value.replace("  ", " ") in notice.inner_text()  # shown as typed


def test_clicking_a_cell_of_y_follows_its_window(page, app_url):
    open_page(page, f"{app_url}/playground?{OVERLAP}")
    click_chart_cell(page, "Output y", 2, 2)
    wait_for_title(page, "Routing: where dL/dy[2,2]")
    expect_link(page, step="8")


def test_clicking_a_cell_of_dl_dx_opens_its_ledger(page, app_url):
    open_page(page, f"{app_url}/playground?{OVERLAP}")
    click_chart_cell(page, "dL/dx", 3, 3)
    expect_link(page, cell="3,3")
    page.get_by_role("tab", name="Ledger").click()
    expect(page.get_by_text("x[3,3] is read by")).to_be_visible()


def test_next_and_play_keep_the_link_on_the_step_shown(page, app_url):
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    page.get_by_role("button", name=re.compile(r"^Next")).click()  # its key hint follows
    wait_for_title(page, "dL/dx after 2 of 9 windows")
    expect_link(page, step="1")
    page.get_by_role("button", name="Play").click()
    wait_for_title(page, "dL/dx after 4 of 9 windows")
    page.get_by_role("button", name="Pause").click()
    settle(page)
    shown = page.evaluate(f"() => ({CHART_TITLE})('dL/dx after')")
    step = int(shown.split()[2]) - 1
    expect_link(page, step=str(step))


@pytest.mark.parametrize("path, title", [("playground", "Playground"), ("batch", "Batch")])
def test_cold_deep_link_opens_the_right_page(page, served_app, path, title):
    """The very first request to a fresh server is the page's own URL."""
    open_page(page, f"{served_app()}/{path}")
    assert page.locator("h1").first.inner_text() == title
    menu = page.locator("[data-testid='stSidebarNav'] [data-testid='stSidebarNavLink']")
    expect(menu).to_have_count(len(PAGES))
    labels = [text.split("\n")[-1].strip() for text in menu.all_inner_texts()]
    assert labels == [page.label for page in PAGES]
    assert exceptions_on(page) == []


def test_batch_page_renders_and_a_step_changes_the_maps(page, app_url):
    open_page(page, f"{app_url}/batch?n=4&tab=result")
    kernel = chart_values_named(page, "dL/dK, kernel 0")
    page.get_by_role("tab", name="Training").click()
    page.get_by_role("button", name="10 steps").click()
    expect_link(page, steps="10")
    page.get_by_role("tab", name="Batch result").click()
    page.wait_for_function(
        f"() => {{ const now = ({MOSAIC_DATA})('dL/dK, kernel 0'); "
        f"return now !== null && JSON.stringify(now) !== {json.dumps(json.dumps(kernel))}; }}",
        timeout=30_000,
    )
    assert exceptions_on(page) == []


def test_typing_in_the_grid_updates_y_and_the_link(page, app_url):
    open_page(page, f"{app_url}/playground")
    unfold_x_editor(page)
    type_in_editor_cell(page, 0, 0, columns=2, text="7")
    wait_for_values(page, "Output y", [[7]])
    expect_link(page, x="7,3;2,0.5")


def test_clearing_a_cell_says_which_and_keeps_the_rest(page, app_url):
    open_page(page, f"{app_url}/playground")
    unfold_x_editor(page)
    select_editor_cell(page, 0, 0, columns=2)
    page.keyboard.press("Delete")
    expect(page.get_by_text("Row 0, column 0 is empty or not a number")).to_be_visible()
    assert exceptions_on(page) == []
    assert page.get_by_role("spinbutton", name="Rows").input_value() == "2"


# What a projector (1280x720 at 150 % zoom), a small laptop and a phone leave of the page.


def test_each_tests_page_starts_as_a_first_visit(desk_context, app_url):
    """The `page` fixture's pages share one context (conftest.fresh_page): what one
    test stores in the browser is gone for the next."""
    first = fresh_page(desk_context)
    page = next(first)
    open_page(page, f"{app_url}/playground")
    page.evaluate("() => localStorage.setItem('left-by-a-test', '1')")
    page.context.add_cookies([{"name": "left", "value": "1", "url": app_url}])
    next(first, None)  # the test is over: its page is cleared and closed
    assert page.is_closed()
    second = fresh_page(desk_context)
    page = next(second)
    open_page(page, f"{app_url}/playground")
    assert page.evaluate("() => localStorage.getItem('left-by-a-test')") is None
    assert all(cookie["name"] != "left" for cookie in page.context.cookies())
    next(second, None)
