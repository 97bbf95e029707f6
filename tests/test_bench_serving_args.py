"""The serving benchmarks' own machinery, without serving anything: bench_attacks runs
issue 36's seven rows in the table's order from loopback addresses of their own, and
reads a held-back try from what the page or the proxy said; bench_room takes up to 500
students and refuses a replica kill it cannot do."""

from __future__ import annotations

import ipaddress
import sys

import pytest

from benchmarks import bench_attacks, bench_room
from benchmarks.bench_attacks import Attack, Bench


def parsed(module, monkeypatch, *arguments):
    monkeypatch.setattr(sys, "argv", [module.__name__, *arguments])
    return module.arguments()


def test_the_rows_are_the_issues_table_in_its_order():
    assert list(bench_attacks.ROWS) == [
        "recovery", "open", "joins", "answers", "unknown", "intruders", "oversized",
    ]  # fmt: skip


def test_an_unknown_row_is_refused_by_name(monkeypatch, capsys):
    with pytest.raises(SystemExit):
        parsed(bench_attacks, monkeypatch, "--rows", "recovery,flood")
    assert "no row flood" in capsys.readouterr().err
    assert parsed(bench_attacks, monkeypatch, "--rows", "joins, open").rows == ["joins", "open"]


@pytest.mark.parametrize("one_address", [False, True])
def test_each_row_sends_from_loopback_addresses_of_its_own(one_address):
    bench = Bench(url="", engine=None, pids=[], attack_s=1.0, one_address=one_address)
    pairs = [bench.addresses(row) for row in range(1, len(bench_attacks.ROWS) + 1)]
    every = [address for pair in pairs for address in pair]
    assert all(ipaddress.ip_address(address).is_loopback for address in every)
    assert all((script == rightful) == one_address for script, rightful in pairs)
    assert len(set(every)) == len(pairs) * (1 if one_address else 2)


def test_a_try_is_held_back_when_the_page_or_the_proxy_says_so():
    attack = Attack()
    attack.tried("That recovery code does not open room K7QX3M.")
    attack.tried("Too many wrong recovery codes from this browser: wait a minute.")
    attack.broke(RuntimeError("GET /join answered 429 Too Many Requests"))
    attack.broke(TimeoutError())
    assert (attack.sent, attack.held, attack.failed) == (4, 2, 2)


def test_the_room_benchmark_takes_500_students_and_no_more(monkeypatch, capsys):
    assert parsed(bench_room, monkeypatch, "--students", "500").students == 500
    with pytest.raises(SystemExit):
        parsed(bench_room, monkeypatch, "--students", "501")
    assert "from 1 to 500" in capsys.readouterr().err


@pytest.mark.parametrize(
    "arguments",
    [
        ["--kill-replica", "--replicas", "1"],
        ["--kill-replica", "--url", "http://127.0.0.1:8501", "--database-url", "sqlite://"],
    ],
)
def test_a_replica_kill_needs_two_replicas_served_here(monkeypatch, capsys, arguments):
    with pytest.raises(SystemExit):
        parsed(bench_room, monkeypatch, *arguments)
    assert "--kill-replica needs" in capsys.readouterr().err
