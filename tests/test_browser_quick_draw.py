"""A step drawn at once (ui/shared/frames.js, quickDraw): what the input's own task writes
into the charts (the title, the window's outline, the winners' marks, the running dL/dx's
changed colours and numbers) is what Plotly itself draws for that frame, and a finger
dragged across y follows it cell by cell.

Every wait is for what the page draws, never for a time.
"""

from __future__ import annotations

import numpy as np
import pytest
from browser import TIMEOUT_MS, exceptions_on, settle
from test_browser_step_frames import open_player, y_cell

from deploy.page_state import CHART_TITLE, FIND_CHART

pytestmark = pytest.mark.browser

# Padding, a stride of 2 and ties: outlines that reach into the padding, and windows 2
# and 5 with two winners (every tied cell gets everything: ties=all).
TIES = "3,3,0,1,3,1;2,9,1,9,2,0;2,1,4,1,0,5;0,3,4,8,1,8;1,0,2,1,0,7"
LINK = f"playground?tab=step&mode=max&kh=3&kw=3&sh=2&sw=2&pad=1&ties=all&x={TIES}"
OVERLAP = "1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"

# What a chart shows of its moving parts, as drawn in its SVG: its title's text and, per
# scatter trace, its lines' segments [[x0, y0, x1, y1], ...] (from the paths' M and L
# points) and its markers' places [[x, y], ...] (their translate()).
DRAWN = r"""(prefix) => {
  const number = /(-?[\d.]+(?:e-?\d+)?)/.source;
  const pens = new RegExp(`([ML])${number},${number}`, 'g');
  const placed = new RegExp(`translate\\(${number},\\s*${number}\\)`);
  const plot = (FIND_CHART)(prefix);
  const traces = {};
  for (const node of plot.querySelectorAll('.scatterlayer .trace')) {
    const segments = [], points = [];
    for (const path of node.querySelectorAll('path.js-line')) {
      let last = null;
      for (const [, pen, x, y] of (path.getAttribute('d') || '').matchAll(pens)) {
        const point = [Number(x), Number(y)];
        if (pen === 'L' && last) segments.push([...last, ...point]);
        last = point;
      }
    }
    for (const point of node.querySelectorAll('path.point')) {
      const place = placed.exec(point.getAttribute('transform'));
      if (place) points.push([Number(place[1]), Number(place[2])]);
    }
    traces[node.__data__[0].trace.name] = { segments, points };
  }
  const image = plot.querySelector('.hm image');
  const labels = Array.from(plot.querySelectorAll('g.heatmap-label text'),
    (label) => [label.getAttribute('x'), label.getAttribute('y'), label.textContent,
                label.style.fill]);
  return { title: plot.querySelector('.gtitle').textContent, traces,
           image: image && image.getAttributeNS('http://www.w3.org/1999/xlink', 'href'),
           labels: labels.sort() };
}""".replace("FIND_CHART", FIND_CHART)

# The → key as the page gets it, and the chart as that key's own task left it (read in
# the same task: before any animation frame, any later task, any Plotly draw).
KEY_THEN_DRAWN = """(prefix) => {
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  return (DRAWN)(prefix);
}""".replace("DRAWN", DRAWN)

# Plotly draws the chart again from its model (as on a resize); the player then draws
# the frame shown with Plotly (plotly_afterplot). Resolves after both draws.
PLOTLY_DRAWS = f"""async (prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  const drawn = () => new Promise((done) => plot.once('plotly_afterplot', done));
  const both = drawn().then(drawn);
  await window.Plotly.redraw(plot);
  await both;
}}"""


# Two images' pixels compared: [how many pixels differ, the first few as [x, y, one's
# r, g, b, a, the other's]].
PIXELS_DIFFER = """async ([one, other]) => {
  const pixels = async (href) => {
    const image = new Image();
    image.src = href;
    await image.decode();
    const canvas = Object.assign(document.createElement('canvas'),
                                 { width: image.width, height: image.height });
    const paint = canvas.getContext('2d');
    paint.drawImage(image, 0, 0);
    return [image.width, paint.getImageData(0, 0, image.width, image.height).data];
  };
  const [[width, a], [, b]] = [await pixels(one), await pixels(other)];
  const differ = [];
  for (let i = 0; i < a.length; i += 4) {
    if ([0, 1, 2, 3].some((k) => a[i + k] !== b[i + k]))
      differ.push([(i / 4) % width, Math.floor(i / 4 / width), ...a.slice(i, i + 4),
                   ...b.slice(i, i + 4)]);
  }
  return [differ.length, differ.slice(0, 5)];
}"""


def normalised(drawn: dict) -> dict:
    """Segments as sorted rows of sorted end points, points sorted: the same picture
    whatever the order it was drawn in."""
    traces = {}
    for name, trace in drawn["traces"].items():
        segments = sorted(
            tuple(sorted([(x0, y0), (x1, y1)])) for x0, y0, x1, y1 in trace["segments"]
        )
        traces[name] = (np.array(segments).reshape(-1, 4), np.array(sorted(trace["points"])))
    return {"title": drawn["title"], "traces": traces, "cells": (drawn["image"], drawn["labels"])}


def assert_same_picture(quick: dict, plotly: dict) -> None:
    quick, plotly = normalised(quick), normalised(plotly)
    assert quick["title"] == plotly["title"]
    # The map's labels: text and colour.
    assert quick["cells"][1] == plotly["cells"][1]
    assert quick["traces"].keys() == plotly["traces"].keys()
    for name, (segments, points) in plotly["traces"].items():
        np.testing.assert_allclose(quick["traces"][name][0], segments, atol=0.05, err_msg=name)
        np.testing.assert_allclose(quick["traces"][name][1], points, atol=0.05, err_msg=name)


@pytest.mark.parametrize("chart", ["x: the window", "dL/dx after"])
def test_what_a_step_writes_at_once_is_what_plotly_draws_for_it(page, app_url, chart):
    """Four → presses on a 5x6 x with padding 1, 3x3 windows at stride 2 and every tied
    cell a winner (one, then two, one, one): after each, the chart as the key's own task
    left it (title, outline, winners, the map's colours and labels: read in that task,
    before any frame is painted) is the chart Plotly draws for that window from its own
    model."""
    open_player(page, f"{app_url}/{LINK}")
    page.locator(".lab-frames p.sentence").click()  # the page has the keys, no input
    for window in range(2, 6):
        quick = page.evaluate(KEY_THEN_DRAWN, chart)
        assert any(trace["segments"] for trace in quick["traces"].values())
        page.wait_for_function(
            f"() => ({CHART_TITLE})('dL/dx after') === 'dL/dx after {window} of 9 windows'",
            timeout=TIMEOUT_MS,
        )
        settle(page)
        page.evaluate(PLOTLY_DRAWS, chart)
        settle(page)
        plotly = page.evaluate(DRAWN, chart)
        assert_same_picture(quick, plotly)
        # The map's colours, pixel for pixel.
        assert page.evaluate(PIXELS_DIFFER, [quick["image"], plotly["image"]]) == [0, []]
    assert exceptions_on(page) == []


def test_a_finger_dragged_across_y_follows_it_cell_by_cell(phone_page, app_url):
    """On a phone, a finger put on y[0,0] and dragged sideways along row 0 and back:
    x's window follows each cell it is on; lifted, x shows the window picked again."""
    page = phone_page
    open_player(page, f"{app_url}/playground?tab=step&mode=max&kh=3&kw=3&sh=1&sw=1&x={OVERLAP}")
    session = page.context.new_cdp_session(page)

    def touch(kind: str, cell: tuple[int, int] | None) -> None:
        points = [] if cell is None else [dict(zip("xy", y_cell(page, *cell), strict=True))]
        session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def wait_for_x(cell: tuple[int, int]) -> None:
        page.wait_for_function(
            f"() => ({CHART_TITLE})('x: the window') === 'x: the window of y[{cell[0]},{cell[1]}]'",
            timeout=TIMEOUT_MS,
        )

    touch("touchStart", (0, 0))
    for cell in [(0, 1), (0, 2), (0, 1)]:
        touch("touchMove", cell)
        wait_for_x(cell)
    touch("touchEnd", None)
    wait_for_x((0, 0))
    assert exceptions_on(page) == []
