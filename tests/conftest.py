"""Shared fixtures. In CI (CI=true) nothing may skip: a skip there is a failure."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

IN_CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
START_TIMEOUT_S = 60


def skip_or_fail(reason: str):
    """Skip on a developer's machine; fail in CI, where every test must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI must run this test)", pytrace=False)
    pytest.skip(reason)


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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer {url}/_stcore/health in {START_TIMEOUT_S} s")


def start_app():
    """Start `streamlit run app.py` on a free loopback port; returns (url, process)."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
    except RuntimeError:
        stop(process)
        raise
    return url, process


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


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


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    yield page
    context.close()
