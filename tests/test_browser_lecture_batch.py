"""The Batch page on the projector (1280x720, lecture=1): each tab's story walked a
screen at a time (every screen within one viewport, with no inner scroller, no chart
cut and its text and numbers at lecture size: tests/test_browser_cut_charts.py's sweep
of every lecture screen); the screen on
the question “two losses of 2 and −2: do they cancel, and how is each weight updated?”
holding all of its answer in view; the arrow keys walking the screens; and that screen
following the loss's mean/sum switch, with the model's numbers."""

import re

import numpy as np
import pytest
from browser import (
    FIT,
    TIMEOUT_MS,
    assert_one_projector_screen,
    chart_values,
    exceptions_on,
    expect_link,
    misplaced_numbers,
    open_page,
    screen_fit,
    settle,
    small_text,
    wait_for_title,
    walk_position,
)
from playwright.sync_api import expect

from teaching.batch.pair import build_pair
from teaching.batch.story import build_batch_story
from teaching.formulas import batch_rule, step_rule
from ui.figures.frame_data import SIGNIFICANT
from ui.figures.mosaic import tile
from ui.figures.style import LECTURE_CELL_FONT_PX, LECTURE_TEXT_PX

pytestmark = pytest.mark.browser

# Screens of each walked tab, with the default link's settings.
TEXT_PX = LECTURE_TEXT_PX  # lecture mode's text, at the least
NUMBER_PX = LECTURE_CELL_FONT_PX  # lecture mode's numbers on maps, at the least
SEED_SCREEN = 4  # "One step from the batch", on the Two examples tab
# Its two mosaics: the kernel gradients (dL_0/dK, dL_1/dK, their mean or sum) and K
# before and after the step, by their charts' keys.
SEED_MOSAICS = (".st-key-bt_fig_pair_update_0", ".st-key-bt_fig_pair_update_1")

# Whether an element lies wholly inside the viewport: seen without scrolling.
IN_VIEW = """(element) => {
  const box = element.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
}"""
# z of the mosaic in the box `selector` (NaN between its maps as null), once drawn.
MOSAIC_Z = """(selector) => {
  const plot = document.querySelector(selector + ' .js-plotly-plot');
  const cells = plot && plot._fullData && plot._fullData.find((t) => t.type === 'heatmap');
  return cells ? Array.from(cells.z, (row) => Array.from(row, (v) => (v === null ? null : v)))
               : null;
}"""


def lecture_link(app_url: str, tab: str, screen: int, extra: str = "") -> str:
    return f"{app_url}/batch?tab={tab}&screen={screen}{extra}&lecture=1"


@pytest.mark.parametrize("screen", [1, 4])  # 6x6 maps: the pooling input, the routed maps
def test_a_small_batch_per_example_writes_its_numbers_in_one_row(projector_page, app_url, screen):
    """Three examples: their maps numbered (in hundredths), side by side on one screen."""
    page = projector_page
    open_page(page, lecture_link(app_url, "examples", screen, "&n=3"))
    expect(walk_position(page)).to_have_text(re.compile(rf"^{screen} of 5 · "), timeout=TIMEOUT_MS)
    chart_values(page, "In units of 10⁻²")
    fit = screen_fit(page)
    assert fit["screens"] <= FIT and fit["hidden"] == [], (screen, fit)
    assert misplaced_numbers(page, NUMBER_PX) == []
    assert small_text(page, TEXT_PX) == []
    assert exceptions_on(page) == []


TRAINING_LINKS = {  # one screen, whatever the run: at rest, the last step, diverged
    "at rest": "",
    "the last step": "&steps=200",
    "diverged": "&f=2&k=3&relu=0&pool=max&red=sum&lr=3&steps=40&n=64",  # at step 1
    "diverged later": "&n=2&relu=0&lr=1.0&steps=40",  # at step 3: a player of 3 frames
}


@pytest.mark.parametrize("extra", TRAINING_LINKS.values(), ids=TRAINING_LINKS.keys())
def test_training_is_one_screen_with_its_player_beside_the_charts(projector_page, app_url, extra):
    page = projector_page
    open_page(page, f"{app_url}/batch?tab=training{extra}&lecture=1")
    wait_for_title(page, "Loss after each step")
    expect(page.locator(".lab-frames p.sentence")).to_be_visible(timeout=TIMEOUT_MS)
    if "steps=40&n=64" not in extra:  # a single frame (step 1 ran away) has no buttons
        expect(page.get_by_role("button", name="Reset", exact=True)).to_be_visible()
    if "steps=40" in extra or "steps=200" in extra:  # why the steps stop, in view
        assert page.locator(".lab-frames p.note").evaluate(IN_VIEW)
    assert_one_projector_screen(page)


def test_training_takes_a_step_on_the_arrow_key(projector_page, app_url):
    page = projector_page
    open_page(page, f"{app_url}/batch?tab=training&lecture=1")
    page.get_by_text("Batch loss (mean) after 0 steps").click()  # focus on the page
    page.keyboard.press("ArrowRight")
    expect_link(page, steps="1")
    story = build_batch_story(default_settings(steps=1))
    expect(page.get_by_text("Batch loss (mean) after 1 step:")).to_contain_text(
        fmt4(story.losses[-1]), timeout=TIMEOUT_MS
    )
    settle(page)
    assert exceptions_on(page) == []


def test_step_through_keeps_the_arrows_for_its_player_and_pages_for_its_screens(
    projector_page, app_url
):
    """→ adds an example (the player's), Page Down goes to the next screen (the walk's)
    and keeps the example: both screens follow the one player."""
    page = projector_page
    open_page(page, lecture_link(app_url, "step", 1))
    walk_position(page).click()  # focus on the page, not in an input
    page.keyboard.press("ArrowRight")
    expect_link(page, ex="1", screen="1")
    chart_values(page, "#1 “")  # what example #1 (“its label”) routes
    page.keyboard.press("PageDown")
    expect_link(page, ex="1", screen="2")
    expect(walk_position(page)).to_have_text(re.compile(r"^2 of 2 · "), timeout=TIMEOUT_MS)
    story = build_batch_story(default_settings())
    # A step-through's frames carry a map's z at frame_data.SIGNIFICANT digits (its
    # colour; the numbers written on it are its labels): equal to that many digits.
    np.testing.assert_allclose(
        chart_values(page, "mean dL/dK, #0…#1"),
        story.kernel_running(0)[1],
        rtol=0.5 * 10 ** (1 - SIGNIFICANT),
        atol=1e-12,
    )
    page.keyboard.press("PageUp")
    expect_link(page, ex="1", screen="1")
    settle(page)
    assert exceptions_on(page) == []


def mosaics(page) -> list[np.ndarray]:
    """The one-step screen's two mosaics' z, NaN between their maps."""
    for selector in SEED_MOSAICS:
        page.wait_for_function(f"() => ({MOSAIC_Z})({selector!r}) !== null", timeout=TIMEOUT_MS)
    return [np.array(page.evaluate(MOSAIC_Z, s), dtype=float) for s in SEED_MOSAICS]


def expected_mosaics(pair, reduction: str) -> list[np.ndarray]:
    """What the screen draws: the two gradients and their mean (or sum), K before and
    after the step, each row of maps as small_multiples tiles it."""
    gradients = [*pair.kernel_grads, pair.mean if reduction == "mean" else pair.total]
    kernels = [pair.kernel_before, pair.kernel_after(reduction)]
    return [tile(gradients, 3)[0], tile(kernels, 2)[0]]


def test_the_one_step_screen_shows_the_whole_answer_without_scrolling(projector_page, app_url):
    page = projector_page
    open_page(page, lecture_link(app_url, "pair", SEED_SCREEN))
    pair = build_pair(build_batch_story(default_settings()), 0)
    for drawn, expected in zip(mosaics(page), expected_mosaics(pair, "mean"), strict=True):
        np.testing.assert_allclose(drawn, expected, atol=1e-12)  # NaN where NaN
    for selector in SEED_MOSAICS:
        assert page.locator(f"{selector} .js-plotly-plot").evaluate(IN_VIEW), selector
    for title in ("dL_0/dK", "dL_1/dK", "mean dL/dK", "K before", "K after"):
        expect(page.locator(".js-plotly-plot").get_by_text(title, exact=True)).to_have_count(1)
    losses = page.get_by_text("Losses before → after:", exact=False).first
    assert losses.evaluate(IN_VIEW)
    text = losses.inner_text()
    for before, after in zip(pair.losses_before, pair.losses_after, strict=True):
        assert f"{fmt(before)} → {fmt(after)}" in text
    for formula in page.locator(".katex").all():  # d/dK (1/N Σ L_n) = 1/N Σ dL_n/dK; the step
        assert formula.evaluate(IN_VIEW)
    assert tex(page) == [batch_rule("mean", 2), f"{{{step_rule('mean', '0.1')}}}"]


def test_the_arrow_keys_walk_the_screens_and_the_link_follows(projector_page, app_url):
    page = projector_page
    open_page(page, lecture_link(app_url, "pair", 1))
    walk_position(page).click()  # focus on the page, not in an input
    page.keyboard.press("ArrowRight")
    expect_link(page, screen="2")
    expect(walk_position(page)).to_have_text(re.compile(r"^2 of 7 · "), timeout=TIMEOUT_MS)
    page.keyboard.press("ArrowRight")
    expect_link(page, screen="3")
    page.keyboard.press("ArrowLeft")
    expect_link(page, screen="2")
    expect(walk_position(page)).to_have_text(re.compile(r"^2 of 7 · "), timeout=TIMEOUT_MS)
    settle(page)
    assert exceptions_on(page) == []


def test_the_one_step_screen_follows_the_mean_sum_switch(projector_page, app_url):
    page = projector_page
    open_page(page, lecture_link(app_url, "pair", SEED_SCREEN))
    assert r"\frac{1}{N}" in tex(page)[0]  # the mean's 1/N
    page.locator("[data-testid='stExpandSidebarButton']").click()
    page.locator("[data-testid='stSidebar']").get_by_text("sum (Σ)").click()
    expect_link(page, red="sum", screen=str(SEED_SCREEN))
    settle(page)
    pair = build_pair(build_batch_story(default_settings(reduction="sum")), 0)
    wanted = expected_mosaics(pair, "sum")
    expect(page.locator(".js-plotly-plot").get_by_text("sum dL/dK", exact=True)).to_have_count(1)
    for drawn, expected in zip(mosaics(page), wanted, strict=True):
        np.testing.assert_allclose(drawn, expected, atol=1e-12)
    np.testing.assert_allclose(wanted[1][1:, 4:], pair.kernel_before - 0.1 * pair.total, atol=1e-12)
    assert tex(page) == [batch_rule("sum", 2), f"{{{step_rule('sum', '0.1')}}}"]
    assert r"\frac{1}{N}" not in "".join(tex(page))
    losses = page.get_by_text("Losses before → after:", exact=False).first.inner_text()
    assert f"sum {fmt(pair.losses['before'])} → {fmt(pair.losses['sum'])}" in losses
    page.locator("[data-testid='stSidebar']").get_by_text("mean (1/N Σ)").click()
    expect_link(page, red="mean")
    settle(page)
    expect(page.locator(".js-plotly-plot").get_by_text("mean dL/dK", exact=True)).to_have_count(1)
    mean_pair = build_pair(build_batch_story(default_settings()), 0)
    for drawn, expected in zip(mosaics(page), expected_mosaics(mean_pair, "mean"), strict=True):
        np.testing.assert_allclose(drawn, expected, atol=1e-12)
    assert exceptions_on(page) == []
    page.locator("[data-testid='stSidebarCollapseButton'] button").click()  # as it was
    expect(page.locator("[data-testid='stSidebar']")).to_have_attribute("data-collapsed", "true")


def tex(page) -> list[str]:
    """The TeX source of each formula on the page, as KaTeX keeps it."""
    annotations = page.locator(".katex annotation")
    return [text.strip() for text in annotations.all_text_contents()]


def default_settings(**changes):
    """The Batch page's settings with its link's defaults."""
    from test_batch_model import settings

    return settings(**changes)


def fmt4(value: float) -> str:
    from teaching.numbers import fmt as write

    return write(value, 4)


def fmt(value: float) -> str:
    from teaching.numbers import fmt as write

    return write(value, 3)


def test_the_seeds_batch_of_100_puts_the_askers_idea_on_one_screen(projector_page, app_url):
    """Home's and the Lesson's link, in lecture mode: the idea against the right way
    and the check, on one projector screen, read right in the accessibility tree."""
    from test_text_truth_batch import batch_settings

    from teaching.batch.winners import split_sentence

    page = projector_page
    open_page(page, f"{app_url}/batch?n=100&tab=winners&screen=2&lecture=1")
    expect(walk_position(page)).to_have_text("2 of 2 · Split over every winner?")
    assert_one_projector_screen(page)
    story = build_batch_story(batch_settings(size=100))
    said = split_sentence(story, 0)
    expect(page.get_by_text(said)).to_be_in_viewport()
    tree = page.locator("main").aria_snapshot()
    assert said in tree
    for name in ("the check (FD)", "right way", "split evenly"):
        assert f'figure "dL/dK, kernel 0 (mean): {name}"' in tree
    ways = {"right way": story.right_kernels[0], "split evenly": story.split_kernels["even"][0]}
    for name, kernel in ways.items():
        twin = page.get_by_role("table", name=f"dL/dK, kernel 0 (mean): {name}")
        cells = twin.get_by_role("cell").all_inner_texts()
        read = [float(text.replace("−", "-")) for text in cells if text.strip()]
        np.testing.assert_allclose(read, kernel.ravel(), atol=5e-4)
