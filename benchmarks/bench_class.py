"""A class on one link: N students open share links within a few seconds, then each
changes a widget every half second or so, speaking Streamlit's own websocket protocol
(deploy/stream_client.py), as their browsers would.

    python benchmarks/bench_class.py --sessions 40 [--replicas 1|N] [--url URL]

--replicas 1 serves one Streamlit process; N >= 2 serves deploy/serve's N replicas
behind HAProxy; --url drives a running address instead (server CPU is then not
measured). --root serves another checkout (before/after). Loopback only, bounded in
sessions (at most 200) and time (every run within 30 s, or it counts as an error);
everything started here is stopped at the end.

Prints per page p50 / p95 / max latency of every run (first load and changes),
errors (exceptions on the page, lost connections, runs over 30 s), server CPU per run
and resident memory per session. Targets are printed, not asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.cluster import Cluster, warm_up  # noqa: E402
from deploy.local_server import free_port, start_app, stop  # noqa: E402
from deploy.stream_client import RunFailed, Session  # noqa: E402

GRID = ";".join(",".join(str((r * 5 + c * 3) % 7) for c in range(6)) for r in range(6))
# page -> (share link's query, widget changes a student makes in turn)
PAGES = {
    "playground": (
        f"x={GRID}&kh=2&kw=2&sh=1&sw=1",
        [
            ("pg_mode", "string_value", "Average"),
            ("pg_kh", "int_value", 3),
            ("pg_mode", "string_value", "Max"),
            ("pg_kh", "int_value", 2),
        ],
    ),
    "batch": (
        "n=8",
        [
            ("bt_reduction", "string_value", "sum (Σ)"),
            ("bt_size", "int_value", 16),
            ("bt_reduction", "string_value", "mean (1/N Σ)"),
            ("bt_size", "int_value", 8),
        ],
    ),
    "": ("", [("home_a", "double_value", 5.0), ("home_a", "double_value", 1.0)]),
}
MIX = [
    "playground",
    "batch",
    "playground",
    "",
    "batch",
    "playground",
    "playground",
    "batch",
    "",
    "playground",
]
TARGETS = (
    "one process, 40 sessions: p95 <= 2 s; two replicas: p95 <= 1 s; one session: p95 <= 0.15 s"
)


async def student(index: int, url: str, args, results, rng: random.Random) -> None:
    page = MIX[index % len(MIX)]
    query, changes = PAGES[page]
    name = page or "home"
    await asyncio.sleep(rng.uniform(0, args.ramp))
    session = Session(url, page, query)
    try:
        run = await session.open()
        results[name].append(run)
        for step in range(args.changes):
            await asyncio.sleep(args.pace * rng.uniform(0.5, 1.5))
            results[name].append(await session.rerun(changes[step % len(changes)]))
    except (RunFailed, TimeoutError, OSError) as error:
        results[f"{name} errors"].append(f"{type(error).__name__}: {error}")
    finally:
        try:
            await session.close()
        except Exception:  # noqa: BLE001 - closing a broken connection
            pass


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def resident_mb(pids: list[int]) -> float:
    pages = sum(int(Path(f"/proc/{pid}/statm").read_text().split()[1]) for pid in pids)
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def whole_class(url: str, args) -> dict[str, list]:
    results: dict[str, list] = defaultdict(list)
    rng = random.Random(args.seed)
    await asyncio.gather(*(student(i, url, args, results, rng) for i in range(args.sessions)))
    return results


def report(results, *, cpu: float | None, memory: float | None, sessions: int) -> None:
    print(f"{'page':<11} {'runs':>5} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'errors':>7}")
    every = []
    for name in ("playground", "batch", "home"):
        runs = results.get(name, [])
        failed = results.get(f"{name} errors", [])
        errors = len(failed) + sum(bool(run.exceptions) for run in runs)
        seconds = sorted(run.seconds for run in runs)
        every += seconds
        if seconds:
            p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
            print(
                f"{name:<11} {len(seconds):5d} {statistics.median(seconds):7.3f} "
                f"{p95:7.3f} {seconds[-1]:7.3f} {errors:7d}"
            )
        for message in failed[:3]:
            print(f"    {message}")
    every.sort()
    if every:
        p95 = every[min(len(every) - 1, int(0.95 * len(every)))]
        median = statistics.median(every)
        print(f"{'all':<11} {len(every):5d} {median:7.3f} {p95:7.3f} {every[-1]:7.3f}")
    if cpu is not None and every:
        print(f"server CPU per run: {1000 * cpu / len(every):.0f} ms")
    if memory is not None:
        print(f"resident memory per session: {memory / max(sessions, 1):.1f} MB")
    print(f"targets: {TARGETS}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between changes")
    parser.add_argument("--ramp", type=float, default=2.0, help="seconds over which they arrive")
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--url", help="a running app (loopback); default: start one")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to serve")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 1 <= args.sessions <= 200:
        parser.error("--sessions must be from 1 to 200")
    if args.url and not args.url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        parser.error("--url must be a loopback address")
    cluster, process, pids = None, None, []
    url = args.url
    if url is None and args.replicas >= 2:
        cluster = Cluster(args.replicas, free_port(), root=args.root).start()
        url, pids = cluster.url, cluster.pids()
    elif url is None:
        url, process = start_app(args.root)
        warm_up(url)
        pids = [process.pid]
    try:
        before_cpu = cpu_seconds(pids) if pids else None
        before_memory = resident_mb(pids) if pids else None
        started = time.perf_counter()
        results = asyncio.run(whole_class(url, args))
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(pids) - before_cpu if pids else None
        memory = resident_mb(pids) - before_memory if pids else None
    finally:
        if cluster is not None:
            cluster.stop()
        if process is not None:
            stop(process)
    served = f"{args.replicas} replicas behind HAProxy" if cluster else "one process"
    print(f"{args.sessions} sessions, {args.changes} changes each, {served}, {elapsed:.1f} s")
    report(results, cpu=cpu, memory=memory, sessions=args.sessions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
