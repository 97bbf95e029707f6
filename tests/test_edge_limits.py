"""HAProxy's per-source limits (deploy/haproxy.cfg.template, as deploy/serve writes it):
the config is valid, a loop of new connections or of sessions from one source gets
429 while a client from another source is served, and the replicas are told the
client's address in X-Forwarded-For. Served on loopback, each source its own 127.0.0.x
address, in front of a small stand-in replica (the limits are the proxy's alone)."""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import skip_or_fail

from deploy.cluster import EdgeLimits, haproxy_config
from deploy.local_server import free_port, stop, wait_healthy

LIMITS = EdgeLimits()


class Replica(BaseHTTPRequestHandler):
    """Answers every GET 200 with the X-Forwarded-For lines it was sent."""

    def do_GET(self):  # noqa: N802  (http.server's name)
        body = "|".join(self.headers.get_all("X-Forwarded-For") or []).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        pass


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        skip_or_fail("haproxy is not installed (apt-get install haproxy)")
    replica = ThreadingHTTPServer(("127.0.0.1", 0), Replica)
    threading.Thread(target=replica.serve_forever, daemon=True).start()
    port = free_port()
    config = tmp_path_factory.mktemp("edge") / "haproxy.cfg"
    config.write_text(
        haproxy_config(host="127.0.0.1", port=port, replica_ports=[replica.server_port])
    )
    checked = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    process = subprocess.Popen(
        [haproxy, "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process)
        yield port
    finally:
        stop(process)
        replica.shutdown()


def get(port: int, source: str, path: str = "/", connection=None):
    """(status, body) of one GET from `source` (a new connection unless given one)."""
    connection = connection or http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0)
    )
    connection.request("GET", path, headers={"X-Forwarded-For": "6.6.6.6"})
    response = connection.getresponse()
    return response.status, response.read().decode()


def test_a_client_is_served_and_its_address_forwarded(proxy):
    status, forwarded = get(proxy, "127.0.0.4")
    assert status == 200
    # The client's own line first, HAProxy's last: the replicas read from the right.
    assert forwarded == "6.6.6.6|127.0.0.4"


def test_a_loop_of_new_connections_gets_429_and_another_source_is_served(proxy):
    for _ in range(LIMITS.connections_10s + 50):
        with socket.create_connection(("127.0.0.1", proxy), source_address=("127.0.0.2", 0)):
            pass
    assert get(proxy, "127.0.0.2")[0] == 429
    assert get(proxy, "127.0.0.5")[0] == 200


def test_a_loop_of_sessions_gets_429_and_another_source_is_served(proxy):
    kept = http.client.HTTPConnection(
        "127.0.0.1", proxy, timeout=10, source_address=("127.0.0.3", 0)
    )
    said = [get(proxy, "127.0.0.3", "/_stcore/stream", kept)[0] for _ in range(1300)]
    assert said[: LIMITS.sessions_60s] == [200] * LIMITS.sessions_60s
    assert set(said[LIMITS.sessions_60s + 1 :]) == {429}
    assert get(proxy, "127.0.0.6", "/_stcore/stream")[0] == 200
