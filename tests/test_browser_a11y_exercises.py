"""Each exercise kind read without sight (issue 39, items 2, 3 and 6): as opened, after a
wrong Check and after a right one, on the dark projector in lecture mode and on a dark
phone (tests/test_browser_a11y_states.py: the looks, the checks, and why 640x360 is 200 %
zoom), axe-core finds nothing, every chart has its twin; the wrong answer's screen (the
one with most on it) reflows at 640x360 and 320 px. One page per look for the module;
each state reached once, with no reload.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, open_page, settle
from playwright.sync_api import expect
from test_browser_a11y_states import (  # look_page: the module's fixture
    LOOKS,
    cut_when_narrowed,
    look_page_fixture,  # noqa: F401
    nothing_found,
    with_look,
)
from test_browser_exercise_feedback import pick

from teaching.exercises.model import KINDS, make_problem

pytestmark = pytest.mark.browser

LEVEL, SEED = 3, 4  # padding: each kind's maps with their padded border


# The reply to a right answer, and to a wrong one: "Not quite: ..." for cells, "Your
# answer is 12, but dL/dx at (2, 2) is 11. ..." for a number.
REPLIES = {True: re.compile(r"Right"), False: re.compile(r"Not quite|Your answer is .*, but")}


def reply(page, right: bool) -> None:
    """Wait for the reply to a right or a wrong answer."""
    alert = page.locator("[data-testid=stAlertContainer]", has_text=REPLIES[right]).first
    expect(alert).to_be_visible(timeout=TIMEOUT_MS)
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
    nothing_found(page, then_leaves=True)
    assert cut == []
