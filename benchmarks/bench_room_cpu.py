"""Server CPU per class event, one at a time, on one replica: a join (the link opened,
the token handed over), a tap on x, a poll of the Join page's fragment, and a tick of
the projector's fragments with no answers and with every phone's answer in. One event
at a time, so the numbers do not depend on how busy the machine is (a queue would
only add waiting, not CPU); docs/serving.md sizes a class from them.

    python benchmarks/bench_room_cpu.py [--phones 60] [--ticks 20] [--root DIR]

Loopback only, bounded: at most 200 phones and 60 ticks. Prints the median and the
mean CPU of each event (the replica's utime + stime around it, in the kernel's clock
ticks of 10 ms: hence the mean over many).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_class import cpu_seconds  # noqa: E402
from deploy.cluster import DATABASE_VARIABLE, warm  # noqa: E402
from deploy.local_server import start_app, stop  # noqa: E402
from deploy.room_client import Projector, Student  # noqa: E402
from rooms import schema, store  # noqa: E402
from teaching.class_mode.codes import new_token  # noqa: E402
from teaching.class_mode.questions import question_from_exercise  # noqa: E402


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=60)
    parser.add_argument("--ticks", type=int, default=20)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to serve")
    args = parser.parse_args()
    if not 1 <= args.phones <= 200 or not 1 <= args.ticks <= 60:
        parser.error("--phones must be from 1 to 200 and --ticks from 1 to 60")
    return args


async def each(pid: int, events) -> list[float]:
    """CPU seconds of the replica `pid` around each awaited event, one after another."""
    spent = []
    for event in events:
        before = cpu_seconds([pid])
        await event()
        spent.append(cpu_seconds([pid]) - before)
    return spent


async def measure(url: str, pid: int, engine, *, phones: int, ticks: int) -> dict:
    room = store.open_room(engine, token=new_token())
    question = question_from_exercise("cells", level=2, seed=7, number=1)
    store.ask(engine, room.code, secret=room.secret, question=question)
    projector = Projector(url, room.code, room.secret)
    await projector.open()
    results = {"projector tick, no answers": await each(pid, [projector.refresh] * ticks)}
    students = [Student(url, room.code, new_token()) for _ in range(phones)]
    results["join (2 runs)"] = await each(pid, [phone.join for phone in students])
    results["poll (the Join page's fragment)"] = await each(pid, [p.poll for p in students])
    taps = [lambda phone=phone, n=n: phone.tap(1, n % 3, 0) for n, phone in enumerate(students)]
    results["tap on x (an answer saved)"] = await each(pid, taps)
    results[f"projector tick, {phones} answers"] = await each(pid, [projector.refresh] * ticks)
    for phone in students:
        await phone.close()
    await projector.close()
    return results


def main() -> int:
    args = arguments()
    with tempfile.TemporaryDirectory(prefix="bench-room-cpu-") as folder:
        database_url = f"sqlite:///{Path(folder) / 'rooms.sqlite3'}"
        url, process = start_app(args.root, env={DATABASE_VARIABLE: database_url})
        try:
            asyncio.run(warm(url))
            results = asyncio.run(
                measure(
                    url,
                    process.pid,
                    schema.new_engine(database_url),
                    phones=args.phones,
                    ticks=args.ticks,
                )
            )
        finally:
            stop(process)
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"server CPU per event, one replica, one event at a time (load average {load})")
    for name, spent in results.items():
        print(f"{name:<34} {len(spent):4d}  median {statistics.median(spent) * 1e3:6.1f} ms"
              f"  mean {statistics.fmean(spent) * 1e3:6.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
