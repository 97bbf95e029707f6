"""The walk of a keyboard and screen-reader user (issue 39, item 7): keys only, and
what is read is read from the accessibility tree (aria_snapshot) or is where the focus
is. Each test is a trap the walk met: a choice judged by an arrow key, the focus
dropped after an action."""

from __future__ import annotations

import re

import pytest
from browser import TIMEOUT_MS, live_regions, open_page, settle
from conftest import PHONE
from playwright.sync_api import expect

from teaching.exercises.model import KINDS, LEVELS, make_problem
from teaching.lesson.steps import STEP_COUNT, lesson_steps

pytestmark = pytest.mark.browser

MAIN = '[data-testid="stMain"]'
MOST_TABS = 80  # more stops than any page has before what a test looks for


def focused(page):
    return page.locator("*:focus")


def tab_to(page, role: str, name: str | None = None) -> None:
    """Press Tab until the focus is on an element of `role` (named `name`, when given),
    as a keyboard user goes through the page; fail after MOST_TABS presses."""
    target = page.get_by_role(role, name=name, exact=True) if name else page.get_by_role(role)
    for _ in range(MOST_TABS):
        if target.evaluate_all("(found) => found.includes(document.activeElement)"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {role} {name or ''}")


def main_text(page) -> str:
    return page.locator(MAIN).aria_snapshot()


def live_texts(page) -> list[str]:
    """The text of every live region, polite or assertive (the app's region and any
    Streamlit alert), a region inside another left out."""
    return [text for _, text in live_regions(page, kinds=("polite", "assertive"), outermost=True)]


def said_by(page, sentence: str) -> int:
    """How many live regions hold `sentence`."""
    return sum(sentence in text for text in live_texts(page))


def test_an_arrow_key_moves_through_the_lessons_choices_and_only_check_judges(page, app_url):
    """Lesson step 3: Tab to the choices, ↓ twice (each a choice, no verdict, the score
    untouched), then Tab to Check and Enter: the verdict on the choice now checked, with
    the focus on it; then Next step puts the focus on step 4's heading."""
    number = 3
    step = lesson_steps()[number - 1]
    open_page(page, f"{app_url}/lesson?step={number}")
    snapshot = main_text(page)
    assert f'heading "Step {number} of {STEP_COUNT}: {step.title}"' in snapshot, snapshot
    for choice in step.choices:  # each choice read once: the radio, not its paragraph too
        assert f'radio "{choice.text}"' in snapshot, snapshot
        assert f'paragraph: "{choice.text}"' not in snapshot, snapshot
    tab_to(page, "radio")
    for index in (1, 2):
        page.keyboard.press("ArrowDown")
        radio = page.get_by_role("radio", name=step.choices[index].text, exact=True)
        expect(radio).to_be_checked(timeout=TIMEOUT_MS)
        settle(page)
        expect(radio).to_be_focused()  # still in the group: arrows keep moving
        snapshot = main_text(page)
        assert "Right:" not in snapshot and "Not quite:" not in snapshot, snapshot
        assert "Answered" not in snapshot  # nothing counted
    tab_to(page, "button", "Check")
    page.keyboard.press("Enter")
    verdict = step.verdict(2)
    expect(focused(page)).to_have_text(verdict, timeout=TIMEOUT_MS)
    assert verdict in main_text(page)
    assert said_by(page, verdict) == 0  # read by the focus alone: the alert is no live region
    tab_to(page, "button", "Next step")
    page.keyboard.press("Enter")
    heading = f"Step {number + 1} of {STEP_COUNT}: {lesson_steps()[number].title}"
    expect(focused(page)).to_have_text(heading, timeout=TIMEOUT_MS)
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_focused()


def test_show_the_answer_puts_the_focus_on_the_answer(page, app_url):
    """The button pressed is gone once the answer is shown: the focus goes to it."""
    step = lesson_steps()[0]
    open_page(page, f"{app_url}/lesson?step=1")
    tab_to(page, "button", "Show the answer")
    page.keyboard.press("Enter")
    right = step.choices[step.right_choice].text
    expect(focused(page)).to_contain_text(f"Answer: {right}.", timeout=TIMEOUT_MS)


def test_back_disabled_under_the_focus_hands_it_to_next(page, app_url):
    """Step through, window 2 of 4: Back pressed from the keyboard brings window 1,
    where Back is disabled; the focus goes on to Next, not to the page's start. The
    buttons are named by their labels alone (the key hint is aria-keyshortcuts)."""
    grid = "1,2,0;0,9,1;2,1,4"
    open_page(page, f"{app_url}/playground?tab=step&mode=max&kh=2&kw=2&sh=1&sw=1&x={grid}")
    page.wait_for_function("() => !!(window.poolingLabFrames && window.poolingLabFrames.ready)")
    count = page.locator(".lab-frames .count").first
    back = page.get_by_role("button", name="Back", exact=True).first
    forward = page.get_by_role("button", name="Next", exact=True).first
    expect(forward).to_have_attribute("aria-keyshortcuts", "ArrowRight")
    expect(page.get_by_role("button", name="Play", exact=True).first).to_be_visible()
    tab_to(page, "button", "Next")
    page.keyboard.press("Enter")
    expect(count).to_have_text("Window 2 of 4")
    page.keyboard.press("Shift+Tab")
    expect(back).to_be_focused()
    page.keyboard.press("Enter")
    expect(count).to_have_text("Window 1 of 4")
    expect(back).to_be_disabled()
    expect(forward).to_be_focused()


def test_the_level_slider_is_named_once_with_its_value(page, app_url):
    """Exercises: the Level slider reads "Level", its value the level shown (not a
    doubled name, not its index)."""
    open_page(page, f"{app_url}/exercises")
    slider = page.get_by_role("slider", name="Level", exact=True)
    expect(slider).to_have_count(1, timeout=TIMEOUT_MS)
    expect(slider).to_have_attribute("aria-valuetext", f"1 · {LEVELS[1]}")
    assert 'slider "Level Level"' not in main_text(page)


def test_an_exercises_verdict_is_said_once_by_the_pages_live_region(page, app_url):
    """Exercises, a number typed and Enter: the verdict is said by the page's live
    region and shown in the page, but the alert showing it is no live region of its
    own (a screen reader heard it twice)."""
    open_page(page, f"{app_url}/exercises?kind=value&level=3&seed=4&n=2")
    box = page.get_by_role("textbox", name="Your answer", exact=True)
    box.focus()
    page.keyboard.type("12345")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => window.poolingLabLive?.textContent.includes('12345')", timeout=TIMEOUT_MS
    )
    settle(page)
    verdict = page.evaluate("() => window.poolingLabLive.textContent")
    shown = page.locator(MAIN).locator('[data-testid="stAlertContainer"]')
    expect(shown).to_have_count(1)
    assert verdict in " ".join(shown.inner_text().split())  # the same sentence on screen
    assert said_by(page, verdict) == 1, live_texts(page)
    expect(page.locator(MAIN).get_by_role("alert")).to_have_count(0)


def test_a_pick_from_the_keyboard_is_said_as_the_page_took_it_and_marked_selected(page, app_url):
    """Exercises, a cells question: Enter on x's first cell is said "Picked" once the
    page holds the pick, and the cell is then selected; Enter again takes it back,
    said so, and the cell is no longer selected."""
    open_page(page, f"{app_url}/exercises?kind=cells&level=2&seed=4&n=2")
    tab_to(page, "grid", "x")
    cell = page.locator('[role=grid][aria-label="x"] [role=gridcell]')
    expect(cell).to_have_attribute("aria-selected", "false")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => window.poolingLabLive?.textContent.startsWith('Picked row 0, column 0')",
        timeout=TIMEOUT_MS,
    )
    # The pick redraws x under a new key: until the run ends, the old grid and the new
    # one are both on the page (a strict locator then finds two cells).
    settle(page)
    expect(cell).to_have_attribute("aria-selected", "true", timeout=TIMEOUT_MS)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => window.poolingLabLive?.textContent.startsWith('Pick taken back: row 0, column 0')",
        timeout=TIMEOUT_MS,
    )
    settle(page)
    expect(cell).to_have_attribute("aria-selected", "false", timeout=TIMEOUT_MS)


def test_on_a_phone_the_folded_menu_is_out_of_the_tab_order_until_unfolded(browser, app_url):
    """A phone folds the menu off screen: Tab goes from the page's start to its own
    content, never to the eleven links unseen; unfolded, the links are reachable."""
    phone = browser.new_context(**PHONE).new_page()
    try:
        open_page(phone, f"{app_url}/exercises")
        in_menu = "() => !!document.activeElement.closest('[data-testid=stSidebar]')"
        for _ in range(4):
            phone.keyboard.press("Tab")
            assert not phone.evaluate(in_menu)
        menu_link = phone.locator('[data-testid="stSidebar"] a[href$="/playground"]')
        menu_link.focus()  # inert: it cannot take the focus
        assert not phone.evaluate(in_menu)
        unfold = phone.locator('[data-testid="stExpandSidebarButton"]')
        unfold.focus()
        phone.keyboard.press("Enter")
        expect(menu_link).to_be_in_viewport(timeout=TIMEOUT_MS)
        menu_link.focus()
        assert phone.evaluate(in_menu)
    finally:
        phone.context.close()


def test_the_batch_page_says_in_words_whether_losses_of_2_and_minus_2_cancel(page, app_url):
    """The seed's question, read without sight: from Home, Tab to the menu's Batch link
    and Enter; the Two examples tab's text answers it (the step reads the losses'
    gradients, never the losses, and a cross-entropy loss is never negative), and the
    losses it lists, read from the tree, are each 0 or more."""
    open_page(page, app_url)
    tab_to(page, "link", "Batch")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/batch"), timeout=TIMEOUT_MS)
    settle(page)
    snapshot = main_text(page)
    said = next((line for line in snapshot.splitlines() if "Losses never cancel" in line), "")
    assert "it reads only their gradients" in said, snapshot
    assert "a cross-entropy loss is never negative" in said, said
    losses = next(line for line in snapshot.splitlines() if "Losses before → after:" in line)
    numbers = [float(n.replace("−", "-")) for n in re.findall(r"[−-]?\d+\.\d+", losses)]
    assert len(numbers) == 6 and min(numbers) >= 0, losses  # 2 examples and the batch


def wait_until_said(page, said: str) -> str:
    """Wait (for the page to settle, again and again) until the main column's tree
    says `said`; return that tree."""
    for _ in range(MOST_READS):
        settle(page)
        snapshot = main_text(page)
        if said in snapshot:
            return snapshot
    raise AssertionError(f"the tree never said {said!r}: {snapshot}")


MOST_READS = 50  # looks at the tree while a run goes on, each after the page settled


def typed_right(problem) -> dict[str, str]:
    """{the box's name: the right answer as typed}."""
    if problem.kind == "size":
        rows, cols = problem.answer
        return {"Output height": str(rows), "Output width": str(cols)}
    return {"Your answer": str(problem.answer)}


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind != "cells"])
def test_the_keyboard_gets_a_typed_exercise_right_read_from_the_tree(page, app_url, kind):
    """dL/dx at a cell, an output size, a batch: Tab to each answer box, type, Enter
    (Enter checks), and the tree says "Right: ..." (a cells exercise by keyboard:
    tests/test_browser_keyboard.py)."""
    problem = make_problem(kind, 2, 4, 2)
    open_page(page, f"{app_url}/exercises?kind={kind}&level=2&seed=4&n=2")
    for name, text in typed_right(problem).items():
        tab_to(page, "textbox", name)
        page.keyboard.type(text)
    page.keyboard.press("Enter")
    snapshot = wait_until_said(page, "Right: ")
    assert "Not quite" not in snapshot and "but" not in snapshot.split("Right: ")[1][:80]
