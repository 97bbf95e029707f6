"""Exercise feedback in headless Chromium, as a student gives it: cells clicked on x at
their pixels, a number typed; then what is drawn on x and what the reply says. And each
exercise screen, before and after checking, fits one projector screen in lecture mode."""

import numpy as np
import pytest
from browser import (
    TIMEOUT_MS,
    click_chart_cell,
    exceptions_on,
    open_page,
    screen_fit,
    settle,
)
from playwright.sync_api import expect

from deploy.page_state import FIND_CHART
from teaching.exercises.mistakes_batch import window_winners
from teaching.exercises.model import LEVELS, SET_SIZE, make_problem
from teaching.numbers import fmt

pytestmark = pytest.mark.browser

# The answer marks of the chart titled `prefix`, as Plotly holds them in the page:
# {trace name: [[row, col], ...]} (a line mark's points, rounded to their cell).
ANSWER_MARKS = f"""(prefix) => {{
  const plot = ({FIND_CHART})(prefix);
  if (!plot || !plot.data) return null;
  const found = {{}};
  for (const trace of plot.data) {{
    if (!['your pick', 'right', 'missed', 'extra'].includes(trace.name)) continue;
    const cells = new Set();
    Array.from(trace.x).forEach((x, i) => {{
      if (x !== null) cells.add(JSON.stringify([Math.round(trace.y[i]), Math.round(x)]));
    }});
    found[trace.name] = Array.from(cells, c => JSON.parse(c)).sort();
  }}
  return found;
}}"""


def marks_drawn(page) -> dict:
    return {
        name: sorted(map(tuple, cells)) for name, cells in page.evaluate(ANSWER_MARKS, "x").items()
    }


def picks_caption(page):
    return page.locator("[data-testid=stCaptionContainer]", has_text="Your cells").first


def pick(page, cell, *, plane: str = "x") -> None:
    """Click a cell of x (or of the chart titled `plane`) and wait until the page lists
    it among the picks (or not)."""
    before = picks_caption(page).inner_text()
    click_chart_cell(page, plane, *cell)
    expect(picks_caption(page)).not_to_have_text(before, timeout=TIMEOUT_MS)
    settle(page)


def check(page) -> None:
    page.get_by_role("button", name="Check").click()
    expect(page.locator("[data-testid=stAlertContainer]").first).to_be_visible(timeout=TIMEOUT_MS)
    settle(page)


def test_clicked_cells_are_drawn_as_picks_then_right_missed_and_extra(page, app_url):
    pid = ("cells", 2, 4, 2)
    problem = make_problem(*pid)
    answer = sorted(problem.answer)
    spare = next(c for c in np.ndindex(problem.x.shape) if c not in problem.answer)
    open_page(page, f"{app_url}/exercises?kind=cells&level=2&seed=4&n=2")
    for cell in [*answer[1:], spare]:
        pick(page, cell)
    picks = sorted([*answer[1:], spare])
    assert marks_drawn(page) == {"your pick": picks}
    check(page)
    right = len(answer) - 1
    expect(page.get_by_text(f"Not quite: {right} right, 1 missed, 1 extra.")).to_be_visible()
    page.wait_for_function(
        f"() => {{ const m = ({ANSWER_MARKS})('x'); return m && 'missed' in m; }}",
        timeout=TIMEOUT_MS,
    )
    assert marks_drawn(page) == {
        "right": sorted(answer[1:]),
        "missed": [answer[0]],
        "extra": [spare],
    }
    expect(page.get_by_text("On x, a tick marks each of your", exact=False)).to_be_visible()
    # One more click: x shows the picks again, and the reply about the old ones goes.
    pick(page, answer[0])
    page.wait_for_function(
        f"() => {{ const m = ({ANSWER_MARKS})('x'); return m && 'your pick' in m; }}",
        timeout=TIMEOUT_MS,
    )
    assert marks_drawn(page) == {"your pick": sorted(problem.answer | {spare})}
    expect(page.get_by_text("Not quite:", exact=False)).to_have_count(0)
    assert exceptions_on(page) == []


def test_a_typed_number_gets_a_reply_about_it(page, app_url):
    problem = make_problem("value", 3, 4, 2)
    open_page(page, f"{app_url}/exercises?kind=value&level=3&seed=4&n=2")
    box = page.get_by_label("Your answer")
    box.click()
    page.keyboard.type(f"{-problem.answer:g}")
    page.keyboard.press("Enter")  # Enter checks
    r, c = problem.cell
    said = (
        f"Your answer is −{fmt(problem.answer)}, but dL/dx at ({r}, {c}) is {fmt(problem.answer)}."
    )
    expect(page.get_by_text(said, exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_text("is what you get if you flip the sign", exact=False)).to_be_visible()
    assert exceptions_on(page) == []


# -- lecture mode: one screen each ---------------------------------------------------------


def answer_wrongly(page, pid) -> None:
    """A wrong answer, as a student gives it: cells clicked (on a batch window's
    positions map, example #0's winners: the named mistake, whose reply is the
    longest), or a number typed."""
    problem = make_problem(*pid)
    if problem.picks_cells:  # on x, or a batch window's positions map
        answer = sorted(problem.answer)
        spare = next(c for c in np.ndindex(problem.pick_plane.shape) if c not in problem.answer)
        picks = [*answer[1:], spare]
        if pid[0] == "batch":
            picks = sorted(window_winners(problem)[0])
            assert frozenset(picks) != problem.answer
        for cell in picks:
            pick(page, cell, plane="x" if pid[0] == "cells" else "positions")
        check(page)
        return
    if pid[0] == "size":
        rows, cols = problem.answer
        for label, value in (("Output height", rows + 1), ("Output width", cols)):
            page.get_by_label(label).fill(str(value))
            page.get_by_label(label).press("Tab")
            settle(page)
        check(page)
        return
    box = page.get_by_label("Your answer")
    box.click()
    page.keyboard.type(str(problem.answer + 1) if problem.asks_count else "1234.5")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=stAlertContainer]").first).to_be_visible(timeout=TIMEOUT_MS)
    settle(page)


LECTURE_PROBLEMS = [
    ("cells", 2, 4, 2),
    ("cells", 3, 4, 2),  # a 5x5 x with its padding: 7x7 cells
    ("value", 3, 4, 2),
    ("value", 5, 4, 1),  # average pooling, ceil mode
    ("batch", 1, 1, 3),  # four 1x1 maps of dL_n/dy, each narrower than its title
    ("batch", 3, 4, 2),
    ("batch", 4, 4, 5),  # ties: 4 examples of 5x5, the mean gradient a cell receives
    # Each batch question at the top level, its largest (test_the_batch_lecture_problems):
    ("batch", 5, 5, 6),  # a window's cells, picked on its positions map
    ("batch", 5, 5, 8),  # how many positions
    ("batch", 5, 5, 10),  # a shared bias's dL/db
    ("batch", 5, 4, 7),  # a cell's mean gradient
    ("size", 5, 4, 1),
]
BATCH_VARIANTS = {(5, 5, 6): "window", (5, 5, 8): "count", (5, 5, 10): "bias", (5, 4, 7): "mean"}


def batch_variant(problem) -> str:
    if problem.asks_count:
        return "count"
    if problem.picks_cells:
        return "window"
    return "mean" if problem.asks_mean else "bias"


def test_the_batch_lecture_problems_are_each_variant_at_its_largest():
    """Pure: the batch links above ask each of the four questions, with the most
    examples and the largest x that question has at the top level (seeds 0-5)."""
    top = max(LEVELS)
    assert sorted(BATCH_VARIANTS.values()) == ["bias", "count", "mean", "window"]
    largest = {}
    for seed in range(6):
        for number in range(1, SET_SIZE + 1):
            problem = make_problem("batch", top, seed, number)
            size = problem.x.size + problem.grad_output.size
            variant = batch_variant(problem)
            largest[variant] = max(largest.get(variant, 0), size)
    for (level, seed, number), variant in BATCH_VARIANTS.items():
        assert ("batch", level, seed, number) in LECTURE_PROBLEMS
        problem = make_problem("batch", level, seed, number)
        assert level == top and batch_variant(problem) == variant
        assert problem.x.size + problem.grad_output.size == largest[variant], variant


@pytest.mark.parametrize("pid", LECTURE_PROBLEMS, ids=lambda pid: "-".join(map(str, pid)))
def test_each_exercise_screen_fits_a_projector_before_and_after_checking(
    projector_page, app_url, pid
):
    page = projector_page
    kind, level, seed, number = pid
    open_page(
        page, f"{app_url}/exercises?kind={kind}&level={level}&seed={seed}&n={number}&lecture=1"
    )
    before = screen_fit(page)
    assert before["screens"] <= 1.05 and before["hidden"] == [], before
    answer_wrongly(page, pid)
    after = screen_fit(page)
    assert after["screens"] <= 1.05 and after["hidden"] == [], after
    # The reply is on the screen, not below it.
    alert = page.locator("[data-testid=stAlertContainer]").first.bounding_box()
    assert alert["y"] + alert["height"] <= page.viewport_size["height"]
    assert exceptions_on(page) == []
