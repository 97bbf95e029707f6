"""Class mode read without sight (issue 39, items 2, 3 and 6): a room's every state, the
lecturer's Class page on a dark projector in lecture mode (1280x720) and a student's
Join page on a dark touch phone (390x844). In each state axe-core (WCAG 2.0/2.1/2.2 A
and AA, no exemption) finds nothing, every chart has its text twin with its picture out
of the tree, no chart is cut, and the page reflows: the projector's page at 640x360 CSS
px (a 1280x720 screen at 200 % zoom, see tests/test_browser_a11y_states.py) and the
phone's at 320 CSS px scroll only up and down, no chart cut (a wide map may scroll in
its own box). The phone's map of the question is the engine's x, three cells read
from the tree (item 5). The Class page before a room and the Join page's form are in
tests/test_browser_a11y.py's sweep.

One room, walked once: each state is reached once and checked where it stands.
"""

from __future__ import annotations

import pytest
from browser import TIMEOUT_MS, open_page, settle
from browser_room import CLASS_LINK, expect_saved, tap_cell
from conftest import PHONE, PROJECTOR
from playwright.sync_api import expect
from test_browser_a11y import light_contrast, untwinned
from test_browser_a11y_states import cut_when_narrowed, steady_violations
from test_browser_cut_charts import cut_charts
from test_browser_tree_numbers import assert_three_cells, far_corner

from teaching.class_mode.questions import question_from_exercise

pytestmark = pytest.mark.browser

EXERCISE = dict(kind="cells", level=2, seed=4, number=2)  # CLASS_LINK's question
LECTURE, PHONE_LOOK = "lecture-dark", "phone-dark"


def found_on(page, look: str) -> dict:
    """What the checks find on the page as it stands: {check: [finding, ...]}, only
    the checks that find something."""
    found = {
        "axe": steady_violations(page),
        "twins": untwinned(page),
        "cut": cut_charts(page, own_scroller=look == PHONE_LOOK),
        "narrowed": cut_when_narrowed(page, look),
        "light": light_contrast(page),
    }
    return {check: said for check, said in found.items() if said}


def press(page, name: str) -> None:
    settle(page)
    page.get_by_role("button", name=name, exact=True).click()
    settle(page)


def test_every_state_of_a_room_reads_without_sight_and_reflows(browser, app_url):
    lecturer = browser.new_context(**PROJECTOR, color_scheme="dark").new_page()
    phone = browser.new_context(**PHONE, color_scheme="dark").new_page()
    found = {}
    try:
        problem = question_from_exercise(**EXERCISE).problem
        open_page(lecturer, f"{app_url}/{CLASS_LINK}")
        press(lecturer, "Open a room")
        expect(lecturer.get_by_role("button", name="Close answers")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        code = lecturer.url.split("room=")[1].split("&")[0]
        found["class: open"] = found_on(lecturer, LECTURE)

        open_page(phone, f"{app_url}/join")
        box = phone.get_by_role("textbox", name="Room code")
        box.fill(code)
        box.press("Enter")
        expect(phone.get_by_text("Pick every cell of x").first).to_be_visible(timeout=TIMEOUT_MS)
        settle(phone)
        found["join: joined"] = found_on(phone, PHONE_LOOK)
        # Item 5: the question's map, as the tree says it, is the engine's x.
        x = problem.x
        assert_three_cells(phone, "x", x, [(0, 0), (x.shape[0] // 2, 1), far_corner(x)])

        cell = sorted(problem.answer)[0]
        tap_cell(phone, *cell)
        expect_saved(phone, problem, [cell])
        found["join: answered"] = found_on(phone, PHONE_LOOK)
        expect(lecturer.get_by_text("1 answer so far.").first).to_be_visible(timeout=TIMEOUT_MS)
        settle(lecturer)
        found["class: answered"] = found_on(lecturer, LECTURE)

        press(lecturer, "Close answers")
        found["class: closed"] = found_on(lecturer, LECTURE)
        press(lecturer, "Reveal")
        found["class: revealed"] = found_on(lecturer, LECTURE)
        expect(phone.get_by_text("On x, ").first).to_be_visible(timeout=TIMEOUT_MS)
        settle(phone)
        found["join: revealed"] = found_on(phone, PHONE_LOOK)

        press(lecturer, "Results")
        found["class: results"] = found_on(lecturer, LECTURE)
        press(lecturer, "Back to the room")
        press(lecturer, "Discuss and vote again")
        found["class: second vote"] = found_on(lecturer, LECTURE)
        expect(phone.get_by_text("Your first vote:").first).to_be_visible(timeout=TIMEOUT_MS)
        settle(phone)
        found["join: second vote"] = found_on(phone, PHONE_LOOK)

        press(lecturer, "End room")
        press(lecturer, "End it for everyone")
        expect(lecturer.get_by_text(f"Room {code} has ended").first).to_be_visible(
            timeout=TIMEOUT_MS
        )
        found["class: ended"] = found_on(lecturer, LECTURE)
        expect(phone.get_by_text("ended").first).to_be_visible(timeout=TIMEOUT_MS)
        settle(phone)
        found["join: ended"] = found_on(phone, PHONE_LOOK)
    finally:
        lecturer.context.close()
        phone.context.close()
    assert {state: said for state, said in found.items() if said} == {}
