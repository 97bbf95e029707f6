"""Where a step of the frame player goes, input to screen (Playwright + Debian Chromium,
a warm server): the profile and the targets of issue 41.

    python benchmarks/bench_step.py [--root OTHER_CHECKOUT] [--steps 12] [--only NAME ...]

Cases (each opened in a new browser context at 1400x900, the page settled, the main
thread free before each input):
- pg-6x6-max-s1 ... pg-16x16-avg-s2: the Playground's step-through, a 2x2 window, the →
  key (--steps steps, from window 1);
- batch-64: the Batch page's step-through with 64 examples, the → key;
- point-6x6: pointing at y on the 6x6 grid: the mouse moved onto the next cell of y in
  reading order (Playwright's mouse: one pointermove), x's window following;
- play-6x6, play-16x16: Play at 8 frames a second (the player's <select>) for 16
  frames: frames a second, the longest task, windows skipped;
- floor: benchmarks/floor_app.py, served beside, with the → key redrawing one heatmap
  in the page (Plotly.update of its numbers and title: step_probes.FLOOR_STEP), the
  yardstick for a one-chart redraw by the same measures.

For each input, by the page's clock (step_probes.ARM_INPUT): the first DOM change, the
end of the key's handler, the first animation frame showing the new title ("shown")
and how many frames began up to it (1: the first frame after the input), and that
frame's paint done; as seen on screen: Chromium's screencast (CDP Page.startScreencast,
every compositor frame with its swap time), the first frame after the input in which
the watched chart's pixels changed, in ms from the input. Where the time went: the CDP
Performance metrics' script, style, layout and the rest of the tasks (paint,
compositing) between the input and its paint, and the script split by a CPU profile
(Profiler, 100 µs samples) into the text twins, Plotly, the frame player's own work,
Streamlit and the GC (step_probes.profile_kinds). Medians and worst over the inputs;
the 1-minute load average is printed with each case. It asserts nothing.
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import statistics
import sys
import time
from collections import Counter
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.browser_apps import VIEWPORT, WAIT_MS, described, served_with_chromium  # noqa: E402
from benchmarks.browser_probes import (  # noqa: E402
    BROWSER_IDLE_OR_TIMEOUT,
    MAIN_THREAD_FREE_OR_TIMEOUT,
)
from benchmarks.step_probes import ARM_INPUT, FLOOR_STEP, RECORD_PLAY, profile_kinds  # noqa: E402
from deploy.page_state import CELL_PIXEL, FIND_CHART, SETTLED  # noqa: E402

PLAY_FRAMES = 16
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
SCREEN_SETTLE_S = 0.25  # screencast frames still wanted after the paint (swap lag)


def grid(size: int) -> str:
    return ";".join(",".join(str((r * 5 + c * 3) % 7) for c in range(size)) for r in range(size))


def playground_link(size: int, mode: str, stride: int) -> str:
    return f"playground?x={grid(size)}&kh=2&kw=2&sh={stride}&sw={stride}&mode={mode}&tab=step"


class Screen:
    """Chromium's screencast of a page: every frame (its swap time in s since the
    epoch, PNG bytes) while on."""

    def __init__(self, context, page) -> None:
        self.cdp = context.new_cdp_session(page)
        self.frames: list[tuple[float, bytes]] = []
        self.cdp.on("Page.screencastFrame", self._frame)
        self.cdp.send("Performance.enable")
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": 100})

    def _frame(self, params) -> None:
        self.frames.append((params["metadata"]["timestamp"], base64.b64decode(params["data"])))
        self.cdp.send("Page.screencastFrameAck", {"sessionId": params["sessionId"]})

    def start(self) -> None:
        self.frames = []
        self.cdp.send("Page.startScreencast", {"format": "png", "everyNthFrame": 1})

    def stop(self) -> list[tuple[float, bytes]]:
        self.cdp.send("Page.stopScreencast")
        return self.frames

    def metrics(self) -> dict[str, float]:
        found = self.cdp.send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] for m in found if m["name"] in METRICS}


def changed_at(frames, box: dict, since_ms: float) -> float | None:
    """ms after `since_ms` (epoch) of the first screencast frame after it whose pixels
    in `box` (CSS px) differ from the last frame before it; None if none do."""
    from PIL import Image

    def crop(png: bytes) -> bytes:
        image = Image.open(io.BytesIO(png))
        scale = image.width / VIEWPORT["width"]
        area = [box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]]
        return image.crop(tuple(round(v * scale) for v in area)).tobytes()

    before = [png for stamp, png in frames if stamp * 1000 <= since_ms]
    after = [(stamp, png) for stamp, png in frames if stamp * 1000 > since_ms]
    if not before:
        return None
    old = crop(before[-1])
    for stamp, png in after:
        if crop(png) != old:
            return stamp * 1000 - since_ms
    return None


def chart_box(page, prefix: str) -> dict:
    return page.evaluate(
        f"(prefix) => {{ const r = ({FIND_CHART})(prefix).getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }",
        prefix,
    )


def one_input(page, screen: Screen, *, act, prefix: str, watched: str, how: str) -> dict:
    """`act()` (an input) timed until the frame titled `prefix` is painted, by the
    page's clock; how: "clock" (nothing else), "profile" (where the time went: CDP
    metrics and the CPU profile) or "screen" (the screencast: when the chart whose title
    starts with `watched` changed on screen). Each costs the page time of its own: one
    at a time."""
    if not page.evaluate(MAIN_THREAD_FREE_OR_TIMEOUT):
        print("  (the main thread was not free: the input went ahead)")
    box = chart_box(page, watched)
    page.evaluate(ARM_INPUT, prefix)
    if how == "screen":
        screen.start()
        time.sleep(0.05)  # a frame before the input to compare with
    if how == "profile":
        before = screen.metrics()
        screen.cdp.send("Profiler.start")
    act()
    page.wait_for_function("() => window.benchInput.painted !== null", timeout=WAIT_MS)
    probe, origin = page.evaluate("() => [window.benchInput, performance.timeOrigin]")
    pressed = probe["pressed"]
    run = {
        "changed": (probe["changed"] or probe["shown"]) - pressed,
        "handled": None if probe["handled"] is None else probe["handled"] - pressed,
        "shown": probe["shown"] - pressed,
        "frames": probe["frames"],
        "painted": probe["painted"] - pressed,
        "longest": max((ms for _, ms in probe["tasks"]), default=0.0),
    }
    if how == "screen":
        time.sleep(SCREEN_SETTLE_S)
        return {"screen": changed_at(screen.stop(), box, origin + pressed)}
    if how == "profile":
        kinds = profile_kinds(screen.cdp.send("Profiler.stop")["profile"])
        after = screen.metrics()
        spent = {name: (after[name] - before[name]) * 1000 for name in METRICS}
        return {
            "script": spent["ScriptDuration"],
            "style": spent["RecalcStyleDuration"],
            "layout": spent["LayoutDuration"],
            "rest": spent["TaskDuration"] - sum(spent[name] for name in METRICS[1:]),
            **{f"js {kind}": ms for kind, ms in kinds.items() if kind != "idle"},
        }
    return run


def timed_inputs(page, screen: Screen, inputs) -> list[dict]:
    """Each of `inputs` (act, prefix, watched; the first `steps` of them by the clock,
    the next by profile, the last on screen), merged a run per place in its pass."""
    third = len(inputs) // 3
    runs = [{} for _ in range(third)]
    for index, (act, prefix, watched) in enumerate(inputs[: 3 * third]):
        how = ("clock", "profile", "screen")[index // third]
        runs[index % third].update(
            one_input(page, screen, act=act, prefix=prefix, watched=watched, how=how)
        )
    return runs


def open_case(browser, url: str, link: str, ready: str):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{url}/{link}", timeout=3 * WAIT_MS)
    page.wait_for_function(f"() => ({FIND_CHART})({ready!r}) !== null", timeout=3 * WAIT_MS)
    page.wait_for_function(SETTLED, timeout=3 * WAIT_MS)
    page.evaluate(BROWSER_IDLE_OR_TIMEOUT)
    page.evaluate("() => { if (document.activeElement) document.activeElement.blur(); }")
    return context, page


def bounced(count: int, moves: int) -> list[int]:
    """`moves` positions from 0 onwards, turning back at either end of `count` frames."""
    path, position, way = [], 0, 1
    for _ in range(moves):
        if not 0 <= position + way < count:
            way = -way
        position += way
        path.append(position)
    return path


def key_steps(browser, url: str, link: str, *, titles, watched: str, steps: int, count: int):
    """3 x `steps` presses of → (← back from the last of `count` frames), each until the
    chart titled titles(frame) is painted."""
    context, page = open_case(browser, url, link, titles(0))
    screen = Screen(context, page)
    # The watched chart on screen (the Batch page's is below the fold): the screencast
    # sees only the viewport.
    page.evaluate(f"() => ({FIND_CHART})({watched!r}).scrollIntoView({{block: 'nearest'}})")
    inputs, before = [], 0
    for position in bounced(count, 3 * steps):
        key = "ArrowRight" if position > before else "ArrowLeft"
        inputs.append((lambda key=key: page.keyboard.press(key), titles(position), watched))
        before = position
    runs = timed_inputs(page, screen, inputs)
    context.close()
    return runs


def pointing(browser, url: str, steps: int) -> list[dict]:
    """The mouse onto cell after cell of y (5x5, from y[0,1]), x following."""
    link = playground_link(6, "max", 1)
    context, page = open_case(browser, url, link, "dL/dx after 1 of")
    screen = Screen(context, page)
    page.evaluate(f"() => ({FIND_CHART})('y: point').scrollIntoView({{block: 'center'}})")
    inputs = []
    for n in range(1, 3 * steps + 1):
        row, col = divmod(n % 25, 5)  # y[0,0] again after y[4,4]
        x, y = page.evaluate(CELL_PIXEL, ["y: point", row, col])
        act = lambda x=x, y=y: page.mouse.move(x, y)  # noqa: E731
        inputs.append((act, f"x: the window of y[{row},{col}]", "x: the window"))
    runs = timed_inputs(page, screen, inputs)
    context.close()
    return runs


def floor_steps(browser, url: str, steps: int) -> list[dict]:
    from benchmarks.browser_apps import QUERY

    context, page = open_case(browser, url, f"playground?{QUERY}", "Output y")
    page.evaluate(FLOOR_STEP, "Output y")
    screen = Screen(context, page)
    press = lambda: page.keyboard.press("ArrowRight")  # noqa: E731
    inputs = [(press, f"Output y {n}", "Output y") for n in range(1, 3 * steps + 1)]
    runs = timed_inputs(page, screen, inputs)
    context.close()
    return runs


def play(browser, url: str, size: int) -> dict:
    """Play at 8 a second on the size x size grid (max, stride 1) for PLAY_FRAMES frames."""
    context, page = open_case(browser, url, playground_link(size, "max", 1), "dL/dx after 1 of")
    page.locator(".lab-frames select").first.select_option("8")
    page.evaluate("() => document.activeElement.blur()")
    page.evaluate(MAIN_THREAD_FREE_OR_TIMEOUT)
    page.evaluate(RECORD_PLAY, "dL/dx after")
    page.keyboard.press("p")
    page.wait_for_function(
        f"() => window.benchFrames.times.length >= {PLAY_FRAMES}", timeout=WAIT_MS
    )
    page.keyboard.press("p")
    record = page.evaluate("() => { window.benchFrames.stop = true; return window.benchFrames; }")
    context.close()
    times = record["times"][:PLAY_FRAMES]
    windows = [int(title.split()[2]) for title in record["titles"][:PLAY_FRAMES]]
    return {
        "fps": (len(times) - 1) * 1000 / (times[-1] - times[0]),
        "gap": max(b - a for a, b in pairwise(times)),
        "longest": max((ms for start, ms in record["tasks"] if start <= times[-1]), default=0),
        "skipped": sum(b - a - 1 for a, b in pairwise(windows)),
    }


ROWS = (
    ("first change", "changed"),
    ("key handler", "handled"),
    ("shown (rAF)", "shown"),
    ("frames begun", "frames"),
    ("painted", "painted"),
    ("on screen", "screen"),
    ("longest task", "longest"),
    ("script", "script"),
    ("  js twins", "js twins"),
    ("  js Plotly", "js Plotly"),
    ("  js player", "js player"),
    ("  js page", "js page (Streamlit, other)"),
    ("  js GC", "js GC"),
    ("style", "style"),
    ("layout", "layout"),
    ("rest (paint..)", "rest"),
)


def print_case(name: str, runs: list[dict]) -> None:
    load = os.getloadavg()[0]
    print(f"\n{name}: {len(runs)} inputs, load average {load:.2f}   median  worst (ms)")
    for label, field in ROWS:
        values = [run.get(field, 0.0) for run in runs]
        values = [v for v in values if v is not None]
        if not values:
            print(f"  {label:<18} n/a")
            continue
        print(f"  {label:<18} {statistics.median(values):7.1f} {max(values):7.1f}")


def cases(steps: int):
    """name -> function(browser, lab_url, floor_url) -> runs (a list) or a Play record."""
    found = {}
    for size in (6, 16):
        for mode in ("max", "avg"):
            for stride in (1, 2):
                link = playground_link(size, mode, stride)
                windows = ((size - 2) // stride + 1) ** 2  # a 2x2 window
                found[f"pg-{size}x{size}-{mode}-s{stride}"] = (
                    lambda b, lab, _f, link=link, windows=windows: key_steps(
                        b, lab, link, titles=lambda n: f"dL/dx after {n + 1} of",
                        watched="dL/dx after", steps=steps, count=windows,
                    )
                )  # fmt: skip
    found["batch-64"] = lambda b, lab, _f: key_steps(
        b, lab, "batch?tab=step&n=64", titles=lambda n: f"#{n} routes",
        watched="mean of #0", steps=steps, count=64,
    )  # fmt: skip
    found["point-6x6"] = lambda b, lab, _f: pointing(b, lab, steps)
    found["play-6x6"] = lambda b, lab, _f: play(b, lab, 6)
    found["play-16x16"] = lambda b, lab, _f: play(b, lab, 16)
    found["floor"] = lambda b, _l, floor: floor_steps(b, floor, steps)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="lab checkout to serve")
    parser.add_argument("--steps", type=int, default=12, help="inputs timed a case")
    parser.add_argument("--only", nargs="*", default=None, help="case names (default: all)")
    args = parser.parse_args()
    chosen = cases(max(1, args.steps))
    names = args.only or list(chosen)
    with served_with_chromium(args.root) as (floor_url, lab_url, browser):
        print(f"lab: {described(args.root)}")
        warm = browser.new_context(viewport=VIEWPORT).new_page()  # the server's caches
        warm.goto(f"{lab_url}/{playground_link(6, 'max', 1)}")
        warm.wait_for_function(SETTLED, timeout=3 * WAIT_MS)  # a cold server, a busy machine
        warm.context.close()
        plays = Counter()
        for name in names:
            try:
                found = chosen[name](browser, lab_url, floor_url)
            except Exception as error:  # noqa: BLE001 - a case that fails: the others go on
                print(f"\n{name}: failed ({type(error).__name__}: {str(error).splitlines()[0]})")
                continue
            if isinstance(found, dict):
                plays[name] += 1
                load = os.getloadavg()[0]
                print(
                    f"\n{name}: load average {load:.2f}: {found['fps']:.2f} frames/s (set 8), "
                    f"longest gap {found['gap']:.0f} ms, longest task {found['longest']:.0f} ms, "
                    f"windows skipped {found['skipped']}"
                )
            else:
                print_case(name, found)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
