"""The parts of the room benchmark (benchmarks/bench_room.py): the plan of the class,
what is logged, the lecturer (the store for the controls, a projector session for the
view), and one student's phone.

Times are time.perf_counter() seconds. A submit is the run of a tap on x or of Send;
it is acknowledged when that run shows no exception, error or warning. The projector's
count is read from what its fragment draws (room_client.shown_count).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from deploy.room_client import NoFragment, Projector, Student, sticky_of
from deploy.stream_client import Run, RunFailed
from rooms import schema, store
from teaching.class_mode.codes import new_token
from teaching.class_mode.questions import question_from_exercise
from ui.class_mode.student.actions import CLOSED  # the refusal of an answer once closed
from ui.class_mode.student.live import POLL_S  # the students' fragment: the browser's timer

PROJECTOR_S = 1.0  # the projector's fragments (ui/class_mode/lecturer: run_every=1)
WAKE_S = 0.5  # how often a phone looks at what the server pushed (a person's glance)
FAILURES = (RunFailed, TimeoutError, OSError, NoFragment)


@dataclass(frozen=True)
class Plan:
    """N students; each arrives within join_s, answers a round from think_s after it
    opens, a third change their answer change_s later; rounds last round_s."""

    students: int
    seed: int = 0
    join_s: float = 10.0
    idle_s: float = 20.0
    round_s: float = 20.0
    think_s: tuple[float, float] = (4.0, 12.0)
    change_s: tuple[float, float] = (2.0, 4.0)
    kinds: tuple[str, ...] = ("cells", "value")
    kill_at_s: float | None = None  # seconds into round 1 when a replica is killed

    def rng(self, index: int) -> random.Random:
        return random.Random(self.seed * 1_000_003 + index)


@dataclass(frozen=True)
class Submit:
    round_number: int
    student: int
    sent: float
    done: float
    ok: bool
    first: bool  # the student's first acknowledged answer in the round


@dataclass
class Log:
    started: float
    joins: list[float] = field(default_factory=list)  # seconds from the link to joined
    submits: list[Submit] = field(default_factory=list)
    seen: list[tuple[float, int, int]] = field(default_factory=list)  # (t, round, count)
    errors: list[str] = field(default_factory=list)
    tokens: dict[int, str] = field(default_factory=dict)
    expected: dict[tuple[int, int], object] = field(default_factory=dict)  # last acked
    cpu: dict[str, float] = field(default_factory=dict)  # phase -> cores
    client_cpu: dict[str, float] = field(default_factory=dict)  # this process's, ditto
    phase_s: dict[str, float] = field(default_factory=dict)  # phase -> its seconds
    replicas: dict[str, int] = field(default_factory=dict)  # sticky cookie -> students
    projector_runs: list[float] = field(default_factory=list)  # seconds of each tick's run
    opened: dict[int, float] = field(default_factory=dict)  # round -> when it was asked
    round_changes: list[float] = field(default_factory=list)  # asked to a phone drawing it
    stored: dict[int, tuple[int, int]] = field(default_factory=dict)  # round -> (wrong, n)
    killed_at: float | None = None  # when a replica was killed (Plan.kill_at_s)
    killed_replica: str = ""  # its sticky cookie, LAB_REPLICA=r1
    acked_before_kill: int = 0  # answers acknowledged before it (last per student)
    reconnects: list[float] = field(default_factory=list)  # kill to a phone back, saved
    cut: int = 0  # submits whose connection the kill cut (sent again once back)
    # (round, student) -> the answer a tap or Send the kill cut would have saved
    cut_answers: dict[tuple[int, int], object] = field(default_factory=dict)
    held_otherwise: list[str] = field(default_factory=list)  # (check_stored) what and why
    ever_cut: set[tuple[int, int]] = field(default_factory=set)  # (round, student) a cut hit
    late: int = 0  # answers sent after the lecturer closed the round, refused as they must be
    projector_back: float | None = None  # kill to the projector counting again
    projector_cut: bool = False  # the kill cut the projector's connection

    @staticmethod
    def now() -> float:
        return time.perf_counter()

    def fail(self, who: str, error: Exception) -> None:
        at = Log.now() - self.started
        self.errors.append(f"{who} at {at:.1f} s: {type(error).__name__}: {error}")

    def check(self, what: str, run: Run, *, warnings_fail: bool = False) -> bool:
        """Whether `run` went through (no exception or error box on the page; for an
        answer, no warning either: a refused answer is said in one); an error logged
        when it did not."""
        trouble = run.exceptions + run.errors + (run.warnings if warnings_fail else [])
        if trouble:
            self.errors.append(f"{what}: {trouble[0][:160]}")
        return not trouble


@dataclass(frozen=True)
class Asked:
    number: int
    kind: str
    question: object
    opened: float
    closes: float


class Lecturer:
    """Opens the room in the database, asks and closes the rounds, and keeps a
    projector session whose fragment runs throughout."""

    def __init__(self, database_url: str, *, cpu=None, kill=None):
        self.engine = schema.new_engine(database_url)
        self.kill = kill  # () -> the killed replica's sticky cookie (Plan.kill_at_s)
        room = store.open_room(self.engine, token=new_token())
        self.code, self.secret = room.code, room.secret
        self.cpu = cpu  # () -> server CPU seconds so far, or None
        self.current: Asked | None = None
        self.answering_over = False
        self.projector_round = 0  # the round the projector's page shows
        self.closed_at = 0.0  # when the last round was closed
        self.projector: Projector | None = None
        self.projector_ready = asyncio.Event()
        self.finished = asyncio.Event()

    async def run_class(self, plan: Plan, log: Log) -> None:
        joining = plan.join_s + 2.0  # the last arrivals' first runs
        await self._measured("joining", joining, log, asyncio.sleep(joining))
        await self._measured("idle", plan.idle_s, log, asyncio.sleep(plan.idle_s))
        rounds = self._rounds(plan, log)
        await self._measured("answering", len(plan.kinds) * plan.round_s, log, rounds)
        self.answering_over = True

    async def _measured(self, phase: str, seconds: float, log: Log, work) -> None:
        before = self.cpu() if self.cpu else None
        client = time.process_time()
        await work
        log.phase_s[phase] = seconds
        if before is not None:
            log.cpu[phase] = (self.cpu() - before) / seconds
        log.client_cpu[phase] = (time.process_time() - client) / seconds

    async def _rounds(self, plan: Plan, log: Log) -> None:
        for index, kind in enumerate(plan.kinds):
            question = question_from_exercise(kind, level=2, seed=plan.seed + 7, number=index + 1)
            number = await asyncio.to_thread(
                store.ask, self.engine, self.code, secret=self.secret, question=question
            )
            opened = log.opened[number] = Log.now()
            self.current = Asked(number, kind, question, opened, opened + plan.round_s)
            if index == 0 and plan.kill_at_s is not None and self.kill is not None:
                await asyncio.sleep(plan.kill_at_s)
                log.acked_before_kill = len(log.expected)
                log.killed_at = Log.now()  # before: a cut run fails as the kill lands
                log.killed_replica = await asyncio.to_thread(self.kill)
            await asyncio.sleep(max(0.0, opened + plan.round_s - Log.now()))
            await asyncio.to_thread(store.close_round, self.engine, self.code, secret=self.secret)
            self.closed_at = Log.now()

    async def watch(self, url: str, log: Log) -> None:
        """The projector: its page opened with the key, then its fragment's timer."""
        projector = self.projector = Projector(url, self.code, self.secret)
        try:
            for run in await projector.open():
                log.check("projector", run)
            self.projector_ready.set()
            tick = Log.now() + PROJECTOR_S
            while not self.finished.is_set():
                await asyncio.sleep(max(0.0, tick - Log.now()))
                try:
                    for run in await projector.refresh():
                        log.check("projector", run)
                        log.projector_runs.append(run.seconds)
                except FAILURES:
                    if not await self._back(projector, log):
                        raise
                tick = max(tick + PROJECTOR_S, Log.now())
        except FAILURES as error:
            log.errors.append(
                f"projector at {Log.now() - log.started:.1f} s: {type(error).__name__}: {error}"
            )
        finally:
            self.projector_ready.set()
            log.seen = projector.seen
            await projector.close()

    async def _back(self, projector: Projector, log: Log) -> bool:
        """After a replica's kill cut the projector's connection: reconnected, and its
        page counting again (log.projector_back); False when no kill explains it."""
        if log.killed_at is None or not projector.session.dropped:
            return False
        log.projector_cut = True
        counted = len(projector.seen)
        for attempt in range(3):  # as the page tries again, half a second apart
            try:
                for run in await projector.reconnect():
                    log.check("projector reconnecting", run)
                for run in await projector.refresh():
                    log.check("projector", run)
                break
            except FAILURES:
                if attempt == 2:
                    raise
                await asyncio.sleep(0.5)
        if len(projector.seen) > counted:
            log.projector_back = Log.now() - log.killed_at
        return True

    async def projector_caught_up(self, timeout_s: float = 30.0) -> None:
        """Until the projector has drawn a count since the last round closed (its
        final count), or `timeout_s` has passed."""
        deadline = Log.now() + timeout_s
        while Log.now() < deadline and self.projector is not None:
            seen = self.projector.seen
            if seen and seen[-1][0] > self.closed_at:
                return
            await asyncio.sleep(0.2)

    def check_stored(self, log: Log) -> None:
        """Each acknowledged last answer against what the database holds for it."""
        for (number, index), answer in sorted(log.expected.items()):
            held = store.my_answer(
                self.engine, self.code, token=log.tokens[index], round_number=number
            )
            wrong, total = log.stored.get(number, (0, 0))
            log.stored[number] = (wrong + (not same(held, answer)), total + 1)
            if not same(held, answer):
                cut = "cut by the kill" if (number, index) in log.ever_cut else "not cut"
                log.held_otherwise.append(
                    f"round {number}, student {index} ({cut}): acknowledged {answer}, held {held}"
                )


def same(held, sent) -> bool:
    if held is None:
        return False
    if isinstance(sent, float):
        return abs(float(held) - sent) < 1e-9
    return held == sent


# -- one student's phone --------------------------------------------------------------------


async def student(index: int, url: str, lecturer: Lecturer, plan: Plan, log: Log) -> None:
    """Arrive, join by the link, poll every POLL_S (the page's timer); answer each
    round once shown (pushed or polled)."""
    rng = plan.rng(index)
    await asyncio.sleep(rng.uniform(0, plan.join_s))
    phone = Student(url, lecturer.code, new_token())
    log.tokens[index] = phone.token
    try:
        started = Log.now()
        if not all([log.check("join", run) for run in await phone.join()]):
            return
        log.joins.append(Log.now() - started)
        replica = sticky_of(phone.session.cookie) or "direct"
        log.replicas[replica] = log.replicas.get(replica, 0) + 1
        answered: set[int] = set()
        dues: dict[int, float] = {}  # round -> when this student answers it
        next_poll = Log.now() + rng.uniform(0, POLL_S)  # the browser timer's phase
        while not lecturer.answering_over:
            asked = lecturer.current
            due, wake = None, Log.now() + WAKE_S
            if asked is not None and asked.number not in answered:
                if asked.number not in dues:  # drawn once a round: wakes draw nothing
                    dues[asked.number] = asked.opened + rng.uniform(*plan.think_s)
                due = dues[asked.number]
            await asyncio.sleep(max(0.0, min(next_poll, due or next_poll, wake) - Log.now()))
            try:
                if phone.session.dropped:  # seen at a glance, as the page's own banner
                    raise RunFailed("the connection dropped")
                for pushed in phone.take_pushed():
                    log.check("pushed run", pushed)
                if due is not None and Log.now() >= due and shows(phone, asked):
                    answered.add(asked.number)
                    await answer(phone, asked, index=index, rng=rng, plan=plan, log=log)
                elif Log.now() >= next_poll:
                    log.check("poll", await phone.poll())
                    next_poll = max(next_poll + POLL_S, Log.now())
            except FAILURES:
                if log.killed_at is None or not phone.session.dropped:
                    raise
                await back_on_room(phone, asked, index=index, log=log)
                if asked is not None and after_the_kill(phone, asked, index=index, log=log):
                    answered.discard(asked.number)  # nothing saved: a person taps again
    except FAILURES as error:
        log.errors.append(
            f"student {index} at {Log.now() - log.started:.1f} s: {type(error).__name__}: {error}"
        )
    finally:
        await phone.close()
        log.round_changes += round_changes(phone, log)


async def back_on_room(
    phone: Student, asked: Asked | None, *, index: int, log: Log, within_s: float = 20.0
) -> None:
    """The page reconnected after its replica died, until it shows the room's round
    and, when this student's answer to it was acknowledged, that answer saved; the
    seconds from the kill go to log.reconnects. RunFailed when not within `within_s`."""
    deadline = Log.now() + within_s
    while True:
        try:
            if phone.session.dropped:
                for run in await phone.reconnect():
                    log.check("reconnecting", run)
            answered = asked is not None and (asked.number, index) in log.expected
            if asked is None or (shows(phone, asked) and (phone.shows_saved() or not answered)):
                log.reconnects.append(Log.now() - log.killed_at)
                return
            log.check("poll", await phone.poll())
        except FAILURES as error:
            if Log.now() > deadline:
                raise RunFailed(f"not back on the room in {within_s:.0f} s: {error}") from error
            await asyncio.sleep(0.5)  # as Streamlit's page waits before trying again
        if Log.now() > deadline:
            raise RunFailed(f"not back on the room in {within_s:.0f} s")
        await asyncio.sleep(0.2)


def after_the_kill(phone: Student, asked: Asked, *, index: int, log: Log) -> bool:
    """Back on the room: whether the student answers again (nothing is saved and the
    round is open a while yet). A tap the kill cut may or may not have been saved
    before the replica died: the student reads which on the page. When the page shows
    the cut answer, it is the one expected in the store from now on; else the last
    acknowledged one stands (the page must show it, and the store hold it)."""
    key = (asked.number, index)
    cut = log.cut_answers.pop(key, None)
    if cut is not None and same(phone.shown_answer(asked.kind), cut):
        log.expected[key] = cut
        return False
    return key not in log.expected and Log.now() < asked.closes - 2.0


def round_changes(phone: Student, log: Log) -> list[float]:
    """Seconds from each round's asking to this phone's page drawing it; infinity for
    a round asked while the phone was in that its page never drew."""
    seen = phone.rounds_seen
    return [seen[number] - opened if number in seen else float("inf")
            for number, opened in log.opened.items()]  # fmt: skip


def shows(phone: Student, asked: Asked) -> bool:
    """Whether the phone's page shows the round open for answers."""
    if asked.kind == "cells":
        return phone.pick_key(asked.number) is not None
    return phone.can_type()


async def answer(phone: Student, asked: Asked, *, index: int, rng, plan: Plan, log: Log) -> None:
    """The first answer (one to three taps, or a number), then for every third student
    a change some seconds later, while the round is still open. A person taps only
    while the page shows the round open for taps."""
    first = True
    key = (asked.number, index)
    if asked.kind == "cells":
        rows, cols = asked.question.problem.x.shape
        cells = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 4)
        picks: frozenset = frozenset()
        for cell in cells[: rng.randint(1, 3)]:
            if not shows(phone, asked):
                return
            tapped = picks ^ {cell}
            if await submit(phone.tap(asked.number, *cell), asked, index, first, log, tapped):
                picks = log.expected[key] = tapped
                first = False
            await asyncio.sleep(rng.uniform(0.3, 1.0))
        changes = [cells[3]]
    else:
        value = rng.choice([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])
        if await submit(phone.send_number(f"{value:g}"), asked, index, first, log, value):
            log.expected[key] = value
            first = False
        changes = [value + 1.0]
    change_at = Log.now() + rng.uniform(*plan.change_s)
    if index % 3 or change_at > asked.closes - 2.0:
        return
    await asyncio.sleep(change_at - Log.now())
    for change in changes:
        if not shows(phone, asked):
            return
        if asked.kind == "cells":
            tapped = picks ^ {change}
            if await submit(phone.tap(asked.number, *change), asked, index, first, log, tapped):
                picks = log.expected[key] = tapped
        elif await submit(phone.send_number(f"{change:g}"), asked, index, first, log, change):
            log.expected[key] = change


async def submit(pending, asked: Asked, index: int, first: bool, log: Log, would_be) -> bool:
    """Await a tap's or Send's run; log it; whether it was acknowledged. `would_be`:
    the student's answer once it is (kept in log.cut_answers when the kill cuts it). An
    answer sent once the round had closed and refused for that (CLOSED) is log.late,
    not an error: the page did what it must (a student re-answering after a reconnect
    can be late)."""
    sent = Log.now()
    try:
        run = await pending
    except FAILURES:
        if log.killed_at is not None:
            log.cut += 1
            log.cut_answers[(asked.number, index)] = would_be
            log.ever_cut.add((asked.number, index))
        raise
    late = sent >= asked.closes and run.warnings == [CLOSED] and not run.exceptions + run.errors
    log.late += late
    ok = not late and log.check(f"answer in round {asked.number}", run, warnings_fail=True)
    log.submits.append(Submit(asked.number, index, sent, Log.now(), ok, first and ok))
    return ok
