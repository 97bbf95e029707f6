"""Shared fixtures. In CI (CI=true) nothing may skip: a skip there is a failure.

The run gets a folder of its own under the temporary folder (RUN_VARIABLE), made by
the process that starts pytest and shared with its pytest-xdist workers, which
inherit its environment, as do the apps the tests serve: class mode's data folder is
in it (user data never goes into the checkout, nor into the developer's own data
folder), and so is the record of the run's one PostgreSQL cluster (tests/postgres.py).
It is removed when the run ends, failed or not."""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.local_server import start_app, stop  # noqa: E402
from rooms.settings import DATA_FOLDER, DATABASE_URL, PUBLIC_URL  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def scan_components_once() -> None:
    """Each new AppTest scans every installed distribution's metadata for component
    manifests (streamlit/testing/v1/app_test.py: a new BidiComponentManager per
    AppTest), about 0.15 s of CPU a time; what is installed does not change during a
    run, so the scan's answer (a list of (manifest, folder)) is kept for the process.
    The lab's own components are declared in code, not found by this scan."""
    from streamlit.components.v2 import manifest_scanner

    if not hasattr(manifest_scanner.scan_component_manifests, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(
            manifest_scanner.scan_component_manifests
        )


scan_components_once()


def skip_or_fail(reason: str):
    """Skip on a developer's machine; fail in CI, where every test must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI must run this test)", pytrace=False)
    pytest.skip(reason)


RUN_VARIABLE = "POOLING_LAB_TEST_RUN"


def is_worker(config) -> bool:
    """A pytest-xdist worker (its controller made the run's folder)."""
    return hasattr(config, "workerinput")


def pytest_configure(config):
    if is_worker(config):
        return  # the controller's environment, inherited
    run = Path(tempfile.mkdtemp(prefix="pooling-lab-test-run-"))
    os.environ[RUN_VARIABLE] = str(run)
    os.environ[DATA_FOLDER.variable] = str(run / "data")
    (run / "data").mkdir()
    # A developer's own settings must not send the tests' rooms to a real database.
    for setting in (DATABASE_URL, PUBLIC_URL):
        os.environ.pop(setting.variable, None)


def pytest_unconfigure(config):
    if is_worker(config) or RUN_VARIABLE not in os.environ:
        return
    run = Path(os.environ.pop(RUN_VARIABLE))
    try:
        stop_shared_cluster(run)
    finally:
        shutil.rmtree(run, ignore_errors=True)


# pytest-xdist's --dist loadfile hands whole modules to its workers in the order they
# are collected; a long module handed out near the end runs on while the other worker
# has nothing left (test_sweep.py, 146 s of AppTest, came fourth from last). The longest
# modules go first (their test times summed from a run's --junitxml).
RUN_FIRST = (
    "test_sweep.py",
    "test_browser_cut_charts.py",
    "test_browser_overflow.py",
    "test_browser_a11y.py",
    "test_browser_touch_and_step.py",
)


def pytest_collection_modifyitems(items):
    """A test that asks for PyTorch is a `torch` test, so `-m torch` finds every one;
    the RUN_FIRST modules are moved to the front, each module's tests kept together
    and in order."""
    for item in items:
        if "torch" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.torch)
    first = {name: rank for rank, name in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(RUN_FIRST)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every test must run: {report.longrepr}"


@pytest.fixture(scope="session")
def torch():
    """PyTorch, the reference for every value, index and gradient."""
    try:
        import torch as torch_module
    except ImportError:
        skip_or_fail("PyTorch is not installed (pip install torch==2.13.0)")
    return torch_module


# -- the served app and the browser ------------------------------------------------------


@pytest.fixture(scope="session")
def app_url():
    """Base URL of one server shared by the browser tests."""
    url, process = start_app()
    yield url
    stop(process)


@pytest.fixture
def served_app():
    """Start a server of one's own (for cold-start checks); stopped after the test."""
    processes = []

    def start() -> str:
        url, process = start_app()
        processes.append(process)
        return url

    yield start
    for process in processes:
        stop(process)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium (no browser download is possible here)."""
    if not CHROMIUM.exists():
        skip_or_fail(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed (pip install -r requirements-dev.txt)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def kept_contexts(browser):
    """(name, options) -> a browser context kept for the run (see fresh_page)."""
    contexts = {}
    yield contexts
    for context in contexts.values():
        context.close()


@pytest.fixture(scope="module")
def context_pages(browser, kept_contexts):
    """page_on(name, options): one page per name (in a context made with `options`,
    e.g. a viewport), kept for the whole module, so a sweep opens many links in each.
    Its context is kept for the run, for the next module asking for that name and
    options; what the module stored in it is cleared after it (fresh_page)."""
    pages = {}

    def page_on(name: str, options: dict):
        if name not in pages:
            key = (name, json.dumps(options, sort_keys=True))
            if key not in kept_contexts:
                kept_contexts[key] = browser.new_context(**options)
            pages[name] = kept_contexts[key].new_page()
        return pages[name]

    yield page_on
    for page in pages.values():
        forget(page)


@pytest.fixture(scope="session")
def desk_context(browser):
    """A 1400x900 browser context kept for the run: see fresh_page."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    yield context
    context.close()


@pytest.fixture
def page(desk_context):
    """A fresh 1400x900 page (a new Streamlit session): fresh_page."""
    yield from fresh_page(desk_context)


def fresh_page(context):
    """A new page of a context kept for the run, left as a new context's would be: a
    new context loads and compiles Streamlit's script bundle again (3 to 4 s of CPU a
    test, measured), while a new page of a kept one takes it from the cache. What a test
    stores in the browser (the lab's saved work, Streamlit's closed menu, cookies) is
    cleared after it, so the next test's page starts as a first visit. A test that
    changes the context itself (Playwright's clock, which is the whole context's; its
    routes or permissions) makes a context of its own (tests/test_browser_leaving.py)."""
    page = context.new_page()
    yield page
    forget(page)


def forget(page) -> None:
    """Clear what the page's site stored in its context and the context's cookies, and
    close the page."""
    page.context.clear_cookies()
    if page.is_closed():
        return
    origin = page.evaluate("() => location.origin")
    if origin.startswith("http"):  # not about:blank nor a page set by hand
        cdp = page.context.new_cdp_session(page)
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": STORED})
        cdp.detach()
    page.close()


# What a site can keep in a browser (Chrome DevTools Protocol's names); the HTTP cache,
# which holds Streamlit's scripts, stays.
STORED = "cookies,local_storage,indexeddb,service_workers,cache_storage,file_systems"


# The two screens of a lecture, in CSS px: the projector (lecture mode) and a phone.
PROJECTOR = dict(viewport={"width": 1280, "height": 720})
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)


@pytest.fixture(scope="module")
def projector_page(context_pages):
    """A 1280x720 page, kept for the module: open lecture links (lecture=1) in it."""
    return context_pages("projector", PROJECTOR)


@pytest.fixture(scope="session")
def phone_context(browser):
    """A 390x844 touch phone's context kept for the run: see fresh_page."""
    context = browser.new_context(**PHONE)
    yield context
    context.close()


@pytest.fixture
def phone_page(phone_context):
    """A fresh 390x844 touch phone's page (fresh: Streamlit remembers a menu closed by
    hand, and fresh_page clears it)."""
    yield from fresh_page(phone_context)


# -- PostgreSQL ---------------------------------------------------------------------------

from postgres import (  # noqa: E402,F401  (the session fixture: tests/postgres.py)
    postgres_url,
    stop_shared_cluster,
)
