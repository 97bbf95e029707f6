"""One student's script against the served class, and the rightful party meanwhile:
each row of issue 36's table run against two replicas behind HAProxy (deploy/cluster,
as deploy/serve starts them) over Streamlit's websocket protocol, as browsers would
(benchmarks/attack_pages, deploy/room_client). For each row it prints what the attack
sent and how much of it was held back, then whether the rightful action went through,
how long it took and what the page said.

    python benchmarks/bench_attacks.py [--rows recovery,open,...] [--one-address]
                                       [--replicas 2] [--postgres] [--root DIR]

Loopback only, bounded: each attack stops at its count or its time (--attack-s, 30 s
by default), whichever comes first, and the whole run skips the rows left once
--budget-s (300 s) has passed. Every attack browser is fresh (a token of its own, as
any page load mints). Each row's script sends from its own loopback address,
127.0.0.(100 + row), and its rightful party from 127.0.0.(10 + row): another device
on another network, as HAProxy and the replicas see them (the HTTP GET and the
websocket are both bound to it). --one-address puts both on the row's rightful
address: the script's laptop in the hall, behind the hall's one NAT address.

The rooms the rows need are opened in the store directly (the lecturer's part that
is no attack); everything the attack and the rightful party do goes through pages.
Over the protocol a page run costs the server some tens of milliseconds, so on a
small machine a script cannot send 12,000 answers in 35 s: the answers row sends what
it can in --attack-s and says the rate it reached (the store-level tests cover the
table's full counts).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.attack_pages import ClassPage, JoinForm, said  # noqa: E402
from benchmarks.bench_class import cpu_seconds  # noqa: E402
from benchmarks.room_load import FAILURES  # noqa: E402
from deploy.cluster import Cluster  # noqa: E402
from deploy.local_server import free_port  # noqa: E402
from deploy.room_client import Projector, Student  # noqa: E402
from deploy.stream_client import RunFailed  # noqa: E402
from rooms import schema, store  # noqa: E402
from teaching.class_mode.codes import grouped, new_code, new_token  # noqa: E402
from teaching.class_mode.questions import question_from_exercise  # noqa: E402

HELD_BACK = re.compile(r"too many|wait a|429|too fast|locked", re.IGNORECASE)
NO_ROOM = re.compile(r"opens no room|no room has", re.IGNORECASE)
OVERSIZED = 20 * 2**20  # characters: a 20 MB recovery code and nickname


@dataclass
class Attack:
    """What the script sent: `sent` tries, `held` of them held back (the page said
    too many or wait, or the proxy answered 429), `failed` that got no run at all."""

    sent: int = 0
    held: int = 0
    failed: int = 0
    seconds: float = 0.0
    note: str = ""

    def tried(self, text: str) -> None:
        self.sent += 1
        self.held += bool(HELD_BACK.search(text))

    def broke(self, error: Exception) -> None:
        self.sent += 1
        self.failed += 1
        self.held += bool(HELD_BACK.search(str(error)))


@dataclass
class Outcome:
    """The rightful action: whether it went through, its seconds, what was said."""

    name: str
    through: bool
    seconds: float
    said: str = ""
    parts: list[Outcome] = field(default_factory=list)


@dataclass
class Row:
    name: str
    attack_text: str
    rightful_text: str
    attack: Attack
    outcomes: list[Outcome]


@dataclass
class Bench:
    """The served app, its database, and where each row's traffic comes from."""

    url: str
    engine: object
    pids: list[int]
    attack_s: float
    one_address: bool

    def addresses(self, row: int) -> tuple[str, str]:
        """(the script's source address, the rightful party's) for row `row`."""
        rightful = f"127.0.0.{10 + row}"
        return (rightful if self.one_address else f"127.0.0.{100 + row}"), rightful

    rooms: list = field(default_factory=list)  # opened before any attack

    def open_rooms(self, count: int) -> None:
        """The lecturers' rooms the rows use, opened before any attack (the open row's
        attack would hold back a room opened after it)."""
        self.rooms += [store.open_room(self.engine, token=new_token()) for _ in range(count)]

    def lecturer_room(self, *, kind: str | None = None) -> store.NewRoom:
        """A room a lecturer opened (in the store), with a first round of `kind`."""
        room = self.rooms.pop()
        if kind is not None:
            question = question_from_exercise(kind, level=2, seed=7, number=1)
            store.ask(self.engine, room.code, secret=room.secret, question=question)
        return room


async def swarm(
    count: int, workers: int, seconds: float, one: Callable[[int], Awaitable[None]]
) -> float:
    """one(i) for i in 0..count-1 by `workers` at a time until done or `seconds` have
    passed (what is under way then finishes); the seconds it took."""
    started = time.perf_counter()
    deadline = started + seconds
    queue = iter(range(count))

    async def worker() -> None:
        for index in queue:
            if time.perf_counter() > deadline:
                return
            await one(index)

    await asyncio.gather(*(worker() for _ in range(workers)))
    return time.perf_counter() - started


async def timed(name: str, action: Callable[[], Awaitable[tuple[bool, str]]]) -> Outcome:
    started = time.perf_counter()
    try:
        through, text = await action()
    except FAILURES as error:
        through, text = False, f"{type(error).__name__}: {error}"
    return Outcome(name, through, time.perf_counter() - started, text[:160])


# -- the rows ------------------------------------------------------------------------------


async def recovery_row(bench: Bench, row: int) -> Row:
    """6 browsers x 10 wrong recovery codes, one a second on after that; then the
    lecturer's laptop types the right one."""
    script, rightful = bench.addresses(row)
    room = bench.lecturer_room()
    attack = Attack()

    async def browser(_: int, tries: int = 10) -> None:
        page = ClassPage(bench.url, token=new_token(), source=script, room=room.code)
        try:
            await page.open()
            for _ in range(tries):
                attack.tried(said(await page.recover(grouped(new_code() + new_code()))))
        except FAILURES as error:
            attack.broke(error)
        finally:
            await page.close()

    attack.seconds = await swarm(6, 6, bench.attack_s, browser)
    drip = asyncio.create_task(keep_trying(lambda: browser(0, tries=1), every_s=1.0))

    async def right() -> tuple[bool, str]:
        page = ClassPage(bench.url, token=new_token(), source=rightful, room=room.code)
        try:
            await page.open()
            run = await page.recover(grouped(room.recovery_code))
            return page.in_room() and not said(run), said(run)
        finally:
            await page.close()

    outcome = await timed("the right recovery code", right)
    drip.cancel()
    return Row("recovery", "6 browsers x 10 wrong recovery codes, then 1 a second",
               "the lecturer types the right recovery code", attack, [outcome])  # fmt: skip


async def keep_trying(action: Callable[[], Awaitable[None]], *, every_s: float) -> None:
    """action() every `every_s` until cancelled (the attack going on meanwhile)."""
    while True:
        await asyncio.gather(action(), asyncio.sleep(every_s))


async def open_row(bench: Bench, row: int) -> Row:
    """Rooms opened from 6 browsers, each until it is held back (at most 20 each: a
    fixed window's count starts again at the minute); then another lecturer opens one."""
    script, rightful = bench.addresses(row)
    attack = Attack()

    async def browser(_: int) -> None:
        page = ClassPage(bench.url, token=new_token(), source=script)
        try:
            await page.open()
            for _ in range(20):
                held = attack.held
                attack.tried(said(await page.open_room()))
                if attack.held > held:
                    return
        except FAILURES as error:
            attack.broke(error)
        finally:
            await page.close()

    attack.seconds = await swarm(6, 6, bench.attack_s, browser)

    async def right() -> tuple[bool, str]:
        page = ClassPage(bench.url, token=new_token(), source=rightful)
        try:
            await page.open()
            run = await page.open_room()
            return page.in_room() and not said(run), said(run)
        finally:
            await page.close()

    outcome = await timed("another lecturer opens a room", right)
    return Row("open", "rooms opened from 6 browsers until held back (60 or more)",
               "another lecturer opens a room", attack, [outcome])  # fmt: skip


async def joined_phone(url: str, code: str, *, token: str, source: str) -> tuple[bool, str]:
    """A phone opening the join link with `token`: (it is in the room, what it said)."""
    phone = Student(url, code, token, source=source)
    try:
        runs = await phone.join()
        text = " ".join(filter(None, map(said, runs)))
        return "join_button" not in phone.session.drawn and not text, text
    finally:
        await phone.close()


async def joins_row(bench: Bench, row: int, *, count: int = 999) -> Row:
    """999 joins to the room from fresh browsers; then a student reloads (a rejoin)
    and a late student joins."""
    script, rightful = bench.addresses(row)
    room = bench.lecturer_room()  # no round yet: a join's run draws no maps
    member = new_token()
    await joined_phone(bench.url, room.code, token=member, source=rightful)
    attack = Attack()

    async def intruder(_: int) -> None:
        phone = Student(bench.url, room.code, new_token(), source=script)
        try:
            attack.tried(" ".join(said(run) for run in await phone.join()))
        except FAILURES as error:
            attack.broke(error)
        finally:
            await phone.close()

    attack.seconds = await swarm(count, 12, bench.attack_s, intruder)
    if attack.sent < count:
        attack.note = f"stopped at {bench.attack_s:.0f} s"
    reload = await timed("a student reloads (rejoin)", lambda: joined_phone(
        bench.url, room.code, token=member, source=rightful))  # fmt: skip
    late = await timed("a late student joins", lambda: joined_phone(
        bench.url, room.code, token=new_token(), source=rightful))  # fmt: skip
    return Row("joins", f"{count} joins to the room from fresh browsers",
               "a student reloads; a late student joins", attack, [reload, late])  # fmt: skip


async def answers_row(bench: Bench, row: int, *, count: int = 12000, browsers: int = 24) -> Row:
    """Answers as fast as the server takes them from fresh browsers in the room (a
    page answers only once joined: there is no way to answer without joining over the
    protocol); a member taps a cell in the middle of it."""
    script, rightful = bench.addresses(row)
    room = bench.lecturer_room(kind="cells")
    member = Student(bench.url, room.code, new_token(), source=rightful)
    await member.join()
    attack = Attack()
    done = asyncio.Event()

    async def tapper(index: int) -> None:
        phone = Student(bench.url, room.code, new_token(), source=script)
        try:
            joined = " ".join(said(run) for run in await phone.join())
            if phone.pick_key(1) is None:
                attack.tried(joined or "not joined")
                return
            tap = 0
            while not done.is_set() and attack.sent < count:
                tap += 1
                attack.tried(said(await phone.tap(1, tap % 3, (tap // 3) % 3)))
        except FAILURES as error:
            attack.broke(error)
        finally:
            await phone.close()

    started = time.perf_counter()
    flood = asyncio.gather(*(tapper(index) for index in range(browsers)))
    await asyncio.sleep(bench.attack_s / 2)

    async def right() -> tuple[bool, str]:
        if member.pick_key(1) is None:
            await member.poll()
        run = await member.tap(1, 0, 0)
        return not said(run), said(run)

    outcome = await timed("a member taps a cell", right)
    await asyncio.sleep(max(0.0, started + bench.attack_s - time.perf_counter()))
    done.set()
    await flood
    await member.close()
    attack.seconds = time.perf_counter() - started
    attack.note = f"{attack.sent / attack.seconds:.0f} a second reached"
    return Row("answers", f"answers from {browsers} fresh browsers as fast as served "
               f"(at most {count})", "a member answers", attack, [outcome])  # fmt: skip


async def unknown_row(bench: Bench, row: int) -> Row:
    """20 joins to codes no room has, from 4 fresh browsers; then a student mistypes."""
    script, rightful = bench.addresses(row)
    attack = Attack()

    async def browser(_: int) -> None:
        form = JoinForm(bench.url, token=new_token(), source=script)
        try:
            await form.open()
            for _ in range(5):
                attack.tried(said(await form.join(new_code())))
        except FAILURES as error:
            attack.broke(error)
        finally:
            await form.close()

    attack.seconds = await swarm(4, 4, bench.attack_s, browser)

    async def right() -> tuple[bool, str]:
        form = JoinForm(bench.url, token=new_token(), source=rightful)
        try:
            await form.open()
            run = await form.join(new_code())
            return bool(NO_ROOM.search(said(run))) and not run.warnings, said(run)
        finally:
            await form.close()

    outcome = await timed("a student mistypes the code", right)
    return Row("unknown", "20 joins to unknown codes from 4 browsers",
               "a student mistypes the code: told no room has it", attack, [outcome])  # fmt: skip


async def intruders_row(bench: Bench, row: int, *, count: int = 300) -> Row:
    """300 fresh browsers join and answer; then the lecturer locks the room: a new
    join is refused, a member still answers, the projector shows how many joined."""
    script, rightful = bench.addresses(row)
    room = bench.lecturer_room(kind="value")
    member = Student(bench.url, room.code, new_token(), source=rightful)
    await member.join()
    projector = Projector(bench.url, room.code, room.secret)
    projector.session.source = rightful
    await projector.open()
    attack = Attack()

    async def intruder(_: int) -> None:
        phone = Student(bench.url, room.code, new_token(), source=script)
        try:
            joined = " ".join(said(run) for run in await phone.join())
            if not phone.can_type():
                attack.tried(joined or "not joined")
                return
            attack.tried(said(await phone.send_number("1")))
        except FAILURES as error:
            attack.broke(error)
        finally:
            await phone.close()

    attack.seconds = await swarm(count, 12, bench.attack_s, intruder)
    await projector.refresh()
    attack.note = f"the projector counted {projector.count()}"
    outcomes = [await timed("the lecturer locks the room", lambda: lock(projector))]
    if outcomes[0].through:
        outcomes.append(await timed("a new browser tries to join", lambda: refused_join(
            bench.url, room.code, source=script)))  # fmt: skip
    outcomes.append(await timed("a member answers", lambda: typed(member, "2")))
    outcomes.append(await timed("the projector shows how many joined", lambda: joined_count(
        projector)))  # fmt: skip
    await member.close()
    await projector.close()
    return Row("intruders", f"{count} fresh browsers join and answer",
               "the lecturer locks the room; a member still answers", attack, outcomes)  # fmt: skip


LOCK_KEY = re.compile(r"(?:^|_)lock$")  # a button keyed ..._lock (not ..._unlock)
# A count of who joined, as the projector might say it ("142 phones joined.").
JOINED_SHOWN = re.compile(r"\d[\d,]* (?:phones?|students?) joined|No phone has joined", re.I)


async def lock(projector: Projector) -> tuple[bool, str]:
    """Press the projector's lock control, if it has one."""
    keys = [key for key in projector.session.drawn if LOCK_KEY.search(key)]
    if not keys:
        return False, "the projector's page has no lock control"
    run = await projector.session.rerun((keys[0], "trigger_value", True))
    return not said(run), said(run) or f"pressed {keys[0]}"


async def refused_join(url: str, code: str, *, source: str) -> tuple[bool, str]:
    """A fresh browser's join to a locked room: went through = it was refused with a
    sentence."""
    inside, text = await joined_phone(url, code, token=new_token(), source=source)
    return not inside and bool(text), text or "joined"


async def typed(phone: Student, text: str) -> tuple[bool, str]:
    if not phone.can_type():
        await phone.poll()
    run = await phone.send_number(text)
    return not said(run), said(run)


async def joined_count(projector: Projector) -> tuple[bool, str]:
    """Whether the projector's page says how many joined (a line with a number)."""
    heard: list[str] = []
    listener = projector.session.listener

    def hear(message) -> None:
        listener(message)
        if message.WhichOneof("type") == "delta":
            element = message.delta.new_element
            if element.WhichOneof("type") == "markdown":
                heard.append(element.markdown.body)

    projector.session.listener = hear
    await projector.session.rerun()
    projector.session.listener = listener
    found = next((m.group(0) for text in heard if (m := JOINED_SHOWN.search(text))), "")
    return bool(found), found or "no count of who joined on the page"


async def oversized_row(bench: Bench, row: int) -> Row:
    """A 20 MB recovery code and a 20 MB nickname, each beside a normal-length one:
    server CPU for each request (went through: under 0.1 s of CPU and said in a
    sentence, no traceback)."""
    script, _ = bench.addresses(row)
    room = bench.lecturer_room()
    attack = Attack()
    outcomes = []
    for name, size in (("normal", 12), ("20 MB", OVERSIZED)):
        outcomes.append(await timed(f"{name} recovery code: server CPU", lambda size=size:
                                    recovery_cpu(bench, room.code, script, size)))  # fmt: skip
        outcomes.append(await timed(f"{name} nickname: server CPU", lambda size=size:
                                    nickname_cpu(bench, room.code, script, size)))  # fmt: skip
        attack.sent += 2
    return Row("oversized", "a 20 MB recovery code and nickname",
               "the server: each refused within 0.1 s of CPU", attack, outcomes)  # fmt: skip


async def cpu_of(bench: Bench, action: Callable[[], Awaitable[object]]) -> tuple[float, object]:
    before = cpu_seconds(bench.pids)
    result = await action()
    await asyncio.sleep(0.2)  # what the replica does right after (its message sent)
    return cpu_seconds(bench.pids) - before, result


# RFC 6455's close code for a message over the receiver's limit: Streamlit's server
# closes a websocket whose incoming message is over server.maxMessageSize with it
# (.streamlit/config.toml), reading no more of it than its frame's header says.
TOO_BIG = 1009
TOO_BIG_SAID = "the server closed the connection on the message (over its limit: 1009)"


async def run_or_too_big(send: Awaitable[object]):
    """The run `send` brings, or None when the server closed the connection on the
    message: with TOO_BIG, or before its close frame was read (the server closes as
    the message is still going out, so the send may break first)."""
    try:
        return await send
    except RunFailed as failed:
        closed = failed.__cause__
        if not isinstance(closed, ConnectionClosed):
            raise
        if closed.rcvd is None or closed.rcvd.code == TOO_BIG:
            return None
        raise


def refused_within(cpu: float, run) -> tuple[bool, str]:
    """Through: under 0.1 s of the server's CPU, and either said in a sentence with no
    traceback or closed as too big."""
    if run is None:
        return cpu < 0.1, f"{cpu:.3f} s CPU; {TOO_BIG_SAID}"
    return cpu < 0.1 and not run.exceptions, f"{cpu:.3f} s CPU; said: {said(run) or 'joined'}"


async def recovery_cpu(bench: Bench, code: str, source: str, size: int) -> tuple[bool, str]:
    page = ClassPage(bench.url, token=new_token(), source=source, room=code)
    try:
        await page.open()
        return refused_within(
            *await cpu_of(bench, lambda: run_or_too_big(page.recover("X" * size)))
        )
    finally:
        await page.close()


async def nickname_cpu(bench: Bench, code: str, source: str, size: int) -> tuple[bool, str]:
    form = JoinForm(bench.url, token=new_token(), source=source)
    try:
        await form.open()
        return refused_within(
            *await cpu_of(bench, lambda: run_or_too_big(form.join(code, "N" * size)))
        )
    finally:
        await form.close()


ROWS = {
    "recovery": recovery_row,
    "open": open_row,
    "joins": joins_row,
    "answers": answers_row,
    "unknown": unknown_row,
    "intruders": intruders_row,
    "oversized": oversized_row,
}


# -- the run -------------------------------------------------------------------------------


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default=",".join(ROWS), help="which rows, comma-separated")
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--postgres", action="store_true", help="a throw-away PostgreSQL")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to serve")
    parser.add_argument("--attack-s", type=float, default=30.0, help="each attack's time cap")
    parser.add_argument("--budget-s", type=float, default=300.0, help="the rows' time cap")
    parser.add_argument(
        "--one-address", action="store_true", help="script and rightful party share one address"
    )
    args = parser.parse_args()
    args.rows = [name.strip() for name in args.rows.split(",") if name.strip()]
    unknown = [name for name in args.rows if name not in ROWS]
    if unknown:
        parser.error(f"no row {', '.join(unknown)}: the rows are {', '.join(ROWS)}")
    if not 1 <= args.replicas <= 8:
        parser.error("--replicas must be from 1 to 8")
    if not 1 <= args.attack_s <= 120 or not 10 <= args.budget_s <= 900:
        parser.error("--attack-s must be from 1 to 120 and --budget-s from 10 to 900")
    return args


def printed(row: Row) -> None:
    attack = row.attack
    note = f"; {attack.note}" if attack.note else ""
    print(f"[{row.name}] {row.attack_text}: sent {attack.sent}, held back {attack.held}, "
          f"no run {attack.failed}, in {attack.seconds:.1f} s{note}")  # fmt: skip
    for outcome in row.outcomes:
        verdict = "went through" if outcome.through else "REFUSED"
        print(f"    {outcome.name}: {verdict} in {outcome.seconds:.2f} s"
              f"{' (' + outcome.said + ')' if outcome.said else ''}")  # fmt: skip


async def run_rows(bench: Bench, names: list[str], budget_s: float) -> list[Row]:
    deadline = time.perf_counter() + budget_s
    rows = []
    for number, name in enumerate(ROWS, start=1):
        if name not in names:
            continue
        if time.perf_counter() > deadline:
            print(f"[{name}] skipped: the run's budget of {budget_s:.0f} s is spent")
            continue
        row = await ROWS[name](bench, number)
        printed(row)
        sys.stdout.flush()
        rows.append(row)
    return rows


def main() -> int:
    args = arguments()
    with tempfile.TemporaryDirectory(prefix="bench-attacks-") as folder:
        stops = []
        database_url = f"sqlite:///{Path(folder) / 'rooms.sqlite3'}"
        if args.postgres:
            from deploy.postgres import Cluster as Postgres

            postgres = Postgres(durable=True)
            database_url = postgres.start()
            stops.append(postgres.stop)
        try:
            cluster = Cluster(args.replicas, free_port(), root=args.root, database_url=database_url)
            stops.insert(0, cluster.stop)
            cluster.start()
            load = Path("/proc/loadavg").read_text().split()[0]
            where = "one address" if args.one_address else "an address each"
            print(f"{args.replicas} replicas behind HAProxy, {database_url.split(':')[0]}, "
                  f"script and rightful party on {where}; load average {load}")  # fmt: skip
            bench = Bench(
                url=cluster.url,
                engine=schema.new_engine(database_url),
                pids=cluster.pids(),
                attack_s=args.attack_s,
                one_address=args.one_address,
            )
            bench.open_rooms(len(args.rows))
            rows = asyncio.run(run_rows(bench, args.rows, args.budget_s))
        finally:
            for stop in stops:
                stop()
    outcomes = [outcome for row in rows for outcome in row.outcomes]
    through = sum(outcome.through for outcome in outcomes)
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"{len(rows)} rows, rightful actions through {through} of {len(outcomes)} "
          f"(load average {load})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
