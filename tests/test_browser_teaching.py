"""Lecture mode, the lesson and the exercises in headless Chromium: what a lecturer and
a student do (a lecture link on a projector, arrow keys, clicks on a map's cells)."""

import numpy as np
import pytest
from browser import (
    TIMEOUT_MS,
    chart_values,
    click_chart_cell,
    exceptions_on,
    expect_link,
    open_page,
)
from playwright.sync_api import expect

from teaching.exercises.model import make_problem

pytestmark = pytest.mark.browser

GRID = "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8"
# Rendered font size of the numbers in a chart's cells, in CSS px.
CELL_FONT_PX = """(prefix) => {
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const title = plot.querySelector('.gtitle');
    if (!title || !title.textContent.startsWith(prefix)) continue;
    const texts = plot.querySelectorAll('.heatmaplayer text, g.textpoint text, text.textpoint');
    const sizes = Array.from(texts, t => parseFloat(getComputedStyle(t).fontSize));
    return sizes.length ? Math.min(...sizes) : null;
  }
  return null;
}"""


@pytest.fixture
def projector(browser):
    context = browser.new_context(viewport={"width": 853, "height": 480}, device_scale_factor=1.5)
    page = context.new_page()
    yield page
    context.close()


def test_a_lecture_link_on_a_projector_folds_the_menu_and_writes_18_px_numbers(projector, app_url):
    page = projector
    open_page(page, f"{app_url}/playground?lecture=1&tab=step&kh=3&kw=3&sh=1&sw=1&x={GRID}")
    expect(page.locator("[data-testid='stSidebar']")).to_have_attribute(
        "data-collapsed", "true", timeout=TIMEOUT_MS
    )
    chart_values(page, "x: the window")
    page.wait_for_function(f"() => ({CELL_FONT_PX})('x: the window') !== null", timeout=TIMEOUT_MS)
    assert page.evaluate(CELL_FONT_PX, "x: the window") >= 18
    assert exceptions_on(page) == []


def test_the_arrow_key_steps_through_the_windows(page, app_url):
    open_page(page, f"{app_url}/playground?tab=step&kh=3&kw=3&sh=1&sw=1&x={GRID}")
    chart_values(page, "x: the window of y[0,0]")
    page.locator("h1").first.click()  # focus on the page, not in an input
    page.keyboard.press("ArrowRight")
    expect_link(page, step="1")
    expect(page.locator(".gtitle", has_text="x: the window of y[0,1]")).to_be_visible(
        timeout=TIMEOUT_MS
    )


def test_the_lesson_goes_on_with_the_arrow_key_and_reveals_after_an_answer(page, app_url):
    open_page(page, f"{app_url}/lesson?step=1")
    page.locator("h1").first.click()
    page.keyboard.press("ArrowRight")
    expect_link(page, step="2")
    page.get_by_text("No: the forward pass must store", exact=False).click()
    page.get_by_role("button", name="Check", exact=True).click()  # a choice alone is not judged
    expect(page.get_by_text("Answer:", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_an_exercise_answered_by_clicking_cells(page, app_url):
    problem = make_problem("cells", 2, 4, 2)
    open_page(page, f"{app_url}/exercises?kind=cells&level=2&seed=4&n=2")
    chosen = []
    for row, col in sorted(problem.answer):
        click_chart_cell(page, "x", row, col)
        chosen.append(f"({row}, {col})")
        expect(
            page.get_by_text(
                f"Your cells (marked on x; pick one again to take it back): {', '.join(chosen)}."
            )
        ).to_be_visible(timeout=TIMEOUT_MS)
    # A cell too many, then taken back with a second click.
    every_cell = np.ndindex(problem.x.shape)
    spare = next(cell for cell in every_cell if cell not in problem.answer)
    click_chart_cell(page, "x", *spare)
    expect(page.get_by_text(f"({spare[0]}, {spare[1]})", exact=False).first).to_be_visible(
        timeout=TIMEOUT_MS
    )
    click_chart_cell(page, "x", *spare)
    expect(
        page.get_by_text(f"pick one again to take it back): {', '.join(chosen)}.")
    ).to_be_visible(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_text("Right:", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []
