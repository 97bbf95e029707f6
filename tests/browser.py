"""Helpers for the browser tests: load a page and wait for Streamlit to settle.

The fixtures that serve the app and start Chromium live in conftest.py.
"""

from __future__ import annotations


def open_page(page, url: str):
    """Load a page and wait until Streamlit has finished running its script."""
    page.goto(url)
    page.wait_for_selector("[data-testid='stApp']")
    wait_idle(page)


def wait_idle(page, timeout_ms: int = 30_000):
    """Wait for the script run to end (Streamlit shows a status widget while running)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout_ms
    )
    page.wait_for_timeout(200)


def exceptions_on(page) -> list[str]:
    return page.locator("[data-testid='stException']").all_inner_texts()
