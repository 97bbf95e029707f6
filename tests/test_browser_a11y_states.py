"""The whole product read without sight (issue 39, items 2, 3 and 6): what the default
views of tests/test_browser_a11y.py leave out, in the two looks that find most, the
projector in lecture mode (1280x720) and a touch phone (390x844), both dark. Every
other Batch tab and Lesson step (each exercise kind before and after Check:
tests/test_browser_a11y_exercises.py; every state of a room: test_browser_a11y_room.py):
axe-core (WCAG 2.0/2.1/2.2 A and AA, no exemption) finds
nothing, and every chart has its text twin with its picture out of the tree. Each view
is then switched to the light theme as a visitor's system may switch it, with no click
(the page redraws itself for it: browser.js watchTheme), where axe-core's contrast
rules find nothing either: the light looks without loading each state again.

An exercise's and a room's states also reflow (WCAG 1.4.10 and 1.4.4): the phone's page narrowed to
320 CSS px, the projector's to 640x360 CSS px, which is what a 1280x720 screen at 200 %
zoom leaves a page (a browser's zoom shrinks the CSS viewport, so the page's own
layout answers it; a deviceScaleFactor of 2 only draws the same 1280 CSS px sharper):
the page never scrolls sideways and no chart is cut (a wide map may scroll in its own
box). So do the Batch tabs and Lesson steps here; every tab also reflows on the desk
look in tests/test_browser_overflow.py.

Each state is reached once, in one page per look kept for the module (one served app,
one browser), and is checked there without a reload.
"""

from __future__ import annotations

import pytest
from browser import exceptions_on, open_page, resized, steady
from conftest import PHONE, PROJECTOR
from test_browser_a11y import cut_in_own_box, light_contrast, untwinned, violations

from teaching.lesson.steps import STEP_COUNT

pytestmark = pytest.mark.browser

LOOKS = {
    "lecture-dark": PROJECTOR | {"color_scheme": "dark"},
    "phone-dark": PHONE | {"color_scheme": "dark"},
}
# What a 1280x720 projector at 200 % and a window 320 CSS px wide leave a page.
NARROWED = {
    "lecture-dark": {"width": 640, "height": 360},
    "phone-dark": {"width": 320, "height": 640},
}
# tests/test_browser_a11y.py sweeps the Batch page's Two examples and Winners tabs and
# Lesson steps 1 and 3; here the rest.
BATCH_TABS = ("examples", "step", "result", "training", "weights")
TABS_AND_STEPS = [
    *(f"batch?tab={tab}" for tab in BATCH_TABS),
    *(f"lesson?step={step}" for step in range(2, STEP_COUNT + 1) if step != 3),
]


def with_look(path: str, look: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lecture=1" if look.startswith("lecture") else path


def steady_violations(page) -> list[str]:
    """axe-core's findings that it makes twice running. A run can start while axe reads
    the page (a room's count is a fragment that polls; a walk's screen settles) and
    Streamlit then fades what it will draw again: measured once each, a room count's
    contrast and a Batch result's label's, gone at the next look. A finding of the page
    itself is made both times."""
    found = violations(page)
    return sorted(set(found) & set(violations(page))) if found else []


def nothing_found(page, *, then_leaves: bool = False) -> None:
    """axe-core and the twins' check on the page as it stands, and no exception; and
    axe-core's contrast rules once the viewer's theme is switched to light (the page
    redraws itself for it) and back (`then_leaves`: the page goes to another link next,
    and need not be drawn dark again first)."""
    assert steady_violations(page) == []
    assert untwinned(page) == []
    assert exceptions_on(page) == []
    assert light_contrast(page, redrawn=not then_leaves) == []


def cut_when_narrowed(page, look: str) -> list:
    """Narrowed to NARROWED[look]: what scrolls the page sideways or is cut (a data
    table or wide map may scroll in its own box); then back to the look's size."""
    size = page.viewport_size
    resized(page, NARROWED[look])
    try:
        # A phone's page that polls once redrew x mid-look (cut by 70 px at 320 px;
        # whole in the runs before and after): browser.steady looks again.
        return steady(page, cut_in_own_box)
    finally:
        resized(page, size)


@pytest.fixture(name="look_page", scope="module")
def look_page_fixture(context_pages):
    """look -> the page of that look's context, kept for the module."""
    return lambda look: context_pages(look, LOOKS[look])


@pytest.mark.parametrize("path", TABS_AND_STEPS)
@pytest.mark.parametrize("look", list(LOOKS))
def test_axe_finds_nothing_on_every_tab_and_step(look_page, app_url, look, path):
    """axe-core and the twins on each tab and step; then reflowed: at 200 % zoom of the
    projector in lecture mode, and at 320 CSS px on the phone, nothing is cut."""
    page = look_page(look)
    open_page(page, f"{app_url}/{with_look(path, look)}")
    assert cut_when_narrowed(page, look) == []
    nothing_found(page, then_leaves=True)
