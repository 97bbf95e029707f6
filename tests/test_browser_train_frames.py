"""The Batch page's Training tab plays in the browser (ui/shared/frame_player.py, frames from
ui/batch/train_frames.py): Play, → and Shift → step through states the server computed
a block of 20 at a time, one message per block asked for and none per step; Reset goes
back; a learning rate that runs away ends the run with its message on screen.

Every wait is for what the page draws (the kernels' titles, the loss curve's marker,
the words), never for a time.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser import TIMEOUT_MS, exceptions_on, expect_link, settle
from playwright.sync_api import expect
from test_batch_model import settings
from test_browser_step_frames import open_player

from cnn.network import NetConfig
from pooling import PoolConfig
from teaching.batch.story import start_trajectory
from teaching.numbers import fmt
from ui.batch.train_frames import LOSS_TITLE, LOSS_TRACE, LOSS_X

pytestmark = pytest.mark.browser

PLAYER = "bt_train_frames"
# The step the kernels' chart shows (its titles say "K0 after step t"), and the loss
# curve's: its marker's x and how many points it draws.
SHOWN = """() => {
  const plot = (key) => document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  const kernels = plot('bt_fig_trained_kernels'), loss = plot('bt_fig_loss');
  if (!kernels || !kernels.data || !loss || !loss._fullData) return null;
  const titles = kernels.data.find((t) => t.name === 'titles');
  const now = loss._fullData.find((t) => t.name === 'now');  // arrays as Plotly reads them
  const curve = loss._fullData.find((t) => t.name === 'loss');
  return { kernels: Number(String(titles.text[0]).split(' ').pop()),
           marker: Number(now.x[0]), points: curve.x.length };
}"""
FRAMES = f"() => window.poolingLabFrames.players['{PLAYER}'].frames.count"
RUNAWAY = "n=2&relu=0"
# Every step the player draws on the kernels' chart, in order (its Plotly.react calls).
DRAWN_STEPS = """() => {
  window.drawnSteps = [];
  const react = window.Plotly.react;
  window.Plotly.react = function (plot, data, ...rest) {
    const ours = plot instanceof Element && plot.closest('.st-key-bt_fig_trained_kernels');
    const titles = ours && Array.isArray(data) && data.find((t) => t && t.name === 'titles');
    if (titles) window.drawnSteps.push(Number(String(titles.text[0]).split(' ').pop()));
    return react.call(this, plot, data, ...rest);
  };
}"""  # at learning rate 1.0 step 3 runs away (test_train_frames)


def wait_for_step(page, step: int) -> None:
    """Until the kernels and the loss curve both show `step` steps taken."""
    page.wait_for_function(
        f"""() => {{ const s = ({SHOWN})();
          return s !== null && s.kernels === {step} && s.marker === {step}
            && s.points === {step + 1}; }}""",
        timeout=TIMEOUT_MS,
    )


def sentence(page):
    return page.locator(".lab-frames p.sentence")


def default_losses(steps: int) -> list[float]:
    return start_trajectory(settings()).reach(steps).losses


def test_play_crosses_a_block_and_asks_once_per_block(page, app_url):
    sent = open_player(page, f"{app_url}/batch?tab=training")
    wait_for_step(page, 0)
    assert page.evaluate(FRAMES) == 21  # steps 0..20: the first block
    page.evaluate(DRAWN_STEPS)
    before = len(sent)
    page.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_function("() => window.drawnSteps.includes(24)", timeout=TIMEOUT_MS)
    page.get_by_role("button", name=re.compile("Pause")).click()
    settle(page)
    shown = page.evaluate(SHOWN)["kernels"]
    assert shown >= 24
    wait_for_step(page, shown)
    expect_link(page, steps=str(shown))
    frames = page.evaluate(FRAMES)
    assert frames > 21 and (frames - 21) % 20 == 0  # grown by whole blocks of 20
    # One message per block asked for, one when Play stopped; none per step.
    assert len(sent) - before == (frames - 21) // 20 + 1
    # The blocks arrived without losing the place: every step drawn in order, none again.
    drawn = page.evaluate("window.drawnSteps")
    steps = [step for i, step in enumerate(drawn) if i == 0 or step != drawn[i - 1]]
    assert steps == list(range(shown + 1)), steps  # 0 (Play drawn), 1, 2, …
    losses = default_losses(shown)
    expect(sentence(page)).to_contain_text(f"after {shown} steps: {fmt(losses[-1], 4)}")
    assert exceptions_on(page) == []


def test_shift_right_jumps_ten_past_the_first_block_and_reset_goes_back(page, app_url):
    sent = open_player(page, f"{app_url}/batch?tab=training&steps=3")
    wait_for_step(page, 3)
    before = len(sent)
    sentence(page).click()  # the page has the keys, no input
    page.keyboard.press("Shift+ArrowRight")
    wait_for_step(page, 13)
    expect_link(page, steps="13")
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 14)
    page.keyboard.press("Shift+ArrowRight")  # 24: past the first block (0..23)
    wait_for_step(page, 24)
    losses = default_losses(24)
    expect(sentence(page)).to_have_text(
        f"Batch loss (mean) after 24 steps: {fmt(losses[24], 4)} "
        f"({fmt(losses[24] - losses[23], 4)} from the step before); "
        f"before the first step: {fmt(losses[0], 4)}."
    )
    expect(page.locator(".lab-frames .count")).to_have_text(re.compile(r"^24 of \d+ computed$"))
    page.get_by_role("button", name="Reset", exact=True).click()
    wait_for_step(page, 0)
    expect_link(page, steps="0")
    frames = page.evaluate(FRAMES)
    assert frames >= 44  # the block after 23 came
    assert len(sent) - before == (frames - 24) // 20  # one message a block, no more
    assert exceptions_on(page) == []


def test_a_runaway_learning_rate_ends_play_with_its_message(page, app_url):
    open_player(page, f"{app_url}/batch?tab=training&{RUNAWAY}")
    wait_for_step(page, 0)
    rate = page.get_by_role("slider", name="Learning rate")
    rate.focus()
    page.keyboard.press("ArrowRight")  # 0.1 → 0.3
    page.keyboard.press("ArrowRight")  # → 1.0
    expect_link(page, lr="1.0")
    page.wait_for_function(f"() => ({FRAMES})() === 3", timeout=TIMEOUT_MS)  # 0, 1, 2
    page.get_by_role("button", name=re.compile("Play")).click()
    wait_for_step(page, 2)
    note = page.locator(".lab-frames p.note.error")
    expect(note).to_have_text(re.compile(r"^Step 3 ran away: at learning rate 1\.0 "))
    expect(note).to_contain_text("what you see is after step 2")
    expect(page.get_by_role("button", name=re.compile("Play"))).to_be_visible()  # stopped
    expect(page.get_by_role("button", name="1 step")).to_be_disabled()
    expect_link(page, steps="2")
    trained = start_trajectory(
        settings(learning_rate=1.0, size=2, network=NetConfig(2, 3, False, PoolConfig("max", 2)))
    ).reach(40)
    assert trained.diverged_at == 3 and np.isfinite(trained.losses).all()
    expect(sentence(page)).to_contain_text(f"after 2 steps: {fmt(trained.losses[2], 4)}")
    assert exceptions_on(page) == []


def test_the_loss_curves_twin_grows_with_the_steps_taken_in_the_browser(page, app_url):
    """From 3 steps (the server's) to 5 by → (the browser's frames): the loss curve's
    text twin has a row per step taken, step 0 to 5, each with the loss the engine
    computes, the last marked, and its summary says so."""
    open_player(page, f"{app_url}/batch?tab=training&steps=3")
    wait_for_step(page, 3)
    sentence(page).click()  # the page has the keys, no input
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 5)
    losses = default_losses(5)
    twin = page.get_by_role("figure", name=LOSS_TITLE, exact=True)
    expect(twin.locator("p")).to_have_text(
        f"{LOSS_TITLE}: 6 points, {LOSS_X} 0 to 5; {LOSS_TRACE} from {fmt(min(losses))} to "
        f"{fmt(max(losses))}; current point: {LOSS_X} 5, {LOSS_TRACE} {fmt(losses[5])}."
    )
    rows = twin.get_by_role("table").locator("tbody tr")
    expect(rows).to_have_count(6)
    for step, loss in enumerate(losses):
        cell = rows.nth(step).get_by_role("cell")
        said = fmt(loss) + (", current point" if step == 5 else "")
        expect(rows.nth(step).get_by_role("rowheader")).to_have_text(f"{LOSS_X} {step}")
        expect(cell).to_have_text(said)
