"""The two screens of a lecture. The projector (a 1280x720 CSS viewport, lecture=1):
every sentence on every page is drawn at LECTURE_TEXT_PX or more, to be read from the
back of a hall (every lecture screen in tests/test_browser_cut_charts.py's sweep; here
a link with padding and averages); how each screen fits the projector is tested in that
sweep and beside its page's other browser tests. A phone: no chart tool bar sits on a
figure's labels."""

import pytest
from browser import TIMEOUT_MS, exceptions_on, misplaced_numbers, open_page, small_text
from conftest import PROJECTOR
from playwright.sync_api import expect

from ui.figures.style import LECTURE_CELL_FONT_PX, LECTURE_TEXT_PX

pytestmark = pytest.mark.browser

# Every lecture screen of tests/test_browser_cut_charts.py's sweep (every tab, walked
# screen, Lesson step and exercise, with the default settings) is checked there as here;
# here, a link whose maps hold padding and averages.
PAGES = [
    "playground?mode=avg&kh=3&kw=3&sh=2&sw=2&pad=1&x=16,13,22,9,30;7,25,11,19,3;28,14,6,21,12;5,18,27,10,24;20,8,15,29,17",
]


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path or "home")
def test_in_lecture_mode_text_is_20_px_and_every_map_number_18_px_or_more(
    projector_page, app_url, path
):
    page = projector_page
    separator = "&" if "?" in path else "?"
    open_page(page, f"{app_url}/{path}{separator}lecture=1")
    assert small_text(page, LECTURE_TEXT_PX) == []
    assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []
    assert exceptions_on(page) == []


def test_on_a_phone_no_chart_tool_bar_sits_on_a_figure(phone_page, app_url):
    """With no hover to call them, Plotly's and Streamlit's chart tool bars would stay
    over the mosaic's top labels and its colour bar: a touch screen shows neither
    (Plotly's is drawn on no screen: ui/shared/chart.CHART_CONFIG)."""
    page = phone_page
    open_page(page, f"{app_url}/batch?tab=examples")
    plot = page.locator(".js-plotly-plot").first
    expect(plot).to_be_visible(timeout=TIMEOUT_MS)
    plot.tap()
    assert page.locator(".modebar-container .modebar-btn").count() == 0
    expect(page.locator("[data-testid=stElementToolbar]").first).to_be_hidden()


# The strokes of a chart's line paths: [[colour, width px], ...].
LINE_STROKES = """(prefix) => {
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const title = plot.querySelector('.gtitle');
    if (!title || !title.textContent.startsWith(prefix)) continue;
    return Array.from(plot.querySelectorAll('.scatterlayer path.js-line'), (path) => [
      getComputedStyle(path).stroke, parseFloat(getComputedStyle(path).strokeWidth),
    ]);
  }
  return null;
}"""


def test_in_the_dark_theme_the_window_outline_has_its_light_halo(browser, app_url):
    """On a dark page the outline's outer half runs over the page: the drawn window
    outline is a dark line over a wider light one."""
    context = browser.new_context(color_scheme="dark", **PROJECTOR)
    try:
        page = context.new_page()
        open_page(page, f"{app_url}/playground?tab=step&x=1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8")
        strokes = page.evaluate(LINE_STROKES, "x: the window")
        assert strokes  # a path per edge segment, each drawn twice
        (halo, halo_px), (core, core_px) = sorted(
            {tuple(stroke) for stroke in strokes}, key=lambda s: -s[1]
        )
        assert halo == "rgb(255, 255, 255)" and core == "rgb(17, 17, 17)" and halo_px > core_px
    finally:
        context.close()
