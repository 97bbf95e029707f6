"""The two apps the browser benchmarks serve side by side, and how they drive them:
the floor (benchmarks/floor_app.py: the least a Streamlit + Plotly page like the
Playground costs) and the lab, opened on the same link in the same browser."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from deploy.local_server import start_app, stop

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FLOOR_APP = Path(__file__).with_name("floor_app.py")  # this checkout's, whatever --root
GRID = ";".join(",".join(str((r * 5 + c * 3) % 7) for c in range(6)) for r in range(6))
QUERY = f"x={GRID}&kh=2&kw=2&sh=1&sw=1"  # the floor reads x only
VIEWPORT = {"width": 1400, "height": 900}
WAIT_MS = 60_000


def floor_control(page):
    """The floor's control changed: its sidebar "Window height" + button."""
    sidebar = page.locator("[data-testid='stSidebar']")
    height = sidebar.locator("[data-testid='stNumberInput']").filter(has_text="Window height")
    return height.locator("[data-testid='stNumberInputStepUp']")


def lab_control(page):
    """The lab's control changed: its sidebar's Average (from Max)."""
    return page.locator("[data-testid='stSidebar']").get_by_text("Average", exact=True)


@contextmanager
def served_with_chromium(
    root: Path, lab_script: Path | None = None
) -> Iterator[tuple[str, str, object]]:
    """The floor and the lab at `root` (or `lab_script` in its place, run from `root`),
    each on its own loopback port and served the same way (deploy/local_server), and
    Debian's Chromium: (floor URL, lab URL, browser). Both servers stop at the end, on
    an error and on a kill (SIGTERM) too."""
    from playwright.sync_api import sync_playwright

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    floor_url, floor = start_app(root, script=FLOOR_APP)
    try:
        lab_url, lab = start_app(root, script=lab_script or "app.py")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
                yield floor_url, lab_url, browser
                browser.close()
        finally:
            stop(lab)
    finally:
        stop(floor)


def described(root: Path) -> str:
    """The checkout served, with its last commit."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%h %s"],
            capture_output=True, text=True, check=True, timeout=10,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        commit = "not a git checkout"
    return f"{root} ({commit})"
