"""A page being left stays quiet, in headless Chromium: the lab's browser script
(ui/shared/browser.js) run on its own, on a bare page, with Playwright's clock.

Why: a fresh session's page asks the browser for its stored work once its run is
drawn, and that request reruns the page it names. When a learner clicks a menu entry
before the request leaves, the server gets the new page, then the old one again, and
runs the old one: the click is lost (seen in CI: a click on Lesson stayed on Batch).
"""

import json

import pytest

from teaching.pages import URL_PATHS
from ui.shared.browser import JS, LEAVE_AFTER_MS, MAX_STORED_CHARS

pytestmark = pytest.mark.browser

ORIGIN = "http://lab.test"  # answered by the route below: no server, no network
LEAVE_MS = LEAVE_AFTER_MS
LIMITS = {"max_stored_chars": MAX_STORED_CHARS, "leave_after_ms": LEAVE_AFTER_MS}  # as mount()
# Page links as Streamlit draws them (menu, st.page_link), and links that change no page;
# like Streamlit, the page follows none of them itself.
BARE_PAGE = """<!doctype html><title>probe</title>
<a id="lesson" data-testid="stSidebarNavLink" href="/lesson">Lesson</a>
<a id="batch" data-testid="stSidebarNavLink" href="/batch">Batch</a>
<a id="lesson-card" data-testid="stPageLink-NavLink" href="/lesson">Lesson</a>
<a id="lesson-tab" data-testid="stPageLink-NavLink" href="/lesson" target="_blank">Lesson</a>
<a id="anchor" href="#top">Top</a>
<a id="download" href="/lesson/chart.png" download>Download the chart</a>
<script>document.addEventListener('click', (event) => event.preventDefault());</script>"""
LOAD = """async (js) => {
  const url = URL.createObjectURL(new Blob([js], { type: 'text/javascript' }));
  const component = (await import(url)).default;
  window.sent = [];
  window.cleanups = [];
  window.run = (page, namespace) => {
    const data = { page, pages: PAGES, recall: [namespace], ...LIMITS };
    const setStateValue = (name, value) => window.sent.push([page, name, value]);
    window.cleanups.push(component({ data, setStateValue }));
  };
  component({ data: { page: 'batch', pages: PAGES, ...LIMITS }, setStateValue: () => {} });
}"""


@pytest.fixture
def bare(browser):
    """A bare page with the lab's browser script loaded; window.run(page, namespace) is
    one run of `page` asking for `namespace`; window.sent what reached the server. In a
    context of its own: Playwright's clock is installed in the whole context, and a
    paused clock would stop every later page's timers and frames (not the `page`
    fixture's context, which other tests share)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.route(
        f"{ORIGIN}/**", lambda route: route.fulfill(content_type="text/html", body=BARE_PAGE)
    )
    page.clock.install(time=0)
    page.goto(f"{ORIGIN}/batch")
    page.clock.pause_at(1000)  # time moves only when a test moves it
    load = LOAD.replace("PAGES", json.dumps(URL_PATHS)).replace("LIMITS", json.dumps(LIMITS))
    page.evaluate(load, JS)
    yield page
    context.close()


def sent(page) -> list:
    return page.evaluate("() => window.sent")


def test_a_page_not_being_left_asks_at_once(bare):
    bare.evaluate("() => window.run('batch', 'bt')")
    assert sent(bare) == [["batch", "recalled", {"bt": None}]]


@pytest.mark.parametrize("link", ["#lesson", "#lesson-card"], ids=["menu", "page-link"])
def test_a_link_followed_holds_the_old_pages_request_and_the_new_page_drops_it(bare, link):
    bare.click(link)
    bare.evaluate("() => window.run('batch', 'bt')")  # Batch's run, drawn after the click
    bare.clock.run_for(LEAVE_MS // 2)
    assert sent(bare) == []
    bare.evaluate("() => window.run('lesson', 'ls')")  # Lesson arrives
    bare.clock.run_for(2 * LEAVE_MS)
    assert sent(bare) == [["lesson", "recalled", {"ls": None}]]


def test_the_request_of_a_page_that_goes_is_dropped(bare):
    bare.click("#lesson")
    bare.evaluate("() => window.run('batch', 'bt')")
    bare.evaluate("() => window.cleanups.at(-1)()")  # unmounted: the new page has none
    bare.clock.run_for(2 * LEAVE_MS)
    assert sent(bare) == []


def test_a_link_that_led_nowhere_lets_the_request_go_after_a_while(bare):
    bare.click("#lesson")
    bare.evaluate("() => window.run('batch', 'bt')")
    bare.clock.run_for(LEAVE_MS - 500)
    assert sent(bare) == []
    bare.clock.run_for(1000)
    assert sent(bare) == [["batch", "recalled", {"bt": None}]]


@pytest.mark.parametrize(
    "how",
    [
        {"selector": "#batch"},
        {"selector": "#lesson-tab"},
        {"selector": "#lesson", "modifiers": ["Control"]},
        {"selector": "#anchor"},
        {"selector": "#download"},
    ],
    ids=["same-page", "new-tab", "ctrl-click", "anchor", "download"],
)
def test_a_link_to_the_same_page_or_a_new_tab_or_no_page_holds_nothing(bare, how):
    bare.click(how["selector"], modifiers=how.get("modifiers", []))
    bare.evaluate("() => window.run('batch', 'bt')")
    assert sent(bare) == [["batch", "recalled", {"bt": None}]]


def test_going_back_in_the_browser_holds_the_old_pages_request_too(bare):
    bare.evaluate("""() => new Promise((done) => {
      history.pushState({}, '', '/lesson');
      window.addEventListener('popstate', done, { once: true });
      history.back();
    })""")
    bare.evaluate("() => window.run('lesson', 'ls')")  # drawn after the back button
    bare.clock.run_for(LEAVE_MS // 2)
    assert sent(bare) == []
    bare.evaluate("() => window.run('batch', 'bt')")
    bare.clock.run_for(2 * LEAVE_MS)  # and Lesson's, held, never goes
    assert sent(bare) == [["batch", "recalled", {"bt": None}]]
