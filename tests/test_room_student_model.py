"""What the students' page computes (teaching/class_mode/student.py, pulses.py): tokens
checked, nicknames made plain, the question's words true for its layer and grid, the
reply to a revealed answer, and the per-process pulse cache."""

from __future__ import annotations

import threading
from collections import namedtuple

import numpy as np
import pytest

from pooling import PoolConfig, backward, forward
from rooms.pulses import PulseCache
from rooms.store_reads import TooLong
from rooms.store_students import NICKNAME_LENGTH, clean_nickname
from teaching.class_mode import student as model
from teaching.class_mode.answers import wrong_lines
from teaching.class_mode.codes import new_token
from teaching.class_mode.questions import Question, question_from_layer
from teaching.class_mode.tally import tally
from teaching.exercises.mistakes import diagnose
from teaching.exercises.model import Problem, make_problem

TIED = np.array(
    [[4.0, 4.0, 1.0, 0.0], [2.0, 0.0, 3.0, 3.0], [5.0, 1.0, 2.0, 2.0], [5.0, 5.0, 2.0, 0.0]]
)
DISTINCT = np.arange(16.0).reshape(4, 4)


# -- tokens and nicknames -----------------------------------------------------------------


def test_a_new_token_is_valid_and_anything_else_a_browser_kept_is_not():
    token = new_token()
    assert model.token_or_none(token) == token
    for stored in (None, 7, [token], {"t": token}, token[:-1], token + "a", token[:-1] + "!", ""):
        assert model.token_or_none(stored) is None


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Ana  ", "Ana"),
        ("**bold** [x](http://a)", "**bold** [x](http://a)"),  # plain text: shown literally
        ("a\nb\tc\u200b\u202ed", "a b cd"),  # controls become spaces, format chars go
        ("x" * NICKNAME_LENGTH, "x" * NICKNAME_LENGTH),  # at the cap: kept whole
        ("\u0000\u0007", ""),
        ("e\u0301ve", "\u00e9ve"),  # composed: one character, as typed on another phone
        (
            "\u0928\u092e\u0938\u094d\u0924\u0947",
            "\u0928\u092e\u0938\u094d\u0924\u0947",
        ),  # marks kept
        ("a\ue000b", "ab"),  # a private-use character goes
        ("x" * 20 + " \n y", "x" * 20 + " y"),  # a run of spaces becomes one
    ],
)
def test_a_nickname_is_plain_single_line_text(typed, kept):
    """The one cleaning of a nickname, which the store applies to whatever a page sends."""
    assert clean_nickname(typed) == kept


def test_a_nickname_past_the_cap_is_refused_not_cut():
    """Past the box's length it is refused before it is cleaned (TooLong), never cut."""
    with pytest.raises(TooLong):
        clean_nickname("x" * (NICKNAME_LENGTH + 1))


def test_each_kind_of_question_asks_for_what_its_answer_holds():
    cells = make_problem("cells", 2, 4, 2)
    assert "**Pick every cell of x that receives gradient.**" in model.question_text(cells)
    value = make_problem("value", 3, 1, 1)
    r, c = value.cell
    assert f"**What is dL/dx at ({r}, {c})**, the cell outlined on x?" in model.question_text(value)
    size = make_problem("size", 2, 1, 1)
    height, width = size.x.shape
    assert model.question_text(size).startswith(f"An input of {height} × {width} cells.")


@pytest.mark.parametrize("state", ["closed", "revealed"])
def test_a_closed_round_asks_without_telling_to_pick_or_type(state):
    """Once the round closes a pick or a typed number no longer acts: the question
    says what is asked, not what to do with the page."""
    cells = make_problem("cells", 2, 4, 2)
    assert "Pick" in model.question_text(cells, state="open")
    closed = model.question_text(cells, state=state)
    assert "Pick" not in closed and "take it back" not in closed
    assert closed.endswith("**Which cells of x receive gradient?**")
    value = make_problem("value", 3, 1, 1)
    assert "Two decimals" in model.question_text(value, state="open")
    assert "Two decimals" not in model.question_text(value, state=state)
    size = make_problem("size", 2, 1, 1)
    assert model.question_text(size, state=state) == model.question_text(size, state="open")


def test_a_second_vote_asks_to_discuss_only_while_it_is_open():
    problem = make_problem("cells", 2, 4, 2)
    cell = sorted(problem.answer)[0]
    first = f"Your first vote: {model.cells_text([cell])}."
    opened = model.first_vote_text(problem, {cell}, state="open")
    assert opened == f"Discuss with your neighbours, then vote again. {first}"
    for state in ("closed", "revealed"):
        assert model.first_vote_text(problem, {cell}, state=state) == first
    assert model.first_vote_text(problem, None, state="revealed") == (
        "Your first vote: you did not vote."
    )


# -- answers and replies -------------------------------------------------------------------


def test_answers_are_written_as_the_page_shows_them_and_fill_the_boxes():
    cells, value, size = (make_problem(kind, 2, 4, 2) for kind in ("cells", "value", "size"))
    assert model.answer_text(cells, frozenset({(2, 1), (0, 3)})) == "(0, 3), (2, 1)"
    assert model.answer_text(cells, frozenset()) == "no cells"
    assert model.answer_text(value, -2.5) == "−2.5"
    assert model.box_text(value, -2.5) == ("-2.5",)
    assert model.box_text(value, 1 / 3) == ("0.333333",)
    assert model.answer_text(size, (3, 4)) == "3 × 4" and model.box_text(size, (3, 4)) == ("3", "4")


def asked(problem: Problem) -> Question:
    """`problem` as a room asks it (the phone's reply takes the round's question)."""
    return Question(problem.kind, problem, "a test")


def test_the_revealed_reply_judges_the_saved_answer():
    cells = asked(make_problem("cells", 2, 4, 2))
    assert model.revealed_reply(cells, cells.answer).right
    one_missed = frozenset(sorted(cells.answer)[1:])
    reply = model.revealed_reply(cells, one_missed)
    assert not reply.right and "1 missed" in reply.said
    count = len(cells.answer)
    nothing = model.revealed_reply(cells, None)
    assert not nothing.right and nothing.said.startswith("You did not answer")
    assert (f"the {count} cells" if count > 1 else "the cell") in nothing.said
    value = asked(make_problem("value", 2, 4, 2))
    assert model.revealed_reply(value, value.answer + 0.004).right
    wrong = model.revealed_reply(value, value.answer + 1)
    assert not wrong.right and wrong.mistake  # a known mistake, or that none gives it
    assert model.revealed_reply(value, None).said.endswith(
        f"is {model.answer_text(value.problem, value.answer)}."
    )


def test_an_average_spread_is_named_as_the_mistake():
    config = PoolConfig("max", 2)
    x = DISTINCT
    grad = np.full(forward(x, config).output.shape, 4.0)
    cell = (1, 1)
    answer = float(backward(forward(x, config), grad)[cell])
    problem = Problem("value", 1, config, x, grad, answer, cell=cell)
    reply = model.revealed_reply(asked(problem), 1.0)  # 4 spread over the 2x2 window
    assert not reply.right and "average" in reply.mistake.lower()


def test_the_phone_names_equal_mistakes_together_as_the_projector_does():
    # x = 1 2 2, windows 1×2 at stride 1, ties "first": y = 2, 2; the second window
    # ties (0, 1) and (0, 2), and "first" sends both windows' dL/dy to (0, 1). Under
    # "last", "split" and "all" the tie also sends to (0, 2): all three give {(0, 1),
    # (0, 2)}, so none of them alone is the student's mistake.
    question = question_from_layer(
        "cells", x=[[1, 2, 2]], config=PoolConfig("max", (1, 2), stride=1),
        grad_output=np.ones((1, 2)),
    )  # fmt: skip
    picks = frozenset({(0, 1), (0, 2)})
    assert question.answer == frozenset({(0, 1)})
    rule = "break ties by another rule (last, split evenly, or all)"
    # The Exercises' own reply names the first of the three only.
    assert "last tied cell" in diagnose(question.problem, picks).how
    reply = model.revealed_reply(question, picks)
    assert not reply.right and reply.said == "Not quite: 1 right, 1 extra."
    assert reply.mistake == (
        f"Your picks are what you get if you {rule}: here, on a tie, the first tied cell "
        "in reading order gets it all."
    )
    # The projector's line for the same answer names the same three rules.
    (line,) = wrong_lines(question, tally(question, [picks]))
    assert rule in line


def test_a_typed_answer_two_mistakes_give_names_both():
    # x = 1 2 2 as above, dL/dx at (0, 2) with dL/dy = 1 1: right 0 (the tie goes to
    # (0, 1)); "last" and "all" give 1, "split evenly" 0.5.
    question = question_from_layer(
        "value", x=[[1, 2, 2]], config=PoolConfig("max", (1, 2), stride=1),
        grad_output=np.ones((1, 2)), cell=(0, 2),
    )  # fmt: skip
    assert question.answer == 0.0
    reply = model.revealed_reply(question, 1.0)
    rule = "break ties by another rule (last or all)"
    assert reply.mistake.startswith(f"1 is what you get if you {rule}")
    split = model.revealed_reply(question, 0.5)
    assert "the tied cells share it evenly" in split.mistake


# -- the pulse ---------------------------------------------------------------------------

Pulse = namedtuple("Pulse", "code round_number state vote ended")


def test_the_page_is_redrawn_only_when_round_state_vote_or_end_change():
    drawn = Pulse("K7QX3M", 2, "open", 1, False)
    seen = model.pulse_key(drawn)
    assert not model.must_redraw(seen, drawn)
    for changed in (
        drawn._replace(round_number=3),
        drawn._replace(state="closed"),
        drawn._replace(vote=2),
        drawn._replace(ended=True),
        None,
    ):
        assert model.must_redraw(seen, changed)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_cache_reads_once_per_ttl_and_takes_fresher_pulses():
    clock, reads = Clock(), []
    cache = PulseCache(1.0, clock=clock)

    def read():
        reads.append(clock.now)
        return len(reads)

    assert [cache.get("A", read) for _ in range(50)] == [1] * 50
    clock.now += 0.99
    assert cache.get("A", read) == 1
    clock.now += 0.02
    assert cache.get("A", read) == 2 and len(reads) == 2
    cache.put("A", "older", read_at=clock.now - 5)  # a slow full run's: not kept
    assert cache.get("A", read) == 2
    cache.put("A", "fresh", read_at=clock.now + 0.5)
    assert cache.get("A", read) == "fresh"
    assert cache.get("B", read) == 3  # each room its own


def test_a_failed_read_keeps_nothing_and_the_cache_stays_bounded():
    clock = Clock()
    cache = PulseCache(1.0, most=3, clock=clock)
    with pytest.raises(LookupError):
        cache.get("A", lambda: (_ for _ in ()).throw(LookupError("gone")))
    assert cache.get("A", lambda: "back") == "back"
    for code in "BCDE":
        cache.get(code, lambda code=code: code)
    assert cache.get("A", lambda: "read again") == "read again"  # A was the oldest: dropped
    assert len(cache._kept) == 3


def test_many_threads_asking_at_once_cost_one_read():
    cache, reads, lock = PulseCache(60.0), [], threading.Lock()
    start = threading.Barrier(20)

    def read():
        with lock:
            reads.append(1)
        return "pulse"

    def ask():
        start.wait()
        assert cache.get("A", read) == "pulse"

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(reads) == 1


def test_a_slow_read_of_one_room_stalls_no_other_room():
    """Room A's read is held; room B's askers are served meanwhile, and A's second
    asker waits for A's read and gets its pulse (one read, not two)."""
    cache, reads = PulseCache(60.0), []
    reading_a, release_a = threading.Event(), threading.Event()
    served_b, got = threading.Event(), {}

    def read_a():
        reads.append("A")
        reading_a.set()
        assert release_a.wait(timeout=10)
        return "pulse A"

    def ask(name: str, code: str, read, done: threading.Event | None = None):
        got[name] = cache.get(code, read)
        if done is not None:
            done.set()

    first_a = threading.Thread(target=ask, args=("A1", "A", read_a))
    first_a.start()
    assert reading_a.wait(timeout=10)
    second_a = threading.Thread(target=ask, args=("A2", "A", read_a))
    second_a.start()
    b = threading.Thread(target=ask, args=("B", "B", lambda: "pulse B", served_b))
    b.start()
    assert served_b.wait(timeout=10), "room B waited for room A's read"
    assert got == {"B": "pulse B"}  # A's askers still wait
    release_a.set()
    for thread in (first_a, second_a, b):
        thread.join(timeout=10)
    assert got == {"A1": "pulse A", "A2": "pulse A", "B": "pulse B"} and reads == ["A"]


def test_askers_waiting_for_a_read_slower_than_the_ttl_take_its_pulse():
    """A's read takes 5 s of a 1-s TTL: the asker that arrived while it ran gets its
    pulse, read after it asked, and does not read again."""
    now, reads = [0.0], []
    reading, release, second_waits = threading.Event(), threading.Event(), threading.Event()

    class Watched(PulseCache):
        def _reader(self, code):
            if threading.current_thread().name == "second":
                second_waits.set()  # it has asked (its clock read) and waits for the lock
            return super()._reader(code)

    cache, got = Watched(1.0, clock=lambda: now[0]), {}

    def read():
        reads.append(now[0])
        reading.set()
        if not release.wait(timeout=10):
            raise TimeoutError("the test never released the read")
        return "pulse A"

    first = threading.Thread(target=lambda: got.setdefault("first", cache.get("A", read)))
    first.start()
    assert reading.wait(timeout=10)
    now[0] = 0.5
    second = threading.Thread(
        target=lambda: got.setdefault("second", cache.get("A", read)), name="second"
    )
    second.start()
    assert second_waits.wait(timeout=10)
    now[0] = 5.0  # the read took 5 s
    release.set()
    for thread in (first, second):
        thread.join(timeout=10)
    assert got == {"first": "pulse A", "second": "pulse A"} and reads == [0.0]
