"""Every map's numbers, where Chromium draws them: all there, each inside its own cell,
clear of every filled mark, at 12 px or more (18 in lecture mode), and no empty band
under a grid grown for its numbers, on a desktop, a projector in lecture mode and a
phone. The cases are maps that used to lose every number (their labels did not fit) or
had marks over them; tests/test_browser_overflow.py checks the same on every tab of
every page.

Cells are located from Plotly's own axes (c2p plus the plot area's offset) and labels by
their drawn boxes: see MAP_LABELS in deploy/page_state.py.
"""

import pytest
from browser import exceptions_on, open_page

from deploy.page_state import MAP_LABELS
from ui.figures.style import LECTURE_CELL_FONT_PX, MIN_CELL_FONT_PX

pytestmark = pytest.mark.browser

SCREENS = {
    "desktop": dict(viewport={"width": 1400, "height": 900}),
    "lecture": dict(viewport={"width": 853, "height": 480}, device_scale_factor=1.5),
    "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
}
GRID_8 = ";".join(",".join(str((r * 7 + c * 3) % 10) for c in range(8)) for r in range(8))
# Average pooling with padding: y holds ninths such as 6.778 and 13.667.
AVERAGE_PADDED = (
    "playground?mode=avg&kh=3&kw=3&sh=2&sw=2&pad=1"
    "&x=16,13,22,9,30;7,25,11,19,3;28,14,6,21,12;5,18,27,10,24;20,8,15,29,17"
)
# (link, {chart title: labels it must draw, or None for "every cell it holds"}).
CASES = {
    "average-padded": (AVERAGE_PADDED, {"Output y": 9, "Input x": 25 + 24, "dL/dx": 25}),
    # In lecture mode Both passes is walked: x and y on screen 1, dL/dy and dL/dx on 2.
    "average-padded-backward": (f"{AVERAGE_PADDED}&screen=2", {"Upstream dL/dy": 9, "dL/dx": 25}),
    # The step-through: on a projector at 150 % its maps once shrank into their columns.
    "average-padded-step": (
        f"{AVERAGE_PADDED}&tab=step",
        {"x: the window": None, "dL/dx after": None},
    ),
    "batch-step-reach": ("batch?tab=step&screen=2", {"mean dL/dK": 9}),
    "lesson-step-10": ("lesson?step=10", {"dL_0/dK": 9, "dL_1/dK": 9, "mean dL/dK": 9}),
    "batch-mosaics": ("batch?tab=examples&n=4", {"": None}),
    "routing-mean": ("batch?tab=result", {"mean of the routing maps": None}),
    # The wrong way's three maps (untitled): on a projector at 150 % they once sat in
    # three quarters of the row, squeezed, and their numbers spilled out of the cells.
    "batch-wrong-way": ("batch?tab=result&screen=4", {"": None}),
    # Ninths sent to an 8x8 x: the arrow heads once sat on the numbers' tops.
    "routing-ninths": (
        f"playground?x={GRID_8}&mode=avg&kh=3&kw=3&pad=1&screen=3",
        {"Routing": None},
    ),
}
# In lecture mode Lesson step 10's three maps are one mosaic, in hundredths.
LECTURE_WANTED = {
    "lesson-step-10": {"In units of 10⁻²": 27},
    "average-padded": {"Output y": 9, "Input x": 25 + 24},
}
# Titles that carry a power of ten, and whether that chart writes numbers.
SCALED_TITLES = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .map(plot => [((plot.layout.title && plot.layout.title.text) || '')
                  .replace(/<br>/g, ' ').replace(/<[^>]+>/g, ''),
                plot.querySelectorAll('.heatmap-label text').length])
  .filter(([title]) => /×10|units of 10/.test(title))"""

# Maps that keep a width of their own (their cells grew for their numbers: one
# square-celled plot) whose plot area is left partly empty: the height left after the
# margins, less what the grid takes, over 1.5 px, as [title, px]. (A map stretched to a
# column narrower than it was laid out for, a mosaic on a phone, is not one of them.)
EMPTY_BANDS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(plot => {
  const layout = plot._fullLayout;
  // ui/shared/chart.py puts a figure of its own width in a box keyed wide_<key>.
  const own = plot.closest('[class*="st-key-wide_"]');
  if (!own || !layout || !layout.yaxis || !layout.yaxis.scaleanchor || layout.yaxis2) return [];
  const band = layout.height - layout.margin.t - layout.margin.b - layout.yaxis._length;
  const title = (plot.layout.title && plot.layout.title.text) || "";
  return band > 1.5 ? [[title, band]] : [];
})"""


@pytest.fixture(scope="module")
def screen_pages(context_pages):
    """screen -> the page of that screen's context, kept for the module."""
    return lambda screen: context_pages(screen, SCREENS[screen])


def labels_by_chart(entries) -> dict[str, tuple[int, int]]:
    """title -> (labels expected, labels drawn), summed over the chart's traces."""
    totals: dict[str, tuple[int, int]] = {}
    for entry in entries:
        expected, drawn = totals.get(entry["title"], (0, 0))
        totals[entry["title"]] = (expected + entry["expected"], drawn + entry["drawn"])
    return totals


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("screen", SCREENS)
def test_every_number_of_the_map_is_drawn_inside_its_cell(screen_pages, app_url, screen, case):
    path, wanted = CASES[case]
    lecture = screen == "lecture"
    wanted = LECTURE_WANTED.get(case, wanted) if lecture else wanted
    page = screen_pages(screen)
    open_page(page, f"{app_url}/{path}" + ("&lecture=1" if lecture else ""))
    entries = page.evaluate(MAP_LABELS)
    floor = LECTURE_CELL_FONT_PX if lecture else MIN_CELL_FONT_PX
    for entry in entries:
        assert entry["outside"] == [], entry
        assert entry["covered"] == [], entry  # no arrow head or star over a digit
        assert entry["drawn"] == entry["expected"], entry
        if entry["drawn"]:
            assert entry["smallest"] >= floor - 0.01, entry
    # A map grown for its numbers is drawn at its own width, and laid out for it.
    assert page.evaluate(EMPTY_BANDS) == []
    if case == "routing-ninths":  # the marks looked for are found: four arrow heads
        assert {entry["marks"] for entry in entries if entry["title"].startswith("Routing")} == {4}
    totals = labels_by_chart(entries)
    for title, count in wanted.items():
        charts = [name for name in totals if name.startswith(title)]
        assert charts, (title, list(totals))
        for name in charts:
            expected, drawn = totals[name]
            assert drawn == expected > 0, name
            if count is not None:
                assert drawn == count, name
    assert exceptions_on(page) == []


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_power_of_ten_is_said_only_beside_numbers_it_applies_to(screen_pages, app_url, screen):
    page = screen_pages(screen)
    open_page(page, f"{app_url}/batch?tab=result")
    scaled = page.evaluate(SCALED_TITLES)
    assert any(title.startswith("mean of the routing maps") for title, _ in scaled), scaled
    assert all(drawn > 0 for _, drawn in scaled), scaled
