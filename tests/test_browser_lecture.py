"""Lecture mode on the projector (a 1280x720 CSS viewport, lecture=1): every sentence
on every page is drawn at LECTURE_TEXT_PX or more, to be read from the back of a hall.
How each screen fits the projector is tested beside its page's other browser tests."""

import pytest
from browser import exceptions_on, open_page, small_text

from ui.batch.state import TABS as BATCH_TABS
from ui.figures.style import LECTURE_TEXT_PX

pytestmark = pytest.mark.browser

PAGES = [
    "",
    "lesson?step=1",
    "exercises?kind=cells&level=2",
    *(f"playground?tab={tab}" for tab in ("forward", "step", "ledger", "matrix", "ties", "share")),
    *(f"batch?tab={tab}" for tab in BATCH_TABS),
]


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path or "home")
def test_every_sentence_in_lecture_mode_is_drawn_at_20_px_or_more(projector_page, app_url, path):
    page = projector_page
    separator = "&" if "?" in path else "?"
    open_page(page, f"{app_url}/{path}{separator}lecture=1")
    assert small_text(page, LECTURE_TEXT_PX) == []
    assert exceptions_on(page) == []
