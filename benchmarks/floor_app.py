"""The floor: the least a Streamlit + Plotly page like the Playground can cost, a
yardstick for bench_browser.py and bench_change.py, not a page of the lab.

    streamlit run benchmarks/floor_app.py --server.port 8701

Two pages. At /playground: one sidebar number input ("Window height") and four Plotly
heatmaps with their numbers ("Input x", "Output y", "Upstream dL/dy", "dL/dx"), the
grid read from the link (?x=1,2;3,4, rows split by ";"), max pooling with stride 1 and
a window of that height by 2 columns. The benchmarks serve it beside the lab and time
both the same way in one run: the lab's open and change times divided by these are the
ratios they report. It imports nothing of the lab, so that it stays the floor whatever
the lab becomes; its maths is a few NumPy calls, not the engine.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

DEFAULT_GRID = "1,2;3,4"
WINDOW_WIDTH = 2
HEATMAP_SIZE = dict(height=300, width=320, margin=dict(l=20, r=20, t=40, b=20))


def grid_from_link(text: str) -> np.ndarray:
    """(H, W) floats from "1,2;3,4": rows split by ";", cells by ","."""
    return np.array([[float(cell) for cell in row.split(",")] for row in text.split(";")])


def max_pool(grid: np.ndarray, window: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Max pooling with stride 1: (y, dx), y (H-h+1, W-w+1) the windows' maxima and dx
    (H, W) the gradient of sum(y) (upstream 1 everywhere): each window sends its 1 to
    its first winner in row-major order, as PyTorch does."""
    windows = np.lib.stride_tricks.sliding_window_view(grid, window)  # (oh, ow, h, w)
    flat = windows.reshape(*windows.shape[:2], -1)
    winners = flat.argmax(axis=-1)  # (oh, ow), the first maximum of each window
    rows = np.arange(flat.shape[0])[:, None] + winners // window[1]
    columns = np.arange(flat.shape[1])[None, :] + winners % window[1]
    dx = np.zeros_like(grid)
    np.add.at(dx, (rows, columns), 1.0)  # overlapping windows add up
    return flat.max(axis=-1), dx


def heatmap(values: np.ndarray, title: str) -> go.Figure:
    """A matrix-oriented heatmap of (H, W) values with their numbers, row 0 on top."""
    figure = go.Figure(
        go.Heatmap(z=values, texttemplate="%{z}", showscale=False, colorscale="Greys")
    )
    figure.update_layout(title=title, **HEATMAP_SIZE)
    figure.update_yaxes(autorange="reversed")
    return figure


def playground() -> None:
    height = st.sidebar.number_input("Window height", 1, 6, 2, key="floor_window_height")
    grid = grid_from_link(st.query_params.get("x", DEFAULT_GRID))
    window = (min(height, grid.shape[0]), min(WINDOW_WIDTH, grid.shape[1]))
    pooled, dx = max_pool(grid, window)
    left, right = st.columns(2)
    left.plotly_chart(heatmap(grid, "Input x"), key="floor_x")
    right.plotly_chart(heatmap(pooled, "Output y"), key="floor_y")
    left.plotly_chart(heatmap(np.ones_like(pooled), "Upstream dL/dy"), key="floor_dy")
    right.plotly_chart(heatmap(dx, "dL/dx"), key="floor_dx")


def home() -> None:
    st.write("The floor app: open /playground.")


st.navigation(
    [
        st.Page(home, title="Home", url_path="home", default=True),
        st.Page(playground, title="Playground", url_path="playground"),
    ]
).run()
