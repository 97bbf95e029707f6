"""A class in one room: N students join by the link within 10 s, sit idle 20 s, then
answer a cell question (taps on x) within 20 s and a number question within 20 s, a
third of them changing their answer; the projector's fragment runs throughout. Every
session speaks Streamlit's websocket protocol as its browser would (deploy/room_client:
the token and the lecturer's key are the browser component's state, taps the chart's).

    python benchmarks/bench_room.py --students 200 [--replicas 2] [--postgres] [--kill-replica]
    python benchmarks/bench_room.py --url http://127.0.0.1:8501 --database-url URL

By default it serves deploy/serve's replicas (Cluster) on a SQLite file of its own;
--postgres starts a throw-away PostgreSQL (deploy/postgres.py) instead; --url drives a
running deployment on loopback, whose database (--database-url) the lecturer's part
opens the room in and checks the answers against (server CPU is then not measured).
The lecturer's controls (ask, close) go to the store directly. Bounded: at most 500
students (they arrive within 10 s, or 1 s for every 20 past 200: 25 s for 500), every
run within 30 s (or it is an error).

--kill-replica (two replicas or more, served here) SIGKILLs the projector's replica in
the middle of the cell round (10 s after it opens), as a crash would: each phone and the
projector on it notices its websocket closed at its next glance (every 0.5 s) and
reconnects as Streamlit's page does (the same cookies, the page's link; a phone's
token comes in its cookie, the projector's key from the browser component); a phone
whose tap the kill cut reads on its page whether it was saved before the replica died,
and taps again when nothing was. It prints the phones back on the room (the round
drawn and, where one was acknowledged, the answer saved) and the seconds from the kill
to each (reconnect p50/p95), the taps cut, and how soon the projector counted again;
lost covers the answers acknowledged before the kill as well as those sent after it.

Prints p50/p95 of submit time (a tap's or Send's run) and of answer-to-projector time
(Send pressed until the projector's count includes it) and of round change (the
lecturer's asking until each phone's page draws the new round), answers sent and counted,
answers sent after their round closed (refused, as they must be: not errors), errors,
server CPU idle and answering; the last line is
`N students, lost L, submit p95 X s, projector p95 Y s, round change p95 Z s,
errors E`, where lost counts
the answers acknowledged on a student's page that the database does not hold as sent
or the projector never counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_class import cpu_seconds  # noqa: E402
from benchmarks.room_load import Lecturer, Log, Plan, student  # noqa: E402
from deploy.cluster import Cluster  # noqa: E402
from deploy.local_server import free_port  # noqa: E402
from deploy.room_client import STICKY_COOKIE, sticky_of  # noqa: E402

LOOPBACK = ("http://127.", "http://localhost", "http://[::1]")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--url", help="a running deployment (loopback)")
    parser.add_argument("--database-url", help="its rooms' database (with --url)")
    parser.add_argument("--postgres", action="store_true", help="a throw-away PostgreSQL")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to serve")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", type=Path, help="write every submit and count seen (JSON)")
    parser.add_argument("--kill-replica", action="store_true", help="SIGKILL one replica mid-round")
    args = parser.parse_args()
    if not 1 <= args.students <= 500:
        parser.error("--students must be from 1 to 500")
    if args.kill_replica and (args.url or args.replicas < 2):
        parser.error("--kill-replica needs --replicas 2 or more, served here (not --url)")
    if not 1 <= args.replicas <= 8:
        parser.error("--replicas must be from 1 to 8")
    if args.url and not args.url.startswith(LOOPBACK):
        parser.error("--url must be a loopback address")
    if args.url and not args.database_url:
        parser.error("--url needs --database-url: the lecturer opens the room in it")
    return args


async def whole_class(url: str, lecturer: Lecturer, plan: Plan, log: Log) -> None:
    projector = asyncio.create_task(lecturer.watch(url, log))
    await lecturer.projector_ready.wait()
    students = [
        asyncio.create_task(student(index, url, lecturer, plan, log))
        for index in range(plan.students)
    ]
    await lecturer.run_class(plan, log)
    await asyncio.gather(*students)
    await lecturer.projector_caught_up()
    lecturer.finished.set()
    await projector


def serve(args, workdir: Path):
    """(base URL, server pids, database URL, what to stop afterwards)."""
    stops = []
    database_url = args.database_url
    if args.postgres:
        from deploy.postgres import Cluster as Postgres

        postgres = Postgres(durable=True)
        database_url = postgres.start()
        stops.append(postgres.stop)
    database_url = database_url or f"sqlite:///{workdir / 'rooms.sqlite3'}"
    if args.url:
        return args.url, [], database_url, stops, None
    cluster = Cluster(args.replicas, free_port(), root=args.root, database_url=database_url)
    stops.insert(0, cluster.stop)
    cluster.start()
    return cluster.url, cluster.pids(), database_url, stops, cluster


def killer(cluster: Cluster, lecturer: Lecturer):
    """() -> the sticky cookie of the replica it SIGKILLed: the projector's (the
    harder case: the projector must come back too), or the first."""

    def kill() -> str:
        # deploy/cluster.haproxy_config: cookie rN is local replica N - 1.
        cookie = sticky_of(lecturer.projector.session.cookie) if lecturer.projector else ""
        found = re.fullmatch(rf"{STICKY_COOKIE}=r(\d+)", cookie)
        index = int(found.group(1)) - 1 if found else 0
        cluster.kill(index)
        return f"{STICKY_COOKIE}=r{index + 1}"

    return kill


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def to_projector(log: Log) -> tuple[list[float], int]:
    """Send-to-projector seconds of each first answer, and how many the projector's
    count never reached (per round: the k-th acknowledged is shown once the count
    is k or more)."""
    seconds, unseen = [], 0
    for number in sorted({s.round_number for s in log.submits}):
        firsts = sorted((s for s in log.submits if s.first and s.round_number == number),
                        key=lambda s: s.done)  # fmt: skip
        shown = [(t, count) for t, seen_round, count in log.seen if seen_round == number]
        for rank, answered in enumerate(firsts, start=1):
            when = next((t for t, count in shown if count >= rank and t >= answered.sent), None)
            if when is None:
                unseen += 1
            else:
                seconds.append(when - answered.sent)
    return seconds, unseen


def line(name: str, values: list[float], target: str = "") -> str:
    return (f"{name:<22} {len(values):5d}  p50 {statistics.median(values) if values else 0:6.3f} s"
            f"  p95 {percentile(values, 0.95):6.3f} s  max {max(values, default=0):6.3f} s"
            f"  {target}")  # fmt: skip


def report(log: Log, lecturer: Lecturer, *, students: int) -> None:
    submits = [s.done - s.sent for s in log.submits]
    shown, unseen = to_projector(log)
    wrong = sum(bad for bad, _ in log.stored.values())
    acked = sum(s.ok for s in log.submits)
    print(line("join", log.joins))
    print(line("submit", submits, "target p95 <= 1 s"))
    print(line("answer to projector", shown, "target p95 <= 2 s"))
    print(line("round to phones", log.round_changes, "target p95 <= 1.5 s"))
    print(line("projector's runs", log.projector_runs, "(each fragment's, ticked every second)"))
    counted = {n: max((c for _, r, c in log.seen if r == n), default=0) for n in log.stored}
    print(f"answers sent {len(log.submits)}, acknowledged {acked}; last answers per round "
          f"{ {n: total for n, (_, total) in log.stored.items()} }, held as sent "
          f"{ {n: total - bad for n, (bad, total) in log.stored.items()} }, "
          f"counted by the projector {counted}")  # fmt: skip
    for phase in ("joining", "idle", "answering"):
        server = f"{log.cpu[phase]:.3f} cores" if phase in log.cpu else "not measured"
        own = log.client_cpu.get(phase, 0.0)
        print(f"server CPU {phase}: {server} (this benchmark's own: {own:.3f} cores)")
    if {"joining", "idle", "answering"} <= log.cpu.keys():
        print(per_event(log, students=students))
    print(f"students per replica: {dict(sorted(log.replicas.items()))}")
    killed = killed_line(log) if log.killed_at is not None else ""
    print(f"answers sent after their round closed, refused as they must be: {log.late}")
    print(f"errors {len(log.errors)}")
    for message in log.errors[:5]:
        print(f"    {message}")
    lost = wrong + unseen
    print(f"lost {lost}: {wrong} acknowledged but held otherwise, {unseen} never counted "
          "by the projector")  # fmt: skip
    for message in log.held_otherwise[:5]:
        print(f"    {message}")
    print(f"{students} students, lost {lost}, submit p95 {percentile(submits, 0.95):.2f} s, "
          f"projector p95 {percentile(shown, 0.95):.2f} s, "
          f"round change p95 {percentile(log.round_changes, 0.95):.2f} s, "
          f"{killed}errors {len(log.errors)}")  # fmt: skip


def per_event(log: Log, *, students: int) -> str:
    """Server CPU per join and per answer (each phase's CPU above idle's, over its
    events), and idle's per student; docs/serving.md sizes a class from them."""
    plan_s = {phase: log.phase_s.get(phase, 0.0) for phase in ("joining", "answering")}
    idle = log.cpu["idle"]
    join_ms = (log.cpu["joining"] - idle) * plan_s["joining"] / max(1, len(log.joins)) * 1e3
    answer_ms = (log.cpu["answering"] - idle) * plan_s["answering"] / max(1, len(log.submits)) * 1e3
    return (
        f"server CPU per join {join_ms:.1f} ms, per answer {answer_ms:.1f} ms (above idle); "
        f"idle {idle / students * 1e3:.2f} ms a second per student (with the projector's ticks)"
    )


def killed_line(log: Log) -> str:
    """What the kill did, printed; the final line's part on it."""
    on_it = log.replicas.get(log.killed_replica, 0)
    at = log.killed_at - log.opened[min(log.opened)]
    print(f"killed {log.killed_replica} {at:.1f} s into round 1: {on_it} phones on it, "
          f"{len(log.reconnects)} back on the room with their saved answer; "
          f"answers acknowledged before the kill {log.acked_before_kill}; "
          f"taps cut by the kill {log.cut} (saved or not, as the page says)")  # fmt: skip
    print(line("kill to phone back", log.reconnects, "target p95 <= 5 s"))
    if log.projector_cut:
        back = "never" if log.projector_back is None else f"{log.projector_back:.2f} s"
        print(f"projector on the killed replica: counting again {back} after the kill")
    else:
        print("projector on the live replica: kept counting")
    p95 = percentile(log.reconnects, 0.95)
    return f"back {len(log.reconnects)}/{on_it}, reconnect p95 {p95:.2f} s, "


def cpu_meter(pids: list[int]):
    """() -> the server processes' CPU seconds so far; a killed one's up to its last
    reading (what it spent after that is not counted)."""
    last: dict[int, float] = {}

    def total() -> float:
        for pid in pids:
            try:
                last[pid] = cpu_seconds([pid])
            except OSError:
                pass
        return sum(last.values())

    return total


def dump(log: Log) -> dict:
    """Times in seconds since the round opened."""
    return {
        "submits": [
            [s.round_number, s.sent - log.opened[s.round_number], s.done - s.sent, s.ok]
            for s in log.submits
        ],
        "seen": [[r, t - log.opened.get(r, t), c] for t, r, c in log.seen if r],
    }


def main() -> int:
    args = arguments()
    plan = Plan(
        students=args.students,
        seed=args.seed,
        join_s=max(10.0, args.students / 20),
        kill_at_s=10.0 if args.kill_replica else None,
    )
    with tempfile.TemporaryDirectory(prefix="bench-room-") as folder:
        url, pids, database_url, stops, cluster = serve(args, Path(folder))
        try:
            lecturer = Lecturer(database_url, cpu=cpu_meter(pids) if pids else None)
            if args.kill_replica:
                lecturer.kill = killer(cluster, lecturer)
            log = Log(started=time.perf_counter())
            asyncio.run(whole_class(url, lecturer, plan, log))
            lecturer.check_stored(log)
        finally:
            for stop in stops:
                stop()
    where = "a running deployment" if args.url else f"{args.replicas} replicas behind HAProxy"
    backend = database_url.split(":", 1)[0]
    print(f"{args.students} students in one room, {where}, {backend} (seed {args.seed})")
    report(log, lecturer, students=args.students)
    if args.dump:
        args.dump.write_text(json.dumps(dump(log)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
