"""What a student waits for in the browser, the lab beside the floor (Playwright + Debian
Chromium, warm servers).

    python benchmarks/bench_browser.py [--root OTHER_CHECKOUT] [--repeats 7]

It serves the lab (this checkout, or --root) and the floor, benchmarks/floor_app.py
(the least a Streamlit + Plotly page like the Playground costs: a sidebar
number input, four 6x6 heatmaps), each on its own loopback port and the same way
(deploy/local_server: the same flags, the served checkout's config file). Both open the
same link, the lab's Playground's (6x6 grid, 2x2 window, stride 1). After one warm-up
run of each, runs alternate floor, lab, floor, lab, ... (--repeats of each), each in a
new browser context, as a new student. Both servers are stopped at the end, even on error.

Both apps, timed from Python (the action, then a condition polled every 10 ms):
- open: navigation until every chart is drawn and the script idle (page_state.SETTLED);
- change: until the chart's numbers change after, on the floor, a click on the sidebar
  "Window height" + button (its "Output y" loses a row), on the lab, sidebar Max ->
  Average (dL/dx). The page's main thread is left idle first (page_state.BROWSER_IDLE):
  a click into a page still being painted would time Chromium's painting.
The lab only (the floor has no step-through), timed in the page by its own clock
(benchmarks/browser_probes.py):
- step: in "Step through", the frame player's → key (the focus on the page, in no
  control), from the key press reaching the page to the first animation frame whose
  dL/dx title on screen names the next window, in ms and in animation frames begun
  (none begins while a task holds the main thread: 1 frame can be long); 5 steps a
  run, each once the main thread is free (idle before the first; after a step this
  Chromium gives no idle time, see MAIN_THREAD_FREE). A step tab with no frame player
  but a Next button is stepped by clicking it; with neither, or no step tab, step and
  Play print n/a;
- Play: speed 8 a second chosen in the player's <select>, then P: each animation frame
  showing a new dL/dx title is a frame drawn (windows moved past undrawn are counted);
  12 frames, then P again (Pause);
- messages: WebSocket frames the page sends the server (Playwright's framesent) while
  stepping, while playing, and on Pause (which sends the position, once).

It prints medians and the worst, the lab/floor ratio of the medians, and the targets
beside them (nothing here asserts them): open ratio <= 1.2, change ratio <= 1.1, step
<= 2 frames (33 ms), Play >= 4 frames a second, 0 messages while stepping or playing.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections import Counter
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.browser_apps import (  # noqa: E402
    FLOOR_APP,
    QUERY,
    VIEWPORT,
    WAIT_MS,
    described,
    floor_control,
    lab_control,
    served_with_chromium,
)
from benchmarks.browser_probes import (  # noqa: E402
    ARM_STEP,
    BROWSER_IDLE_OR_TIMEOUT,
    MAIN_THREAD_FREE_OR_TIMEOUT,
    RECORD_FRAMES,
    SentFrames,
)
from deploy.page_state import CHART_TITLE, CHART_Z, SETTLED  # noqa: E402

STEPS = 5  # steps timed a run
PLAY_SPEED = "8"  # frames a second: an option of the player's <select>
PLAY_FRAMES = 12  # frames recorded a run
PAUSE_MESSAGE_MS = 1_500  # how long Pause's message is waited for
FRAME_MS = 1000 / 60

CHANGED = f"""([prefix, old]) => {{
  const now = ({CHART_Z})(prefix);
  return now !== null && JSON.stringify(now) !== JSON.stringify(old);
}}"""
TITLED = f"(prefix) => ({CHART_TITLE})(prefix) !== null"
BLUR = "() => { if (document.activeElement) document.activeElement.blur(); }"
UNSETTLED = Counter()  # waits for an idle or free main thread that ran out of time


def settle(page, script: str) -> None:
    if not page.evaluate(script):
        UNSETTLED[script] += 1


def timed(action, condition, page, arg=None) -> float:
    """Seconds from `action` until `condition` holds in the page."""
    start = time.perf_counter()
    action()
    page.wait_for_function(condition, arg=arg, timeout=WAIT_MS, polling=10)
    return time.perf_counter() - start


def open_and_change(page, url: str, *, chart: str, change) -> dict:
    """open: the Playground until settled; change: `change()` until `chart`'s z changes."""
    run = {"open": timed(lambda: page.goto(f"{url}/playground?{QUERY}"), SETTLED, page)}
    settle(page, BROWSER_IDLE_OR_TIMEOUT)
    before = page.evaluate(CHART_Z, chart)
    run["change"] = timed(change, CHANGED, page, [chart, before])
    page.wait_for_function(SETTLED, timeout=WAIT_MS)
    return run


def floor_run(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    run = open_and_change(page, url, chart="Output y", change=floor_control(page).click)
    context.close()
    return run


def step_action(page):
    """How a student goes to the next window on this checkout's step tab: the frame
    player's → key, with the focus on the page (the tab just clicked holds it, and the
    player leaves keys in a control alone), or an older layout's Next button; None."""
    if page.locator(".lab-frames").count():
        page.evaluate(BLUR)
        return lambda: page.keyboard.press("ArrowRight")
    button = page.get_by_role("button", name=re.compile("Next"))  # after an icon, before a key
    return button.first.click if button.count() else None


def steps(page, advance, sent: SentFrames) -> list[dict]:
    """Each of STEPS actions until the first frame showing the next window (ARM_STEP)."""
    times = []
    settle(page, BROWSER_IDLE_OR_TIMEOUT)
    for window in range(2, STEPS + 2):
        settle(page, MAIN_THREAD_FREE_OR_TIMEOUT)
        page.evaluate(ARM_STEP, f"dL/dx after {window} of")
        sent.phase = "step"
        advance()
        page.wait_for_function("() => window.benchStep.shown !== null", timeout=WAIT_MS)
        sent.phase = None
        times.append(page.evaluate("() => window.benchStep"))
    return times


def play(page, sent: SentFrames) -> dict:
    """Play at PLAY_SPEED for PLAY_FRAMES frames, then Pause: ms between frames, frames
    a second, and windows skipped (moved past without being drawn)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.locator(".lab-frames select").first.select_option(PLAY_SPEED)
    page.evaluate(BLUR)
    settle(page, MAIN_THREAD_FREE_OR_TIMEOUT)
    page.evaluate(RECORD_FRAMES, "dL/dx after")
    sent.phase = "play"
    page.keyboard.press("p")
    page.wait_for_function(
        f"() => window.benchFrames.times.length >= {PLAY_FRAMES}", timeout=WAIT_MS
    )
    sent.phase = "pause"
    page.keyboard.press("p")
    record = page.evaluate("() => { window.benchFrames.stop = true; return window.benchFrames; }")
    if not sent.counts["pause"]:
        try:  # Pause's message, if any, may be reported after the key press returns
            sent.sockets[-1].wait_for_event("framesent", timeout=PAUSE_MESSAGE_MS)
        except PlaywrightTimeout:
            pass
    sent.phase = None
    times = record["times"][:PLAY_FRAMES]
    windows = [int(title.split()[2]) for title in record["titles"][:PLAY_FRAMES]]
    return {
        "gaps": [later - earlier for earlier, later in pairwise(times)],
        "fps": (len(times) - 1) * 1000 / (times[-1] - times[0]),
        "skipped": sum(later - earlier - 1 for earlier, later in pairwise(windows)),
    }


def lab_run(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    sent = SentFrames(page)
    run = open_and_change(page, url, chart="dL/dx", change=lab_control(page).click)
    run.update(steps=None, play=None, sent=sent.counts)
    tab = page.get_by_role("tab", name="Step through")
    if tab.count():
        tab.click()
        page.wait_for_function(TITLED, arg="dL/dx after 1 of", timeout=WAIT_MS)
        page.wait_for_function(SETTLED, timeout=WAIT_MS)
        advance = step_action(page)
        if advance is not None:
            run["steps"] = steps(page, advance, sent)
        if page.locator(".lab-frames select").count():
            run["play"] = play(page, sent)
    context.close()
    return run


def row(name: str, floor: list | None, lab: list, *, target: str, worst=max, form=".3f") -> str:
    median = statistics.median
    sides = [median(lab), worst(lab)] if floor is None else [median(floor), worst(floor)]
    cells = [f"{value:8{form}}" for value in sides]
    if floor is None:
        cells = [f"{'-':>8}"] * 2 + cells + [" " * 6]
    else:
        cells += [f"{median(lab):8{form}}", f"{worst(lab):8{form}}"]
        cells.append(f"{median(lab) / median(floor):6.2f}")
    return f"{name:<20} " + " ".join(cells) + f"  {target}"


def report(floor: list[dict], lab: list[dict]) -> None:
    print(f"{'':<20} {'floor':>17} {'lab':>17} {'lab/':>6}")
    print(f"{'':<20} {'median':>8} {'worst':>8} {'median':>8} {'worst':>8} {'floor':>6}  target")
    for name, target in (("open", "ratio <= 1.2"), ("change", "ratio <= 1.1")):
        values = [[run[name] for run in runs] for runs in (floor, lab)]
        print(row(f"{name} (s)", *values, target=target))
    stepped = [step for run in lab for step in run["steps"] or ()]
    played = [run["play"] for run in lab if run["play"]]
    if stepped:
        target = f"<= {2 * FRAME_MS:.0f} (2 frames); {len(stepped)} steps"
        total = [step["shown"] - step["pressed"] for step in stepped]
        print(row("step (ms)", None, total, target=target, form=".1f"))
        frames = [step["frames"] for step in stepped]
        note = "1: the key's own task drew it (time is in it)"
        print(row("step (frames begun)", None, frames, target=note, form=".0f"))
    else:
        print(f"{'step (ms)':<20} n/a: no step tab, or neither a frame player nor Next")
    if played:
        gaps = [ms for run in played for ms in run["gaps"]]
        rates = [run["fps"] for run in played]
        skipped = sum(run["skipped"] for run in played)
        print(row("Play gap (ms)", None, gaps, target=f"{1000 / int(PLAY_SPEED):.0f}", form=".1f"))
        target = f">= 4 (set: {PLAY_SPEED}); windows skipped {skipped}"
        print(row("Play (frames/s)", None, rates, target=target, worst=min, form=".2f"))
    else:
        print(f"{'Play':<20} n/a: no frame player")
    sent = sum((run["sent"] for run in lab), Counter())
    print(
        f"messages to the server: stepping {sent['step']} in {len(stepped)} steps, playing "
        f"{sent['play']} in {len(played)} Plays (target 0 each); on Pause {sent['pause']} "
        f"in {len(played)} Pauses (the position, once)"
    )
    for script, count in UNSETTLED.items():
        name = "BROWSER_IDLE" if script == BROWSER_IDLE_OR_TIMEOUT else "MAIN_THREAD_FREE"
        print(f"{name} ran out of time {count} times (the action went ahead)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="lab checkout to serve")
    parser.add_argument("--repeats", type=int, default=7, help="runs of each app")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with served_with_chromium(args.root) as (floor_url, lab_url, browser):
        floor_run(browser, floor_url)  # warm both servers: imports, caches
        lab_run(browser, lab_url)
        UNSETTLED.clear()
        floor, lab = [], []
        for _ in range(max(1, args.repeats)):
            floor.append(floor_run(browser, floor_url))
            lab.append(lab_run(browser, lab_url))
    print(f"floor: {FLOOR_APP}\nlab:   {described(args.root)}")
    print(f"{len(lab)} runs of each, alternating, after one warm-up run of each")
    print(f"load average (1 min) {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    report(floor, lab)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
