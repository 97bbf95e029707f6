"""N Streamlit replicas of the lab behind HAProxy: start them warm, stop them all.

Local replicas run on loopback ports of this machine; replicas already running on
other hosts (`backends`, HOST:PORT) join them in the proxy's backend, warmed the same
way. Every local replica gets the settings given on the command line in its
environment, over the ones it inherits (POOLING_LAB_DATABASE_URL, POOLING_LAB_PUBLIC_URL,
POOLING_LAB_DATA; rooms/settings.py: the command line > the environment >
secrets.toml > the default); without a database URL they share the embedded SQLite
file of the user's data folder, which serves one machine only.

deploy/serve is the command; the benchmarks and the tests use this module.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from deploy.local_server import ROOT, start_app, stop, wait_healthy
from deploy.stream_client import run_apart, visit
from rooms.settings import DATA_FOLDER, DATABASE_URL, PUBLIC_URL, TRUSTED_PROXIES
from teaching.pages import PAGES

TEMPLATE = Path(__file__).with_name("haproxy.cfg.template")


def page_paths() -> tuple[str, ...]:
    """The URL path of every page, in the menu's order: "" for the home page."""
    return tuple(page.url_path for page in PAGES)


WARM_PAGES = tuple((path, "") for path in page_paths())  # every page, once


DATABASE_VARIABLE = DATABASE_URL.variable  # read by ui/class_mode/database.py
PUBLIC_VARIABLE = PUBLIC_URL.variable  # the join link's address behind a proxy
DATA_VARIABLE = DATA_FOLDER.variable  # where the default SQLite file lives
TRUSTED_VARIABLE = TRUSTED_PROXIES.variable  # whose X-Forwarded-For the replicas believe
PROXY_ADDRESS = "127.0.0.1"  # where HAProxy's connections to the local replicas come from


def checkout_secrets(root: Path = ROOT) -> dict:
    """`root`'s .streamlit/secrets.toml as its replicas read it; {} when there is none
    or it does not parse (Streamlit then reads none either)."""
    try:
        return tomllib.loads((root / ".streamlit" / "secrets.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def parse_backend(text: str) -> str:
    """ "HOST:PORT" of a replica on another host, checked; ValueError says what is wrong."""
    host, colon, port = text.strip().rpartition(":")
    if not colon or not host or any(char.isspace() for char in host):
        raise ValueError(f"a backend is HOST:PORT, such as 10.0.0.5:8501, not {text!r}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"the port of backend {text!r} is not a number from 1 to 65535")
    return f"{host}:{int(port)}"


@dataclass(frozen=True)
class EdgeLimits:
    """HAProxy's per-source limits (docs/serving.md, "Limits at the edge"): a source
    past one is answered 429. connections_10s: new TCP connections in 10 s; a phone
    opening the lab makes about 6 (a browser's connections per host), so a 500-seat
    hall behind one address makes about 3,000 in its two minutes, at most ~1,000 in
    any 10 s if a third of it loads at once. requests_10s: HTTP requests in 10 s; a
    first load of the lab is about 100 (102 measured in Chromium through this proxy:
    the page, its scripts, styles and fonts), 500 phones 50,000 in two minutes,
    ~17,000 in the busiest 10 s if a third loads at once. sessions_60s: websockets
    (/_stcore/stream, one per open page) in 60 s: 500 for the hall even all in one
    minute, and once more when a replica dies and every phone on it reconnects."""

    connections_10s: int = 1500
    requests_10s: int = 20_000
    sessions_60s: int = 1200


def haproxy_config(
    *,
    host: str,
    port: int,
    replica_ports: list[int],
    backends: tuple[str, ...] = (),
    limits: EdgeLimits = EdgeLimits(),
) -> str:
    """The proxy's config: the local replicas (loopback ports) first, then the
    replicas on other hosts (HOST:PORT), each with its own sticky-cookie value; the
    edge limits per source."""
    addresses = [f"127.0.0.1:{replica}" for replica in replica_ports] + list(backends)
    servers = "\n".join(
        f"    server r{n} {address} check cookie r{n}"
        for n, address in enumerate(addresses, start=1)
    )
    return TEMPLATE.read_text().format(
        host=host,
        port=port,
        servers=servers,
        connections_10s=limits.connections_10s,
        requests_10s=limits.requests_10s,
        sessions_60s=limits.sessions_60s,
    )


async def warm(url: str) -> None:
    """Run every page once, one after another: a cold process that takes two sessions
    at once can fail importing (a partially initialised pandas was seen)."""
    for page, query in WARM_PAGES:
        await visit(url, page, query)


def warm_up(url: str) -> None:
    """`warm(url)`, also where the caller's thread already runs an event loop."""
    run_apart(warm(url))


@dataclass
class Cluster:
    """`replicas` local Streamlit processes and the `backends` on other hosts behind
    one HAProxy on host:port. database_url, public_url and data_folder (the command
    line's) go to the local replicas' environment when given, over what they inherit
    (None: theirs, or secrets.toml's, or the defaults). The local replicas always
    trust the proxy's loopback address for X-Forwarded-For, and `trusted_proxies`
    (a proxy in front of this one) too."""

    replicas: int
    port: int
    host: str = "127.0.0.1"
    root: Path = ROOT
    database_url: str | None = None
    public_url: str | None = None
    data_folder: str | None = None
    backends: tuple[str, ...] = ()
    trusted_proxies: str | None = None
    processes: list[subprocess.Popen] = field(default_factory=list)
    replica_urls: list[str] = field(default_factory=list)
    proxy: subprocess.Popen | None = None
    workdir: Path | None = None

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{shown}:{self.port}"

    def start(self) -> Cluster:
        """Every replica started and warmed, then the proxy; on failure, all stopped."""
        haproxy = shutil.which("haproxy")
        if haproxy is None:
            raise RuntimeError("haproxy is not installed (apt-get install haproxy)")
        if self.replicas + len(self.backends) == 0:
            raise ValueError("a cluster needs a local replica or a backend")
        try:
            for _ in range(self.replicas):
                url, process = start_app(self.root, env=self.replica_env())
                self.processes.append(process)
                self.replica_urls.append(url)
                warm_up(url)
            for backend in self.backends:
                # Another host's replica may be as cold as a local one was.
                wait_healthy(f"http://{backend}")
                warm_up(f"http://{backend}")
            self.workdir = Path(tempfile.mkdtemp(prefix="lab-haproxy-"))
            config = self.workdir / "haproxy.cfg"
            ports = [int(url.rsplit(":", 1)[1]) for url in self.replica_urls]
            config.write_text(
                haproxy_config(
                    host=self.host, port=self.port, replica_ports=ports, backends=self.backends
                )
            )
            self.proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
            wait_healthy(self.url, self.proxy)
        except BaseException:
            self.stop()
            raise
        return self

    def replica_env(self) -> dict[str, str]:
        """What a local replica's environment gets on top of this process's."""
        given = {
            DATABASE_VARIABLE: self.database_url,
            PUBLIC_VARIABLE: self.public_url,
            DATA_VARIABLE: self.data_folder,
            TRUSTED_VARIABLE: ", ".join(filter(None, (PROXY_ADDRESS, self.trusted_proxies))),
        }
        return {name: value for name, value in given.items() if value}

    def stop(self) -> None:
        if self.proxy is not None:
            stop(self.proxy)
            self.proxy = None
        for process in self.processes:
            stop(process)
        self.processes.clear()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def kill(self, index: int) -> int:
        """SIGKILL local replica `index` (0-based), as a crash would end it: no clean
        shutdown, its websockets cut. It stays in the proxy's backend, marked down by
        the health checks; its sessions move to the live replicas. The pid killed."""
        process = self.processes[index]
        process.kill()
        process.wait()
        return process.pid
