"""Every tab of every page on a projector (1280x720 at 150 %), a small screen and a
touch phone: nothing cut off, the page never scrolls sideways, and every map's numbers
are drawn inside their cells, clear of every filled mark.

Every wait is for a condition on the page, never a fixed time.
"""

import pytest
from browser import exceptions_on, misplaced_numbers, open_page, settle
from playwright.sync_api import expect

from teaching.exercises.model import KINDS
from ui.batch.state import TABS as BATCH_TABS

pytestmark = pytest.mark.browser

OVERLAP = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"

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


@pytest.mark.parametrize("screen, path", CASES)
def test_nothing_is_cut_off_on_a_projector_a_small_screen_or_a_phone(
    screen_pages, app_url, screen, path
):
    """Every tab: no tab list, title, label, formula or table cut off, the page never
    scrolls sideways, and every map's numbers are all drawn, inside their cells and
    clear of every filled mark."""
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
