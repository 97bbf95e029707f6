"""A map's text twin (teaching/map_twin.py, ui/shared/twin.py): its summary sentence says
the shape, the smallest and largest value and the marks as they are; the figure builder
leaves the true values and its marks in it; the HTML escapes every text."""

from __future__ import annotations

import numpy as np
import pytest

from teaching.map_twin import IN_WINDOW, WINNER, MapTwin, map_twin
from ui.figures.grid import Overlay, grid_figure
from ui.shared.twin import figure_twins, twin_html

X = np.array([[1.0, 3.0, 0.0], [2.0, 0.5, -4.0]])


def twin(marks: dict) -> MapTwin:
    return map_twin("x", X, np.vectorize(str)(X), marks)


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
            {IN_WINDOW: [(-1, 0), (0, 0)]},  # a window reaching into the padding
            "x: 2 rows by 3 columns, from −4 to 3; in the current window: row 0, column 0 "
            "and 1 padding cell.",
        ),
        (
            {WINNER: [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]},
            "x: 2 rows by 3 columns, from −4 to 3; winner: 5 cells, marked in the table.",
        ),
    ],
    ids=["plain", "window-and-winner", "two-winners", "padding", "many"],
)
def test_the_summary_says_shape_range_and_marks(marks, said):
    assert twin(marks).summary() == said


def test_a_map_of_one_value_says_so_and_one_without_numbers_says_no_range():
    assert map_twin("y", np.full((1, 1), 3.0), [["3"]], {}).summary() == (
        "y: 1 row by 1 column, every value 3."
    )
    assert map_twin("z", np.full((1, 2), np.nan), [["NaN", "NaN"]], {}).summary() == (
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
        values, title="dL/dx", kind="gradient", overlay=Overlay(window=((0, 0),), marks=((1, 0),))
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
    hostile = map_twin('<img src=x onerror="alert(1)">', X[:1, :1], [["<b>1</b>"]], {})
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
