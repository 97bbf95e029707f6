"""The Playground's Both passes tab on the projector (1280x720, lecture=1): walked a
screen at a time (x and y, dL/dy and dL/dx, the routing, the windows per cell), each
screen within one viewport with no inner scroller, its words at lecture size and every
map number inside its cell at 18 px or more; the arrow keys walk the screens.

Before: the tab was one column of six charts, two viewports and more to scroll.
"""

import re
from urllib.parse import urlencode

import numpy as np
import pytest
from browser import (
    TIMEOUT_MS,
    assert_one_projector_screen,
    expect_link,
    open_page,
    settle,
    walk_position,
)
from playwright.sync_api import expect

from teaching.playground.presets import PRESETS
from ui.playground.state import FIELDS, STATE

pytestmark = pytest.mark.browser

SCREENS = STATE.SCREENS_MAX  # Both passes' screens
G8 = ";".join(",".join(str((r * 7 + c * 3) % 10) for c in range(8)) for r in range(8))


def preset_link(name: str) -> str:
    """The link a preset's grid and settings make (seed 0's draw), each value written
    by its link field, as the page writes it."""
    start = PRESETS[name].make(np.random.default_rng(0))
    fields = {field.key: field for field in FIELDS}
    keys = STATE.preset_keys()
    values = {STATE.link_x: start.grid} | {keys[n]: v for n, v in start.settings.items()}
    return urlencode({fields[key].url: fields[key].write(value) for key, value in values.items()})


# The default link's screens are in tests/test_browser_cut_charts.py's sweep of every
# lecture screen, which checks them as this module does.
LINKS = {
    **{f"preset-{name}": preset_link(name) for name in PRESETS},
    "ties-all": f"{preset_link('ties')}&ties=all",  # the warning that totals are inflated
    "8x8-2x2-stride-2": f"x={G8}",
    "8x8-3x3-stride-1": f"x={G8}&kh=3&kw=3&sh=1&sw=1",
    # 1/9 shares at 18 px grow the routing grids' cells: this screen once overhung.
    "8x8-avg-3x3-pad-1": f"x={G8}&mode=avg&kh=3&kw=3&pad=1",
}


CASES = [
    pytest.param(name, screen, id=f"{name}-{screen}")
    for name in LINKS
    for screen in range(1, SCREENS + 1)
]


@pytest.mark.parametrize("name, screen", CASES)
def test_every_screen_of_both_passes_fits_the_projector(projector_page, app_url, name, screen):
    page = projector_page
    open_page(page, f"{app_url}/playground?{LINKS[name]}&screen={screen}&lecture=1")
    expect(walk_position(page)).to_have_text(
        re.compile(rf"^{screen} of {SCREENS} · "), timeout=TIMEOUT_MS
    )
    expect(page.get_by_text("Link value")).to_have_count(0)  # the link is read whole
    assert_one_projector_screen(page)


def test_the_arrow_keys_walk_the_screens_and_the_link_keeps_the_screen(projector_page, app_url):
    page = projector_page
    open_page(page, f"{app_url}/playground?lecture=1")
    expect(walk_position(page)).to_have_text("1 of 4 · The forward pass: x and y")
    page.keyboard.press("ArrowRight")
    expect(walk_position(page)).to_have_text(
        "2 of 4 · The backward pass: dL/dy and dL/dx", timeout=TIMEOUT_MS
    )
    expect_link(page, screen="2")
    settle(page)
    page.keyboard.press("ArrowRight")
    expect(walk_position(page)).to_have_text("3 of 4 · Where one dL/dy goes", timeout=TIMEOUT_MS)
    expect_link(page, screen="3")
    settle(page)
    page.keyboard.press("ArrowLeft")
    expect(walk_position(page)).to_have_text(re.compile(r"^2 of 4 · "), timeout=TIMEOUT_MS)
    expect_link(page, screen="2")
