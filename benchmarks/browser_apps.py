"""The two apps the browser benchmarks serve side by side, and how they drive them:
the floor (/work/shared/bench/floor_app.py: the least a Streamlit + Plotly page like
the Playground costs) and the lab, opened on the same link in the same browser."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FLOOR_APP = Path("/work/shared/bench/floor_app.py")
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
