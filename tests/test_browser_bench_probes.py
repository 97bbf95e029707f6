"""The browser benchmark's probes (benchmarks/browser_probes.py) on a page of their own,
no server: they parse, and they catch what they claim to (a title put on screen by the
key press, each new title while titles change). Nothing here is timed."""

from __future__ import annotations

import pytest

from benchmarks.browser_probes import ARM_STEP, RECORD_FRAMES, bounded

pytestmark = pytest.mark.browser

# A stand-in for a Plotly chart: its title is SVG text, as Plotly draws it; the → key
# moves it to the next window, as the frame player does.
CHART_PAGE = """
<svg class="js-plotly-plot"><text class="gtitle">dL/dx after 1 of 25 windows</text></svg>
<script>
  let shown = 1;
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight') return;
    shown += 1;
    document.querySelector('.gtitle').textContent = `dL/dx after ${shown} of 25 windows`;
  });
</script>
"""


def test_a_step_is_timed_from_the_key_press_to_the_frame_that_shows_its_title(page):
    page.set_content(CHART_PAGE)
    page.evaluate(ARM_STEP, "dL/dx after 2 of")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.benchStep.shown !== null")
    step = page.evaluate("() => window.benchStep")
    assert step["pressed"] <= step["shown"] and step["frames"] >= 1


def test_the_frame_recorder_keeps_each_new_title_in_order(page):
    page.set_content(CHART_PAGE)
    page.evaluate(RECORD_FRAMES, "dL/dx after")
    for count in range(3):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => window.benchFrames.titles.length === {count + 1}")
    record = page.evaluate("() => window.benchFrames")
    assert [title.split()[2] for title in record["titles"]] == ["2", "3", "4"]
    assert record["times"] == sorted(record["times"])


def test_a_bounded_wait_says_whether_its_script_finished(page):
    page.set_content(CHART_PAGE)
    assert page.evaluate(bounded("async () => {}", 30)) is True
    assert page.evaluate(bounded("() => new Promise(() => {})", 0.05)) is False
