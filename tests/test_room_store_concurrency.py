"""Concurrent answers on SQLite and PostgreSQL: none lost, each browser counted once,
none landing in a closed round."""

from __future__ import annotations

import multiprocessing
import threading

import sqlalchemy as sa
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    RIGHT,
    cells_question,
    engine_fixture,
    open_and_ask,
    rows,
    student,
    value_question,
)

from rooms import store, store_reads
from rooms.schema import ANSWERS, new_engine

# -- concurrency ---------------------------------------------------------------------------


def answer_at_once(engine, code, number, answers: dict, *, repeats: int = 1) -> list:
    """Every token in `answers` answers from its own thread, all released together
    (`repeats` times each, the last time with its answer); the errors raised."""
    start = threading.Barrier(len(answers))
    errors = []

    def give(token, raw):
        start.wait()
        try:
            for _ in range(repeats - 1):
                store.answer(engine, code, token=token, round_number=number, raw=[[0, 0]], now=NOW)
            store.answer(engine, code, token=token, round_number=number, raw=raw, now=NOW)
        except Exception as error:  # noqa: BLE001  (collected, then asserted empty)
            errors.append(error)

    threads = [threading.Thread(target=give, args=item) for item in answers.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_fifty_students_answering_at_once_are_all_counted_once(engine):
    room, number = open_and_ask(engine)
    picks = [[[r, c]] for r in range(4) for c in range(4)]
    given = {student(engine, room.code): picks[i % 16] for i in range(50)}
    assert answer_at_once(engine, room.code, number, given, repeats=2) == []
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == 50
    stored = {
        token: store.my_answer(engine, room.code, token=token, round_number=number, now=NOW)
        for token in given
    }
    assert stored == {token: {tuple(raw[0])} for token, raw in given.items()}
    with engine.connect() as connection:
        changes = connection.execute(sa.select(ANSWERS.c.changes)).scalars().all()
    assert changes == [1] * 50  # each token's two answers: one row, changed once


def test_one_browser_answering_from_many_threads_counts_once(engine):
    room, number = open_and_ask(engine, value_question())
    token = student(engine, room.code)
    errors = []
    start = threading.Barrier(20)

    def give(value):
        start.wait()
        try:
            store.answer(engine, room.code, token=token, round_number=number, raw=value, now=NOW)
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=give, args=(value,)) for value in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert store.answers(engine, room.code, number, now=NOW) in [[float(v)] for v in range(20)]


def test_no_answer_lands_after_the_round_closes(engine):
    """Students keep answering while the lecturer closes: every answer that was
    accepted is counted, and once close_round returns the count never moves."""
    room, number = open_and_ask(engine, value_question())
    tokens = [student(engine, room.code) for _ in range(20)]
    accepted, refused = set(), []
    count_at_close = []

    def keep_answering(token):
        for second in range(3600):  # a second apart: well within the per-token limit
            try:
                store.answer(
                    engine, room.code, token=token, round_number=number, raw=second,
                    now=NOW + second,
                )  # fmt: skip
            except store.RoundClosed:
                refused.append(token)
                return
            accepted.add(token)

    threads = [threading.Thread(target=keep_answering, args=(t,)) for t in tokens]
    for thread in threads:
        thread.start()
    while len(accepted) < 10:  # wait on a condition: some answers are in
        threading.Event().wait(0.001)
    store.close_round(engine, room.code, secret=room.secret, now=NOW)
    count_at_close.append(store_reads.answer_count(engine, room.code, number, now=NOW))
    for thread in threads:
        thread.join()
    assert sorted(refused) == sorted(tokens)  # every thread ran into the closed round
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == count_at_close[0]
    assert count_at_close[0] == len(accepted)


def _answer_in_a_process(url: str, code: str, number: int, tokens: list, start) -> None:
    engine = new_engine(url)
    start.wait()
    for index, token in enumerate(tokens):
        store.answer(engine, code, token=token, round_number=number, raw=[[index % 4, 0]], now=NOW)
    engine.dispose()


def test_processes_answering_at_once_share_one_database(engine):
    """Replicas are processes: four answering at once (SQLite's file lock, PostgreSQL's
    rows) lose nothing."""
    room, number = open_and_ask(engine)
    tokens = [[student(engine, room.code) for _ in range(10)] for _ in range(4)]
    url = engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    start = context.Barrier(4)
    processes = [
        context.Process(target=_answer_in_a_process, args=(url, room.code, number, part, start))
        for part in tokens
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [process.exitcode for process in processes] == [0, 0, 0, 0]
    assert store_reads.answer_count(engine, room.code, number, now=NOW) == 40
