"""A chart the frame player hooked keeps following the player's frames as they are
now, in headless Chromium: the player's script (ui/shared/frame_player.py) run on its own, on
a bare page with Plotly (the plotly package's build), fed the Playground's real frames
and figures.

Why: a new input (a preset, a stride) brings new charts and new frames, in either
order. A chart hooked while the old frames were still in the player kept them: the
next time Streamlit drew the chart again (the input panel folded, a resize) the old
input's numbers came back on the new grid (seen in CI: four numbers of a 4x4 grid's
dL/dx drawn on the 6x6 one), and pointing at y picked windows by the old width of y.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import plotly
import pytest

from pooling import PoolConfig
from teaching.playground.model import LayerSettings, build_layer_story
from ui.playground.step_frames import frames_data, step_maps
from ui.playground.views_step import WORDS, pointer_figure, step_figures
from ui.shared.frame_player import PLAYER_JS, FrameSpec

pytestmark = pytest.mark.browser

ORIGIN = "http://lab.test"  # answered by the routes below: no server, no network
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
KEYS = {"x": "fig_x", "gx": "fig_gx", "y": "fig_y"}
BARE_PAGE = f"""<!doctype html><title>player</title>
<script src="/plotly.min.js"></script>
<div id="controls"></div>
{"".join(f'<div class="st-key-{key}"></div>' for key in KEYS.values())}"""

# The player loaded (window.player(data) is one run of the page), and
# window.drawChart(key, figure) stands for Streamlit's st.plotly_chart: a chart of a
# new shape is a new element, its figure drawn anew; one of the same shape is drawn
# again in place.
LOAD = """async (js) => {
  const url = URL.createObjectURL(new Blob([js], { type: 'text/javascript' }));
  const component = (await import(url)).default;
  const parentElement = document.getElementById('controls');
  window.player = (frames) => component({
    data: { id: 'player', part: 'controls', frames, position: 0, lecture: false },
    setStateValue: () => {}, setTriggerValue: () => {}, parentElement,
  });
  window.newChart = async (key, figure) => {
    const holder = document.querySelector('.st-key-' + key);
    holder.replaceChildren();
    const plot = holder.appendChild(document.createElement('div'));
    await Plotly.newPlot(plot, figure.data, figure.layout);
  };
  window.drawAgain = async (key, figure) => {
    const plot = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
    await Plotly.react(plot, figure.data, figure.layout);
  };
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  window.frames = () => frame().then(frame);
}"""
CHART = """(key) => {
  const plot = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  const cells = plot.data.find((trace) => trace.name === 'gradient' || trace.name === 'x'
                                          || trace.name === 'y');
  return { title: plot.layout.title.text, z: cells ? cells.z : null };
}"""


def playground(x: np.ndarray, kernel: int, stride: int) -> dict:
    """The step-through's frames and its three figures at window 0, as JSON."""
    story = build_layer_story(LayerSettings(x, PoolConfig("max", kernel, stride=stride), "ones", 0))
    maps = step_maps(story)
    spec = FrameSpec(**frames_data(story, maps, keys=KEYS, lecture=False), link="step", text=WORDS)
    x_figure, gx_figure = step_figures(story, maps, 0, lecture=False)
    figures = {"x": x_figure, "gx": gx_figure, "y": pointer_figure(story, maps.y, 0)}
    return {
        "frames": spec.payload(),
        "figures": {KEYS[name]: json.loads(f.to_json()) for name, f in figures.items()},
        "running": maps.gx.values,  # dL/dx after each window, (windows, H, W)
    }


OLD = playground(np.arange(16.0).reshape(4, 4), kernel=2, stride=2)  # y 2x2, 4 windows
NEW = playground(np.arange(36.0).reshape(6, 6) % 7, kernel=2, stride=2)  # y 3x3, 9 windows


@pytest.fixture
def loaded(page):
    """A bare page with the player's script loaded: no chart, no frames yet."""
    page.route(f"{ORIGIN}/plotly.min.js", lambda route: route.fulfill(path=PLOTLY_JS))
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(content_type="text/html", body=BARE_PAGE))
    page.goto(f"{ORIGIN}/")
    page.evaluate(LOAD, PLAYER_JS)
    return page


def draw_charts(page, figures: dict) -> None:
    for key, figure in figures.items():
        page.evaluate("([key, figure]) => newChart(key, figure)", [key, figure])


def assert_gradient_map_after(page, *, window: int) -> None:
    """The dL/dx chart, once drawn, is the new input's after `window` (from 0)."""
    page.evaluate("() => frames()")
    drawn = page.evaluate(CHART, KEYS["gx"])
    assert drawn["title"] == f"dL/dx after {window + 1} of 9 windows"
    np.testing.assert_array_equal(np.asarray(drawn["z"], dtype=float), NEW["running"][window])


@pytest.fixture
def bare(loaded):
    """The old input's charts drawn and its frames in the player; then Streamlit's new
    charts come and are hooked while the player still has the old frames (a run of the
    player's part then, as on a page whose controls come before its charts), before
    the new frames come."""
    draw_charts(loaded, OLD["figures"])
    loaded.evaluate("(frames) => player(frames)", OLD["frames"])
    draw_charts(loaded, NEW["figures"])
    loaded.evaluate("(frames) => player(frames)", OLD["frames"])
    loaded.evaluate("() => frames()")
    loaded.evaluate("(frames) => player(frames)", NEW["frames"])
    loaded.evaluate("() => frames()")
    return loaded


def test_a_new_chart_in_an_old_ones_place_gets_the_step_shown_with_no_mouse_move(loaded):
    """A run of the page (the next block of training frames asked for) may bring a new
    chart element with the server's step after the player has drawn its own: before,
    only a mouse move hooked it, and a learner on the keys saw the server's step."""
    draw_charts(loaded, NEW["figures"])
    loaded.evaluate("(frames) => player(frames)", NEW["frames"])
    for _ in range(4):
        loaded.keyboard.press("ArrowRight")
    assert_gradient_map_after(loaded, window=4)
    key = KEYS["gx"]
    draw_charts(loaded, {key: NEW["figures"][key]})
    assert_gradient_map_after(loaded, window=4)


def test_a_chart_drawn_again_by_streamlit_gets_the_new_inputs_frame(bare):
    key = KEYS["gx"]
    bare.evaluate("([key, figure]) => drawAgain(key, figure)", [key, NEW["figures"][key]])
    assert_gradient_map_after(bare, window=0)


def test_pointing_at_y_picks_the_window_by_the_new_width_of_y(bare):
    key = KEYS["y"]
    bare.evaluate(
        """(key) => document.querySelector('.st-key-' + key + ' .js-plotly-plot')
             .emit('plotly_click', { points: [{ x: 2, y: 2 }] })""",
        key,
    )
    bare.evaluate("() => frames()")
    assert bare.evaluate(CHART, KEYS["x"])["title"] == "x: the window of y[2,2]"
    assert bare.evaluate(CHART, KEYS["gx"])["title"] == "dL/dx after 9 of 9 windows"
