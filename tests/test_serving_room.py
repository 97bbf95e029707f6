"""Class mode served beyond one machine: deploy/serve's database, public address and
backends on other hosts, and two replicas bound to different loopback addresses
(127.0.0.2, 127.0.0.3: separate hosts as far as the lab can tell) sharing one
PostgreSQL, where a student answering on one is counted by the projector on the other.
Sessions speak Streamlit's websocket protocol as the browsers would
(deploy/room_client). Needs Debian's postgresql and haproxy (CI installs both)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, skip_or_fail
from own_loop import run_in_own_loop
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.http11 import Response

from deploy import cluster as cluster_module
from deploy import room_client
from deploy.cluster import Cluster, haproxy_config, parse_backend
from deploy.local_server import free_port, start_app, stop
from deploy.room_client import Projector, Student
from deploy.stream_client import run_apart, visit
from rooms import schema, store
from teaching.class_mode.codes import new_token
from teaching.class_mode.questions import question_from_exercise

HOSTS = ("127.0.0.2", "127.0.0.3")
SERVE = [sys.executable, str(ROOT / "deploy" / "serve")]
WAIT_S = 30.0  # a condition not met by then fails the test


def test_the_proxy_lists_local_replicas_then_other_hosts():
    config = haproxy_config(
        host="0.0.0.0", port=8501, replica_ports=[9001], backends=("10.0.0.5:8501", "lab2:8502")
    )
    assert "bind 0.0.0.0:8501" in config
    assert "server r1 127.0.0.1:9001 check cookie r1" in config
    assert "server r2 10.0.0.5:8501 check cookie r2" in config
    assert "server r3 lab2:8502 check cookie r3" in config
    only_remote = haproxy_config(host="127.0.0.1", port=1, replica_ports=[], backends=("h:2",))
    servers = [line.strip() for line in only_remote.splitlines() if "    server " in line]
    assert servers == ["server r1 h:2 check cookie r1"]


@pytest.mark.parametrize("text", ["lab2", ":8501", "lab2:", "lab2:http", "lab2:70000", "a b:1"])
def test_a_backend_is_host_and_port(text):
    with pytest.raises(ValueError, match="backend"):
        parse_backend(text)
    assert parse_backend(" lab2:08501 ") == "lab2:8501"


def test_local_replicas_get_the_database_and_the_public_address():
    cluster = Cluster(
        1,
        1,
        database_url="postgresql+psycopg://db/lab",
        public_url="https://x.org",
        data_folder="/srv/lab",
        trusted_proxies="10.0.0.0/8",
    )
    assert cluster.replica_env() == {
        "POOLING_LAB_DATABASE_URL": "postgresql+psycopg://db/lab",
        "POOLING_LAB_PUBLIC_URL": "https://x.org",
        "POOLING_LAB_DATA": "/srv/lab",
        "POOLING_LAB_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8",
    }
    # Theirs, or the embedded SQLite; HAProxy's own address is always trusted.
    assert Cluster(1, 1).replica_env() == {"POOLING_LAB_TRUSTED_PROXIES": "127.0.0.1"}


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--replicas", "0"], "--replicas 0 needs at least one --backend"),
        (["--backend", "lab2"], "a backend is HOST:PORT"),
        (["--public-url", "lab.example.org"], "--public-url must start with http"),
        (["--database-url", "rooms.sqlite3"], "--database-url must be a SQLAlchemy URL"),
        (["--replicas", "33"], "--replicas must be from 0 to 32"),
    ],
)
def test_serve_refuses_what_it_cannot_serve(arguments, said):
    done = subprocess.run([*SERVE, *arguments], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr


# -- two hosts, one PostgreSQL ---------------------------------------------------------------


@pytest.fixture(scope="module")
def hosts(postgres_url, tmp_path_factory):
    """A replica on each of HOSTS, both on the test run's PostgreSQL: [(url, process)]."""
    env = {
        "POOLING_LAB_DATABASE_URL": postgres_url,
        "POOLING_LAB_DATA": str(tmp_path_factory.mktemp("unused-sqlite")),
    }
    started = []
    try:
        for address in HOSTS:
            started.append(start_app(address=address, env=env))
        yield started
    finally:
        for _url, process in started:
            stop(process)


def environment_of(pid: int) -> dict[str, str]:
    pairs = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(pair.decode().split("=", 1) for pair in pairs if b"=" in pair)


async def until(what: str, check, refresh) -> None:
    """Run `refresh()` (a page's fragment tick) until `check()` holds."""
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {WAIT_S:.0f} s")
        await refresh()
        await asyncio.sleep(0.2)


def test_a_student_on_one_host_is_counted_by_the_projector_on_the_other(hosts, postgres_url):
    (student_url, student_process), (projector_url, projector_process) = hosts
    assert student_url.startswith("http://127.0.0.2:")
    assert projector_url.startswith("http://127.0.0.3:")
    for process in (student_process, projector_process):
        assert environment_of(process.pid)["POOLING_LAB_DATABASE_URL"] == postgres_url
    engine = schema.new_engine(postgres_url)
    room = store.open_room(engine, token=new_token())
    question = question_from_exercise("cells", level=2, seed=5, number=1)
    number = store.ask(engine, room.code, secret=room.secret, question=question)
    run_apart(answer_here_count_there(student_url, projector_url, room, number))
    token_answers = store.answers(engine, room.code, number)
    assert token_answers == [frozenset({(0, 0), (1, 1)})]
    engine.dispose()


async def answer_here_count_there(student_url: str, projector_url: str, room, number) -> None:
    projector = Projector(projector_url, room.code, room.secret)
    phone = Student(student_url, room.code, new_token())
    try:
        for run in await projector.open():
            assert run.exceptions == [] and run.errors == run.warnings == []
        await until("the projector shows 0 answers", lambda: projector.count() == 0,
                    projector.refresh)  # fmt: skip
        for run in await phone.join():
            assert run.exceptions == [] and run.errors == run.warnings == []
        await until("the phone shows the round", lambda: phone.pick_key(number), phone.poll)
        tapped = await phone.tap(number, 0, 0)
        assert tapped.exceptions == [] and tapped.errors == tapped.warnings == []
        await until("the projector counts it", lambda: projector.count() == 1, projector.refresh)
        # A change replaces the answer: still one answer from this browser.
        changed = await phone.tap(number, 1, 1)
        assert changed.exceptions == [] and changed.errors == changed.warnings == []
        for _ in range(3):
            await projector.refresh()
        assert projector.count() == 1 and projector.round == number
    finally:
        await phone.close()
        await projector.close()


def test_a_proxy_in_front_of_other_hosts_alone_warms_them_and_serves(hosts, monkeypatch):
    if shutil.which("haproxy") is None:
        skip_or_fail("haproxy is not installed (apt-get install haproxy)")
    warmed = []
    real_warm_up = cluster_module.warm_up
    monkeypatch.setattr(
        cluster_module, "warm_up", lambda url: (warmed.append(url), real_warm_up(url))
    )
    backends = tuple(url.removeprefix("http://") for url, _process in hosts)
    proxy = Cluster(0, free_port(), backends=backends).start()
    try:
        assert warmed == [url for url, _process in hosts]
        assert proxy.processes == []  # no replica of its own
        run = run_apart(visit(proxy.url, "join"))
        assert run.exceptions == [] and run.errors == run.warnings == []
    finally:
        proxy.stop()


class RefusedTwice:
    """A session whose first two opens the proxy refuses with `status`."""

    def __init__(self, status: int):
        self.status, self.tries = status, 0

    async def open(self, *, reload: bool):
        self.tries += 1
        if self.tries <= 2:
            raise InvalidStatus(Response(self.status, "refused", Headers()))
        return "opened"


def test_a_phone_tries_again_while_the_proxy_refuses_as_a_browser_does(monkeypatch):
    """Right after a replica dies the proxy may answer 502: the benchmark's phone tries
    again (room_client.open_again); any other refusal is raised at once."""
    monkeypatch.setattr(room_client, "RETRY_WAITS_S", (0.0, 0.0, 0.0))
    session = RefusedTwice(502)
    assert run_in_own_loop(room_client.open_again(session)) == "opened"
    assert session.tries == 3
    forbidden = RefusedTwice(403)
    with pytest.raises(InvalidStatus):
        run_in_own_loop(room_client.open_again(forbidden))
    assert forbidden.tries == 1
