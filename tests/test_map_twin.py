"""A map's text twin (teaching/map_twin.py, ui/shared/twin.py): its summary sentence says
the shape, the smallest and largest value and the marks as they are; the figure builder
leaves the true values and its marks in it; the HTML escapes every text."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from pooling.config import PoolConfig
from teaching import map_twin as map_twin_module
from teaching.map_twin import CURRENT, IN_WINDOW, WINNER, MapTwin, map_twin, twin_frames
from teaching.numbers import fmt
from ui.figures.grid import GridOptions, Overlay, grid_figure
from ui.shared.twin import figure_twins, twin_html

X = np.array([[1.0, 3.0, 0.0], [2.0, 0.5, -4.0]])


def twin(marks: dict) -> MapTwin:
    return map_twin("x", X, cells=np.vectorize(str)(X), marks=marks)


@pytest.mark.parametrize(
    ("marks", "said"),
    [
        ({}, "x: 2 rows by 3 columns, from −4 to 3."),
        (
            {IN_WINDOW: [(0, 0), (0, 1), (1, 0), (1, 1)], WINNER: [(0, 1)]},
            "x: 2 rows by 3 columns, from −4 to 3; in the current window: rows 0 to 1, "
            "columns 0 to 1; winner: row 0, column 1.",
        ),
        (
            {WINNER: [(1, 2), (0, 0)]},
            "x: 2 rows by 3 columns, from −4 to 3; winner: row 0, column 0 and row 1, column 2.",
        ),
        (
            {WINNER: [(1, 2), (1, 2)]},  # a cell listed twice is said once
            "x: 2 rows by 3 columns, from −4 to 3; winner: row 1, column 2.",
        ),
        (
            {IN_WINDOW: [(-1, 0), (0, 0)]},  # a window reaching into the padding
            "x: 2 rows by 3 columns, from −4 to 3; in the current window: row 0, column 0 "
            "and 1 padding cell.",
        ),
        (
            {WINNER: [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]},
            "x: 2 rows by 3 columns, from −4 to 3; winner: 5 cells, marked in the table.",
        ),
    ],
    ids=["plain", "window-and-winner", "two-winners", "twice", "padding", "many"],
)
def test_the_summary_says_shape_range_and_marks(marks, said):
    assert twin(marks).summary() == said


def test_a_map_of_one_value_says_so_and_one_without_numbers_says_no_range():
    assert map_twin("y", np.full((1, 1), 3.0), cells=[["3"]], marks={}).summary() == (
        "y: 1 row by 1 column, every value 3."
    )
    assert map_twin("z", np.full((1, 2), np.nan), cells=[["NaN", "NaN"]], marks={}).summary() == (
        "z: 1 row by 2 columns."
    )


def test_a_cell_says_its_number_then_its_marks():
    marked = twin({IN_WINDOW: [(0, 1)], WINNER: [(0, 1)]})
    assert marked.cell_text(0, 1) == "3.0, in the current window, winner"
    assert marked.cell_text(1, 2) == "-4.0"


def test_the_grid_figure_carries_the_true_values_and_its_marks():
    """Gradient numbers too small for the cells are written in units of 10^-4 in the
    picture; the twin says the values themselves."""
    values = np.array([[1e-4, -2e-4], [3e-4, 0.0]])
    figure = grid_figure(
        values,
        title="dL/dx",
        options=GridOptions(kind="gradient", overlay=Overlay(window=((0, 0),), marks=((1, 0),))),
    )
    (found,) = figure_twins(figure)
    assert figure.layout.title.text.startswith("dL/dx (×10")
    assert found.name == "dL/dx"
    assert [float(v.replace("−", "-")) for row in found.cells for v in row] == [
        1e-4,
        -2e-4,
        3e-4,
        0.0,
    ]
    assert (found.low, found.high) == (-2e-4, 3e-4)
    assert found.marks == {IN_WINDOW: ((0, 0),), WINNER: ((1, 0),)}
    assert MapTwin.from_meta(found.as_meta()) == found


def test_the_html_escapes_titles_and_cells():
    hostile = map_twin('<img src=x onerror="alert(1)">', X[:1, :1], cells=[["<b>1</b>"]], marks={})
    html = twin_html(hostile)
    assert "<img" not in html and "<b>" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert '<th scope="col">column 0</th>' in html and '<th scope="row">row 0</th>' in html


def test_a_checked_answer_and_a_matrix_say_their_marks_and_headers():
    from ui.figures.answer_marks import AnswerMarks, answer_map
    from ui.figures.matrix import jacobian_figure

    checked = AnswerMarks(right=((0, 1),), missed=((1, 0),), extra=((0, 0),))
    (answer,) = figure_twins(
        answer_map(X, title="x", overlay=Overlay(), marks=checked, width_px=400)
    )
    assert answer.summary().endswith(
        "right pick: row 0, column 1; missed: row 1, column 0; extra pick: row 0, column 0."
    )
    assert answer.cell_text(1, 0) == "2, missed"
    (matrix,) = figure_twins(
        jacobian_figure(np.array([[0.0, 1.0]]), out_shape=(1, 1), in_shape=(1, 2), title="J")
    )
    assert (matrix.row_header(0), matrix.column_header(1), matrix.cell_text(0, 1)) == (
        "y0,0",
        "x0,1",
        "1",
    )


def frames_parts(data: dict) -> list[list[dict]]:
    """Every frame's twins' parts, rebuilt from twin_frames' first frame and changes as
    the browser rebuilds them (ui/shared/frames.js, twinFrames)."""
    now, frames = data["start"], []
    for changes in data["changes"]:
        now = [{**twin, "cells": list(twin["cells"])} for twin in now]
        for index, what, value in changes:
            if isinstance(what, int):
                now[index]["cells"][what] = value
            else:
                now[index][what] = value
        frames.append(now)
    return frames


def test_a_charts_twins_over_frames_are_its_first_frame_and_each_frames_changes():
    frames = [
        [twin({IN_WINDOW: [(0, 0), (0, 1)], WINNER: [(0, 1)]}), twin({})],
        [twin({IN_WINDOW: [(0, 1), (0, 2)], WINNER: [(0, 1)]}), twin({})],
        [twin({IN_WINDOW: [(1, 1), (1, 2)], WINNER: [(1, 1)]}), twin({WINNER: [(0, 0)]})],
    ]
    data = twin_frames(frames)
    assert data["changes"][0] == []
    # Frame 1: only the window moved (the numbers and the winner stay).
    assert data["changes"][1] == [[0, "marks", [[IN_WINDOW, [0, 1, 0, 2]], [WINNER, [0, 1]]]]]
    assert frames_parts(data) == [[t.parts() for t in twins] for twins in frames]
    only_names = twin_frames(frames, sent=("name", "span"))
    assert only_names["changes"] == [[], [], []]
    with pytest.raises(ValueError, match="as many maps"):
        twin_frames([[twin({})], []])
    with pytest.raises(ValueError, match="keeps its shape"):
        twin_frames([[twin({})], [map_twin("x", X[:1], cells=[["1", "2", "3"]], marks={})]])


def the_browsers(chart: dict) -> list[list[dict]]:
    """A step map's twins in every frame as the browser has them (frames.js, twinsAt):
    the names and spans sent, the window, the winners and the numbers taken from the
    frame's outline, marks and cells."""
    taken = chart["twins"]["taken"]
    numbers = list(chart["twins"]["start"][0]["cells"])
    frames = []
    for frame, (twin_now,) in enumerate(frames_parts(chart["twins"])):
        marks = [
            [taken[part], chart[part]["cells"][frame]]
            for part in ("outline", "marks")
            if part in chart and chart[part]["cells"][frame]
        ]
        if taken["cells"]:
            for index, _, _, hover in chart["cells"]["changes"][frame]:
                numbers[index] = hover
        frames.append([{**twin_now, "cells": list(numbers), "marks": marks}])
    return frames


@pytest.mark.parametrize(
    ("mode", "kernel", "stride", "padding"),
    [("max", 3, 1, 0), ("max", 2, 2, 1), ("avg", 3, 2, 1)],
)
def test_every_frame_the_browser_draws_has_what_the_servers_figure_of_that_step_says(
    mode, kernel, stride, padding
):
    """The Step through tab's x, dL/dx and y: the twins' parts each frame has in the
    browser are, frame by frame, those of the figures the server builds at that step
    (as a rerun at that step would put on the page)."""
    from teaching.playground.model import LayerSettings, build_layer_story
    from ui.playground.step_frames import frames_data, step_maps
    from ui.playground.views_step import pointer_figure, step_figures

    x = np.random.default_rng(7).integers(-5, 9, size=(5, 6)).astype(float)
    x[0, :2] = 8.0  # a tie in the first window
    config = PoolConfig(mode, kernel, stride=stride, padding=padding)
    story = build_layer_story(LayerSettings(x, config, "random", seed=3))
    maps = step_maps(story)
    data = frames_data(story, maps, keys={"x": "x", "gx": "gx", "y": "y"}, lecture=False)
    played = {chart["key"]: the_browsers(chart) for chart in data["charts"]}
    for step in range(story.windows):
        x_figure, gx_figure = step_figures(story, maps, step, lecture=False)
        built = {"x": x_figure, "gx": gx_figure, "y": pointer_figure(story, maps.y, step)}
        for key, figure in built.items():
            assert played[key][step] == [t.parts() for t in figure_twins(figure)], (key, step)


@pytest.mark.parametrize(("a", "b"), [(1.0, 3.0), (3.0, 3.0), (5.5, 3.0), (-2.5, 0.0)])
def test_the_home_curves_twin_says_where_a_is_and_what_y_is_there(a, b):
    """Its rows: the curve's two ends, its corner at a = b, and a now (marked), each
    with y = max(a, b) as the engine computes it."""
    from ui.figures.curves import max_curve_figure

    (found,) = figure_twins(max_curve_figure(a, b))
    y = pooling_max(a, b)
    assert found.summary() == (
        f"y = max(a, {fmt(b)}) as a moves: y stays at {fmt(b)} while a is less than {fmt(b)} "
        f"(slope 0: a loses), then rises with a (slope 1: a wins); a is now {fmt(a)}, so "
        f"y is {fmt(y)}."
    )
    rows = found.headers[0]
    points = [float(name.removeprefix("a = ").replace("−", "-")) for name in rows]
    assert points == sorted(points) and b in points and a in points
    assert [cell for (cell,) in found.cells] == [fmt(pooling_max(p, b)) for p in points]
    assert found.marks == {CURRENT: ((points.index(a), 0),)}


def pooling_max(a: float, b: float) -> float:
    """y = max(a, b) through the engine: max pooling of [[a, b]] by one 1x2 window."""
    import pooling

    return float(pooling.forward(np.array([[a, b]]), PoolConfig("max", (1, 2))).output[0, 0])


@pytest.mark.parametrize("grow", [True, False], ids=["growing", "fixed"])
def test_a_curves_summaries_over_its_frames_are_its_twins_at_each(grow):
    """curve_abouts, one pass, against curve_twin frame by frame: a loss that diverges
    (inf, then NaN) and one that starts NaN."""
    from teaching.map_twin import curve_abouts, curve_twin

    for ys in ([2.5, 1.0, 1.0, np.inf, np.nan], [np.nan, 3.0, 1.5]):
        xs = list(range(len(ys)))
        titles = ("step", "loss")
        abouts = curve_abouts("Loss", xs=xs, ys=np.array(ys), titles=titles, grow=grow)
        for frame in range(len(ys)):
            shown = slice(0, frame + 1) if grow else slice(None)
            twin = curve_twin(
                "Loss", xs=xs[shown], ys=np.array(ys)[shown], titles=titles, current=frame
            )
            assert abouts[frame] == twin.summary(), (ys, frame)


def _fragments(words) -> list[str]:
    """The literal text of TWIN_WORDS' templates (placeholders cut out) with a letter in
    it and at least 8 characters: the sentences' own words."""
    templates = [t for w in words.values() for t in (w if isinstance(w, list) else [w])]
    pieces = [p for t in templates if isinstance(t, str) for p in re.split(r"\{\w+\}", t)]
    return [p for p in pieces if len(p.strip()) >= 8 and re.search(r"[a-z]", p)]


def test_the_twin_words_have_one_home_and_travel_with_the_parts(monkeypatch):
    """MapTwin says its summary from TWIN_WORDS (a word changed there changes it) and
    sends them with its parts; the browser's frame player holds none of them."""
    twin = map_twin(
        "x", np.arange(6).reshape(2, 3), cells=np.full((2, 3), "1"), marks={"m": [(0, 0), (9, 9)]}
    )
    assert twin.parts()["words"] is map_twin_module.TWIN_WORDS
    assert (
        twin.summary()
        == "x: 2 rows by 3 columns, from 0 to 5; m: row 0, column 0 and 1 padding cell."
    )
    monkeypatch.setitem(map_twin_module.TWIN_WORDS, "padding", ["{n} cell of padding", "{n} cells"])
    assert twin.summary().endswith("and 1 cell of padding.")
    frames_js = (Path(__file__).parents[1] / "ui" / "shared" / "frames.js").read_text()
    fragments = _fragments(map_twin_module.TWIN_WORDS)
    assert " cells, marked in the table" in fragments
    assert [f for f in fragments if f in frames_js] == []


def _routing_summary(x, config: PoolConfig, out_cell, upstream: float) -> tuple[str, np.ndarray]:
    """The routing figure's "sent to x" summary when dL/dy is `upstream` at out_cell
    and 0 elsewhere, and what the engine sends x then (pooling.backward)."""
    from pooling import backward, forward
    from ui.figures.routing import routing_twins

    result = forward(x, config)
    grad_output = np.zeros_like(result.output)
    grad_output[out_cell] = upstream
    sent = backward(result, grad_output)
    twins = routing_twins(grad_output, sent, out_cell=out_cell, window=(), title="Routing")
    return MapTwin.from_meta(twins[1]).summary(), sent


def _named(sent: np.ndarray) -> str:
    """Each cell the engine sends a nonzero gradient, as the summary names a lone one."""
    return "; ".join(f"row {r}, column {c} gets {fmt(sent[r, c])}" for r, c in np.argwhere(sent))


TIED = np.array(
    [[5.0, 5.0, 1.0, 0.0], [5.0, 2.0, 0.0, 3.0], [1.0, 0.0, 7.0, 7.0], [2.0, 4.0, 7.0, 7.0]]
)


@pytest.mark.parametrize(
    ("config", "out_cell", "upstream"),
    [
        (PoolConfig("max", 2), (0, 0), 1.0),  # three tied 5s: PyTorch sends to the first
        (PoolConfig("max", 2), (1, 1), -2.5),  # four tied 7s, a negative gradient
        (PoolConfig("max", 3, stride=2, padding=1), (0, 0), 4.0),  # a window in the padding
    ],
    ids=["max-ties", "max-negative", "max-padding"],
)
def test_the_routing_summary_names_the_one_cell_max_sends_to(config, out_cell, upstream):
    """Max pooling sends a window's gradient to one cell (PyTorch: the first of tied
    maxima, never a padding cell): the summary names that cell and its amount, and says
    every other cell gets 0, both computed from the engine."""
    said, sent = _routing_summary(TIED, config, out_cell, upstream)
    assert np.count_nonzero(sent) == 1 and sent.sum() == upstream
    assert said.endswith(f"; {_named(sent)}; every other cell gets 0.")


def test_the_routing_summary_says_an_average_windows_block_and_its_share():
    """An average window 3x3 at the corner of a padded x: its four real cells get a
    ninth each (the padding's five ninths go nowhere): said as one block and one share."""
    config = PoolConfig("avg", 3, stride=2, padding=1)
    said, sent = _routing_summary(TIED, config, (0, 0), 1.8)
    assert np.argwhere(sent).tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert np.allclose(sent[:2, :2], 1.8 / 9)
    assert said.endswith(
        f"; rows 0 to 1, columns 0 to 1 get {fmt(1.8 / 9)} each; every other cell gets 0."
    )


def test_a_zero_upstream_gradient_is_said_once_as_every_value_0():
    """dL/dy 0 sends 0 everywhere: the span says "every value 0", and no cell is named."""
    said, sent = _routing_summary(TIED, PoolConfig("max", 2), (0, 1), 0.0)
    assert not sent.any()
    assert said == "Routing: sent to x: 4 rows by 4 columns, every value 0."


def test_a_map_every_cell_of_which_gets_one_amount_is_said_by_its_span_alone():
    """An average 2x2 layer with stride 2 and dL/dy all 1 sends each x cell a quarter:
    the span says "every value 0.25", and the cells are not named again."""
    from pooling import backward, forward

    result = forward(TIED, PoolConfig("avg", 2))
    grad_x = backward(result, np.ones_like(result.output))
    assert np.all(grad_x == 0.25)
    twin = map_twin("dL/dx", grad_x, cells=np.vectorize(fmt)(grad_x), marks={}, receiving=True)
    assert twin.summary() == "dL/dx: 4 rows by 4 columns, every value 0.25."


def test_the_dx_summary_sums_what_several_windows_send_and_counts_many_cells():
    """dL/dx of overlapping windows (stride 1): a cell winning four max windows gets
    their sum; an average layer reaching all 16 cells is counted, its largest named;
    both computed from the engine's backward pass."""
    from pooling import backward, forward

    x = np.zeros((3, 3))
    x[1, 1] = 9.0
    result = forward(x, PoolConfig("max", 2, stride=1))
    grad_x = backward(result, np.ones_like(result.output))
    twin = map_twin("dL/dx", grad_x, cells=np.vectorize(fmt)(grad_x), marks={}, receiving=True)
    assert grad_x[1, 1] == 4.0 and np.count_nonzero(grad_x) == 1
    assert twin.summary() == "dL/dx: 3 rows by 3 columns, from 0 to 4; " + _named(grad_x) + (
        "; every other cell gets 0."
    )

    result = forward(TIED, PoolConfig("avg", 2, stride=1))
    upstream = np.arange(9.0).reshape(3, 3) - 4.0
    grad_x = backward(result, upstream)
    twin = map_twin("dL/dx", grad_x, cells=np.vectorize(fmt)(grad_x), marks={}, receiving=True)
    # +2 and −2 are as large: both named, the positive first.
    largest = sorted(
        (-grad_x[r, c], r, c) for r, c in np.argwhere(np.abs(grad_x) == np.abs(grad_x).max())
    )
    assert len(largest) == 2
    named = " and ".join(f"{fmt(-value)} at row {r}, column {c}" for value, r, c in largest)
    n = np.count_nonzero(grad_x)
    assert twin.summary().endswith(
        f"; {n} cells get a nonzero gradient, the largest in size {named}"
        + ("." if n == grad_x.size else "; every other cell gets 0.")
    )
