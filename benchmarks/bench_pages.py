"""Server CPU of one script run, for each page and tab (AppTest, no browser).

    python benchmarks/bench_pages.py [--root OTHER_CHECKOUT] [--reruns 9]

For each case it prints the median CPU time (all threads of this process, so
Streamlit's own work on the run is counted) of:

- warm: a rerun whose inputs are unchanged (a click on a chart, a tab switched back):
  stories and figures come from the caches;
- cold: a rerun after the caches are cleared, which is what a new input costs.

--root measures another checkout (the code before a change) with the same cases; a
page without the `tab` link field then simply runs whatever it runs.
Target: a warm rerun of every page's default tab (marked *) under TARGET_MS (issue 19);
printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 30

PLAYGROUND, BATCH = "screens/playground.py", "screens/batch.py"
# Pages opened with no link: their first screen (the Class page's lecturer without a
# room, the Join page without a code).
PLAIN_PAGES = {
    "Lesson": "screens/lesson.py",
    "Exercises": "screens/exercises.py",
    "Class": "screens/class_page.py",
    "Join": "screens/join.py",
}
DEFAULT_TABS = ("forward", "pair")
GRID_6 = ";".join(",".join(str((r * 5 + c * 3) % 7) for c in range(6)) for r in range(6))
GRID_16 = ";".join(",".join(str((r * 7 + c * 3) % 10) for c in range(16)) for r in range(16))
PLAYGROUND_TABS = ("forward", "step", "ledger", "matrix", "ties", "share")
BATCH_TABS = ("pair", "examples", "step", "winners", "result", "training", "weights")


def cases() -> list[tuple[str, str, dict[str, str]]]:
    small = {"x": GRID_6, "kh": "2", "kw": "2", "sh": "1", "sw": "1"}
    large = {"x": GRID_16, "kh": "3", "kw": "3", "sh": "1", "sw": "1", "pad": "1"}
    found = [("Home", "", {})]
    for tab in PLAYGROUND_TABS:
        found.append((f"Playground 6x6 k2 s1 · {tab}", PLAYGROUND, {**small, "tab": tab}))
    found.append(("Playground 16x16 k3 s1 p1 · forward", PLAYGROUND, {**large, "tab": "forward"}))
    for size in ("8", "100", "128"):
        for tab in BATCH_TABS:
            found.append((f"Batch n={size} · {tab}", BATCH, {"n": size, "tab": tab}))
    found += [(name, script, {}) for name, script in PLAIN_PAGES.items()]
    return found


def is_default(query: dict[str, str]) -> bool:
    """Whether a case is what a page shows first (the default tab, or no tabs)."""
    return "tab" not in query or query["tab"] in DEFAULT_TABS


def cpu_ms(run) -> float:
    start = time.process_time()
    run()
    return (time.process_time() - start) * 1000


def page_script(root: Path, page: str) -> str:
    """`page` in `root`, or where a checkout from before screens/ keeps it
    (pages/1_playground.py for screens/playground.py)."""
    if (root / page).is_file():
        return page
    old = sorted((root / "pages").glob(f"[0-9]*_{Path(page).name}"))
    return str(old[0].relative_to(root)) if old else page


def clear_figures() -> None:
    """The built figures forgotten too (ui/shared/chart.FIGURES, kept apart from
    Streamlit's caches); a checkout from before kept them in st.cache_resource."""
    try:
        from ui.shared.chart import FIGURES
    except ImportError:
        return
    FIGURES.clear()


def measure(root: Path, page: str, query: dict[str, str], reruns: int) -> tuple[float, float]:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(root / "app.py"), default_timeout=120)
    if not page:
        app.query_params.update(query)
    app.run()
    if page:
        app.query_params.update(query)
        app.switch_page(page_script(root, page)).run()
    if app.exception:
        raise SystemExit(f"{page} {query} raised: {app.exception[0].value}")
    app.run()  # the session's own first-run work is not a rerun
    warm = [cpu_ms(app.run) for _ in range(reruns)]
    cold = []
    for _ in range(reruns):
        st.cache_data.clear()
        st.cache_resource.clear()
        clear_figures()
        cold.append(cpu_ms(app.run))
    return statistics.median(warm), statistics.median(cold)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--reruns", type=int, default=9)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root))
    print(f"{'case':<40} {'warm ms':>8} {'cold ms':>8}   (* a default tab: warm < {TARGET_MS} ms)")
    over = []
    for name, page, query in cases():
        warm, cold = measure(args.root, page, query, args.reruns)
        default = is_default(query)
        print(f"{name:<40} {warm:8.1f} {cold:8.1f}   {'*' if default else ''}")
        if default and warm >= TARGET_MS:
            over.append(name)
    print(f"default tabs at or over {TARGET_MS} ms warm: {', '.join(over) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
