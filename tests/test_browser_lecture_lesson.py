"""The Lesson in lecture mode on the projector (1280x720, lecture=1), in headless
Chromium: every step fits one screen before its answer, once the answer is shown, after
a wrong choice and after the right one, and in each part of an answer walked part by
part; its question, every option, the verdict, the answer box and each map's title
are in sight without scrolling; its text is drawn at 20 px or more; and the arrow keys
go on after an answer given with the mouse. Also, without a browser, how lecture mode
walks an answer's parts (AppTest)."""

from __future__ import annotations

import pytest
from apptest import open_app
from browser import exceptions_on, open_page, screen_fit, settle, small_text
from conftest import PROJECTOR
from playwright.sync_api import expect

from teaching.lesson.steps import STEP_COUNT, lesson_steps
from ui.figures.style import LECTURE_TEXT_PX
from ui.lesson.state import STATE
from ui.lesson.views import answer_parts

LESSON = "screens/lesson.py"
STEPS = lesson_steps()
MOST_SCREENS = 1.05  # the page's height, in projector screens
TIMEOUT_MS = 30_000
HEIGHT = PROJECTOR["viewport"]["height"]
WIDTH = PROJECTOR["viewport"]["width"]

MAIN = "[data-testid='stMain']"
ANSWER_BOX = f".st-key-{STATE.answer}"
OPTION = "[data-testid='stRadioOption']"
VERDICT = "[data-testid='stAlertContainer']"


def plain(markdown: str) -> str:
    """The start of a part as it reads on screen: no emphasis marks, no list dash."""
    return markdown.replace("*", "").removeprefix("- ")[:20]


def in_sight(locator) -> None:
    """Every element of `locator` lies inside the projector's viewport."""
    assert locator.count() > 0
    for box in (locator.nth(i).bounding_box() for i in range(locator.count())):
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT + 1, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH + 1, box


def assert_one_screen(page, number: int, *, answered: bool) -> None:
    """The step fits the projector: one screen tall, no inner scroller, key content in
    sight, no text under LECTURE_TEXT_PX."""
    settle(page)
    step = STEPS[number - 1]
    fit = screen_fit(page)
    assert fit["screens"] <= MOST_SCREENS and fit["hidden"] == [], (number, fit)
    assert page.evaluate(f'() => document.querySelector("{MAIN}").scrollTop') == 0
    in_sight(page.locator(f"{MAIN} [data-testid='stMarkdownContainer'] p", has_text="Question."))
    options = page.locator(OPTION)
    expect(options).to_have_text([choice.text for choice in step.choices])
    in_sight(options)
    # Each map's title, on its own chart or (three maps or more) over its map in one
    # mosaic; a long title is broken into lines (tspans): compare without the spaces.
    plots = page.locator(f"{MAIN} .js-plotly-plot")
    expect(plots.first).to_be_visible(timeout=TIMEOUT_MS)
    drawn = "".join(plots.all_text_contents()).replace(" ", "")
    for grid in step.example:
        assert grid.title.replace(" ", "") in drawn, grid.title
    in_sight(plots)
    if answered:
        in_sight(page.locator(ANSWER_BOX))
    in_sight(page.locator(MAIN).get_by_role("button", name="Next", exact=False))
    assert small_text(page, LECTURE_TEXT_PX) == [], number
    assert exceptions_on(page) == []


def choose(page, step, index: int) -> None:
    """Pick option `index` with the mouse and press Check; wait for its verdict."""
    page.locator(OPTION).nth(index).click()
    page.get_by_role("button", name="Check").click()
    word = "Right:" if step.choices[index].right else "Not quite:"
    expect(page.locator(VERDICT)).to_contain_text(word, timeout=TIMEOUT_MS)


def walk_parts(page, parts: tuple[str, ...], *, key: str, number: int) -> None:
    """Press `key` through the answer's parts (→ from the first to the last, ← back),
    checking that each part is on screen and fits."""
    order = range(1, len(parts)) if key == "ArrowRight" else range(len(parts) - 2, -1, -1)
    for index in order:
        page.keyboard.press(key)
        expect(page.locator(ANSWER_BOX)).to_contain_text(plain(parts[index]), timeout=TIMEOUT_MS)
        assert_one_screen(page, number, answered=True)


@pytest.fixture
def lecture_page(projector_page, app_url):
    """The module's projector page, its browser's stored lesson answers forgotten, so
    that each test opens a step not yet answered."""
    if projector_page.url.startswith(app_url):
        projector_page.evaluate("() => window.localStorage.clear()")
    return projector_page


@pytest.mark.browser
@pytest.mark.parametrize("number", range(1, STEP_COUNT + 1))
def test_every_lesson_step_fits_the_projector_before_and_after_its_answer(
    lecture_page, app_url, number
):
    page, step = lecture_page, STEPS[number - 1]
    parts = answer_parts(step)
    open_page(page, f"{app_url}/lesson?step={number}&lecture=1")
    expect(page.locator(ANSWER_BOX)).to_have_count(0)  # the question comes first
    assert_one_screen(page, number, answered=False)
    page.get_by_role("button", name="Show the answer").click()
    expect(page.locator(ANSWER_BOX)).to_contain_text(plain(parts[0]), timeout=TIMEOUT_MS)
    assert_one_screen(page, number, answered=True)
    # A wrong choice, walked through every part of the answer with →; then the right
    # one on the last part, walked back with ←.
    choose(page, step, next(i for i, choice in enumerate(step.choices) if not choice.right))
    assert_one_screen(page, number, answered=True)
    walk_parts(page, parts, key="ArrowRight", number=number)
    choose(page, step, step.right_choice)
    assert_one_screen(page, number, answered=True)
    walk_parts(page, parts, key="ArrowLeft", number=number)


def one_part_step() -> int:
    """A step (not the last) whose answer is shown whole in lecture mode."""
    return next(n for n, step in enumerate(STEPS[:-1], 1) if len(answer_parts(step)) == 1)


@pytest.mark.browser
def test_the_arrow_keys_go_on_after_an_answer_and_a_click_on_a_map(lecture_page, app_url):
    page, number = lecture_page, one_part_step()
    step = STEPS[number - 1]
    open_page(page, f"{app_url}/lesson?step={number}&lecture=1")
    choose(page, step, step.right_choice)
    page.keyboard.press("ArrowRight")
    after = page.get_by_text(f"Step {number + 1} of {STEP_COUNT}:", exact=False)
    expect(after).to_be_visible(timeout=TIMEOUT_MS)
    settle(page)
    page.locator(f"{MAIN} .js-plotly-plot").first.click()  # anywhere else on the page
    page.keyboard.press("ArrowLeft")
    before = page.get_by_text(f"Step {number} of {STEP_COUNT}:", exact=False)
    expect(before).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.get_by_role("radio", name=step.choices[step.right_choice].text)).to_be_checked()
    assert exceptions_on(page) == []


# -- without a browser: how lecture mode walks an answer's parts ------------------------


def test_an_answer_s_parts_are_its_paragraphs_then_its_mistake_each_once():
    for step in STEPS:
        parts = answer_parts(step)
        paragraphs = [part.strip() for part in step.reveal.split("\n\n")]
        assert list(parts[: len(paragraphs)]) == paragraphs
        assert len(parts) == len(paragraphs) + (step.mistake is not None)
        if step.mistake:
            assert parts[-1].endswith(step.mistake)


def most_parts_step() -> int:
    return max(range(1, STEP_COUNT), key=lambda n: len(answer_parts(STEPS[n - 1])))


def test_next_walks_the_answer_s_parts_before_the_next_step_in_lecture_mode():
    number = most_parts_step()
    step, parts = STEPS[number - 1], answer_parts(STEPS[number - 1])
    assert len(parts) > 1
    app = open_app(LESSON, {"step": str(number), "lecture": "1"})
    app.radio(key=STATE.pick(number)).set_value(step.right_choice).run()
    app.button(key=STATE.check_button(number)).click().run()
    for index in range(len(parts)):
        shown = [md.value for md in app.markdown if md.value.startswith("**Answer:")]
        assert len(shown) == 1 and shown[0].endswith(parts[index])
        label = app.button(key=STATE.next).label
        assert label == ("Next part" if index < len(parts) - 1 else "Next step")
        app.button(key=STATE.next).click().run()
    assert app.session_state[STATE.step] == number + 1
    assert app.button(key=STATE.back).label == "Previous step"  # not answered there
    app.button(key=STATE.back).click().run()
    assert app.session_state[STATE.step] == number  # back at the answer's first part
    assert app.button(key=STATE.back).label == "Previous step"
    assert app.button(key=STATE.next).label == "Next part"


def test_outside_lecture_mode_the_whole_answer_shows_at_once():
    number = most_parts_step()
    step = STEPS[number - 1]
    app = open_app(LESSON, {"step": str(number)})
    app.button(key=STATE.show_button(number)).click().run()
    text = "\n\n".join(md.value for md in app.markdown)
    assert step.reveal in text and (step.mistake or "") in text
    assert app.button(key=STATE.next).label == "Next step"
