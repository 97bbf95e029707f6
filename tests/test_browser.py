"""The served app in headless Chromium."""

import pytest

from browser import app_url, browser, exceptions_on, open_page, page  # noqa: F401

pytestmark = pytest.mark.browser


def test_home_page_renders_without_exception(page, app_url):
    open_page(page, app_url)
    assert page.locator("h1").first.inner_text()
    assert exceptions_on(page) == []
