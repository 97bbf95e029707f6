"""The Batch page at a batch of 8 and of 100 in Chromium (Playwright, a warm server):
how long until the open tab's first chart is drawn, and until every chart is drawn and
the script idle, for each tab.

    python benchmarks/bench_batch_sizes.py [--repeats 3] [--sizes 8,100] [--tabs pair,...]

After one warm-up open of each link (the server's caches filled, as in a class where
the link was opened before), runs alternate the sizes, each in a new browser context,
as a new student. Prints medians and the ratio of each size to the first. Target
(issue 37): the first chart at 100 within 1.3 times that at 8; printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.local_server import start_app  # noqa: E402
from deploy.page_state import SETTLED  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TABS = ("pair", "examples", "step", "winners", "result", "training")
# The open tab's first chart, drawn (Plotly's SVG in it).
TAB_CHART = "() => !!document.querySelector('[role=tabpanel] .js-plotly-plot .main-svg')"
TIMEOUT_MS = 180_000
TARGET = 1.3


def opened(browser, url: str) -> tuple[float, float]:
    """(seconds to the tab's first chart, seconds until every chart is drawn and idle)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_function(TAB_CHART, timeout=TIMEOUT_MS, polling=10)
        first = time.perf_counter() - start
        page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=10)
        return first, time.perf_counter() - start
    finally:
        context.close()


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", default="8,100")
    parser.add_argument("--tabs", default=",".join(TABS))
    args = parser.parse_args()
    sizes, tabs = args.sizes.split(","), args.tabs.split(",")
    url, server = start_app(ROOT)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            print(f"{'tab':<10} " + " ".join(f"{'n=' + s + ' first/all s':>20}" for s in sizes))
            for tab in tabs:
                links = {size: f"{url}/batch?n={size}&tab={tab}" for size in sizes}
                for link in links.values():
                    opened(browser, link)  # warm-up
                times = {size: [] for size in sizes}
                for _ in range(args.repeats):
                    for size, link in links.items():
                        times[size].append(opened(browser, link))
                medians = {
                    size: tuple(statistics.median(t[i] for t in runs) for i in (0, 1))
                    for size, runs in times.items()
                }
                base = medians[sizes[0]][0]
                cells = " ".join(
                    f"{first:8.2f}/{every:6.2f} ×{first / base:4.2f}"
                    for first, every in medians.values()
                )
                print(f"{tab:<10} {cells}", flush=True)
            browser.close()
    finally:
        server.terminate()
    print(f"target: the first chart at the larger size within {TARGET}x the first size's")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
