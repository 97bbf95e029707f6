"""What a student waits for in the browser, on a warm server (Playwright + Debian Chromium).

    python benchmarks/bench_browser.py [--url http://127.0.0.1:8501] [--repeats 5]

Without --url it starts its own server of this checkout on a loopback port and stops it
at the end (--root serves another checkout, for a before/after comparison). Each repeat
is a new browser context, as a new student would be. It prints the median and the worst
of three timings on the Playground (6x6 grid, 2x2 window, stride 1):

- open: navigation until every chart on the page is drawn and the script is idle;
- change: a sidebar control (Max to Average) until dL/dx is redrawn with new numbers;
- step: the next window in "Step through" until the step figure shows it.

Before change and step the browser is left to finish drawing (its main thread idle),
as it is when a student reads the page before touching it: on this 2-core machine a
click into a page still being painted measures Chromium's painting, not the lab.

Targets are printed beside the figures; nothing here asserts them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.local_server import start_app, stop  # noqa: E402
from deploy.page_state import BROWSER_IDLE, CHART_TITLE, CHART_Z, SETTLED  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
GRID = ";".join(",".join(str((r * 5 + c * 3) % 7) for c in range(6)) for r in range(6))
QUERY = f"x={GRID}&kh=2&kw=2&sh=1&sw=1"
TARGETS_S = {"open": 2.0, "change": 0.5, "step": 0.3}


def timed(action, condition, page, arg=None) -> float:
    start = time.perf_counter()
    action()
    page.wait_for_function(condition, arg=arg, timeout=60_000, polling=10)
    return time.perf_counter() - start


def one_student(browser, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    times = {}
    times["open"] = timed(lambda: page.goto(f"{url}/playground?{QUERY}"), SETTLED, page)
    page.evaluate(BROWSER_IDLE)
    before = page.evaluate(CHART_Z, "dL/dx")
    sidebar = page.locator("[data-testid='stSidebar']")
    times["change"] = timed(
        lambda: sidebar.get_by_text("Average", exact=True).click(),
        f"(old) => {{ const now = ({CHART_Z})('dL/dx'); "
        "return now !== null && JSON.stringify(now) !== JSON.stringify(old); }",
        page,
        before,
    )
    page.wait_for_function(SETTLED, timeout=60_000)
    page.get_by_role("tab", name="Step through").click()
    page.wait_for_function(f"() => ({CHART_TITLE})('dL/dx after 1 of') !== null", timeout=60_000)
    page.wait_for_function(SETTLED, timeout=60_000)
    page.evaluate(BROWSER_IDLE)
    next_button = page.get_by_role("button", name="Next", exact=True)
    if next_button.count():
        advance = next_button.click
    else:  # the layout before the step buttons: the slider takes arrow keys
        thumb = page.get_by_role("slider").first
        thumb.focus()

        def advance():
            page.keyboard.press("ArrowRight")

    times["step"] = timed(advance, f"() => ({CHART_TITLE})('dL/dx after 2 of') !== null", page)
    context.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running app; default: start one")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to serve")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    process = None
    url = args.url
    if url is None:
        url, process = start_app(args.root)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            one_student(browser, url)  # warm the server: imports, caches
            runs = [one_student(browser, url) for _ in range(max(1, args.repeats))]
            browser.close()
    finally:
        if process is not None:
            stop(process)
    print(f"{'timing':<8} {'median s':>9} {'worst s':>8} {'target s':>9}")
    for name, target in TARGETS_S.items():
        values = [run[name] for run in runs]
        print(f"{name:<8} {statistics.median(values):9.3f} {max(values):8.3f} {target:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
