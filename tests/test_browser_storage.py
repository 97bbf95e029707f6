"""Nothing a learner did is lost, and a control does not do the wrong thing, in headless
Chromium: typed answers stay with their problem, the arrow key after a lesson answer
goes to the next step, and a reload (as after a lost replica) brings back the score,
the answers and the edited digits."""

import json

import pytest
from browser import TIMEOUT_MS, exceptions_on, open_page, settle, type_in_editor_cell
from playwright.sync_api import expect

from teaching.exercises.model import make_problem
from teaching.lesson.steps import STEP_COUNT, lesson_steps

pytestmark = pytest.mark.browser

EXERCISE = "exercises?kind=value&level=1&seed=4&n=1"


def wait_until_stored(page, namespace: str, text: str) -> None:
    """The browser's storage for `namespace` holds `text` (what a reload brings back)."""
    page.wait_for_function(
        f"() => (localStorage.getItem('pooling-lab:{namespace}') || '').includes({text!r})",
        timeout=TIMEOUT_MS,
    )


def reload(page) -> None:
    page.reload()
    settle(page)


def answer_box(page):
    return page.get_by_role("textbox", name="Your answer")


def type_answer(page, text: str) -> None:
    answer_box(page).click()
    page.keyboard.type(text)


def answer_step_one(page, app_url: str, *, right: bool):
    """Open lesson step 1, pick its right (or a wrong) choice with the mouse, as a
    learner does, and press Check; once the verdict is shown, return the choice and
    its verdict box (worded by the page's own Step.verdict)."""
    step = lesson_steps()[0]
    index = next(i for i, choice in enumerate(step.choices) if choice.right == right)
    open_page(page, f"{app_url}/lesson?step=1")
    page.get_by_text(step.choices[index].text, exact=True).click()
    page.get_by_role("button", name="Check").click()
    verdict = page.get_by_text(step.verdict(index), exact=True)
    expect(verdict).to_be_visible(timeout=TIMEOUT_MS)
    return step.choices[index], verdict


def test_a_typed_answer_stays_with_its_problem_after_next_and_previous(page, app_url):
    open_page(page, f"{app_url}/{EXERCISE}")
    component = page.locator(".st-key-lab_browser")  # mounted, and takes no room
    expect(component).to_have_count(1)
    expect(component).to_be_hidden()
    type_answer(page, "1.5")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Problem 2 of 10")).to_be_visible(timeout=TIMEOUT_MS)
    expect(answer_box(page)).to_have_value("", timeout=TIMEOUT_MS)  # its own, empty box
    page.get_by_role("button", name="Previous").click()
    expect(page.get_by_text("Problem 1 of 10")).to_be_visible(timeout=TIMEOUT_MS)
    expect(answer_box(page)).to_have_value("1.5", timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_the_arrow_key_after_a_lesson_answer_goes_to_the_next_step(page, app_url):
    right, verdict = answer_step_one(page, app_url, right=True)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text(f"Step 2 of {STEP_COUNT}:", exact=False)).to_be_visible(
        timeout=TIMEOUT_MS
    )
    score = f"Answered 1 of {STEP_COUNT} steps, 1 right at the first try"
    expect(page.get_by_text(score, exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    # A person presses ← once step 2 is drawn: its title comes before its buttons, and
    # step 1's Previous, still on screen until then, is disabled (its key does nothing).
    settle(page)
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_text(f"Step 1 of {STEP_COUNT}:", exact=False)).to_be_visible(
        timeout=TIMEOUT_MS
    )
    expect(page.get_by_role("radio", name=right.text)).to_be_checked(timeout=TIMEOUT_MS)
    expect(verdict).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_an_answered_question_focused_again_still_steps_on_with_the_arrow_key(page, app_url):
    wrong, verdict = answer_step_one(page, app_url, right=False)
    page.get_by_role("radio", name=wrong.text).focus()  # back in the group by keyboard
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text(f"Step 2 of {STEP_COUNT}:", exact=False)).to_be_visible(
        timeout=TIMEOUT_MS
    )
    score = f"Answered 1 of {STEP_COUNT} steps, 0 right at the first try"
    expect(page.get_by_text(score, exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_a_reload_brings_back_the_exercise_score_and_answers(page, app_url):
    problem = make_problem("value", 1, 4, 1)
    right = f"{float(problem.answer):g}"
    open_page(page, f"{app_url}/{EXERCISE}")
    type_answer(page, right)
    page.keyboard.press("Enter")  # Enter checks, as the Check button does
    expect(page.get_by_text("Right:", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    score = "Score: 1 right at the first try, of 1 problem checked"
    expect(page.get_by_text(score)).to_be_visible(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Problem 2 of 10")).to_be_visible(timeout=TIMEOUT_MS)
    type_answer(page, "42")
    page.keyboard.press("Tab")  # typed, left, not checked
    wait_until_stored(page, "ex", '"typed":{"typed":"42"}')
    reload(page)
    expect(page.get_by_text("Problem 2 of 10")).to_be_visible(timeout=TIMEOUT_MS)
    expect(answer_box(page)).to_have_value("42", timeout=TIMEOUT_MS)
    expect(page.get_by_text(score)).to_be_visible(timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Previous").click()
    expect(page.get_by_text("Right:", exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    expect(answer_box(page)).to_have_value(right, timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_a_reload_brings_back_the_lesson_answers(page, app_url):
    wrong, verdict = answer_step_one(page, app_url, right=False)
    wait_until_stored(page, "ls", '"answers":{"1":')
    reload(page)
    score = f"Answered 1 of {STEP_COUNT} steps, 0 right at the first try"
    expect(page.get_by_text(score, exact=False)).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("radio", name=wrong.text)).to_be_checked(timeout=TIMEOUT_MS)
    expect(verdict).to_be_visible(timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


# True when some drawn heatmap holds `value` (the batch's images are one mosaic).
HEATMAP_HOLDS = """(value) => Array.from(document.querySelectorAll('.js-plotly-plot')).some(
  plot => (plot._fullData || []).some(trace => trace.type === 'heatmap' &&
    Array.from(trace.z, row => Array.from(row)).flat().some(v => Math.abs(v - value) < 1e-9)))"""


def test_a_reload_brings_back_an_edited_digit(page, app_url):
    open_page(page, f"{app_url}/batch?data=edit&n=2")
    assert not page.evaluate(HEATMAP_HOLDS, 3)  # the digits' ink goes from 0 to 1
    type_in_editor_cell(page, 0, 0, columns=8, text="3")
    discard = page.get_by_role("button", name="Discard my edits")
    expect(discard).to_be_visible(timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({HEATMAP_HOLDS})(3)", timeout=TIMEOUT_MS)
    wait_until_stored(page, "bt", '"edits":{"0":[[3.0,')
    reload(page)
    expect(discard).to_be_visible(timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({HEATMAP_HOLDS})(3)", timeout=TIMEOUT_MS)
    stored = json.loads(page.evaluate("localStorage.getItem('pooling-lab:bt')"))
    assert stored["batch"] == [0, 2] and stored["edits"]["0"][0][0] == 3
    assert exceptions_on(page) == []
