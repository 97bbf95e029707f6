"""The routing figure: where one dL/dy cell sends its gradient, along the gutters, with
every number written and no arrow head over one."""

import numpy as np
import pytest

from pooling import PoolConfig
from pooling.explain import shares
from ui.figures.labels import label_px, needed_cell_px
from ui.figures.routing import arrow_head, routing_figure
from ui.figures.sizes import snug_cell
from ui.figures.style import ARROW_CLEAR_PX, ARROW_PX, CELL_FONT_PX, CELL_PX, MIN_CELL_FONT_PX


def trace(figure, name):
    return next(t for t in figure.data if t.name == name)


def test_routing_follows_the_gutters_and_never_crosses_a_number():
    x = np.array([[1.0, 3.0, 0.0], [2.0, 0.5, 4.0]])
    config = PoolConfig("avg", (2, 2), stride=1)
    share_maps = shares(x, config)
    grad_output = np.array([[2.0, -1.0]])
    sent = share_maps[0, 1] * grad_output[0, 1]
    figure = routing_figure(
        grad_output,
        sent,
        out_cell=(0, 1),
        window=((0, 1), (0, 2), (1, 1), (1, 2)),
        title="Routing",
    )
    assert trace(figure, "dL/dy").z.tolist() == [[2.0, -1.0]]  # gradients, not y values
    received = trace(figure, "sent")
    assert np.nansum(received.z) == pytest.approx(-1.0)
    routes = trace(figure, "routes")
    points = [(x_, y_) for x_, y_ in zip(routes.x, routes.y, strict=True) if x_ is not None]
    # Every point lies on a gutter (a half-integer) in x or in y, or is an arrow's end
    # in the top half of a cell, above the number at its centre (arrow_head: how far).
    for px, py in points:
        on_gutter = (px * 2) % 2 == 1 or (py * 2) % 2 == 1
        arrow_end = 0.5 < py % 1 < 1
        assert on_gutter or arrow_end, (px, py)
    assert len(trace(figure, "arrow heads").x) == 4  # average: all four cells receive
    assert trace(figure, "dL/dy").text.tolist() == [["2", "−1"]]
    assert received.text.tolist() == [["", "−0.25", "−0.25"], ["", "−0.25", "−0.25"]]


@pytest.mark.parametrize("font_px", [MIN_CELL_FONT_PX, CELL_FONT_PX])
def test_an_arrow_head_hangs_from_the_top_edge_and_stops_short_of_the_digits(font_px):
    """Every cell a grown map may draw, from the snug cell (a phone's) of the smallest
    cell a one-digit number grows to, up to twice the largest: the triangle (Plotly's
    "triangle-down" of size s spans s/4 over its point to s/2 under it) starts at the
    cell's top edge and its tip stays clear of the digits' top (the baseline 0.35 em
    under the cell's middle, digits 0.73 em tall: a stricter measure than the
    figure's own)."""
    smallest = snug_cell(np.ceil(needed_cell_px(["0"], font_px)), label_px("0", font_px))
    digits_top_px = (0.35 - 0.73) * font_px  # from the cell's middle, down positive
    for cell_px in np.arange(smallest, 2 * CELL_PX, 0.5):
        size, head = arrow_head(cell_px, font_px)
        point_px = head * cell_px
        assert 4 <= size <= ARROW_PX, (cell_px, size)
        assert point_px - size / 4 == pytest.approx(-cell_px / 2)  # the top edge
        assert point_px + size / 2 <= digits_top_px - ARROW_CLEAR_PX / 2, (cell_px, size)


def test_routing_on_a_large_grid_still_writes_every_number():
    sent = np.zeros((16, 16))
    sent[4:7, 4:7] = 1 / 9
    figure = routing_figure(
        np.full((14, 14), 1.0),
        sent,
        out_cell=(4, 4),
        window=tuple((r, c) for r in range(4, 7) for c in range(4, 7)),
        title="Routing",
    )
    received = trace(figure, "sent")
    assert received.texttemplate == "%{text}" and trace(figure, "dL/dy").texttemplate
    assert (received.text != "").sum() == 9 and received.textfont.size >= 12
