"""The two screens of a lecture in headless Chromium: a 390x844 touch phone (one tap
picks, the menu starts closed, grids keep their numbers) and the 1280x720 projector in
lecture mode (the Playground's step-through on one screen).

Every wait is for a condition on the page, never a fixed time.
"""

import re

import pytest
from browser import (
    TIMEOUT_MS,
    exceptions_on,
    expect_link,
    misplaced_numbers,
    open_page,
    screen_fit,
    settle,
    wait_for_title,
)
from conftest import PHONE, PROJECTOR
from playwright.sync_api import expect

from deploy.page_state import CELL_PIXEL, FIND_CHART
from teaching.exercises.model import make_problem
from teaching.playground.presets import PRESETS
from ui.figures.style import LECTURE_CELL_FONT_PX, MIN_CELL_FONT_PX

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


# -- grids on a phone ---------------------------------------------------------------------


def grid_link(size: int, *, decimals: bool = False) -> str:
    """x=... for a size x size grid: digits 0-9, or numbers like -1.25 with decimals."""
    rows = []
    for r in range(size):
        values = [(r * 7 + c * 3) % 10 for c in range(size)]
        if decimals:
            values = [f"{(v - 5) * 0.25 + 0.01 * c:.2f}" for c, v in enumerate(values)]
        rows.append(",".join(map(str, values)))
    return "x=" + ";".join(rows)


G8 = grid_link(8)
WIDTHS = """() => ({
  page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
  charts: Array.from(document.querySelectorAll('[data-testid=stPlotlyChart]'),
                     (chart) => Math.round(chart.getBoundingClientRect().right)),
  scrollers: Array.from(document.querySelectorAll('[class*="st-key-scroll_"]'),
                        (box) => [box.scrollWidth, box.clientWidth]),
})"""


@pytest.mark.parametrize(
    "link",
    [
        f"{G8}&tab=step",
        f"{G8}&mode=avg&kh=3&kw=3&pad=1&tab=step&step=5",
        G8,
        f"{G8}&kh=3&kw=3&sh=1&sw=1",  # the routing figure: 6x6 dL/dy beside 8x8 x
        grid_link(8, decimals=True),  # numbers such as -1.24
    ],
    ids=["max-step", "avg-pad-step", "both-passes", "both-passes-stride-1", "decimals"],
)
def test_on_a_phone_an_8x8_grid_fits_the_width_with_every_number(phone_page, app_url, link):
    page = phone_page
    open_page(page, f"{app_url}/playground?{link}")
    assert misplaced_numbers(page, MIN_CELL_FONT_PX) == []
    widths = page.evaluate(WIDTHS)
    assert widths["page"][0] <= widths["page"][1]  # the page never scrolls sideways
    assert max(widths["charts"]) <= PHONE["viewport"]["width"]
    assert all(wide <= shown + 1 for wide, shown in widths["scrollers"]), widths


@pytest.mark.parametrize("size", [10, 16])
@pytest.mark.parametrize("tab", ["forward", "step"])
def test_on_a_phone_a_larger_grid_keeps_its_numbers_and_scrolls_inside_its_chart(
    phone_page, app_url, size, tab
):
    """Before: numbers such as -1.25 on a 10x10 or 16x16 grid were drawn over one
    another, the map squeezed into the phone's width."""
    page = phone_page
    open_page(page, f"{app_url}/playground?{grid_link(size, decimals=True)}&tab={tab}")
    assert misplaced_numbers(page, MIN_CELL_FONT_PX) == []
    widths = page.evaluate(WIDTHS)
    assert widths["page"][0] <= widths["page"][1]  # the page never scrolls sideways
    assert any(wide > shown for wide, shown in widths["scrollers"])  # x's box does
    assert exceptions_on(page) == []


def test_on_a_phone_the_running_dl_dx_sits_right_under_the_window_feeding_it(phone_page, app_url):
    page = phone_page
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=step&step=4")
    window = chart_box(page, "x: the window of y[1,1]")
    running = chart_box(page, "dL/dx after 5 of 9 windows")
    assert abs(running["x"] - window["x"]) <= 2
    assert 0 <= running["y"] - (window["y"] + window["height"]) <= NEXT_ROW_PX
    sentence = page.locator(".lab-frames p.sentence").filter(has_text=SENTENCE)
    expect(sentence).to_be_visible(timeout=TIMEOUT_MS)  # the player may be writing it
    assert sentence.bounding_box()["y"] >= running["y"] + running["height"]


# -- the step-through on the projector ------------------------------------------------------

SENTENCE = re.compile(r"^y\[\d+,\d+\] = ")  # the step's sentence names its output cell
NEXT_ROW_PX = 48  # the gap Streamlit leaves between two stacked columns, and some
# The bottom of a chart's plot area, in page px: the bottom edge of its last row.
PLOT_BOTTOM = f"""(prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  const axis = plot._fullLayout.yaxis;
  return plot.getBoundingClientRect().top + axis._offset + axis._length;
}}"""
# How far a chart's title runs past the chart's right edge, in px.
TITLE_OVERHANG = f"""(prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  const title = plot.querySelector('.gtitle').getBoundingClientRect();
  return title.right - plot.getBoundingClientRect().right;
}}"""
STEP_LINKS = {
    "8x8-2x2-stride-2": G8,
    "8x8-3x3-stride-1": f"{G8}&kh=3&kw=3&sh=1&sw=1",
    "8x8-avg-3x3-pad-1": f"{G8}&mode=avg&kh=3&kw=3&pad=1",
}


def chart_box(page, title: str) -> dict:
    wait_for_title(page, title)
    return (
        page.locator("[data-testid=stPlotlyChart]", has=page.locator(".gtitle"))
        .filter(has_text=title)
        .first.bounding_box()
    )


def assert_the_step_fits_the_projector(page) -> None:
    """One screen: no page or inner scrolling, both grids' bottom rows and the step's
    words above the fold, every number of both maps drawn at 18 px or more."""
    height = PROJECTOR["viewport"]["height"]
    fit = screen_fit(page)
    assert fit["screens"] <= 1.05 and fit["hidden"] == [], fit
    for title in ("x: the window of", "dL/dx after"):
        assert page.evaluate(PLOT_BOTTOM, title) <= height, title
        assert page.evaluate(TITLE_OVERHANG, title) <= 1, title  # the whole title shows
    sentence = page.locator(".lab-frames p.sentence").filter(has_text=SENTENCE)
    words = [sentence.first, *page.locator("[data-testid=stMain] [data-testid=stCaption]").all()]
    for part in words:
        box = part.bounding_box()
        assert box["y"] + box["height"] <= height, part.inner_text()
    assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []
    assert exceptions_on(page) == []


@pytest.mark.parametrize("link", list(STEP_LINKS.values()), ids=list(STEP_LINKS))
@pytest.mark.parametrize("step", ["0", "99"], ids=["first-window", "last-window"])
def test_the_step_through_of_an_8x8_link_fits_the_projector(projector_page, app_url, link, step):
    """Before: 1.40 screens (2x2 stride 2), 1.46 (3x3 stride 1), 1.65 (average, 3x3,
    padding 1). A step past the last is the last."""
    page = projector_page
    open_page(page, f"{app_url}/playground?{link}&tab=step&step={step}&lecture=1")
    assert_the_step_fits_the_projector(page)


def test_the_default_step_through_fits_the_projector_with_its_titles(projector_page, app_url):
    """The smallest maps: each column is as wide as its map's title, not only its cells."""
    page = projector_page
    open_page(page, f"{app_url}/playground?tab=step&lecture=1")
    assert_the_step_fits_the_projector(page)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_step_through_of_every_preset_fits_the_projector(projector_page, app_url, preset):
    """Each preset loaded by its button, as a lecturer does (the inputs are folded in
    lecture mode: open them, press the preset, fold them again)."""
    page = projector_page
    open_page(page, f"{app_url}/playground?tab=step&lecture=1")
    inputs = page.locator("[data-testid=stExpander] summary").filter(has_text="Input x")
    button = page.get_by_role("button", name=PRESETS[preset].label, exact=True)
    inputs.click()
    button.click()
    settle(page)
    inputs.click()
    expect(button).to_be_hidden(timeout=TIMEOUT_MS)
    settle(page)
    wait_for_title(page, "dL/dx after 1 of")
    assert_the_step_fits_the_projector(page)


def test_in_lecture_mode_the_controls_sit_beside_the_maps_and_step(projector_page, app_url):
    page = projector_page
    open_page(page, f"{app_url}/playground?{STEP_LINKS['8x8-3x3-stride-1']}&tab=step&lecture=1")
    running = chart_box(page, "dL/dx after 1 of 36 windows")
    next_button = page.get_by_role("button", name=re.compile(r"^Next"))
    assert next_button.bounding_box()["x"] >= running["x"] + running["width"]
    next_button.click()
    wait_for_title(page, "dL/dx after 2 of 36 windows")
    expect_link(page, step="1")
    slider = page.get_by_role("slider", name="Window (reading order)")  # beside them too
    expect(slider).to_be_visible(timeout=TIMEOUT_MS)
    assert slider.bounding_box()["x"] >= running["x"] + running["width"]


def test_on_a_desk_the_step_through_keeps_its_slider_above_the_maps(page, app_url):
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    expect(page.get_by_text("Window (reading order)")).to_be_visible(timeout=TIMEOUT_MS)
    window = chart_box(page, "x: the window of")
    running = chart_box(page, "dL/dx after 1 of 9")
    assert abs(window["y"] - running["y"]) <= 2  # side by side
    slider = page.get_by_role("slider", name="Window (reading order)").bounding_box()
    assert slider["y"] < window["y"]
