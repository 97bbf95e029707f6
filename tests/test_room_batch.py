"""Class mode's batch question (issue 37, item 5): a batch exercise's window question
put to the room, stored, answered with taps (the cells) or a typed number (the mean),
tallied, and revealed with the first seed's idea named and counted."""

from __future__ import annotations

import pytest
from room_store_helpers import NOW, student

from rooms import store, store_reads
from rooms.schema import new_engine
from teaching.class_mode import codes
from teaching.class_mode.answers import right_sentence, wrong_lines
from teaching.class_mode.lecturer import question_words
from teaching.class_mode.questions import (
    KINDS,
    from_json,
    parse_answer,
    question_from_exercise,
    to_json,
)
from teaching.class_mode.student import question_text, revealed_reply
from teaching.class_mode.tally import tally
from teaching.exercises.mistakes import known_mistakes
from teaching.exercises.mistakes_batch import IDEA, window_winners
from teaching.exercises.model import SET_SIZE, make_problem
from teaching.numbers import fmt


def batch_question(*, mean: bool, level: int = 1, seed: int = 0):
    """The first batch class question of set `seed` that asks the mean (or the cells)."""
    for number in range(1, SET_SIZE + 1):
        question = question_from_exercise("batch", level=level, seed=seed, number=number)
        if question.problem.asks_mean == mean:
            return question
    raise AssertionError("no such question in the set")


def idea_of(question) -> float:
    return next(
        m.answer for m in known_mistakes(question.problem) if m.name == "split_over_winners"
    )


@pytest.fixture(name="engine")
def sqlite_engine(tmp_path):
    made = new_engine(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    yield made
    made.dispose()


def test_the_class_is_asked_the_sets_window_questions_only():
    assert "batch" in KINDS
    for level in (1, 3, 5):
        for number in range(1, SET_SIZE + 1):
            question = question_from_exercise("batch", level=level, seed=2, number=number)
            shown = int(question.source.rsplit(" ", 1)[1])  # the Exercises page's number
            problem = make_problem("batch", level, 2, shown)
            assert problem.window is not None and problem.answer == question.answer
            before = [make_problem("batch", level, 2, n).window for n in range(number, shown)]
            assert shown >= number and before.count(None) == len(before)


@pytest.mark.parametrize("mean", [False, True])
def test_a_batch_question_is_stored_exactly(mean):
    question = batch_question(mean=mean)
    again = from_json(to_json(question))
    problem, kept = question.problem, again.problem
    assert again.kind == "batch" and kept.window == problem.window and kept.cell == problem.cell
    assert kept.answer == problem.answer and kept.reduction == problem.reduction
    assert (kept.x == problem.x).all() and (kept.grad_output == problem.grad_output).all()


def test_answers_are_cells_on_the_plane_or_a_number_as_asked():
    cells = batch_question(mean=False)
    height, width = cells.grid_shape
    assert (height, width) == cells.problem.x.shape[1:]
    assert parse_answer(cells, [[0, 0], [1, 1]]) == frozenset({(0, 0), (1, 1)})
    with pytest.raises(ValueError, match="outside"):
        parse_answer(cells, [[height, 0]])
    with pytest.raises(ValueError, match="set of picked cells"):
        parse_answer(cells, "0.5")
    mean = batch_question(mean=True)
    assert parse_answer(mean, "1/3") == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="is a number"):
        parse_answer(mean, [[0, 0]])


def test_the_reveal_names_the_ideas_answer_with_its_count():
    question = batch_question(mean=True)
    idea = idea_of(question)
    counted = tally(question, [idea, idea, idea, question.answer, 99.0])
    assert right_sentence(counted) == "1 of 5 right (20 %)."
    first = wrong_lines(question, counted)[0]
    assert first.startswith(f"3 answers gave {fmt(idea, 4)}: what you get if you {IDEA}")
    assert len(first.split()) <= 35  # a projector sentence
    reply = revealed_reply(question, idea)
    assert not reply.right and IDEA in reply.mistake


def test_a_window_cells_tally_counts_the_picks_and_names_one_examples_winner():
    question = batch_question(mean=False)
    alone = window_winners(question.problem)[0]
    counted = tally(question, [question.answer, alone, alone])
    assert right_sentence(counted) == "1 of 3 right (33 %)."
    for cell in question.answer:
        picked = 1 + 2 * (cell in alone)
        assert counted.cell_share[cell] == pytest.approx(picked / 3)
    assert wrong_lines(question, counted)[0] == (
        "2 answers: the cells you get if you take example #0's winner alone."
    )


def test_the_question_is_said_as_asked_on_the_phone_and_the_projector():
    cells = batch_question(mean=False)
    r, c = cells.problem.window
    count = len(cells.problem.x)
    assert f"Which cells of window ({r}, {c}) get gradient" in question_words(cells)
    assert question_words(cells).startswith(f"{count} examples, one layer: ")
    said = question_text(cells.problem, state="open")
    assert said.startswith(f"{count} examples through the same layer")
    assert said.endswith("Pick a cell again to take it back.")
    assert "Pick" not in question_text(cells.problem, state="closed")
    mean = batch_question(mean=True)
    r, c = mean.problem.cell
    assert f"What is the mean gradient at ({r}, {c}) over the batch?" in question_words(mean)
    assert question_text(mean.problem, state="open").endswith("Two decimals are enough.")


def test_the_store_takes_taps_and_numbers_within_its_limits(engine):
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    cells = batch_question(mean=False)
    store.ask(engine, room.code, secret=room.secret, question=cells, now=NOW)
    ann, bob = student(engine, room.code), student(engine, room.code)
    picks = [list(cell) for cell in sorted(cells.answer)]
    store.answer(engine, room.code, token=ann, round_number=1, raw=picks, now=NOW)
    assert store.my_answer(engine, room.code, token=ann, round_number=1, now=NOW) == cells.answer
    with pytest.raises(store_reads.InvalidAnswer, match="set of picked cells"):
        store.answer(engine, room.code, token=bob, round_number=1, raw="0.5", now=NOW)
    with pytest.raises(store.TooLong):
        store.answer(engine, room.code, token=bob, round_number=1, raw=[[0, 0, 0]], now=NOW)
    mean = batch_question(mean=True)
    store.ask(engine, room.code, secret=room.secret, question=mean, now=NOW)
    store.answer(engine, room.code, token=bob, round_number=2, raw=f"{idea_of(mean)}", now=NOW)
    kept = store.answers(engine, room.code, 2, now=NOW)
    assert kept == [pytest.approx(idea_of(mean))]
    with pytest.raises(store.TooLong):
        store.answer(engine, room.code, token=bob, round_number=2, raw="1" * 10_000, now=NOW)
