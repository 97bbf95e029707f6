"""Start and stop one Streamlit process of the app on a loopback port.

Used by the browser tests and the benchmarks, so that both serve the app exactly the
way `streamlit run app.py` does (same config file, same pages).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT_S = 60


def free_port(address: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on at `address` now."""
    with socket.socket() as sock:
        sock.bind((address, 0))
        return sock.getsockname()[1]


def wait_healthy(
    url: str, process: subprocess.Popen | None = None, timeout_s: float = START_TIMEOUT_S
) -> None:
    """Poll `/_stcore/health` until it answers 200; RuntimeError when the process dies
    or the time runs out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url}/_stcore/health did not answer in {timeout_s:.0f} s")


def start_app(
    root: Path = ROOT,
    port: int | None = None,
    *,
    address: str = "127.0.0.1",
    env: dict[str, str] | None = None,
    log=subprocess.DEVNULL,
    script: str | Path = "app.py",
):
    """`streamlit run app.py` from `root`, listening on `address` (another loopback
    address, such as 127.0.0.2, stands for another host in the tests), with `env`
    added to this process's environment (POOLING_LAB_DATABASE_URL, ...); returns
    (url, process) once healthy. `script`: another app to serve the same way, with
    `root`'s config file (the browser benchmark's floor app)."""
    port = port or free_port(address)
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port),
        "--server.address", address,
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    environment = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, cwd=root, stdout=log, stderr=log, env=environment)
    url = f"http://{address}:{port}"
    try:
        wait_healthy(url, process)
    except RuntimeError:
        stop(process)
        raise
    return url, process


def stop(process: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
