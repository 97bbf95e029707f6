"""Takes the README's picture of the Playground from the served app: its first tab on a 4x4
grid at 1400x900 in the light theme, saved as docs/playground.png in 256 colours (a PNG of a
few hundred kB at most). Run it from the repository root after a change the picture
shows: `python docs/screenshot.py` (needs Chromium at /usr/bin/chromium)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.local_server import start_app, stop  # noqa: E402
from deploy.page_state import SETTLED  # noqa: E402

PICTURE = ROOT / "docs" / "playground.png"
# A 4x4 grid whose 2x2 windows each have one winner, small enough that x, y, dL/dy and
# dL/dx show on the first screen.
LINK = "playground?x=1,3,2,0;4,2,1,5;0,1,3,2;2,6,1,1&kh=2&kw=2&sh=2&sw=2"
VIEWPORT = {"width": 1400, "height": 900}
COLOURS = 256  # a screen of flat colours and text keeps its look in a palette this size
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main() -> None:
    url, process = start_app()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport=VIEWPORT, color_scheme="light")
            page.goto(f"{url}/{LINK}")
            page.wait_for_function(SETTLED, timeout=60_000)
            shot = page.screenshot()
            browser.close()
    finally:
        stop(process)
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT).save(PICTURE, optimize=True)
    print(f"{PICTURE.relative_to(ROOT)}: {PICTURE.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
