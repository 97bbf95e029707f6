"""The numbers in the accessibility tree are the engine's (issue 39, item 5), beyond the
Playground's (tests/test_browser_a11y.py): on the Batch page's Per example tab (each
example's map) and Batch result tab (the batch's dL/dK), on an exercise's maps, and on
a class question's map (tests/test_browser_a11y_room.py, the phone that joined), three
cells each are read from the tree, as a screen reader gets them (aria_snapshot of the
map's text twin), and compared with the values NumPy computes here.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, open_page
from playwright.sync_api import expect
from test_batch_model import settings

from teaching.batch.story import build_batch_story
from teaching.exercises.model import make_problem

pytestmark = pytest.mark.browser

DESK = dict(viewport={"width": 1400, "height": 900})
# A twin writes a cell to 6 significant digits or so: half its last place, and a hair.
SHOWN_DIGITS_TOLERANCE = dict(rtol=5e-6, atol=5e-7)
CELL_LINE = re.compile(r'^\s*- cell "([^"]*)"', re.MULTILINE)


def tree_cells(page, name: str) -> list[list[float]]:
    """The map's twin table named `name` (the first such on the page), as the tree
    says it: each row's cells, their leading number read as a float."""
    table = page.get_by_role("table", name=name, exact=True).first
    expect(table).to_have_count(1, timeout=TIMEOUT_MS)
    rows = []
    for row in table.get_by_role("row").all()[1:]:  # under the column headers
        texts = CELL_LINE.findall(row.aria_snapshot())
        rows.append([float(text.split(",")[0].replace("−", "-")) for text in texts])
    return rows


def assert_three_cells(page, name: str, values: np.ndarray, cells) -> None:
    read = tree_cells(page, name)
    assert len(read) == values.shape[0] and len(read[0]) == values.shape[1], (name, read)
    for row, col in cells:
        np.testing.assert_allclose(
            read[row][col], values[row, col], **SHOWN_DIGITS_TOLERANCE, err_msg=f"{name} {row, col}"
        )


def far_corner(values: np.ndarray) -> tuple[int, int]:
    return values.shape[0] - 1, values.shape[1] - 1


@pytest.fixture(scope="module")
def desk_page(context_pages):
    return context_pages("desk", DESK)


@pytest.fixture(scope="module")
def story():
    """The Batch page's default story (its link's defaults: tests/test_batch_model)."""
    return build_batch_story(settings())


def test_the_per_example_maps_in_the_tree_are_the_engines(desk_page, app_url, story):
    """The first stage (the pooling input, kernel 0) of examples #0 and #1: three cells,
    one a winner (a cell whose text adds "winner")."""
    open_page(desk_page, f"{app_url}/batch?tab=examples")
    for n in (0, 1):
        activation = story.trace.activation[n, 0]
        winner = divmod(int(np.argmax(activation)), activation.shape[1])
        name = f"{n}: “{story.labels[n]}”"
        assert_three_cells(desk_page, name, activation, [(0, 0), winner, far_corner(activation)])


def test_the_batch_results_gradient_in_the_tree_is_the_engines(desk_page, app_url, story):
    """dL/dK of each kernel, the mean of the examples' own (mean reduction)."""
    open_page(desk_page, f"{app_url}/batch?tab=result")
    kernels = story.grads.per_example.kernels[:, :, 0].mean(axis=0)  # (F, k, k)
    for feature, gradient in enumerate(kernels):
        name = f"Batch dL/dK (mean): dL/dK, kernel {feature}"
        assert_three_cells(desk_page, name, gradient, [(0, 0), (1, 2), far_corner(gradient)])


def test_an_exercises_maps_in_the_tree_are_the_engines(desk_page, app_url):
    """A dL/dx-at-a-cell problem: x and its dL/dy."""
    problem = make_problem("value", 2, 4, 2)
    open_page(desk_page, f"{app_url}/exercises?kind=value&level=2&seed=4&n=2")
    for name, values in (("x", problem.x), ("dL/dy", problem.grad_output)):
        cells = [(0, 0), (values.shape[0] // 2, values.shape[1] - 1), far_corner(values)]
        assert_three_cells(desk_page, name, values, cells)
