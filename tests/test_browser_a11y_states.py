"""The whole product read without sight (issue 39, items 2, 3 and 6): what the default
views of tests/test_browser_a11y.py leave out, in the two looks that find most, the
projector in lecture mode (1280x720) and a touch phone (390x844), both dark. Every
other Batch tab and Lesson step, and each exercise kind before Check, after a wrong
Check and after a right one: axe-core (WCAG 2.0/2.1/2.2 A and AA, no exemption) finds
nothing, and every chart has its text twin with its picture out of the tree.

An exercise's states also reflow (WCAG 1.4.10 and 1.4.4): the phone's page narrowed to
320 CSS px, the projector's to 640x360 CSS px, which is what a 1280x720 screen at 200 %
zoom leaves a page (a browser's zoom shrinks the CSS viewport, so the page's own
layout answers it; a deviceScaleFactor of 2 only draws the same 1280 CSS px sharper):
the page never scrolls sideways and no chart is cut (a wide map may scroll in its own
box). The tabs and steps reflow in tests/test_browser_overflow.py.

Each state is reached once, in one page per look kept for the module (one served app,
one browser), and is checked there without a reload.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, click_chart_cell, exceptions_on, open_page, settle
from conftest import PHONE, PROJECTOR
from playwright.sync_api import expect
from test_browser_a11y import untwinned, violations
from test_browser_cut_charts import cut_charts
from test_browser_overflow import CUT_OFF

from teaching.exercises.model import KINDS, make_problem
from teaching.lesson.steps import STEP_COUNT

pytestmark = pytest.mark.browser

LOOKS = {
    "lecture-dark": PROJECTOR | {"color_scheme": "dark"},
    "phone-dark": PHONE | {"color_scheme": "dark"},
}
# What a 1280x720 projector at 200 % and a window 320 CSS px wide leave a page.
NARROWED = {
    "lecture-dark": {"width": 640, "height": 360},
    "phone-dark": {"width": 320, "height": 640},
}
# tests/test_browser_a11y.py sweeps the Batch page's Two examples and Winners tabs and
# Lesson steps 1 and 3; here the rest.
BATCH_TABS = ("examples", "step", "result", "training", "weights")
TABS_AND_STEPS = [
    *(f"batch?tab={tab}" for tab in BATCH_TABS),
    *(f"lesson?step={step}" for step in range(2, STEP_COUNT + 1) if step != 3),
]
LEVEL, SEED = 3, 4  # padding: each kind's maps with their padded border


def with_look(path: str, look: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lecture=1" if look.startswith("lecture") else path


def nothing_found(page) -> None:
    """axe-core and the twins' check on the page as it stands, and no exception."""
    assert violations(page) == []
    assert untwinned(page) == []
    assert exceptions_on(page) == []


def cut_when_narrowed(page, look: str) -> list:
    """Narrowed to NARROWED[look]: what scrolls the page sideways or is cut (a data
    table or wide map may scroll in its own box); then back to the look's size."""
    size = page.viewport_size
    page.set_viewport_size(NARROWED[look])
    try:
        settle(page)
        return page.evaluate(CUT_OFF, True) + cut_charts(page, own_scroller=True)
    finally:
        page.set_viewport_size(size)
        settle(page)


@pytest.fixture(scope="module")
def look_page(context_pages):
    return lambda look: context_pages(look, LOOKS[look])


@pytest.mark.parametrize("path", TABS_AND_STEPS)
@pytest.mark.parametrize("look", list(LOOKS))
def test_axe_finds_nothing_on_every_tab_and_step(look_page, app_url, look, path):
    page = look_page(look)
    open_page(page, f"{app_url}/{with_look(path, look)}")
    nothing_found(page)


# -- an exercise of each kind: before Check, wrong, right ---------------------------------


# The reply to a right answer, and to a wrong one: "Not quite: ..." for cells, "Your
# answer is 12, but dL/dx at (2, 2) is 11. ..." for a number.
REPLIES = {True: re.compile(r"^Right"), False: re.compile(r"^Not quite|^Your answer is .*, but")}


def reply(page, right: bool) -> None:
    """Wait for the reply to a right or a wrong answer."""
    alert = page.locator("[data-testid=stAlertContainer]", has_text=REPLIES[right]).first
    expect(alert).to_be_visible(timeout=TIMEOUT_MS)
    settle(page)


def picks_caption(page):
    return page.locator("[data-testid=stCaptionContainer]", has_text="Your cells").first


def pick(page, cell) -> None:
    """Click a cell of x at its pixel; wait until the page lists the picks anew."""
    before = picks_caption(page).inner_text()
    click_chart_cell(page, "x", *cell)
    expect(picks_caption(page)).not_to_have_text(before, timeout=TIMEOUT_MS)
    settle(page)


def type_in(page, label: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Tab")  # its text reaches the server as it is left
    settle(page)


def typed_answers(problem, *, right: bool) -> dict[str, str]:
    """{box label: text} of a right answer, or of a wrong one (one more)."""
    off = 0 if right else 1
    if problem.kind == "size":
        rows, cols = problem.answer
        return {"Output height": str(rows + off), "Output width": str(cols)}
    return {"Your answer": str(problem.answer + off)}


def answer(page, problem, *, right: bool) -> None:
    """Cells clicked (a wrong set: all but the first right cell and one extra; then
    the right set by taking the extra back and adding the first), or numbers typed;
    then Check, and its reply."""
    if problem.kind == "cells":
        cells = sorted(problem.answer)
        extra = next(c for c in np.ndindex(problem.x.shape) if c not in problem.answer)
        for cell in [extra, cells[0]] if right else [*cells[1:], extra]:
            pick(page, cell)
    else:
        for label, text in typed_answers(problem, right=right).items():
            type_in(page, label, text)
    page.get_by_role("button", name="Check", exact=True).click()
    reply(page, right)


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("look", list(LOOKS))
def test_axe_finds_nothing_on_an_exercise_before_and_after_check(look_page, app_url, look, kind):
    """Problem 2 of the set: as opened, after a wrong Check, after a right one; and the
    screen with the most on it (the wrong answer's reply and its explanation) reflows
    (asserted once axe has seen all three states)."""
    page = look_page(look)
    problem = make_problem(kind, LEVEL, SEED, 2)
    link = f"exercises?kind={kind}&level={LEVEL}&seed={SEED}&n=2"
    open_page(page, f"{app_url}/{with_look(link, look)}")
    nothing_found(page)
    answer(page, problem, right=False)
    nothing_found(page)
    cut = cut_when_narrowed(page, look)
    answer(page, problem, right=True)
    nothing_found(page)
    assert cut == []
