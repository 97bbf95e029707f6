"""The step-through's slider in a browser: it counts windows from 1, as the title does,
and a keyboard step moves the window and the link together."""

import pytest
from browser import TIMEOUT_MS, exceptions_on, expect_link, open_page, settle, wait_for_title
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

OVERLAP = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1,3;0,9,1,0,2;2,1,4,1,0;0,3,1,8,1;1,0,2,1,0"


def test_the_slider_shows_the_window_the_title_counts_and_keys_move_both(page, app_url):
    open_page(page, f"{app_url}/playground?{OVERLAP}&tab=step&step=3")  # an old link: position 3
    wait_for_title(page, "dL/dx after 4 of 9 windows")
    thumb = page.get_by_role("slider", name="Window (reading order)")
    expect(thumb).to_have_attribute("aria-valuetext", "4", timeout=TIMEOUT_MS)
    expect(thumb).to_have_attribute("min", "1")
    expect(thumb).to_have_attribute("max", "9")
    thumb.focus()
    page.keyboard.press("ArrowRight")
    wait_for_title(page, "dL/dx after 5 of 9 windows")
    expect(thumb).to_have_attribute("aria-valuetext", "5", timeout=TIMEOUT_MS)
    expect_link(page, step="4")  # the link keeps the position, as before
    settle(page)
    assert exceptions_on(page) == []
