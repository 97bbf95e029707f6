"""The served app in headless Chromium: pages render, controls act, links work."""

import json

import pytest
from browser import exceptions_on, open_page, wait_idle

pytestmark = pytest.mark.browser

CHART_DATA = """(title) => {
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const raw = plot.layout && plot.layout.title && plot.layout.title.text;
    // Streamlit's chart theme wraps titles in <b> tags.
    if (raw && raw.replace(/<[^>]+>/g, '') === title) {
      // _fullData holds z decoded from Plotly's base64 transport, rows as typed arrays.
      const cells = plot._fullData.find(t => t.type === 'heatmap' && t.name !== 'padding');
      return Array.from(cells.z, row => Array.from(row));
    }
  }
  return null;
}"""


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


def chart_values_named(page, map_title):
    """The mosaic (every small map of one figure) holding the map called `map_title`."""
    page.wait_for_function(f"() => ({MOSAIC_DATA})({map_title!r}) !== null", timeout=30_000)
    return page.evaluate(MOSAIC_DATA, map_title)


def chart_values(page, title):
    page.wait_for_function(f"() => ({CHART_DATA})({title!r}) !== null", timeout=30_000)
    return page.evaluate(CHART_DATA, title)


def test_home_page_renders_without_exception(page, app_url):
    open_page(page, app_url)
    assert page.locator("h1").first.inner_text() == "Pooling Backprop Lab"
    assert page.get_by_text("dL/da").first.is_visible()
    assert exceptions_on(page) == []


def test_playground_renders_its_charts(page, app_url):
    open_page(page, f"{app_url}/playground")
    assert chart_values(page, "Input x") == [[1, 3], [2, 0.5]]
    assert chart_values(page, "dL/dx") == [[0, 1], [0, 0]]
    assert page.locator(".js-plotly-plot").count() >= 6
    assert exceptions_on(page) == []


def test_changing_a_control_changes_the_gradient_map(page, app_url):
    open_page(page, f"{app_url}/playground")
    page.get_by_text("Average", exact=True).click()
    wait_idle(page)
    page.wait_for_function(
        f"() => JSON.stringify(({CHART_DATA})('dL/dx')) === '[[0.25,0.25],[0.25,0.25]]'",
        timeout=30_000,
    )
    assert exceptions_on(page) == []


def test_a_shared_link_restores_the_screen(page, app_url):
    query = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8&g=seed"
    open_page(page, f"{app_url}/playground?{query}")
    assert chart_values(page, "Input x") == [[1, 2, 0, 1], [0, 9, 1, 0], [2, 1, 4, 1], [0, 3, 1, 8]]
    assert chart_values(page, "Output y") == [[9, 9], [9, 9]]
    grad = chart_values(page, "dL/dx")
    assert grad[1][1] == 10 and sum(map(sum, grad)) == 10  # the 9 wins all four windows
    assert "kh=3" in page.url


def test_a_tampered_link_shows_a_notice_not_a_traceback(page, app_url):
    open_page(page, f"{app_url}/playground?kh=zebra&x=1,2;3")
    assert page.get_by_text("Link value kh=").is_visible()
    assert exceptions_on(page) == []
    assert chart_values(page, "Input x") == [[1, 3], [2, 0.5]]


@pytest.mark.parametrize("path, title", [("playground", "Playground"), ("batch", "Batch")])
def test_cold_deep_link_opens_the_right_page(page, served_app, path, title):
    """The very first request to a fresh server is the page's own URL."""
    open_page(page, f"{served_app()}/{path}")
    assert page.locator("h1").first.inner_text() == title
    menu = page.locator("[data-testid='stSidebar'] [data-testid='stPageLink-NavLink']")
    menu.first.wait_for()
    labels = [text.split("\n")[-1].strip() for text in menu.all_inner_texts()]
    assert labels == ["Home", "Playground", "Batch"]
    assert exceptions_on(page) == []


def test_batch_page_renders_and_a_step_changes_the_maps(page, app_url):
    open_page(page, f"{app_url}/batch?n=4")
    page.get_by_role("tab", name="Training").click()
    kernel = chart_values_named(page, "dL/dK, kernel 0")
    page.get_by_role("button", name="SGD step").click()
    wait_idle(page)
    page.wait_for_function(
        f"() => JSON.stringify(({MOSAIC_DATA})('dL/dK, kernel 0')) !== "
        f"{json.dumps(json.dumps(kernel))}",
        timeout=30_000,
    )
    assert "steps=1" in page.url
    assert exceptions_on(page) == []


def click_grid_cell(page, row: int, col: int):
    """Select a cell of the first data editor (its canvas draws 35-px rows under a
    35-px header, with the row numbers in the first column)."""
    editor = page.locator("[data-testid='stDataFrame']").first
    editor.wait_for()
    page.wait_for_timeout(1500)  # the grid's canvas takes input once drawn
    box = editor.bounding_box()
    columns = col + 2  # row-number column + data columns
    width = box["width"] / (columns + (1 if col == 0 else 0))
    page.mouse.click(box["x"] + width * (col + 1.5), box["y"] + 35 * (row + 1) + 17)
    page.wait_for_timeout(300)


def test_typing_in_the_grid_updates_y_and_the_link(page, app_url):
    open_page(page, f"{app_url}/playground")
    click_grid_cell(page, 0, 0)
    page.keyboard.type("7")
    page.wait_for_timeout(300)  # typing opens the cell's editor; Enter commits
    page.keyboard.press("Enter")
    wait_idle(page)
    page.wait_for_function(
        f"() => JSON.stringify(({CHART_DATA})('Output y')) === '[[7]]'", timeout=30_000
    )
    assert "x=7%2C3" in page.url or "x=7,3" in page.url


def test_clearing_a_cell_says_which_and_keeps_the_rest(page, app_url):
    open_page(page, f"{app_url}/playground")
    click_grid_cell(page, 0, 0)
    page.keyboard.press("Delete")
    wait_idle(page)
    page.get_by_text("Row 0, column 0 is empty or not a number").wait_for(timeout=30_000)
    assert exceptions_on(page) == []
    assert page.get_by_role("spinbutton", name="Rows").input_value() == "2"
