"""Every cell a map takes picks on is reached by the keyboard alone (issue 29, item 2):
the map is one tab stop (the W3C ARIA grid pattern), the arrow keys move a visible
focus ring over its cells, and Enter or Space picks the ringed cell as a click does.
No test here moves or clicks the mouse.

Every wait is for a condition on the page, never a fixed time.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, exceptions_on, expect_link, open_page, settle, wait_for_title
from browser_room import (  # database, served: the module's fixtures
    database_fixture,  # noqa: F401
    expect_saved,
    join_by_link,
    served_fixture,  # noqa: F401
)
from conftest import PHONE
from playwright.sync_api import expect

import pooling
from pooling.explain import ledger
from rooms import store
from teaching.class_mode import codes
from teaching.class_mode.questions import question_from_exercise
from teaching.exercises.model import make_problem
from teaching.numbers import fmt
from ui.playground.step_frames import POINTER_TITLE

pytestmark = pytest.mark.browser

OVERLAP_X = np.array(
    [[1, 2, 0, 1, 3], [0, 9, 1, 0, 2], [2, 1, 4, 1, 0], [0, 3, 1, 8, 1], [1, 0, 2, 1, 0]], float
)
OVERLAP = "mode=max&kh=3&kw=3&sh=1&sw=1&x=" + ";".join(
    ",".join(str(int(v)) for v in row) for row in OVERLAP_X
)
CONFIG = pooling.PoolConfig("max", 3, stride=1)
MAX_TABS = 80  # a page's controls before its map, with room to spare

FOCUSED = """() => {
  const node = document.activeElement;
  return node && node.getAttribute('role') === 'grid' ? node.getAttribute('aria-label') : null;
}"""
# The focus ring (the active descendant) and its grid's plot area, in page px.
RING = """() => {
  const grid = document.activeElement;
  const ring = document.getElementById(grid.getAttribute('aria-activedescendant'));
  const plot = grid.querySelector('.js-plotly-plot'), area = plot._fullLayout;
  const box = plot.getBoundingClientRect(), own = ring.getBoundingClientRect();
  return {
    ring: [own.left, own.top, own.width, own.height], shown: getComputedStyle(ring).opacity,
    area: [box.left + area.xaxis._offset, box.top + area.yaxis._offset,
           area.xaxis._length, area.yaxis._length],
    row: ring.parentElement.getAttribute('aria-rowindex'),
    col: ring.getAttribute('aria-colindex'),
  };
}"""


# Keeps the grid in hand (`window.labGridBefore`) and each new name its ringed cell is
# given from now on, on it or on a grid drawn in its place (`window.labNames`).
NAMES_SAID = """(grid) => {
  window.labGridBefore = grid;
  window.labNames = [];
  const key = grid.dataset.labChart;
  new MutationObserver((records) => {
    for (const record of records) {
      const cell = record.target, name = cell.getAttribute('aria-label');
      if (name !== record.oldValue && cell.getAttribute('role') === 'gridcell'
          && cell.closest(`[role=grid][data-lab-chart="${key}"]`)) {
        window.labNames.push(name);
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true,
                              attributeFilter: ['aria-label'] });
}"""


def tab_to(page, name: str) -> None:
    """Press Tab until the focus is on the grid named `name` (as a person tabs)."""
    tab_until(page, page.locator(f'[role=grid][aria-label="{name}"]'))


def tab_until(page, target, *, back: bool = False) -> None:
    """Press Tab (Shift+Tab where `back`) until the focus is on `target`, a locator by
    role and name (the name a screen reader says: an icon's ligature is not in it)."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if target.evaluate("(node) => node === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {target}")


def ring(page) -> dict:
    return page.evaluate(RING)


def expect_ring_at(page, row: int, col: int) -> None:
    """The ring is drawn, inside the chart's plot area, on (row, col) (1-based in ARIA)."""
    page.wait_for_function(
        f"() => {{ const r = ({RING})(); return r.row === '{row + 1}' && r.col === '{col + 1}'; }}",
        timeout=TIMEOUT_MS,
    )
    drawn = ring(page)
    left, top, width, height = drawn["ring"]
    area_left, area_top, area_width, area_height = drawn["area"]
    assert drawn["shown"] == "1" and width > 0 and height > 0, drawn
    assert area_left - 1 <= left and left + width <= area_left + area_width + 1, drawn
    assert area_top - 1 <= top and top + height <= area_top + area_height + 1, drawn


def arrow_to(page, row: int, col: int, *, start=(0, 0)) -> None:
    """Arrow keys from `start` to (row, col)."""
    down, right = row - start[0], col - start[1]
    for _ in range(abs(down)):
        page.keyboard.press("ArrowDown" if down > 0 else "ArrowUp")
    for _ in range(abs(right)):
        page.keyboard.press("ArrowRight" if right > 0 else "ArrowLeft")
    expect_ring_at(page, row, col)


def expect_one_tab_stop(page, name: str) -> None:
    """Tab from the map leaves it at once (its cells are not tab stops), Shift+Tab
    comes back to it."""
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) != name
    assert page.evaluate("() => document.activeElement !== document.body")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == name


def test_the_keyboard_picks_window_1_1_of_y_then_a_cell_of_dl_dx(page, app_url):
    result = pooling.forward(OVERLAP_X, CONFIG)
    upstream = np.ones_like(result.output)
    open_page(page, f"{app_url}/playground?{OVERLAP}")
    tab_to(page, "Output y")
    expect_ring_at(page, 0, 0)
    arrow_to(page, 1, 1)
    page.keyboard.press("Enter")
    expect_link(page, step="4")  # y is 3x3: window (1, 1) is the 5th
    # Said once the page holds the pick (its twin marks the cell: browser.js), not before.
    page.wait_for_function(
        "() => window.poolingLabLive?.textContent.startsWith('Picked row 1, column 1')",
        timeout=TIMEOUT_MS,
    )
    wait_for_title(page, "Routing: where dL/dy[1,1] = 1 goes")
    settle(page)
    # The routing reads, as the engine has it: window (1, 1) covers rows and columns
    # 1 to 3, and its winner takes all of dL/dy[1,1].
    winner = divmod(int(result.argmax[1, 1]), OVERLAP_X.shape[1])
    x_twin = page.get_by_role("figure", name="Input x", exact=True)
    expect(x_twin.get_by_role("paragraph")).to_contain_text(
        f"in the current window: rows 1 to 3, columns 1 to 3; winner: row {winner[0]}, "
        f"column {winner[1]}"
    )
    # Focus stayed on y across the rerun, the ring on the cell picked.
    expect(page.locator('[role=grid][aria-label="Output y"]')).to_be_focused(timeout=TIMEOUT_MS)
    expect_ring_at(page, 1, 1)
    ring = page.locator('[role=grid][aria-label="Output y"] [role=gridcell]')
    expect(ring).to_have_attribute("aria-selected", "true")  # the window picked
    expect_one_tab_stop(page, "Output y")

    tab_to(page, "dL/dx")
    arrow_to(page, 3, 3)
    page.keyboard.press(" ")
    expect_link(page, cell="3,3")
    lines = ledger(OVERLAP_X, upstream, CONFIG, (3, 3))
    read = sum(1 for r, c in np.ndindex(result.output.shape) if r <= 3 <= r + 2 and c <= 3 <= c + 2)
    # Back up to the tab list (one tab stop: the tab shown), then along it to Ledger.
    tab_until(page, page.get_by_role("tab", name="Both passes"), back=True)
    ledger_tab = page.get_by_role("tab", name="Ledger")
    for _ in range(MAX_TABS):
        if ledger_tab.evaluate("(node) => node === document.activeElement"):
            break
        page.keyboard.press("ArrowRight")
    expect(ledger_tab).to_be_focused()
    page.keyboard.press("Enter")
    sentence = (
        f"x[3,3] is read by {read} windows; {len(lines)} of them "
        f"give{'s' * (len(lines) == 1)} it a share of their dL/dy."
    )
    expect(page.get_by_text(sentence)).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_in_step_through_the_y_grid_holds_the_step_the_next_button_took(page, app_url):
    """Step through, keyboard only: four presses of Next (the focus stays on it) step to
    window 5, y[1,1]; tabbing on to y's grid, its active cell (the one gridcell the
    tree holds) is y[1,1] with the engine's value, marked selected: the step's window,
    as the Both passes tab marks the window picked. P plays on from the grid to the
    last window, y[2,2], and the run Play's stop starts (it draws y anew) leaves the
    focus on y, its cell not renamed at each frame (Play says nothing until it stops);
    the arrows and Enter still pick a window. Read from the tree."""
    output = pooling.forward(OVERLAP_X, CONFIG).output
    open_page(page, f"{app_url}/playground?tab=step&{OVERLAP}")
    page.wait_for_function("() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)")
    next_button = page.get_by_role("button", name="Next", exact=True)
    tab_until(page, next_button)
    for _ in range(4):
        page.keyboard.press("Enter")
    expect(page.locator(".lab-frames .count").first).to_have_text("Window 5 of 9")
    expect(next_button).to_be_focused()  # the step moved the ring, not the focus
    tab_to(page, POINTER_TITLE)
    settle(page)  # the run Tab started (it tells the server the step) has drawn y
    grid = page.get_by_role("grid", name=POINTER_TITLE, exact=True)
    expect(grid).to_be_focused()
    active = f'gridcell "row 1, column 1: {fmt(output[1, 1])}" [selected]'
    expect(grid).to_match_aria_snapshot(f"- row:\n  - '{active}'")
    assert active in grid.aria_snapshot()
    # P plays on from the grid to the last window; Play's stop tells the server, whose
    # run draws y anew (a new element): the focus stays on y, the ring on y[2,2].
    grid.evaluate(NAMES_SAID)
    page.keyboard.press("p")
    expect(page.locator(".lab-frames .count").first).to_have_text("Window 9 of 9")
    page.wait_for_function("() => !window.labGridBefore.isConnected", timeout=TIMEOUT_MS)
    settle(page)
    expect(grid).to_be_focused()
    last = f"row 2, column 2: {fmt(output[2, 2])}"
    expect(grid).to_match_aria_snapshot(f"- row:\n  - 'gridcell \"{last}\" [selected]'")
    # Play said nothing on the grid as it went: its cell took only the last window's name.
    assert set(page.evaluate("() => window.labNames")) == {last}
    # The arrows still move the ring from there, and Enter picks: the step follows it.
    page.keyboard.press("ArrowLeft")
    ring = grid.get_by_role("gridcell")
    expect(ring).to_have_attribute("aria-selected", "false")
    page.keyboard.press("Enter")
    expect(page.locator(".lab-frames .count").first).to_have_text("Window 8 of 9")
    expect(ring).to_have_attribute("aria-selected", "true")
    expect(ring).to_have_attribute("aria-label", f"row 2, column 1: {fmt(output[2, 1])}")
    expect(grid).to_be_focused()


def test_the_keyboard_answers_a_cells_exercise_right(page, app_url):
    problem = make_problem("cells", 2, 4, 2)
    open_page(page, f"{app_url}/exercises?kind=cells&level=2&seed=4&n=2")
    tab_to(page, "x")
    at = (0, 0)
    for cell in sorted(problem.answer):
        arrow_to(page, *cell, start=at)
        page.keyboard.press("Enter")
        expect(page.get_by_text(re.compile(rf"\({cell[0]}, {cell[1]}\)")).first).to_be_visible(
            timeout=TIMEOUT_MS
        )
        settle(page)
        expect(page.locator('[role=grid][aria-label="x"]')).to_be_focused(timeout=TIMEOUT_MS)
        at = cell
    expect_one_tab_stop(page, "x")
    tab_until(page, page.get_by_role("button", name="Check", exact=True))
    page.keyboard.press("Enter")
    expect(page.get_by_text(re.compile(r"^Right:")).first).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_on_a_phone_the_keyboard_answers_a_class_question(browser, served, database):
    made = store.open_room(database, token=codes.new_token())
    question = question_from_exercise("cells", level=2, seed=4, number=2)
    store.ask(database, made.code, secret=made.secret, question=question)
    cell = sorted(question.answer)[-1]
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        join_by_link(page, f"{served}/join?code={made.code}", made.code)
        tab_to(page, "x")
        arrow_to(page, *cell)
        page.keyboard.press("Enter")
        expect_saved(page, question.problem, [cell])
        expect(page.locator('[role=grid][aria-label="x"]')).to_be_focused(timeout=TIMEOUT_MS)
        expect_ring_at(page, *cell)
        assert exceptions_on(page) == []
    finally:
        context.close()
