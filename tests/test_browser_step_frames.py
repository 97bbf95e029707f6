"""The Playground's step-through plays in the browser (ui/shared/frame_player.py): the arrow
keys, Play, pointing at y and a tap change what is drawn with no message to the server;
the link keeps the step; lecture mode and the dark theme still apply.

Every wait is for what the page draws (a chart's title, its traces), never for a time.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import (
    TIMEOUT_MS,
    exceptions_on,
    expect_link,
    misplaced_numbers,
    open_page,
    settle,
    wait_for_title,
)
from conftest import PHONE, PROJECTOR
from playwright.sync_api import expect

from deploy.page_state import CELL_PIXEL, CHART_TITLE, FIND_CHART
from pooling import PoolConfig
from teaching.playground.model import LayerSettings, build_layer_story
from ui.figures.marks import outline_path
from ui.figures.style import DARK_TEXT, LECTURE_CELL_FONT_PX, LECTURE_TEXT_PX
from ui.playground.step_frames import POINTER_TITLE

pytestmark = pytest.mark.browser

X = "1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"
OVERLAP = f"mode=max&kh=3&kw=3&sh=1&sw=1&x={X}"
STORY = build_layer_story(
    LayerSettings(
        np.array([[float(v) for v in row.split(",")] for row in X.split(";")]),
        PoolConfig("max", 3, stride=1),
        "ones",
        0,
    )
)
READY = "() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)"
# The outline trace of a chart, as [x, y] lists.
OUTLINE = f"""(prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  const trace = plot.data.find((t) => t.name === 'window');
  return [Array.from(trace.x), Array.from(trace.y)];
}}"""


def messages_sent(page) -> list:
    """Every websocket message the page sends from now on (to the server)."""
    sent = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
    return sent


def open_player(page, link: str) -> list:
    sent = messages_sent(page)
    open_page(page, link)
    page.wait_for_function(READY, timeout=TIMEOUT_MS)
    return sent


def title(page, prefix: str) -> str | None:
    return page.evaluate(CHART_TITLE, prefix)


def wait_for_window(page, step: int, windows: int = 9) -> None:
    """Until x and dL/dx show window `step` (from 0)."""
    row, col = divmod(step, 3)
    page.wait_for_function(
        f"""() => ({CHART_TITLE})('x: the window') === 'x: the window of y[{row},{col}]'
          && ({CHART_TITLE})('dL/dx after') === 'dL/dx after {step + 1} of {windows} windows'""",
        timeout=TIMEOUT_MS,
    )


def segments(xs, ys) -> set:
    """An outline's segments as a set of ((x0, y0), (x1, y1)), whatever their order."""
    pairs, points = set(), list(zip(xs, ys, strict=True))
    for i in range(0, len(points), 3):
        pairs.add(tuple(sorted(points[i : i + 2])))
    return pairs


def test_five_arrow_steps_redraw_the_window_and_send_nothing(page, app_url):
    sent = open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    before = len(sent)
    page.locator(".lab-frames p.sentence").click()  # the page has the keys, no input
    for step in range(1, 6):
        page.keyboard.press("ArrowRight")
        wait_for_window(page, step)
        xs, ys = page.evaluate(OUTLINE, "x: the window")
        assert segments(xs, ys) == segments(*outline_path(STORY.window_cells(STORY.out_cell(step))))
        assert misplaced_numbers(page) == []  # every map keeps its numbers as it steps
    page.keyboard.press("ArrowLeft")
    wait_for_window(page, 4)
    assert len(sent) == before  # no message to the server while stepping
    expect_link(page, step="4")  # yet the address bar keeps the step
    assert exceptions_on(page) == []


def test_play_draws_every_window_without_a_message_and_one_when_it_stops(page, app_url):
    sent = open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    speed = page.get_by_role("combobox", name="Speed")
    assert speed.input_value() == "4"  # 4 windows a second; 1 and 2 slow it down
    assert {"1", "2"} <= set(speed.locator("option").evaluate_all("os => os.map(o => o.value)"))
    # Every title dL/dx shows, in order, as each animation frame finds it (the player
    # writes a step into the chart itself: Plotly draws none of them).
    page.evaluate(
        f"""() => {{
      window.drawnTitles = [];
      const look = () => {{
        const title = ({CHART_TITLE})('dL/dx after'), seen = window.drawnTitles;
        if (seen[seen.length - 1] !== title) seen.push(title);
        requestAnimationFrame(look);
      }};
      requestAnimationFrame(look);
    }}"""
    )
    before = len(sent)
    page.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_function(
        "() => window.drawnTitles.includes('dL/dx after 9 of 9 windows')", timeout=TIMEOUT_MS
    )
    expect(page.get_by_role("button", name=re.compile("Play"))).to_be_visible()  # it stopped
    drawn = [
        t
        for i, t in enumerate(page.evaluate("window.drawnTitles"))
        if t not in page.evaluate("window.drawnTitles")[:i]
    ]
    assert drawn == [f"dL/dx after {n} of 9 windows" for n in range(1, 10)]
    expect_link(page, step="8")
    settle(page)
    assert len(sent) == before + 1  # one message: Play stopped at the end
    assert exceptions_on(page) == []


def test_pause_keeps_the_link_on_the_window_shown(page, app_url):
    sent = open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    page.get_by_role("combobox", name="Speed").select_option("1")  # slowed down
    before = len(sent)
    page.get_by_role("button", name=re.compile("Play")).click()
    wait_for_window(page, 1)
    page.get_by_role("button", name=re.compile("Pause")).click()
    settle(page)
    shown = int(title(page, "dL/dx after").split()[2]) - 1
    expect_link(page, step=str(shown))
    assert len(sent) == before + 1


def y_cell(page, row: int, col: int) -> tuple[float, float]:
    chart = page.locator(".js-plotly-plot", has=page.locator(".gtitle", has_text="y: point"))
    chart.first.scroll_into_view_if_needed()
    return page.evaluate(CELL_PIXEL, [POINTER_TITLE, row, col])


def test_pointing_at_y_lights_its_window_and_a_click_picks_it(page, app_url):
    sent = open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    before = len(sent)
    page.mouse.move(*y_cell(page, 2, 2))
    wait_for_window(page, 8)  # at once, while the pointer is there
    xs, ys = page.evaluate(OUTLINE, "dL/dx after")  # its share of dL/dx lit too
    assert segments(xs, ys) == segments(*outline_path(STORY.window_cells((2, 2))))
    words = page.locator(".lab-frames p.sentence")
    expect(words).to_have_text(re.compile(r"^y\[2,2\] = "))
    page.mouse.move(5, 5)  # away: back to the window picked
    wait_for_window(page, 0)
    page.mouse.move(*y_cell(page, 1, 1))  # onto the cell, as a hand does, then a click
    wait_for_window(page, 4)
    page.mouse.click(*y_cell(page, 1, 1))
    page.mouse.move(5, 5)
    expect_link(page, step="4")
    wait_for_window(page, 4)  # picked: it stays
    assert len(sent) == before
    # Picked for the rest of the page: the next tab follows that window.
    page.get_by_role("tab", name="Both passes").click()
    wait_for_title(page, "Routing: where dL/dy[1,1]")


def test_one_tap_on_y_lights_and_picks(phone_page, app_url):
    page = phone_page
    sent = open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step")
    before = len(sent)
    page.touchscreen.tap(*y_cell(page, 0, 2))
    wait_for_window(page, 2)
    expect_link(page, step="2")
    assert len(sent) == before
    assert page.viewport_size == PHONE["viewport"]


def test_the_link_keeps_the_step_and_the_next_change_takes_it_to_the_server(page, app_url):
    sent = open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step&step=3")
    wait_for_window(page, 3)
    page.locator(".lab-frames p.sentence").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_for_window(page, 5)
    expect_link(page, step="5")
    page.reload()
    settle(page)
    wait_for_window(page, 5)  # the link opens where it was left
    page.locator(".lab-frames p.sentence").click()
    page.keyboard.press("ArrowLeft")
    wait_for_window(page, 4)
    before = len(sent)
    page.locator("[data-testid=stSidebar]").get_by_text("Average", exact=True).click()
    settle(page)  # the server ran the change knowing the step: its figures are at it
    wait_for_window(page, 4)
    expect_link(page, step="4", mode="avg")
    assert len(sent) == before + 1  # the step went with the change, in one message


def test_lecture_mode_steps_at_lecture_size(projector_page, app_url):
    page = projector_page
    open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step&lecture=1")
    assert page.viewport_size == PROJECTOR["viewport"]
    page.locator(".lab-frames p.sentence").click()
    page.keyboard.press("ArrowRight")
    wait_for_window(page, 1)
    words = page.locator(".lab-frames p.sentence")
    assert words.evaluate("p => parseFloat(getComputedStyle(p).fontSize)") == LECTURE_TEXT_PX
    assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []


def test_the_dark_theme_stays_on_every_frame(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme="dark")
    page = context.new_page()
    try:
        open_player(page, f"{app_url}/playground?{OVERLAP}&tab=step")
        page.locator(".lab-frames p.sentence").click()
        page.keyboard.press("ArrowRight")
        wait_for_window(page, 1)
        look = page.evaluate(
            f"""() => {{
          const plot = ({FIND_CHART})('dL/dx after');
          const words = getComputedStyle(document.querySelector('.lab-frames')).color;
          return [plot._fullLayout.title.font.color, plot._fullLayout.paper_bgcolor, words];
        }}"""
        )
        title_colour, paper, words = look
        assert title_colour.lower() in (DARK_TEXT, "rgb(228, 228, 231)")
        assert paper in ("rgba(0, 0, 0, 0)", "rgba(0,0,0,0)")
        red, green, blue = (int(v) for v in re.findall(r"\d+", words)[:3])
        assert min(red, green, blue) > 180  # light text on the dark page
    finally:
        context.close()


@pytest.mark.parametrize("lecture", [False, True], ids=["desk", "lecture"])
def test_a_single_window_is_said_once_with_its_note_in_place_of_the_controls(
    page, app_url, lecture
):
    """x 2x2 under one 2x2 window: no controls, the note that there is one window, and
    the window's sentence once on the page (the desk's words sit under the maps, the
    projector's in the column beside them)."""
    x = np.array([[1.0, 3.0], [2.0, 0.5]])
    story = build_layer_story(LayerSettings(x, PoolConfig("max", 2), "ones", 0))
    assert story.windows == 1
    link = "&lecture=1" if lecture else ""
    open_page(page, f"{app_url}/playground?tab=step&mode=max&kh=2&kw=2&x=1,3;2,0.5{link}")
    expect(page.get_by_text("One output cell: there is a single window to follow.")).to_have_count(
        1
    )
    expect(page.locator(".lab-frames p.sentence")).to_have_count(1)
    expect(page.get_by_role("button", name="Play")).to_have_count(0)
