"""A class served by deploy/serve's machinery: two replicas behind HAProxy, driven in
Chromium. Needs Debian's haproxy and chromium (CI installs both)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from browser import (
    chart_values,
    exceptions_on,
    expect_link,
    open_page,
    replica_of,
    settle,
    wait_for_values,
)
from conftest import ROOT, skip_or_fail

from deploy.cluster import Cluster, haproxy_config
from deploy.local_server import free_port, start_app
from pooling import PoolConfig, forward

pytestmark = pytest.mark.browser

QUERY = "mode=max&kh=3&kw=3&sh=1&sw=1&x=1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8"
X = np.array([[1, 2, 0, 1], [0, 9, 1, 0], [2, 1, 4, 1], [0, 3, 1, 8]], dtype=float)
AVERAGE = forward(X, PoolConfig("avg", 3, stride=1)).output.tolist()  # the engine's numbers


@pytest.fixture(scope="module")
def cluster():
    if shutil.which("haproxy") is None:
        skip_or_fail("haproxy is not installed (apt-get install haproxy)")
    running = Cluster(2, free_port()).start()
    yield running
    running.stop()


def test_the_config_is_sticky_by_cookie_and_patient():
    config = haproxy_config(host="127.0.0.1", port=8501, replica_ports=[9001, 9002])
    assert "cookie LAB_REPLICA insert" in config and "balance source" not in config
    assert "timeout tunnel 8h" in config and "option redispatch" in config
    assert "option httpchk GET /_stcore/health" in config and "timeout check 10s" in config
    assert "server r2 127.0.0.1:9002 check cookie r2" in config


def test_a_page_renders_reruns_and_downloads_through_the_proxy(page, cluster, tmp_path):
    open_page(page, f"{cluster.url}/playground?{QUERY}")
    assert chart_values(page, "Output y") == [[9, 9], [9, 9]]
    page.locator("[data-testid='stSidebar']").get_by_text("Average", exact=True).click()
    wait_for_values(page, "Output y", AVERAGE)
    page.get_by_role("tab", name="Share").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="x.csv", exact=True).click()
    saved = tmp_path / "x.csv"
    download.value.save_as(saved)
    assert saved.read_text().splitlines()[1] == "0,9,1,0"
    assert exceptions_on(page) == []


def test_a_page_on_a_replica_that_dies_comes_back_on_a_live_one(browser, cluster):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        open_page(page, f"{cluster.url}/playground?{QUERY}&mode=avg")
        assert chart_values(page, "Output y") == AVERAGE
        dead = replica_of(page)
        # A mark on this document: it is gone once the page has reloaded. The numbers
        # on screen alone can't tell, since the old page keeps showing them.
        page.evaluate("() => { window.labBeforeTheKill = true; }")
        cluster.processes[dead].kill()
        cluster.processes[dead].wait()
        # The page notices the lost connection, reconnects through the proxy to the
        # other replica and reloads from its link: the same numbers, then a change works.
        page.wait_for_function("() => window.labBeforeTheKill === undefined", timeout=60_000)
        settle(page)
        wait_for_values(page, "Output y", AVERAGE)
        page.locator("[data-testid='stSidebar']").get_by_text("Max", exact=True).click()
        wait_for_values(page, "Output y", [[9, 9], [9, 9]])
        expect_link(page, mode="max", kh="3")
        assert replica_of(page) != dead
    finally:
        context.close()
        restart_replica(cluster, dead)


def restart_replica(cluster: Cluster, index: int) -> None:
    """Tests after this one get their two replicas back (same port, so the proxy's
    health check brings it back into rotation)."""
    port = int(cluster.replica_urls[index].rsplit(":", 1)[1])
    cluster.processes[index] = start_app(port=port)[1]


def test_serve_starts_warm_replicas_and_sigterm_stops_them_all():
    import signal
    import urllib.request

    from deploy.local_server import wait_healthy

    if shutil.which("haproxy") is None:
        skip_or_fail("haproxy is not installed (apt-get install haproxy)")
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, str(ROOT / "deploy" / "serve"), "--replicas", "2", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout.readline().startswith(f"Serving the lab on http://127.0.0.1:{port}")
        wait_healthy(f"http://127.0.0.1:{port}", serve)
        children = subprocess.run(
            ["pgrep", "-P", str(serve.pid)], capture_output=True, text=True
        ).stdout.split()
        assert len(children) == 3  # two replicas and the proxy
    finally:
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 0
    for child in children:
        assert (
            not Path(f"/proc/{child}").exists()
            or "zombie" in Path(f"/proc/{child}/status").read_text()
        )
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)


def test_replicas_are_warmed_on_every_page_of_the_menu():
    """Every URL path st.navigation registers (app.py), each once, the home page too."""
    from streamlit.testing.v1 import AppTest

    from deploy.cluster import WARM_PAGES

    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    registered = sorted(page["url_pathname"] for page in app._registered_pages.values())
    warmed = [path for path, _query in WARM_PAGES]
    assert sorted(warmed) == registered
    assert len(set(warmed)) == len(warmed) and "" in warmed
