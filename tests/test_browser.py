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
    wait_for_title,
    wait_for_values,
)
from playwright.sync_api import expect

from deploy.page_state import CHART_TITLE, MAP_LABELS
from ui.batch.state import TABS as BATCH_TABS
from ui.exercises.problems import KINDS
from ui.figures.style import MIN_CELL_FONT_PX
from ui.shared.frame import PAGES

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
    menu = page.locator("[data-testid='stSidebar'] [data-testid='stPageLink-NavLink']")
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
    type_in_editor_cell(page, 0, 0, columns=2, text="7")
    wait_for_values(page, "Output y", [[7]])
    expect_link(page, x="7,3;2,0.5")


def test_clearing_a_cell_says_which_and_keeps_the_rest(page, app_url):
    open_page(page, f"{app_url}/playground")
    select_editor_cell(page, 0, 0, columns=2)
    page.keyboard.press("Delete")
    expect(page.get_by_text("Row 0, column 0 is empty or not a number")).to_be_visible()
    assert exceptions_on(page) == []
    assert page.get_by_role("spinbutton", name="Rows").input_value() == "2"


# What a projector (1280x720 at 150 % zoom), a small laptop and a phone leave of the page.
SCREENS = {
    "projector": dict(viewport={"width": 853, "height": 480}, device_scale_factor=1.5),
    "1024": dict(viewport={"width": 1024, "height": 768}),
    # Laid out in CSS px as on a 3x phone; drawn at 1x, which spares the machine 9x pixels.
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
}
CUT_OFF = """() => {
  const KATEX_OVERHANG_PX = 4;
  const cut = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) cut.push('page: ' + page.scrollWidth + ' px wide');
  for (const list of document.querySelectorAll('[role=tablist]'))
    if (list.scrollWidth > list.clientWidth + 1) cut.push('tabs: ' + list.innerText);
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const right = plot.getBoundingClientRect().right;
    for (const title of plot.querySelectorAll('.gtitle'))
      if (title.getBoundingClientRect().right > right + 1) cut.push('title: ' + title.textContent);
  }
  for (const label of document.querySelectorAll('[data-testid=stButton] p, [data-testid=stTab] p'))
    if (label.scrollWidth > label.clientWidth + 1) cut.push('label: ' + label.textContent);
  // KaTeX overhangs its own box by 2 px even where a formula fits with room to spare
  // (measured: 462/460 on a 521-px column); a formula that does not fit is far wider.
  for (const formula of document.querySelectorAll('.katex-display'))
    if (formula.scrollWidth > formula.clientWidth + KATEX_OVERHANG_PX)
      cut.push('formula: ' + formula.textContent);
  // Tables: an st.dataframe draws on a canvas inside a scroller, whose hidden width is
  // columns out of sight; an st.table is an HTML table in a box of its own.
  const main = document.querySelector('[data-testid=stMainBlockContainer]')
    .getBoundingClientRect();
  const tables = '[data-testid=stDataFrame], [data-testid=stTable]';
  for (const frame of document.querySelectorAll(tables)) {
    const box = frame.getBoundingClientRect();
    if (box.right > main.right + 1) cut.push('table past the column: ' + box.right);
    for (const scroller of frame.querySelectorAll('.dvn-scroller, table'))
      if (scroller.scrollWidth > scroller.clientWidth + 1 && scroller.tagName !== 'TABLE')
        cut.push('table columns hidden: ' + scroller.scrollWidth + ' in ' + scroller.clientWidth);
    const table = frame.querySelector('table');
    if (table && table.getBoundingClientRect().right > box.right + 1)
      cut.push('table wider than its box: ' + table.innerText.slice(0, 40));
  }
  return cut;
}"""
AVERAGE_PADDED = (
    "playground?mode=avg&kh=3&kw=3&sh=2&sw=2&pad=1"
    "&x=16,13,22,9,30;7,25,11,19,3;28,14,6,21,12;5,18,27,10,24;20,8,15,29,17"
)
# Every tab of every page, by link; a lesson step's answer is shown by its button.
EVERY_TAB = [
    "",
    *(f"playground?{OVERLAP}&tab={tab}" for tab in ("forward", "step", "matrix", "share")),
    f"playground?{OVERLAP}&tab=ties&x=2,2,1;2,0,3;4,1,4",
    f"playground?{OVERLAP}&mode=avg&pad=1&tab=ledger&cell=1,1",
    AVERAGE_PADDED,
    *(f"batch?tab={tab}" for tab in BATCH_TABS),
    "batch?tab=examples&n=4",
    *(f"lesson?step={step}" for step in (1, 6, 10)),
    *(f"exercises?kind={kind}&level=3" for kind in KINDS),
]


def case_id(path: str) -> str:
    """The page and what tells its tab apart: tab=…, step=…, kind=…, mode=avg."""
    name = path.split("?")[0] or "home"
    words = [w for w in path.replace("?", "&").split("&") if w.startswith(KEYS)]
    return "-".join([name, *words])


KEYS = ("tab=", "step=", "kind=", "mode=avg", "n=", "sh=2")
CASES = [
    pytest.param(screen, path, id=f"{screen}-{case_id(path)}")
    for screen in SCREENS
    for path in EVERY_TAB
]


@pytest.fixture(scope="module")
def screen_pages(context_pages):
    """screen -> the page of that screen's context, kept for the module."""
    return lambda screen: context_pages(screen, SCREENS[screen])


def close_the_menu_if_it_covers_the_page(page) -> None:
    """On a phone the menu opens over the page: tap its close button, as a person does."""
    sidebar = page.locator("[data-testid='stSidebar']")
    main = page.locator("[data-testid='stMainBlockContainer']")
    if sidebar.get_attribute("data-collapsed") == "true":
        return
    if sidebar.bounding_box()["x"] + sidebar.bounding_box()["width"] <= main.bounding_box()["x"]:
        return  # beside the page, not over it
    page.locator("[data-testid='stSidebarCollapseButton'] button").click()
    expect(sidebar).to_have_attribute("data-collapsed", "true")


def open_every_part(page, url: str) -> None:
    """Open the page; on a lesson step, also show its answer (as a student would)."""
    open_page(page, url)
    close_the_menu_if_it_covers_the_page(page)
    if "/lesson" in url:
        page.get_by_role("button", name="Show the answer").click()
        expect(page.get_by_text("Answer:").first).to_be_visible()
        settle(page)


def misplaced_numbers(page) -> list:
    """Maps whose numbers are missing or stick out of their cells (MAP_LABELS)."""
    return [
        entry
        for entry in page.evaluate(MAP_LABELS)
        if entry["drawn"] != entry["expected"]
        or entry["outside"]
        or (entry["drawn"] and entry["smallest"] < MIN_CELL_FONT_PX)
    ]


@pytest.mark.parametrize("screen, path", CASES)
def test_nothing_is_cut_off_on_a_projector_a_small_screen_or_a_phone(
    screen_pages, app_url, screen, path
):
    """Every tab: no tab list, title, label, formula or table cut off, the page never
    scrolls sideways, and every map's numbers are all drawn, inside their cells."""
    page = screen_pages(screen)
    open_every_part(page, f"{app_url}/{path}")
    assert page.evaluate(CUT_OFF) == []
    assert misplaced_numbers(page) == []
    assert exceptions_on(page) == []


def test_on_a_phone_the_menu_does_not_open_over_the_page(browser, app_url):
    """A first visit on a phone (a fresh context: Streamlit remembers a closed menu)."""
    context = browser.new_context(**SCREENS["phone"])
    try:
        page = context.new_page()
        open_page(page, f"{app_url}/playground")
        sidebar = page.locator("[data-testid='stSidebar']")
        expect(sidebar).to_have_attribute("data-collapsed", "true", timeout=5_000)
    finally:
        context.close()
