"""Figure builders, tested on the data they hand to Plotly."""

import numpy as np
import plotly.graph_objects as go

from pooling import PoolConfig
from pooling.explain import shares
from ui import figures
from ui.home import max_curve_figure
from ui.numbers import fmt


def heatmap(figure, name):
    return next(t for t in figure.data if isinstance(t, go.Heatmap) and t.name == name)


def test_grid_is_matrix_oriented_square_and_annotated():
    values = np.array([[1.0, 2.5, -3.0], [0.125, 1 / 3, 7.0]])
    figure = figures.grid_figure(values, "x")
    cells = heatmap(figure, "value")
    np.testing.assert_array_equal(cells.z, values)
    assert list(cells.y) == [0, 1] and list(cells.x) == [0, 1, 2]
    low, high = figure.layout.yaxis.range
    assert low > high  # row 0 on top
    assert figure.layout.yaxis.scaleanchor == "x" and figure.layout.yaxis.scaleratio == 1
    assert cells.text.tolist() == [["1", "2.5", "−3"], ["0.125", "0.333", "7"]]
    assert cells.texttemplate == "%{text}"


def test_gradient_scale_is_centred_on_zero():
    figure = figures.grid_figure(np.array([[0.5, -2.0], [1.0, 0.0]]), "g", "gradient")
    cells = heatmap(figure, "gradient")
    assert cells.zmin == -2.0 and cells.zmax == 2.0
    assert figures.symmetric_range(np.zeros((2, 2))) == 1.0  # all zeros: a usable range


def test_padding_window_and_winners_are_drawn():
    overlay = figures.Overlay(window=(-1, -1, 0, 0), marks=[(1, 2)], padding=(1, 1), pad_label="−∞")
    figure = figures.grid_figure(np.arange(6.0).reshape(2, 3), "x", overlay=overlay)
    padding = heatmap(figure, "padding")
    assert padding.z.shape == (4, 5)
    assert np.isnan(padding.z[1:3, 1:4]).all() and not np.isnan(padding.z[0]).any()
    assert padding.text[0, 0] == "−∞" and padding.text[1, 1] == ""
    ring, outline = figure.layout.shapes
    assert (outline.x0, outline.x1, outline.y0, outline.y1) == (-1.5, 0.5, -1.5, 0.5)
    assert ring.type == "circle" and (ring.x0 + ring.x1) / 2 == 2 and (ring.y0 + ring.y1) / 2 == 1
    assert figure.layout.xaxis.range == (-1.5, 3.5)


def test_click_targets_sit_on_every_cell_centre():
    figure = figures.with_click_targets(figures.grid_figure(np.zeros((2, 3)), "y"), (2, 3))
    targets = figure.data[-1]
    assert list(zip(targets.y, targets.x, strict=True)) == [
        (r, c) for r in range(2) for c in range(3)
    ]
    assert targets.marker.opacity == 0


def test_small_multiples_tile_every_map_on_one_colour_scale():
    maps = [np.array([[1.0, -4.0]]), np.array([[2.0, 0.5]]), np.array([[0.0, 3.0]])]
    figure = figures.small_multiples(maps, ["a", "b", "c"], columns=2, marks=[[(0, 1)], [], []])
    (cells,) = [t for t in figure.data if isinstance(t, go.Heatmap)]
    assert cells.zmin == -4.0 and cells.zmax == 4.0
    # Tiles are 2 wide plus a gap column, 1 tall plus a title row: map i sits at
    # row (i // 2) * 2 + 1, column (i % 2) * 3.
    np.testing.assert_array_equal(cells.z[1, 0:2], maps[0][0])
    np.testing.assert_array_equal(cells.z[1, 3:5], maps[1][0])
    np.testing.assert_array_equal(cells.z[3, 0:2], maps[2][0])
    assert np.isnan(cells.z[0]).all() and np.isnan(cells.z[:, 2]).all()  # title row, gap
    assert cells.text[1, 1] == "−4"
    titles = next(t for t in figure.data if t.name == "titles")
    assert list(titles.text) == ["a", "b", "c"] and list(titles.y) == [0, 0, 2]
    rings = next(t for t in figure.data if t.name == "winner")
    assert (rings.x[0], rings.y[0]) == (1, 1)
    assert figure.layout.yaxis.range[0] > figure.layout.yaxis.range[1]


def test_routing_draws_one_arrow_per_share():
    x = np.array([[1.0, 3.0, 0.0], [2.0, 0.5, 4.0]])
    config = PoolConfig("max", (2, 2), stride=1)
    share_maps = shares(x, config)
    figure = figures.routing_figure(np.array([[3.0, 4.0]]), x, share_maps, selected=(0, 1))
    others, chosen = (t for t in figure.data if isinstance(t, go.Scatter))
    assert chosen.line.color == figures.ROUTE_COLOUR
    # Segments are (start, end, gap) triples; y[0, 0] sends to x[0, 1], y[0, 1] to x[1, 2].
    x_left = 1 + 1.5 + 1
    assert list(others.x) == [0.45, x_left + 1 - 0.42, None]
    assert list(chosen.x) == [1.45, x_left + 2 - 0.42, None] and chosen.y[1] == 1
    assert len(others.x) // 3 + len(chosen.x) // 3 == int((share_maps != 0).sum())


def test_jacobian_figure_holds_the_matrix():
    matrix = np.array([[0.0, 1.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25]])
    figure = figures.jacobian_figure(matrix, (1, 2), (2, 2))
    cells = figure.data[0]
    np.testing.assert_array_equal(cells.z, matrix)
    assert list(cells.y) == ["y0,0", "y0,1"] and list(cells.x)[1] == "x0,1"
    assert cells.text[1, 0] == fmt(0.25)


def test_max_curve_is_flat_then_slope_one():
    figure = max_curve_figure(1.0, 3.0)
    curve = figure.data[0]
    slopes = np.diff(curve.y) / np.diff(curve.x)
    assert set(np.round(slopes, 9)) <= {0.0, 1.0}
    assert tuple(figure.data[1].x) == (1.0,) and tuple(figure.data[1].y) == (3.0,)


def test_size_formula_fills_in_the_numbers():
    from pooling import PoolConfig
    from ui.text import size_formula

    height, width = size_formula(PoolConfig("max", 2, stride=3, padding=1, ceil_mode=True), 4, 5)
    assert r"\frac{4 + 2\cdot1 - 1\cdot(2-1) - 1}{3}" in height
    assert "past the padding" in height and height.endswith(r"3 - 1 = 2\end{aligned}")
    assert size_formula(PoolConfig("avg", output_size=(2, 3)), 5, 5)[1].count("3") == 1
