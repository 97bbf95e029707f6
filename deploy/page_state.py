"""What a browser checks to know a served page of the lab has settled, and what it reads
of the page's charts, shared by the browser tests and the browser benchmark. Each is a
script of deploy/probes/, one JavaScript function expression (linted by ESLint with the
app's scripts), for Playwright's `evaluate(script, arg)` and `wait_for_function`: what
varies (a chart's title, a cell) goes in as the argument, never into the text.
"""

from pathlib import Path

PROBES = Path(__file__).with_name("probes")


def probe(name: str) -> str:
    """The text of deploy/probes/<name>.js."""
    return (PROBES / f"{name}.js").read_text(encoding="utf-8")


# () -> whether the page has settled: its script idle, nothing stale or loading, every
# formula typeset, every chart drawn, no frame player drawing, every font loaded.
SETTLED = probe("settled")
# (prefix) -> the Plotly element whose title starts with `prefix`, or null.
FIND_CHART = probe("find_chart")
# (prefix) -> z of that chart's cells (the heatmap that is not padding), or null.
CHART_Z = probe("chart_z")
# (prefix) -> the full title of that chart, or null.
CHART_TITLE = probe("chart_title")
# ([prefix, row, col]) -> [x, y]: where cell (row, col) of that chart is on screen.
CELL_PIXEL = probe("cell_pixel")
# () -> a promise of true once the page's main thread has been idle three times in a row.
BROWSER_IDLE = probe("browser_idle")
# () -> for every heatmap that writes numbers in its cells: the labels drawn, the
# smallest, those outside their cell or under a mark (a list, one entry per trace).
MAP_LABELS = probe("map_labels")
