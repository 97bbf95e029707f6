"""A throw-away PostgreSQL cluster for the tests, the serving test and the benchmark.

Debian's `postgresql` package (version 15) ships `initdb` and `pg_ctl` under
/usr/lib/postgresql/15/bin. PostgreSQL refuses to run as root, so when we are root every
command runs as the `postgres` user (`runuser -u postgres --`), in a temporary directory
that user owns. That directory goes in the temporary folder ($TMPDIR) when the
postgres user can reach it, else in the first of /tmp, /var/tmp and that user's home
it can: a private (0700) $TMPDIR is left as it is, never opened up. The cluster
listens on a free port of 127.0.0.1, 127.0.0.2 and 127.0.0.3 (replicas bound to the
other two act as other hosts) and its unix socket lives in that directory; pg_hba
lets in loopback connections only, without a password (trust), so nothing here is
reachable from another machine.

    cluster = Cluster()
    url = cluster.start()   # postgresql+psycopg://postgres@127.0.0.1:PORT/rooms
    ...
    cluster.stop()          # stops the server and removes its directory
    Cluster.at(directory).stop()   # the same from another process (the tests' controller)

`python -m deploy.postgres` starts one, prints its URL and keeps it until Ctrl-C or
SIGTERM (for .ci/run or a benchmark by hand).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

VERSION_DIRECTORY = Path("/usr/lib/postgresql")
PREFERRED_VERSION = "15"
LOOPBACK_HOSTS = ("127.0.0.1", "127.0.0.2", "127.0.0.3")
DATABASE = "rooms"
START_TIMEOUT_S = 60

# Durability is worth nothing in a cluster that is deleted afterwards; without the
# fsyncs a test run is several times faster. The benchmark asks for durable=True.
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
SETTINGS = {
    "max_connections": "300",  # replicas' pools, the tests' 50 threads, psql
    "shared_buffers": "64MB",
    "log_min_messages": "warning",
}


def binaries() -> Path | None:
    """The bin directory of Debian's PostgreSQL (15 preferred, else the newest)."""
    preferred = VERSION_DIRECTORY / PREFERRED_VERSION / "bin"
    if (preferred / "initdb").exists():
        return preferred
    found = sorted(VERSION_DIRECTORY.glob("*/bin/initdb"), key=lambda p: p.parent.parent.name)
    return found[-1].parent if found else None


def missing() -> str | None:
    """Why no cluster can be started here, or None when one can."""
    if binaries() is None:
        return (
            f"PostgreSQL is not installed (no initdb under {VERSION_DIRECTORY}/*/bin; "
            "apt-get install postgresql)"
        )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root and runuser is missing"
    return None


def postgres_reaches(folder: Path) -> bool:
    """Whether the postgres user may pass through `folder` (and every folder above)."""
    done = subprocess.run(
        ["runuser", "-u", "postgres", "--", "test", "-x", str(folder)],
        capture_output=True, timeout=START_TIMEOUT_S, check=False,
    )  # fmt: skip
    return done.returncode == 0


def cluster_parent() -> Path:
    """Where the cluster's own directory goes: the temporary folder, unless we are root
    and the postgres user cannot pass through it (a 0700 $TMPDIR); then the first
    shared temporary folder, or that user's home, it can."""
    temporary = Path(tempfile.gettempdir())
    if os.geteuid() != 0:
        return temporary  # PostgreSQL runs as us: our own folder is reachable
    home = Path(pwd.getpwnam("postgres").pw_dir)
    candidates = dict.fromkeys([temporary, Path("/tmp"), Path("/var/tmp"), home])
    for folder in candidates:
        if folder.is_dir() and postgres_reaches(folder):
            return folder
    tried = ", ".join(str(folder) for folder in candidates)
    raise RuntimeError(f"the postgres user can reach none of {tried}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """One throw-away cluster: `start()` -> its SQLAlchemy URL; `stop()` removes it."""

    def __init__(self, *, durable: bool = False, hosts: tuple[str, ...] = LOOPBACK_HOSTS):
        self.durable = durable
        self.hosts = hosts
        self.directory: Path | None = None
        self.port: int | None = None
        self.url: str | None = None

    @classmethod
    def at(cls, directory: Path) -> Cluster:
        """The cluster started in `directory` (by this or another process), to stop it."""
        cluster = cls()
        cluster.directory = Path(directory)
        return cluster

    def _run(self, *command: str, timeout: float = START_TIMEOUT_S) -> str:
        """Run one PostgreSQL command, as the postgres user when we are root."""
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [*prefix, *command], capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {done.stderr or done.stdout}")
        return done.stdout

    @property
    def data(self) -> Path:
        return self.directory / "data"

    def start(self) -> str:
        reason = missing()
        if reason:
            raise RuntimeError(reason)
        parent = cluster_parent()
        self.directory = Path(tempfile.mkdtemp(prefix="pooling-lab-postgres-", dir=parent))
        if os.geteuid() == 0:
            shutil.chown(self.directory, user="postgres", group="postgres")
        try:
            self._initdb()
            self._serve()
            self._run(
                str(binaries() / "createdb"), "-h", str(self.directory), "-p", str(self.port),
                "-U", "postgres", DATABASE,
            )  # fmt: skip
        except BaseException:
            self.stop()
            raise
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"
        return self.url

    def _initdb(self) -> None:
        self._run(
            str(binaries() / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        # Loopback only: the unix socket and 127.0.0.0/8, nothing from another host.
        (self.data / "pg_hba.conf").write_text(
            "local all all trust\nhost all all 127.0.0.0/8 trust\n", encoding="utf-8"
        )

    def _serve(self) -> None:
        settings = {**SETTINGS, **({} if self.durable else FAST_SETTINGS)}
        settings["listen_addresses"] = f"'{','.join(self.hosts)}'"
        settings["unix_socket_directories"] = f"'{self.directory}'"
        written = "".join(f"{name} = {value}\n" for name, value in settings.items())
        configuration = self.data / "postgresql.auto.conf"
        for attempt in range(3):  # a port taken between free_port() and the bind: retry
            self.port = free_port()
            configuration.write_text(f"{written}port = {self.port}\n", encoding="utf-8")
            try:
                self._run(
                    str(binaries() / "pg_ctl"), "-D", str(self.data), "-w",
                    "-t", str(START_TIMEOUT_S), "-l", str(self.directory / "server.log"),
                    "start",
                )  # fmt: skip
                return
            except RuntimeError:
                if attempt == 2:
                    raise

    def pause(self) -> None:
        """Stop the server and keep its data: a database gone mid-lecture (resume())."""
        self._run(str(binaries() / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the paused server again, on the same port with the same data."""
        self._run(
            str(binaries() / "pg_ctl"), "-D", str(self.data), "-w", "-t", str(START_TIMEOUT_S),
            "-l", str(self.directory / "server.log"), "start",
        )  # fmt: skip

    def stop(self) -> None:
        """Stop the server (at once: nothing in it is kept) and remove its directory."""
        if self.directory is None:
            return
        if (self.data / "postmaster.pid").exists():
            try:
                self._run(str(binaries() / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                          "-w", "stop")  # fmt: skip
            except (RuntimeError, subprocess.TimeoutExpired):
                pass  # already gone; the directory goes all the same
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = self.url = None


def main() -> None:
    cluster = Cluster(durable="--durable" in sys.argv)
    print(cluster.start(), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        signal.pause()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
