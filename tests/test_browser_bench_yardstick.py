"""The change benchmark's yardstick (benchmarks/one_component_app.py: the Both passes
maps in one custom component) served and used as bench_change.py uses it: it draws the
engine's dL/dx for the benchmark's link, and a change of its Pooling control redraws
it, with no chart remounted. A yardstick that drew other numbers, or none, would time
nothing worth comparing. Nothing here is timed."""

from __future__ import annotations

import numpy as np
import pytest
from browser import TIMEOUT_MS, chart_values, exceptions_on, wait_for_values
from conftest import ROOT

from benchmarks import browser_apps as apps
from deploy.local_server import start_app, stop
from pooling import PoolConfig, backward, forward

pytestmark = pytest.mark.browser

GRID = np.array([[float(v) for v in row.split(",")] for row in apps.GRID.split(";")])


def engine_dldx(mode: str) -> list:
    """dL/dx for the benchmark's grid, 2x2 windows at stride 1, dL/dy all ones, with
    whole numbers as ints (as JSON.stringify writes them in the page)."""
    result = forward(GRID, PoolConfig(mode, 2, stride=1))
    grad = backward(result, np.ones(result.output.shape))
    return [[int(v) if v.is_integer() else v for v in row] for row in grad.tolist()]


@pytest.fixture(scope="module")
def yardstick_url():
    url, process = start_app(ROOT, script="benchmarks/one_component_app.py")
    yield url
    stop(process)


def test_the_yardstick_draws_the_engines_numbers_and_follows_a_change(page, yardstick_url):
    page.goto(f"{yardstick_url}/playground?{apps.QUERY}", timeout=TIMEOUT_MS)
    assert chart_values(page, "dL/dx") == engine_dldx("max")
    page.evaluate(
        "() => { for (const p of document.querySelectorAll('.js-plotly-plot')) p.old = 1; }"
    )
    apps.lab_control(page).click()
    wait_for_values(page, "dL/dx", engine_dldx("avg"))
    titles = page.evaluate(
        """() => Array.from(document.querySelectorAll('.js-plotly-plot'),
                            (plot) => [plot.layout.title.text, plot.old === 1])"""
    )
    assert len(titles) == 6 and all(kept for _, kept in titles)  # redrawn in place
    assert exceptions_on(page) == []
