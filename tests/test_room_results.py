"""The lecturer's results (teaching/class_mode/results.py) from what phones sent, through
the store (SQLite and PostgreSQL): several students, two votes, an answer changed,
a question not voted on again, one everyone got right; every count, share and change
worked by hand, and the CSV read back with no token or nickname in it."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from room_store_helpers import (  # noqa: F401  (engine_fixture: the `engine` fixture)
    NOW,
    cells_question,
    engine_fixture,
    student,
    value_question,
)

from rooms import store
from teaching.class_mode import codes
from teaching.class_mode import results as res

# The 4x4 grid of room_store_helpers (test_room_tally.py works it by hand): max 2x2,
# ties "first". Right: RIGHT; "last" gives LAST; "split" and "all" both give SPLIT;
# every cell a window reads, EVERY; the two clear winners alone no known mistake.
RIGHT = [[1, 0], [0, 2], [3, 0], [2, 2]]
LAST = [[1, 0], [1, 3], [3, 1], [2, 2]]
SPLIT = RIGHT + [[1, 3], [3, 1]]
EVERY = [[r, c] for r in range(4) for c in range(4)]
TWO = [[1, 0], [2, 2]]
FIRST_VOTE = [RIGHT, RIGHT, RIGHT, LAST, LAST, EVERY, SPLIT, TWO]  # 3 of 8 right
SECOND_VOTE = [RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, SPLIT, RIGHT]  # 7 of 8
NICKNAMES = [f"Student{n}Zq" for n in range(8)]  # nothing else in a CSV reads so


def answer_all(engine, room, tokens, given, number):
    for token, raw in zip(tokens, given, strict=True):
        store.answer(engine, room.code, token=token, round_number=number, raw=raw, now=NOW)


@pytest.fixture(name="room_run")
def room_run_fixture(engine):
    """A room of eight phones: question 1 (cells) voted on twice; question 2 (a
    value) once, 2 of 3 right; question 3 (cells) twice, everyone right both times."""
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    tokens = [student(engine, room.code, nickname=name) for name in NICKNAMES]
    ask = dict(secret=room.secret, now=NOW)
    store.ask(engine, room.code, question=cells_question(), **ask)
    # Hal first picks everything, then changes his mind: only his last answer counts.
    store.answer(engine, room.code, token=tokens[7], round_number=1, raw=EVERY, now=NOW)
    answer_all(engine, room, tokens, FIRST_VOTE, 1)
    store.reveal(engine, room.code, **ask)
    store.vote_again(engine, room.code, **ask)
    answer_all(engine, room, tokens, SECOND_VOTE, 2)
    store.reveal(engine, room.code, **ask)
    value = value_question()
    store.ask(engine, room.code, question=value, **ask)
    answer_all(engine, room, tokens[:3], [value.answer, value.answer, -value.answer], 3)
    store.ask(engine, room.code, question=cells_question(), **ask)
    answer_all(engine, room, tokens[:2], [RIGHT, RIGHT], 4)
    store.vote_again(engine, room.code, **ask)
    answer_all(engine, room, tokens[:2], [RIGHT, RIGHT], 5)
    store.end_room(engine, room.code, **ask)
    return room, tokens, res.results(store.every_round(engine, room.code, now=NOW))


def test_the_store_hands_over_every_round_with_its_answers(engine, room_run):
    room, _, _ = room_run
    held = store.every_round(engine, room.code, now=NOW)
    assert [(h.round.number, h.round.vote, h.round.first_round) for h in held] == [
        (1, 1, None), (2, 2, 1), (3, 1, None), (4, 1, None), (5, 2, 4),
    ]  # fmt: skip
    assert [len(h.answers) for h in held] == [8, 8, 3, 2, 2]
    assert sorted(map(sorted, held[0].answers)) == sorted(
        sorted(map(tuple, cells)) for cells in FIRST_VOTE
    )
    for h in held:  # the same answers as the projector's read, round by round
        assert h.answers == store.answers(engine, room.code, h.round.number, now=NOW)


def test_two_votes_are_counted_as_the_phones_sent_them(room_run):
    _, _, found = room_run
    assert [r.number for r in found] == [1, 2, 3]
    first = found[0]
    assert first.first == res.Vote(1, 8, 3, 3 / 8)
    assert first.second == res.Vote(2, 8, 7, 7 / 8)
    assert first.change == 4
    # (7/8 − 3/8) / (1 − 3/8) = (4/8) / (5/8) = 0.8
    assert first.gain == pytest.approx(0.8) and first.gain_note == ""
    assert [(w.first, w.second) for w in first.wrong] == [(2, 0), (1, 1), (1, 0), (1, 0)]
    words = [w.words for w in first.wrong]
    assert "the last tied cell" in words[0]
    assert "break ties by another rule (split evenly or all)" in words[1]
    assert "pick every cell a window reads" in words[2]
    assert words[3] == "other wrong answers"
    assert sum(w.first for w in first.wrong) == 8 - 3 and sum(w.second for w in first.wrong) == 1


def test_a_question_asked_once_has_no_change(room_run):
    _, _, found = room_run
    value = found[1]
    assert value.first == res.Vote(3, 3, 2, 2 / 3) and value.second is None
    assert (value.change, value.gain, value.gain_note) == (None, None, "no second vote")
    (sign,) = value.wrong
    assert (sign.first, sign.second) == (1, None) and "flip the sign" in sign.words


def test_everyone_right_before_leaves_the_normalized_change_undefined(room_run):
    _, _, found = room_run
    perfect = found[2]
    assert (perfect.first.right, perfect.second.right, perfect.change) == (2, 2, 0)
    assert perfect.gain is None and "everyone was right in the first vote" in perfect.gain_note
    assert res.gain_words(perfect).startswith("undefined: everyone was right")
    assert res.change_words(perfect) == "no change" and perfect.wrong == []


@pytest.mark.parametrize(
    "before, after, gain",
    [(0.0, 1.0, 1.0), (0.5, 0.75, 0.5), (0.5, 0.25, -0.5), (0.25, 0.25, 0.0), (1.0, 0.5, None)],
)
def test_the_normalized_change(before, after, gain):
    assert res.normalized_change(before, after) == gain


def test_the_words_say_each_vote_and_change_as_computed(room_run):
    _, _, found = room_run
    first, value, _ = found
    assert res.vote_words(first.first) == "3 of 8 right (38 %)"  # 37.5 -> 38
    assert res.vote_words(first.second) == "7 of 8 right (88 %)"
    assert (res.change_words(first), res.gain_words(first)) == ("+4 right", "0.80")
    assert (res.vote_words(value.second), res.change_words(value)) == ("", "")
    assert res.gain_words(value) == "undefined: no second vote"
    assert res.summary(found) == "3 questions asked, 2 voted on a second time."
    assert res.summary([]) == "No question has been asked in this room yet."
    assert res.summary(found[1:2]) == "1 question asked, not voted on a second time."
    assert res.summary(found[:1]) == "1 question asked, voted on a second time."
    both = res.summary([found[0], found[2]])
    assert both == "2 questions asked, all of them voted on a second time."


def test_the_csv_holds_the_results_and_no_token_nor_nickname(room_run):
    _, tokens, found = room_run
    text = res.results_csv(found)
    for secret in [*tokens, *NICKNAMES]:
        assert secret not in text
    table = list(csv.DictReader(io.StringIO(text)))
    assert [row["question"] for row in table] == ["1", "2", "3"]
    first, value, perfect = table
    assert (first["round_vote_1"], first["round_vote_2"]) == ("1", "2")
    assert (first["answered_vote_1"], first["right_vote_1"], first["share_right_vote_1"]) == (
        "8", "3", "0.3750",
    )  # fmt: skip
    assert (first["answered_vote_2"], first["right_vote_2"], first["share_right_vote_2"]) == (
        "8", "7", "0.8750",
    )  # fmt: skip
    assert (first["change_right"], first["normalized_change"]) == ("4", "0.8000")
    assert first["wrong_answers_vote_1_to_vote_2"].endswith("other wrong answers: 1 -> 0")
    assert first["wrong_answers_vote_1_to_vote_2"].count(" -> ") == 4
    second = (value["round_vote_2"], value["change_right"], value["normalized_change"])
    assert second == ("", "", "")
    assert value["normalized_change_undefined_because"] == "no second vote"
    assert perfect["normalized_change"] == "" and perfect["change_right"] == "0"
    assert "nothing left to gain" in perfect["normalized_change_undefined_because"]
    assert first["asked"].startswith("Layer: max pooling, window 2×2")


def test_no_answers_in_a_vote_is_said_not_divided(engine):
    room = store.open_room(engine, token=codes.new_token(), now=NOW)
    store.ask(engine, room.code, secret=room.secret, question=cells_question(), now=NOW)
    store.vote_again(engine, room.code, secret=room.secret, now=NOW)
    (found,) = res.results(store.every_round(engine, room.code, now=NOW))
    assert (found.first.answered, found.second.answered, found.change) == (0, 0, 0)
    assert found.gain is None and found.gain_note == "no answers in the first vote"
    assert res.vote_words(found.first) == "no answers"
    assert np.isclose(found.first.share_right, 0.0)
