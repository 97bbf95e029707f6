"""What a Playground drawn mostly by one custom component would cost: a yardstick for
bench_change.py, not a page of the lab.

    python benchmarks/bench_change.py --lab-script benchmarks/one_component_app.py
    ONE_COMPONENT_CONTROLS=sidebar python benchmarks/bench_change.py \\
        --lab-script benchmarks/one_component_app.py

At /playground it reads the same link as the Playground and draws the same six maps
of the Both passes tab (x, y, dL/dy, dL/dx, the routing map, the coverage map, built by
the lab's own figure builders through its figure cache), but all six in one custom
component that keeps its charts mounted and updates them with Plotly.react: one
message per change for all the maps, no chart remounted. Its controls are the
Playground's Pooling radio alone (the default), or with ONE_COMPONENT_CONTROLS=sidebar
the Playground's whole sidebar (its fourteen Streamlit widgets). No input panel, no
tabs, no words, and the six maps one under the other at their own sizes (the tab puts
two in a row): the least a Playground with these maps and these controls could send
and draw on a change.
"""

from __future__ import annotations

import os
import sys
import weakref
from pathlib import Path

import plotly.io as pio
import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ui.playground import checked_story  # noqa: E402
from ui.playground.inputs import sidebar_controls  # noqa: E402
from ui.playground.state import STATE, init_state  # noqa: E402
from ui.playground.views_passes import (  # noqa: E402
    coverage_map,
    dx_map,
    dy_map,
    routing_map,
    x_map,
    y_map,
)
from ui.shared.chart import CHART_CONFIG  # noqa: E402
from ui.shared.grid_editor import current_grid  # noqa: E402

# Streamlit's own Plotly, the chunk its charts load (it sets window.Plotly): the
# component imports it next to the page's main script, so no second copy is fetched.
PLOTLY_CHUNK = next((Path(st.__file__).parent / "static/static/js").glob("PlotlyChart.*.js")).name

JS = """
export default async function ({ data, parentElement }) {
  if (!window.Plotly) {
    const main = document.querySelector('script[src*="static/js/index"]');
    await import(new URL(data.chunk, main.src).href);
  }
  data.specs.forEach((spec, index) => {
    let plot = parentElement.querySelector(`[data-map="${index}"]`);
    if (!plot) {
      plot = document.createElement('div');
      plot.dataset.map = index;
      parentElement.appendChild(plot);
    }
    if (plot.benchSpec === spec) return;  // unchanged: not drawn again
    plot.benchSpec = spec;
    const figure = JSON.parse(spec);
    window.Plotly.react(plot, figure.data, figure.layout, data.config);
  });
}
"""

_maps = st.components.v2.component("bench_one_component_maps", js=JS, isolate_styles=False)
_SPECS: dict[int, str] = {}  # a cached figure's JSON, by the figure's id while it lives


def spec(figure) -> str:
    """The figure's JSON, made once per figure (the figure cache keeps each figure; an
    entry goes with its figure, so a later figure with the same id is not served it)."""
    key = id(figure)
    if key not in _SPECS:
        _SPECS[key] = pio.to_json(figure, validate=False)
        weakref.finalize(figure, _SPECS.pop, key, None)
    return _SPECS[key]


def controls() -> None:
    if os.environ.get("ONE_COMPONENT_CONTROLS") == "sidebar":
        sidebar_controls()
        return
    with st.sidebar:  # the Playground's Pooling radio, alone
        STATE.pool.draw_mode()


def playground() -> None:
    init_state()
    controls()
    story = checked_story(current_grid(STATE.grid), STATE.pool.config(), None)
    if story is None:  # checked_story said why
        return
    out_cell = story.out_cell(STATE.step_shown())
    figures = [
        x_map(story, out_cell),
        y_map(story, out_cell),
        dy_map(story),
        dx_map(story),
        routing_map(story, out_cell),
        coverage_map(story),
    ]
    _maps(
        key="bench_maps",
        data={"specs": [spec(f) for f in figures], "chunk": PLOTLY_CHUNK, "config": CHART_CONFIG},
        width="stretch",
        height="content",
    )


st.navigation(
    [
        st.Page(lambda: st.write("Open /playground."), title="Home", url_path="home", default=True),
        st.Page(playground, title="Playground", url_path="playground"),
    ]
).run()
