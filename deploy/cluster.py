"""N Streamlit replicas of the lab behind HAProxy: start them warm, stop them all.

deploy/serve is the command; the class load benchmark and the tests use this module.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ui.pure.pages import PAGES

from .local_server import ROOT, start_app, stop, wait_healthy
from .stream_client import visit

TEMPLATE = Path(__file__).with_name("haproxy.cfg.template")


def page_paths() -> tuple[str, ...]:
    """The URL path of every page, in the menu's order: "" for the home page."""
    return tuple(page.url_path for page in PAGES)


WARM_PAGES = tuple((path, "") for path in page_paths())  # every page, once


def haproxy_config(*, host: str, port: int, replica_ports: list[int]) -> str:
    servers = "\n".join(
        f"    server r{n} 127.0.0.1:{replica} check cookie r{n}"
        for n, replica in enumerate(replica_ports, start=1)
    )
    return TEMPLATE.read_text().format(host=host, port=port, servers=servers)


async def warm(url: str) -> None:
    """Run every page once, one after another: a cold process that takes two sessions
    at once can fail importing (a partially initialised pandas was seen)."""
    for page, query in WARM_PAGES:
        await visit(url, page, query)


def warm_up(url: str) -> None:
    """`warm(url)` on a thread of its own, so that it also works where the caller's
    thread already runs an event loop (Playwright's sync API does)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, warm(url)).result()


@dataclass
class Cluster:
    replicas: int
    port: int
    host: str = "127.0.0.1"
    root: Path = ROOT
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
        try:
            for _ in range(self.replicas):
                url, process = start_app(self.root)
                self.processes.append(process)
                self.replica_urls.append(url)
                warm_up(url)
            self.workdir = Path(tempfile.mkdtemp(prefix="lab-haproxy-"))
            config = self.workdir / "haproxy.cfg"
            ports = [int(url.rsplit(":", 1)[1]) for url in self.replica_urls]
            config.write_text(haproxy_config(host=self.host, port=self.port, replica_ports=ports))
            self.proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
            wait_healthy(self.url, self.proxy)
        except BaseException:
            self.stop()
            raise
        return self

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
