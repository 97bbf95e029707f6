"""The page menu from st.navigation (app.py, one list in teaching/pages.py): every page
at the URL path it had under the old pages/ folder, each shared link opening with its
settings, and the menu and the home page's links going where they say."""

import re

import pytest
from browser import TIMEOUT_MS, exceptions_on, expect_link, open_page
from conftest import PHONE
from playwright.sync_api import expect

from teaching.pages import PAGE_BY_LABEL, PAGES

pytestmark = pytest.mark.browser

MENU = "[data-testid='stSidebarNav'] [data-testid='stSidebarNavLink']"
TITLES = {"": "Pooling Backprop Lab"}  # the home page's heading is the lab's name

# A shared link of each page, and a setting each page writes back into its link only if
# it read it from the link (else the link would go back to the default).
LINKS = [
    ("playground", "mode=avg&kh=3&kw=3&tab=step&step=2", {"mode": "avg", "step": "2"}),
    ("batch", "n=4&red=sum&tab=result", {"n": "4", "red": "sum"}),
    ("lesson", "step=3", {"step": "3"}),
    ("exercises", "kind=value&level=3&seed=5&n=2", {"kind": "value", "seed": "5", "n": "2"}),
]


def at_path(app_url: str, path: str) -> re.Pattern:
    """The page's address, with whatever link the page then publishes after it."""
    return re.compile(rf"{re.escape(app_url)}/{re.escape(path)}(\?.*)?$")


def heading(page) -> str:
    return page.locator("h1").first.inner_text()


CLASS_PAGES = ["class", "join"]  # class mode's pages, added after the old folder's


def test_the_url_paths_are_those_of_the_old_pages_folder():
    paths = [page.url_path for page in PAGES]
    assert paths == ["", *(path for path, _q, _k in LINKS), *CLASS_PAGES]


@pytest.mark.parametrize("path, query, kept", LINKS)
def test_a_shared_link_opens_its_page_with_its_settings(page, app_url, path, query, kept):
    open_page(page, f"{app_url}/{path}?{query}")
    label = next(entry.label for entry in PAGES if entry.url_path == path)
    assert heading(page) == label
    expect_link(page, **kept)
    assert exceptions_on(page) == []


def test_a_lecture_link_to_the_home_page_folds_the_menu(page, app_url):
    open_page(page, f"{app_url}/?lecture=1")
    assert heading(page) == TITLES[""]
    expect(page.locator("[data-testid='stSidebar']")).to_have_attribute(
        "data-collapsed", "true", timeout=TIMEOUT_MS
    )


def test_the_menu_lists_every_page_and_each_entry_opens_it(page, app_url):
    open_page(page, app_url)
    menu = page.locator(MENU)
    expect(menu).to_have_count(len(PAGES))
    for index, entry in enumerate(PAGES):
        link = menu.nth(index)
        assert link.inner_text().split("\n")[-1].strip() == entry.label
        assert link.get_attribute("href").rstrip("/") == f"{app_url}/{entry.url_path}".rstrip("/")
    for entry in [*PAGES[1:], PAGES[0]]:  # every page, then home again
        menu.nth(PAGES.index(entry)).click()
        expect(page.locator("h1").first).to_have_text(
            TITLES.get(entry.url_path, entry.label), timeout=TIMEOUT_MS
        )
        expect(page).to_have_url(at_path(app_url, entry.url_path), timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []


def test_the_home_pages_links_open_the_pages_they_name(page, app_url):
    main = page.locator("[data-testid='stMain']")
    for entry in PAGES[1:]:
        open_page(page, app_url)
        # The page's own link comes first: Home also links to a batch of 100 on Batch.
        main.get_by_role("link", name=entry.label).first.click()
        expect(page.locator("h1").first).to_have_text(entry.label, timeout=TIMEOUT_MS)
        expect(page).to_have_url(at_path(app_url, entry.url_path), timeout=TIMEOUT_MS)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_menu_entry_tapped_on_a_phone_folds_the_menu_and_on_a_desktop_leaves_it(
    browser, app_url, screen
):
    """On a phone the menu lies over the page: after a tap on an entry the new page
    must not arrive under it. Beside the page, on a wider screen, it stays open."""
    phone = screen == "phone"
    context = browser.new_context(
        **(PHONE if phone else {"viewport": {"width": 1400, "height": 900}})
    )
    page = context.new_page()
    open_page(page, f"{app_url}/playground")
    sidebar = page.locator("[data-testid='stSidebar']")
    if phone:
        page.locator("[data-testid='stExpandSidebarButton']").first.tap()
        expect(sidebar).to_have_attribute("data-collapsed", "false", timeout=TIMEOUT_MS)
    entry = page.locator(MENU).nth(PAGES.index(PAGE_BY_LABEL["Lesson"]))
    entry.tap() if phone else entry.click()
    expect(page.locator("h1").first).to_have_text("Lesson", timeout=TIMEOUT_MS)
    expect(sidebar).to_have_attribute("data-collapsed", str(phone).lower(), timeout=TIMEOUT_MS)
    assert exceptions_on(page) == []
    context.close()
