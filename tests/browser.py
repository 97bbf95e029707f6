"""Helpers for the browser tests: act as a person would, then wait on a condition.

Nothing here sleeps for a fixed time: every wait is for something the page shows (the
script idle and every chart drawn, a chart's numbers, an editor's cell input).
The fixtures that serve the app and start Chromium live in conftest.py.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable

from playwright.sync_api import expect

from deploy.page_state import CELL_PIXEL, CHART_TITLE, CHART_Z, MAP_LABELS, SETTLED
from ui.figures.style import (
    EDITOR_COLUMN_PX,
    LECTURE_CELL_FONT_PX,
    LECTURE_TEXT_PX,
    MIN_CELL_FONT_PX,
)

# 30 s a wait; a machine shared by several runs may ask for longer (never shorter).
TIMEOUT_MS = max(30_000, int(os.environ.get("LAB_TEST_TIMEOUT_MS", "0")))
EDITOR_ROW_PX = 35  # st.data_editor's rows and header
# How long a page found wanting right after a change of size is watched for it to come
# whole (steady).
STEADY_MS = 5_000
# Resolves after the browser has drawn two more frames (what a redraw needs to show).
NEXT_FRAMES = (
    "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
)


def settle(page) -> None:
    """Wait until the script is idle, nothing is stale and every chart is drawn."""
    page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)


def steady(page, look: Callable[[object], list]) -> list:
    """What `look(page)` still finds once the page has had STEADY_MS to come whole.

    Right after the viewport changes, Plotly redraws each chart for its new box a frame
    or more after the script is idle: a look in between sees a chart sized for the old
    viewport (a lecture pick map 48 px wider than its box at 640 px, once, on a loaded
    CI machine). So a look that finds something is made again after each two frames
    drawn, until it finds nothing or STEADY_MS is up; then the last look's findings are
    returned, and a lasting fault fails as before."""
    found = look(page)
    deadline = time.monotonic() + STEADY_MS / 1000
    while found and time.monotonic() < deadline:
        page.evaluate(NEXT_FRAMES)
        found = look(page)
    return found


def resized(page, viewport: dict) -> None:
    """The page's viewport set to `viewport` ({"width", "height"} in CSS px), as a
    window resized or zoomed: the page's layout and charts answer in the browser alone
    (the server never learns the width), so a check after it holds for a page opened at
    that size; but a closed expander's inside keeps its old boxes until it is opened,
    and the sweeps' scripts pass over it (tests/js/cut_charts.js, CUT_OFF). Waits until
    the script is idle and every chart is drawn."""
    page.set_viewport_size(viewport)
    settle(page)


def open_page(page, url: str) -> None:
    page.goto(url)
    settle(page)


def chart_values(page, title: str):
    """z of the chart whose title starts with `title`, once it is drawn."""
    page.wait_for_function(f"() => ({CHART_Z})({title!r}) !== null", timeout=TIMEOUT_MS)
    return page.evaluate(CHART_Z, title)


def wait_for_values(page, title: str, values) -> None:
    expected = json.dumps(values, separators=(",", ":"))
    page.wait_for_function(
        f"() => JSON.stringify(({CHART_Z})({title!r})) === {json.dumps(expected)}",
        timeout=TIMEOUT_MS,
    )


def wait_for_title(page, title: str) -> None:
    page.wait_for_function(f"() => ({CHART_TITLE})({title!r}) !== null", timeout=TIMEOUT_MS)


def click_chart_cell(page, title: str, row: int, col: int) -> None:
    """A real mouse click on cell (row, col) of a chart, where Plotly draws it."""
    wait_for_title(page, title)
    plot = page.locator(".js-plotly-plot", has=page.locator(".gtitle", has_text=title)).first
    plot.scroll_into_view_if_needed()
    x, y = page.evaluate(CELL_PIXEL, [title, row, col])
    page.mouse.click(x, y)


def editor_cell_position(page, row: int, col: int, columns: int) -> tuple[float, float]:
    """Where cell (row, col) of the first grid editor is: its columns are
    EDITOR_COLUMN_PX wide after the row-number column, its rows under a header row."""
    editor = page.locator("[data-testid='stDataFrame']").first
    expect(editor.locator("canvas").first).to_be_visible(timeout=TIMEOUT_MS)
    box = editor.bounding_box()
    index_width = box["width"] - columns * EDITOR_COLUMN_PX
    return (
        box["x"] + index_width + EDITOR_COLUMN_PX * (col + 0.5),
        box["y"] + EDITOR_ROW_PX * (row + 1.5),
    )


def select_editor_cell(page, row: int, col: int, columns: int) -> None:
    """Click a cell until the grid holds the keyboard focus (it takes clicks once its
    canvas is drawn)."""
    x, y = editor_cell_position(page, row, col, columns)
    focused = "() => !!document.activeElement?.closest('[data-testid=\"stDataFrame\"]')"
    for _ in range(20):
        page.mouse.click(x, y)
        try:
            page.wait_for_function(focused, timeout=1_000)
            return
        except Exception:  # noqa: BLE001 - not drawn yet: click again
            continue
    raise AssertionError("the grid editor never took the click")


def unfold_x_editor(page) -> None:
    """Open the Playground's folded grid editor (it runs only while open)."""
    page.get_by_text("Edit the values of x").click()
    expect(page.locator("[data-testid='stDataFrame']").first).to_be_visible(timeout=TIMEOUT_MS)


def type_in_editor_cell(page, row: int, col: int, columns: int, text: str) -> None:
    """Select the cell, type (which opens its input), and press Enter to commit."""
    select_editor_cell(page, row, col, columns)
    page.keyboard.type(text)
    expect(page.locator(".gdg-input").first).to_be_visible(timeout=TIMEOUT_MS)
    page.keyboard.press("Enter")


def replica_of(page) -> int:
    """Which replica (0-based) the proxy's sticky cookie sends this browser to."""
    cookie = next(c for c in page.context.cookies() if c["name"] == "LAB_REPLICA")
    return int(cookie["value"].removeprefix("r")) - 1


def expect_link(page, **params: str) -> None:
    """Wait until the address bar's link holds each name=value (as typed or encoded)."""
    for name, value in params.items():
        wanted = "".join(
            char if char.isalnum() else f"({re.escape(char)}|%{ord(char):02X})" for char in value
        )
        expect(page).to_have_url(re.compile(rf"[?&]{name}={wanted}(&|$)"), timeout=TIMEOUT_MS)


def exceptions_on(page) -> list[str]:
    return page.locator("[data-testid='stException']").all_inner_texts()


# How much of a screen the page takes: the main column's scroll height in viewports,
# and every scroller inside it whose content is taller or wider than its box (an inner
# scrollbar hides content as surely as the page's own).
SCREEN_FIT = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const hidden = [];
  for (const box of main.querySelectorAll('*')) {
    const style = getComputedStyle(box);
    const scrolls = (axis) => ['auto', 'scroll'].includes(style['overflow' + axis]);
    const name = box.getAttribute('data-testid') || box.className.toString().slice(0, 40);
    if (scrolls('Y') && box.scrollHeight > box.clientHeight + 2)
      hidden.push(name + ' ' + box.scrollHeight + '/' + box.clientHeight + ' tall');
  }
  return { screens: main.scrollHeight / window.innerHeight, hidden };
}"""

# Text in the main column drawn smaller than `floor` px, outside figures and code:
# [[px, text], ...] (a figure's numbers are checked by CELL_FONT_PX-style probes). A
# map's text twin (.lab-twin) is not drawn at all: clipped to nothing, for screen readers.
SMALL_TEXT = """(floor) => {
  const main = document.querySelector('[data-testid=stMain]');
  const small = [];
  const skip = 'svg, .js-plotly-plot, pre, code, .katex, [data-testid=stDataFrame], '
    + '[data-testid=stExpanderIconCheck], .lab-twin, .lab-spoken, '
    + '[data-testid=stSidebar], [data-testid=stToolbar], [data-testid=stTooltipContent]';
  for (const node of main.querySelectorAll('*')) {
    if (node.closest(skip) || !node.getClientRects().length) continue;
    const own = Array.from(node.childNodes)
      .filter((child) => child.nodeType === 3 && child.textContent.trim())
      .map((child) => child.textContent.trim()).join(' ');
    if (!own) continue;
    const px = parseFloat(getComputedStyle(node).fontSize);
    if (px < floor) small.push([px, own.slice(0, 60)]);
  }
  return small;
}"""


FIT = 1.05  # viewports: a screen may overhang by a sliver, never by a line of text


def walk_position(page):
    """A lecture walk's "k of n · title", as shown beside its buttons."""
    return page.get_by_text(re.compile(r"^\d+ of \d+ · ")).first


def screen_fit(page) -> dict:
    """{"screens": the page's height in viewports, "hidden": inner scrollers}."""
    return page.evaluate(SCREEN_FIT)


def assert_one_projector_screen(page) -> None:
    """The page within one viewport (FIT) with no inner scroller, its text at lecture
    size, every map number inside its cell at lecture size, and no exception."""
    fit = screen_fit(page)
    assert fit["screens"] <= FIT and fit["hidden"] == [], fit
    assert small_text(page, LECTURE_TEXT_PX) == []
    assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []
    assert exceptions_on(page) == []


def small_text(page, floor_px: float) -> list:
    """[[px, text], ...]: the main column's text drawn under `floor_px`."""
    return page.evaluate(SMALL_TEXT, floor_px)


FONT_SLACK_PX = 0.01  # a computed font size may fall a rounding short of its CSS px


def misplaced_numbers(page, floor_px: float = MIN_CELL_FONT_PX) -> list:
    """Maps whose numbers are missing, stick out of their cells, lie under a mark or
    are drawn under `floor_px` (MAP_LABELS)."""
    return [
        entry
        for entry in page.evaluate(MAP_LABELS)
        if entry["drawn"] != entry["expected"]
        or entry["outside"]
        or entry["covered"]
        or (entry["drawn"] and entry["smallest"] < floor_px - FONT_SLACK_PX)
    ]


def live_regions(page, *, kinds=("polite",), outermost: bool = False) -> list[tuple[str, str]]:
    """The live regions of `kinds` (polite, assertive) in Chromium's accessibility tree
    (what a screen reader is given, shadow roots included): [(role, its text)];
    `outermost`: a region inside another is left out (its text is the outer one's)."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    by_id = {node["nodeId"]: node for node in nodes}

    def text(node) -> str:
        if node.get("role", {}).get("value") == "StaticText":
            return node.get("name", {}).get("value", "")
        return "".join(text(by_id[child]) for child in node.get("childIds", []) if child in by_id)

    def live(node) -> bool:
        return any(
            prop["name"] == "live" and prop["value"].get("value") in kinds
            for prop in node.get("properties", [])
        )

    return [
        (node["role"]["value"], text(node))
        for node in nodes
        if live(node) and not (outermost and live(by_id.get(node.get("parentId"), {})))
    ]
