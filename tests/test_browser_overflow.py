"""Every tab of every page on a small screen (1024x768), then narrowed to a projector's
at 150 % and at 200 % (853x480 and 640x360 CSS px, browser.resized), and on a touch
phone: nothing cut off, the page never scrolls sideways, and every map's numbers are
drawn inside their cells, clear of every filled mark. Every tab of every page also
reflows (WCAG 1.4.10: 320 CSS px wide), and the default view of every page zooms (WCAG
1.4.4: a 1280x720 screen at 200 %, lecture mode too), with nothing cut off and no
sideways scrolling of the page (a map wider than the column scrolls inside a box of its
own).

Every wait is for a condition on the page, never a fixed time.
"""

import pytest
from browser import exceptions_on, misplaced_numbers, open_page, resized, settle, steady
from playwright.sync_api import expect
from test_browser_cut_charts import cut_charts

from teaching.exercises.model import KINDS
from ui.batch.state import TABS as BATCH_TABS

pytestmark = pytest.mark.browser

OVERLAP = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"

SCREENS = {
    "1024": dict(viewport={"width": 1024, "height": 768}),
    # Laid out in CSS px as on a 3x phone; drawn at 1x, which spares the machine 9x pixels.
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
}
# A 1280x720 projector at 150 % zoom: what the page is laid out in (a browser's zoom
# shrinks the CSS viewport; the device pixels only draw it sharper). The 1024 screen's
# page is narrowed to it after its own look.
PROJECTOR_150 = {"width": 853, "height": 480}
# WCAG's two: a desktop window 320 CSS px wide (1.4.10 Reflow), and a 1280x720 screen
# zoomed to 200 % (1.4.4 Resize text), which leaves a 640x360 CSS viewport.
ZOOMED = {
    "reflow-320": dict(viewport={"width": 320, "height": 640}),
    "zoom-200": dict(viewport={"width": 640, "height": 360}, device_scale_factor=2),
}
CUT_OFF = """(tablesScroll) => {
  const KATEX_OVERHANG_PX = 4;
  const cut = [];
  // What is drawn: a closed expander's inside keeps the boxes of its last layout, never
  // redone while it is closed (it is laid out again when opened).
  const shownIn = (root, selector) => Array.from(root.querySelectorAll(selector))
    .filter((node) => node.checkVisibility());
  // Streamlit's page scrolls in its main element, not the document: both must fit.
  for (const page of [document.documentElement, document.querySelector('[data-testid=stMain]')])
    if (page.scrollWidth > page.clientWidth + 1)
      cut.push('page: ' + page.scrollWidth + ' px wide in ' + page.clientWidth);
  // Anything drawn past the screen's edge: of each element, the part its boxes leave
  // visible (a box that hides overflow clips it: a progress bar's fill, a map's text
  // twin clipped to nothing on purpose), unless a box on screen scrolls it into sight
  // (a wide map in its sideways scroller, a wide formula). A figure's inside is
  // Plotly's (its invisible drag handles overhang): its svg is checked as a whole.
  const screen = document.documentElement.clientWidth;
  const onScreen = (left, right) => left >= -1 && right <= screen + 1;
  const pastTheEdge = (node) => {
    let { left, right } = node.getBoundingClientRect();
    for (let box = node.parentElement; box && box.dataset.testid !== 'stMain';
         box = box.parentElement) {
      const overflow = getComputedStyle(box).overflowX;
      if (overflow === 'visible') continue;
      const edges = box.getBoundingClientRect();
      if (['auto', 'scroll'].includes(overflow) && onScreen(edges.left, edges.right))
        return false;
      left = Math.max(left, edges.left);
      right = Math.min(right, edges.right);
    }
    return right > left && !onScreen(left, right);
  };
  const main = document.querySelector('[data-testid=stMain]');
  for (const node of shownIn(main, '*')) {
    if (node.ownerSVGElement || !node.getClientRects().length) continue;
    if (pastTheEdge(node))
      cut.push('past the edge: ' + (node.getAttribute('data-testid') || node.tagName) + ' '
        + Math.round(node.getBoundingClientRect().left) + '..'
        + Math.round(node.getBoundingClientRect().right) + ' '
        + (node.textContent || '').trim().slice(0, 40));
  }
  for (const list of shownIn(document, '[role=tablist]'))
    if (list.scrollWidth > list.clientWidth + 1) cut.push('tabs: ' + list.innerText);
  for (const plot of shownIn(document, '.js-plotly-plot')) {
    const right = plot.getBoundingClientRect().right;
    for (const title of plot.querySelectorAll('.gtitle'))
      if (title.getBoundingClientRect().right > right + 1) cut.push('title: ' + title.textContent);
  }
  for (const label of shownIn(document, '[data-testid=stButton] p, [data-testid=stTab] p'))
    if (label.scrollWidth > label.clientWidth + 1) cut.push('label: ' + label.textContent);
  // KaTeX overhangs its own box by 2 px even where a formula fits with room to spare
  // (measured: 462/460 on a 521-px column); a formula that does not fit is far wider.
  for (const formula of shownIn(document, '.katex-display'))
    if (formula.scrollWidth > formula.clientWidth + KATEX_OVERHANG_PX)
      cut.push('formula: ' + formula.textContent);
  // Tables: an st.dataframe draws on a canvas inside a scroller, whose hidden width is
  // columns out of sight (unless `tablesScroll`: at 320 px WCAG 1.4.10 lets a data
  // table scroll sideways in its own box); an st.table is an HTML table in a box of its own.
  const column = document.querySelector('[data-testid=stMainBlockContainer]')
    .getBoundingClientRect();
  const tables = '[data-testid=stDataFrame], [data-testid=stTable]';
  for (const frame of shownIn(document, tables)) {
    const box = frame.getBoundingClientRect();
    if (box.right > column.right + 1) cut.push('table past the column: ' + box.right);
    for (const scroller of frame.querySelectorAll('.dvn-scroller, table'))
      if (scroller.scrollWidth > scroller.clientWidth + 1 && scroller.tagName !== 'TABLE'
          && !tablesScroll)
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
# Every tab of every page, by link; a lesson step's answer is shown by its button. Two
# of them with the editors a default view hides, and their text fields: the edited
# dL/dy (its ones, so the maps are the same) and the Batch page's edited example.
EVERY_TAB = [
    "",
    *(f"playground?{OVERLAP}&tab={tab}" for tab in ("forward", "step", "matrix", "share")),
    f"playground?{OVERLAP}&tab=ties&x=2,2,1;2,0,3;4,1,4",
    f"playground?{OVERLAP}&mode=avg&pad=1&tab=ledger&cell=1,1",
    f"{AVERAGE_PADDED}&g=custom",
    *(f"batch?tab={tab}" for tab in BATCH_TABS),
    "batch?tab=examples&n=4&data=edit",
    *(f"lesson?step={step}" for step in (1, 6, 10)),
    *(f"exercises?kind={kind}&level=3" for kind in KINDS),
]


def case_id(path: str) -> str:
    """The page and what tells its tab apart: tab=…, step=…, kind=…, mode=avg."""
    name = path.split("?")[0] or "home"
    words = [w for w in path.replace("?", "&").split("&") if w.startswith(KEYS)]
    return "-".join([name, *words])


KEYS = ("tab=", "step=", "kind=", "mode=avg", "n=", "sh=2", "lecture=")
CASES = [
    pytest.param(screen, path, id=f"{screen}-{case_id(path)}")
    for screen in SCREENS
    for path in EVERY_TAB
]
# The default view of every page, at both sizes (the sweep above covers every tab at
# the three screens; CI's time allows 200 % only on the views a visitor lands on).
REFLOW = [
    "",
    "playground",
    *(f"playground?tab={tab}" for tab in ("step", "ledger")),
    "batch",
    "lesson?step=1",
    "exercises",
    "class",
    "join",
]
# At 320 px, every other tab of the sweep too (batch?tab=pair is the Batch page's
# default view, already above): 19 links, about 36 s of test time.
REFLOW_TABS = [path for path in EVERY_TAB if path not in REFLOW and path != "batch?tab=pair"]
# Lecture mode's bigger text and maps on a zoomed projector.
ZOOMED_LECTURE = ["playground?lecture=1", "lesson?step=1&lecture=1"]
ZOOMED_CASES = [
    *(
        pytest.param(screen, path, id=f"{screen}-{case_id(path)}")
        for screen in ZOOMED
        for path in REFLOW
    ),
    # "tab-": apart from REFLOW's own playground?tab=step, a link without overlap.
    *(
        pytest.param("reflow-320", path, id=f"reflow-320-tab-{case_id(path)}")
        for path in REFLOW_TABS
    ),
    *(pytest.param("zoom-200", path, id=f"zoom-200-{case_id(path)}") for path in ZOOMED_LECTURE),
]


@pytest.fixture(scope="module")
def screen_pages(context_pages):
    """screen -> the page of that screen's context, kept for the module."""
    return lambda screen: context_pages(screen, (SCREENS | ZOOMED)[screen])


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
    """Open the page; on a lesson step, also show its answer (as a student would; in
    lecture mode the lecturer shows it a part at a time)."""
    open_page(page, url)
    close_the_menu_if_it_covers_the_page(page)
    if "/lesson" in url and "lecture=1" not in url:
        page.get_by_role("button", name="Show the answer").click()
        expect(page.get_by_text("Answer:").first).to_be_visible()
        settle(page)


@pytest.mark.parametrize("screen, path", CASES)
def test_nothing_is_cut_off_on_a_projector_a_small_screen_or_a_phone(
    screen_pages, app_url, screen, path
):
    """Every tab: no tab list, title, label, formula or table cut off, the page never
    scrolls sideways, and every map's numbers are all drawn, inside their cells and
    clear of every filled mark; the 1024 screen's page again at a projector's 150 % and
    200 % (853x480 and 640x360 CSS px)."""
    page = screen_pages(screen)
    if screen == "1024":
        page.set_viewport_size(SCREENS["1024"]["viewport"])
    open_every_part(page, f"{app_url}/{path}")
    assert nothing_wrong(page) == []
    if screen == "phone":
        # The phone's charts here are test_browser_cut_charts.py's too (PHONE_SHARED).
        assert cut_charts(page, own_scroller=True) == []
    if screen == "1024":
        resized(page, PROJECTOR_150)
        assert steady(page, nothing_wrong) == []
        # ... and at 200 % (WCAG 1.4.4), where a data table may scroll in its own box.
        resized(page, ZOOMED["zoom-200"]["viewport"])
        assert steady(page, lambda page: nothing_wrong(page, tables_scroll=True)) == []


def nothing_wrong(page, *, tables_scroll: bool = False) -> list:
    """What is cut off, every misplaced map number and every exception on the page."""
    return page.evaluate(CUT_OFF, tables_scroll) + misplaced_numbers(page) + exceptions_on(page)


@pytest.mark.parametrize("screen, path", ZOOMED_CASES)
def test_nothing_is_cut_off_at_320_px_or_at_200_percent_zoom(screen_pages, app_url, screen, path):
    """The default view of every page (and lecture mode zoomed): as above, at the two
    sizes WCAG 2.2 AA asks a page to reflow to; every other tab at 320 px, where a data
    table may scroll sideways inside its own box (WCAG 1.4.10's exception)."""
    page = screen_pages(screen)
    open_every_part(page, f"{app_url}/{path}")
    assert nothing_wrong(page, tables_scroll=screen == "reflow-320") == []


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
