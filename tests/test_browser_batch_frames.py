"""The Batch page's step-through plays in the browser (ui/batch/step_frames.py through
ui/shared/frame_player.py): the arrow keys and Play change the maps drawn, example after
example, with no message to the server; the link keeps the example.

Every wait is for what the page draws (a chart's title and numbers), never for a time.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, chart_values, exceptions_on, expect_link, settle
from playwright.sync_api import expect
from test_browser_lecture_batch import default_settings
from test_browser_step_frames import open_player

from deploy.page_state import CHART_TITLE, FIND_CHART
from teaching.batch.story import build_batch_story
from teaching.numbers import fmt
from ui.batch.step_frames import REACHED_TITLE, REACHED_X, REACHED_Y

pytestmark = pytest.mark.browser

STORY = build_batch_story(default_settings())
ROUTING = STORY.routing(0)


def wait_for_example(page, example: int) -> None:
    """Until the routed map and the running mean show example `example`."""
    page.wait_for_function(
        f"""() => ({CHART_TITLE})('#{example} routes') !== null
          && ({CHART_TITLE})('mean of #0…#{example}') !== null""",
        timeout=TIMEOUT_MS,
    )


def test_five_arrow_steps_add_an_example_each_and_send_nothing(page, app_url):
    sent = open_player(page, f"{app_url}/batch?tab=step")
    before = len(sent)
    page.locator(".lab-frames p.sentence").click()  # the page has the keys, no input
    for example in range(1, 6):
        page.keyboard.press("ArrowRight")
        wait_for_example(page, example)
        np.testing.assert_allclose(
            chart_values(page, f"#{example} routes"), ROUTING[example], atol=0.006
        )
        words = page.locator(".lab-frames p.sentence")
        expect(words).to_have_text(re.compile(rf"^Example #{example} "))
    np.testing.assert_allclose(
        chart_values(page, "mean dL/dK, #0…#5"), STORY.kernel_running(0)[5], atol=0.006
    )
    assert len(sent) == before  # no message to the server while stepping
    expect_link(page, ex="5")  # yet the address bar keeps the example
    assert exceptions_on(page) == []


def test_play_adds_every_example_and_tells_the_server_once_it_stops(page, app_url):
    sent = open_player(page, f"{app_url}/batch?tab=step")
    page.evaluate(
        f"""() => {{
      window.drawnTitles = [];
      const plot = ({FIND_CHART})('mean of #0');
      plot.on('plotly_afterplot', () => window.drawnTitles.push(({CHART_TITLE})('mean of #0')));
    }}"""
    )
    before = len(sent)
    page.get_by_role("button", name=re.compile("Play")).click()
    last = STORY.size - 1
    page.wait_for_function(
        f"() => window.drawnTitles.includes('mean of #0…#{last}')", timeout=TIMEOUT_MS
    )
    expect(page.get_by_role("button", name=re.compile("Play"))).to_be_visible()  # it stopped
    drawn = list(dict.fromkeys(page.evaluate("window.drawnTitles")))
    # Play may draw the example it starts from again first: then every one after it.
    assert [t for t in drawn if t != "mean of #0…#0"] == [
        f"mean of #0…#{n}" for n in range(1, STORY.size)
    ]
    expect_link(page, ex=str(last))
    settle(page)
    assert len(sent) == before + 1  # one message: Play stopped at the end
    assert exceptions_on(page) == []


def test_the_maps_and_the_curves_twins_say_the_example_stepped_to(page, app_url):
    """Three → presses (frames the browser draws): the routed map's twin is example #3's,
    and the curve of positions reached says its point #3 (the 4th example) as the
    current one, with the count the story computes."""
    open_player(page, f"{app_url}/batch?tab=step")
    page.locator(".lab-frames p.sentence").click()  # the page has the keys, no input
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_for_example(page, 3)
    routed = page.get_by_role("figure", name="#3 routes", exact=True)
    expect(routed).to_have_count(1, timeout=TIMEOUT_MS)
    low, high = ROUTING[3].min(), ROUTING[3].max()
    expect(routed.locator("p")).to_contain_text(f"from {fmt(low)} to {fmt(high)}")
    reached = STORY.positions_reached(0)
    curve = page.get_by_role("figure", name=REACHED_TITLE, exact=True)
    expect(curve.locator("p")).to_have_text(
        f"{REACHED_TITLE}: {len(reached)} points, {REACHED_X} 1 to {len(reached)}; "
        f"{REACHED_Y} from {fmt(min(reached))} to {fmt(max(reached))}; current point: "
        f"{REACHED_X} 4, {REACHED_Y} {fmt(reached[3])}."
    )
    row = curve.get_by_role("row", name=f"{REACHED_X} 4", exact=False).first
    expect(row.get_by_role("cell")).to_have_text(f"{fmt(reached[3])}, current point")


def test_a_batch_of_100_steps_in_the_block_of_the_linked_example(page, app_url):
    """At 100 examples the player holds #50…#99: → from #60 draws #61's maps (its
    routing numbers the story's), and the address bar keeps #61 as its place in the
    block (at=11; ex names the block), with no message to the server."""
    routing = build_batch_story(default_settings(size=100)).routing(0)
    sent = open_player(page, f"{app_url}/batch?n=100&tab=step&ex=60")
    before = len(sent)
    page.locator(".lab-frames p.sentence").click()  # the page has the keys, no input
    page.keyboard.press("ArrowRight")
    wait_for_example(page, 61)
    np.testing.assert_allclose(chart_values(page, "#61 routes"), routing[61], atol=0.006)
    expect(page.locator(".lab-frames .count")).to_have_text("Example 62 of 100")
    assert len(sent) == before
    expect_link(page, ex="60", at="11")
    assert exceptions_on(page) == []
