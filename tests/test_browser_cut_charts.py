"""No chart cut off, on every lecture screen of every page and tab (the walks' screens
included: the Playground's Both passes, every Batch tab, each Lesson step, each
exercise) on a projector at 1280x720 and at 150 % zoom (853x480 CSS px: each screen is
opened at 1280x720 and then narrowed, browser.resized), and on every tab of a phone
(390x844, touch). A chart is cut where it sticks out of the viewport or out of
a box that clips or scrolls sideways (tests/js/cut_charts.js); on a phone a wide map
may scroll, but only in the box of its own that ui/shared/chart.py gives it. At
1280x720 every lecture screen also has its text at lecture size, its map numbers inside
their cells at lecture size and no exception, and a walked screen is the one its link
names, at most one screen tall, with no inner scroller (the lecture modules' own loads
of these screens are left to this sweep).

Before (issue 32), at 1280x720: the Batch page's Two examples screens 3 and 5 cut
their routed maps by 49 px, screen 4 its five kernel maps by 35 px (and was 1.047
screens tall). The Batch result's screens 1 and 3 were 1.028 and 1.012 screens tall
(its kernels' words under the kernels alone; the wrong way's maps with cells bigger
than their numbers need).

Every wait is for a condition on the page, never a fixed time.
"""

import re
from pathlib import Path

import pytest
from browser import (
    exceptions_on,
    misplaced_numbers,
    open_page,
    resized,
    screen_fit,
    small_text,
    steady,
    walk_position,
)
from conftest import PHONE, PROJECTOR
from playwright.sync_api import expect

from teaching.exercises.model import KINDS
from teaching.lesson.steps import STEP_COUNT
from ui.batch.state import TABS as BATCH_TABS
from ui.exercises.state import LEVELS
from ui.figures.style import LECTURE_CELL_FONT_PX, LECTURE_TEXT_PX
from ui.playground.state import STATE as PLAYGROUND
from ui.playground.state import TABS as PLAYGROUND_TABS

pytestmark = pytest.mark.browser

CUT_CHARTS = (Path(__file__).parent / "js" / "cut_charts.js").read_text()
# A 1280x720 projector at 150 % zoom: what the page is laid out in (a browser's zoom
# shrinks the CSS viewport; the device pixels only draw it sharper).
ZOOMED_150 = {"width": 853, "height": 480}
ROUNDING_SCREENS = 1 / 720  # one px over a 720-px screen: layout rounding, not a line
# Screens of each walked Batch tab with the default link's settings; the others are one
# screen, not walked.
BATCH_WALKS = {"pair": 7, "examples": 5, "step": 2, "winners": 2, "result": 6}
# The first seed's batch of 100 on the Winners tab (Home's and the Lesson's link).
SEED_SCREENS = [f"batch?n=100&tab=winners&screen={n}" for n in (1, 2)]


def lecture_screens() -> list[str]:
    """Every lecture screen, by link (without lecture=1)."""
    walked = [f"playground?tab=forward&screen={n}" for n in range(1, PLAYGROUND.SCREENS_MAX + 1)]
    walked += [f"playground?tab={tab}" for tab in PLAYGROUND_TABS if tab != "forward"]
    walked += [
        f"batch?tab={tab}&screen={n}"
        for tab in BATCH_TABS
        for n in range(1, BATCH_WALKS.get(tab, 1) + 1)
    ]
    walked += SEED_SCREENS
    walked += [f"lesson?step={step}" for step in range(1, STEP_COUNT + 1)]
    walked += [f"exercises?kind={kind}&level={level}" for kind in KINDS for level in LEVELS]
    return ["", *walked]


def one_screen(path: str) -> bool:
    """Whether a lecture screen is meant to fit the projector: every walked screen and
    lesson step (Home, the Matrix and Share tabs and the exercises are read down)."""
    return path.startswith(("batch", "lesson", "playground?tab=forward"))


def phone_pages() -> list[str]:
    """Every tab of every page as a phone opens it (no walk: the whole story), and the
    Two examples screens in lecture mode, whose maps grow past a phone's width; the
    links that other sweeps open on a phone, looking at their charts too, are left to
    them (PHONE_SHARED)."""
    every = [
        "",
        *(f"playground?tab={tab}" for tab in PLAYGROUND_TABS),
        *(f"batch?tab={tab}" for tab in BATCH_TABS),
        "batch?n=100&tab=winners",
        *(f"lesson?step={step}" for step in range(1, STEP_COUNT + 1)),
        *(f"exercises?kind={kind}&level={level}" for kind in KINDS for level in LEVELS),
        *(f"batch?tab=pair&screen={n}&lecture=1" for n in range(1, BATCH_WALKS["pair"] + 1)),
    ]
    return [path for path in every if path not in PHONE_SHARED]


# The links that tests/test_browser_overflow.py (the first three lines) and
# tests/test_browser_a11y.py open on a phone, where their charts are looked at as here.
PHONE_SHARED = (
    "",
    *(f"batch?tab={tab}" for tab in BATCH_TABS),
    *(f"exercises?kind={kind}&level=3" for kind in KINDS),
    *(f"playground?tab={tab}" for tab in ("step", "ledger", "matrix", "ties", "share")),
    "batch?n=100&tab=winners",
    "lesson?step=3",
)


def with_lecture(path: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lecture=1"


def cut_charts(page, *, own_scroller: bool) -> list[dict]:
    """[{chart, by, px}, ...]: each cut chart's title, what cuts it, by how many px."""
    return page.evaluate(CUT_CHARTS, own_scroller)


@pytest.mark.parametrize("path", lecture_screens(), ids=lambda path: path or "home")
def test_no_chart_is_cut_on_a_lecture_screen(context_pages, app_url, path):
    """At 1280x720: no chart cut, text at lecture size, every map number inside its
    cell at lecture size, no exception, and a walked screen the one its link names, one
    screen tall with no inner scroller. Then at 150 % zoom: no chart cut."""
    page = context_pages("projector", PROJECTOR)
    page.set_viewport_size(PROJECTOR["viewport"])
    open_page(page, f"{app_url}/{with_lecture(path)}")
    assert cut_charts(page, own_scroller=False) == []
    assert small_text(page, LECTURE_TEXT_PX) == []
    assert misplaced_numbers(page, LECTURE_CELL_FONT_PX) == []
    assert exceptions_on(page) == []
    if walk := walk_of(path):
        screen, count = walk
        expect(walk_position(page)).to_have_text(re.compile(rf"^{screen} of {count} · "))
    if one_screen(path):
        fit = screen_fit(page)
        assert fit["screens"] <= 1 + ROUNDING_SCREENS, f"{fit['screens']:.3f} screens tall"
        assert fit["hidden"] == []
    resized(page, ZOOMED_150)
    assert steady(page, lambda page: cut_charts(page, own_scroller=False)) == []


def walk_of(path: str) -> tuple[int, int] | None:
    """(screen, how many screens its walk has) of a walked screen's link; None for a
    link to a screen of no walk (a Batch tab of one screen is not walked)."""
    screen = re.search(r"screen=(\d+)", path)
    tab = re.search(r"tab=(\w+)", path)
    if not screen or not tab:
        return None
    if path.startswith("playground"):
        return int(screen[1]), PLAYGROUND.SCREENS_MAX
    if tab[1] in BATCH_WALKS:
        return int(screen[1]), BATCH_WALKS[tab[1]]
    return None


@pytest.mark.parametrize("path", phone_pages(), ids=lambda path: path or "home")
def test_no_chart_is_cut_on_a_phone(context_pages, app_url, path):
    page = context_pages("phone", PHONE)
    open_page(page, f"{app_url}/{path}")
    assert cut_charts(page, own_scroller=True) == []


def test_the_script_finds_a_cut_chart_and_a_phones_own_scroller(context_pages, app_url):
    """The same charts, maps with their own widths (the Batch result's, in lecture
    mode) on a phone: cut by their own scrollers, which a phone is allowed."""
    page = context_pages("phone", PHONE)
    open_page(page, f"{app_url}/batch?tab=result&screen=1&lecture=1")
    cut = cut_charts(page, own_scroller=False)
    assert cut and all(entry["by"].startswith("st-key-scroll_") for entry in cut), cut
    assert all(entry["px"] > 1 for entry in cut)
    assert cut_charts(page, own_scroller=True) == []


def test_the_phone_links_left_to_other_sweeps_are_opened_there():
    """PHONE_SHARED's links are among those test_browser_overflow.py or
    test_browser_a11y.py opens on a phone."""
    from test_browser_a11y import PAGES as A11Y_PAGES
    from test_browser_overflow import CASES

    overflow_phone = {case.values[1] for case in CASES if case.values[0] == "phone"}
    assert set(PHONE_SHARED) <= overflow_phone | set(A11Y_PAGES)
