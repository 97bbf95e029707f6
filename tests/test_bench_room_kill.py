"""The replica-kill run's bookkeeping (benchmarks/room_load.py): a tap the kill cut is
read back from the phone's page, and what is then expected in the store is what the
page shows only when it is the cut answer (anything else stays a loss)."""

from __future__ import annotations

from benchmarks.room_load import Asked, Log, after_the_kill
from deploy.room_client import Student
from teaching.class_mode.codes import new_token

OPEN_FOR_A_WHILE = 1e12  # the round's close, far off on time.perf_counter()


def phone(saved_line: str) -> Student:
    student = Student("http://127.0.0.1:1", "K7QX3M", new_token())
    student.saved_line = saved_line
    return student


def asked(kind: str = "cells") -> Asked:
    return Asked(number=1, kind=kind, question=None, opened=0.0, closes=OPEN_FOR_A_WHILE)


def test_the_page_s_saved_line_is_read_as_the_answer_it_shows():
    cells = phone("Your answer: (0, 1) (2, 3) (saved). You can change it until voting closes.")
    assert cells.shown_answer("cells") == frozenset({(0, 1), (2, 3)})
    assert phone("Your answer: \u22121.5 (saved).").shown_answer("value") == -1.5
    assert (
        phone("No answer saved yet. You can change it until voting closes.").shown_answer("cells")
        is None
    )


def test_a_cut_tap_the_page_shows_saved_is_what_the_store_must_hold():
    log = Log(started=0.0)
    log.expected[(1, 7)] = frozenset({(0, 1)})
    log.cut_answers[(1, 7)] = frozenset({(0, 1), (2, 3)})
    again = after_the_kill(phone("Your answer: (0, 1) (2, 3) (saved)."), asked(), index=7, log=log)
    assert not again and log.expected[(1, 7)] == frozenset({(0, 1), (2, 3)})
    assert not log.cut_answers


def test_a_cut_tap_not_saved_leaves_the_acknowledged_answer_expected():
    log = Log(started=0.0)
    log.expected[(1, 7)] = frozenset({(0, 1)})
    log.cut_answers[(1, 7)] = frozenset({(0, 1), (2, 3)})
    again = after_the_kill(phone("Your answer: (0, 1) (saved)."), asked(), index=7, log=log)
    assert not again and log.expected[(1, 7)] == frozenset({(0, 1)})


def test_a_page_showing_neither_keeps_the_acknowledged_answer_so_the_loss_is_counted():
    log = Log(started=0.0)
    log.expected[(1, 7)] = frozenset({(0, 1)})
    log.cut_answers[(1, 7)] = frozenset({(0, 1), (2, 3)})
    after_the_kill(phone("Your answer: (2, 3) (saved)."), asked(), index=7, log=log)
    assert log.expected[(1, 7)] == frozenset({(0, 1)})


def test_a_student_whose_only_tap_was_cut_and_not_saved_answers_again():
    log = Log(started=0.0)
    log.cut_answers[(1, 7)] = frozenset({(2, 3)})
    assert after_the_kill(phone("No answer saved yet."), asked(), index=7, log=log)
    assert (1, 7) not in log.expected
