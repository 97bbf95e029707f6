"""The class's tallies and the wrong-answer analysis, against cases worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from pooling import PoolConfig
from teaching.class_mode.questions import question_from_layer
from teaching.class_mode.tally import WrongAnswer, mistakes_of, mistakes_words, named, shift, tally
from teaching.exercises.mistakes import diagnose

# A 4x4 grid, max pooling 2x2 at stride 2, ties "first", dL/dy all 1:
#
#     1 3 | 2 0      top-left window:     max 4 at (1, 0)
#     4 2 | 1 2      top-right window:    2 at (0, 2) and (1, 3) tie: first -> (0, 2)
#     ----+----      bottom-left window:  2 at (3, 0) and (3, 1) tie: first -> (3, 0)
#     0 1 | 5 3      bottom-right window: max 5 at (2, 2)
#     2 2 | 4 1
#
# Right: {(1,0), (0,2), (3,0), (2,2)}. The known mistakes worked by hand:
#   ties "last"  -> {(1,0), (1,3), (3,1), (2,2)}                       (tie_rule)
#   ties "split" or "all" -> both tied cells of both ties, 6 cells     (tie_rule)
#   every cell a window reads -> all 16 cells                          (every_cell)
X4 = [[1, 3, 2, 0], [4, 2, 1, 2], [0, 1, 5, 3], [2, 2, 4, 1]]
RIGHT = frozenset({(1, 0), (0, 2), (3, 0), (2, 2)})
LAST = frozenset({(1, 0), (1, 3), (3, 1), (2, 2)})
SPLIT = RIGHT | LAST
EVERY = frozenset(np.ndindex(4, 4))
TWO = frozenset({(1, 0), (2, 2)})  # the two clear winners only: no known mistake

# Eight students: A, B, C right; D, E tie "last"; F every cell; G split; H two cells.
FIRST_VOTE = [RIGHT, RIGHT, RIGHT, LAST, LAST, EVERY, SPLIT, TWO]
# After discussion: D, E, F and H are right; G still splits the ties.
SECOND_VOTE = [RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, SPLIT, RIGHT]


@pytest.fixture(scope="module")
def cells_question():
    return question_from_layer(
        "cells", x=X4, config=PoolConfig("max", 2), grad_output=np.ones((2, 2))
    )


def test_the_hand_worked_answer_is_the_engines(cells_question):
    assert cells_question.answer == RIGHT


def test_counts_and_share_right(cells_question):
    counted = tally(cells_question, FIRST_VOTE)
    assert (counted.count, counted.right, counted.share_right) == (8, 3, 3 / 8)


def test_share_of_the_room_per_cell(cells_question):
    # (1,0) and (2,2): all 8 picked them. (0,2), (3,0): A, B, C, F, G = 5 of 8.
    # (1,3), (3,1): D, E, F, G = 4 of 8. The other ten cells: F alone, 1 of 8.
    expected = np.full((4, 4), 1 / 8)
    expected[1, 0] = expected[2, 2] = 1.0
    expected[0, 2] = expected[3, 0] = 5 / 8
    expected[1, 3] = expected[3, 1] = 4 / 8
    counted = tally(cells_question, FIRST_VOTE)
    np.testing.assert_array_equal(counted.cell_share, expected)
    assert counted.values is None


def test_wrong_answers_are_named_by_the_mistake_each_shows(cells_question):
    wrong = tally(cells_question, FIRST_VOTE).wrong
    # Most common first: "last" twice; then, once each, the analysis' order (the tie
    # rules before every_cell), and the answer no mistake gives last.
    assert [(w.answer, w.count, w.mistake) for w in wrong] == [
        (LAST, 2, "tie_rule"),
        (SPLIT, 1, "tie_rule"),
        (EVERY, 1, "every_cell"),
        (TWO, 1, None),
    ]
    assert "last tied cell" in wrong[0].how and "first tied cell" in wrong[0].truth
    assert "evenly" in wrong[1].how  # split is listed before all, which gives the same
    assert wrong[3].how is None and wrong[3].truth is None
    assert tally(cells_question, FIRST_VOTE).other == 1


def test_grouping_agrees_with_the_exercises_diagnose(cells_question):
    for given in FIRST_VOTE:
        mistake = diagnose(cells_question.problem, given)
        ours = named(cells_question, given, mistakes_of(cells_question))
        if given == RIGHT:
            assert mistake is None
        else:
            assert (mistake and mistake.name) == (ours and ours.name)


def test_shift_between_two_votes(cells_question):
    first = tally(cells_question, FIRST_VOTE)
    second = tally(cells_question, SECOND_VOTE)
    moved = shift(first, second)
    assert (moved.share_right_before, moved.share_right_after) == (3 / 8, 7 / 8)
    assert (moved.right_before, moved.right_after) == (3, 7)
    assert [(w.answer, w.mistake, w.before, w.after) for w in moved.wrong] == [
        (LAST, "tie_rule", 2, 0),
        (SPLIT, "tie_rule", 1, 1),
        (EVERY, "every_cell", 1, 0),
        (TWO, None, 1, 0),
    ]
    assert (moved.wrong[0].share_before, moved.wrong[0].share_after) == (2 / 8, 0.0)
    assert moved.wrong[1].share_after == 1 / 8


def test_a_wrong_answer_new_in_the_second_vote_comes_last(cells_question):
    first = tally(cells_question, [RIGHT, LAST])
    second = tally(cells_question, [EVERY, RIGHT, RIGHT])
    moved = shift(first, second)
    assert [(w.answer, w.before, w.after) for w in moved.wrong] == [
        (LAST, 1, 0),
        (EVERY, 0, 1),
    ]
    assert moved.wrong[1].share_after == 1 / 3 and moved.count_after == 3


def test_nobody_answered(cells_question):
    counted = tally(cells_question, [])
    assert (counted.count, counted.right, counted.share_right, counted.wrong) == (0, 0, 0.0, [])
    assert not counted.cell_share.any()
    moved = shift(counted, counted)
    assert moved.share_right_before == moved.share_right_after == 0.0 and moved.wrong == []


# dL/dx at (1, 1) of a 4x4 grid, average pooling 2x2 at stride 1 (3x3 windows), dL/dy
#     1 2 3
#     4 5 6
#     7 8 9
# (1, 1) is read by the windows of y[0,0], y[0,1], y[1,0], y[1,1], each sending a
# quarter of its dL/dy: 1/4 + 2/4 + 4/4 + 5/4 = 3. Mistakes worked by hand:
#   leave out y[0,0]'s 0.25 -> 2.75                  (left_out_window)
#   divide by 2, the window's side: 12 / 2 = 6       (divisor_side)
#   no divisor at all: 1 + 2 + 4 + 5 = 12            (no_divisor)
#   the sign flipped: -3                             (sign)
#   7.5: no known mistake gives it                   (other)
@pytest.fixture(scope="module")
def value_question():
    return question_from_layer(
        "value",
        x=np.arange(16.0).reshape(4, 4),
        config=PoolConfig("avg", 2, stride=1),
        grad_output=np.arange(1.0, 10.0).reshape(3, 3),
        cell=(1, 1),
    )


def test_the_hand_worked_value_is_the_engines(value_question):
    assert value_question.answer == 3.0


def test_number_answers(value_question):
    given = [3.0, 3.001, 2.995, 12.0, 12.0, 6.0, 2.75, -3.0, 7.5, 7.5]
    counted = tally(value_question, given)
    assert (counted.count, counted.right) == (10, 3)  # within 0.01 of 3 is right
    assert counted.values == given and counted.cell_share is None
    assert [(w.answer, w.count, w.mistake) for w in counted.wrong] == [
        (12.0, 2, "no_divisor"),
        (7.5, 2, None),
        (2.75, 1, "left_out_window"),
        (6.0, 1, "divisor_side"),
        (-3.0, 1, "sign"),
    ]
    assert counted.other == 2
    assert "y[0,0]" in counted.wrong[2].how


def test_numbers_within_the_tolerance_of_a_mistake_are_grouped_under_it(value_question):
    counted = tally(value_question, [6.0, 6.004, 5.995])
    assert counted.wrong == [WrongAnswer(6.0, 3, "divisor_side", *_words(counted))]


def _words(counted):
    first = counted.wrong[0]
    return first.how, first.truth, first.hows, first.truths


def test_other_numbers_are_grouped_at_two_decimals(value_question):
    counted = tally(value_question, [1 / 3 + 7, 7.333, 7.34])
    assert [(w.answer, w.count) for w in counted.wrong] == [(7.33, 2), (7.34, 1)]


# The output size of a 7x6 grid under a 3x3 window, stride 2, padding 1:
#   rows (7 + 2 - 3) / 2 + 1 = 4, columns floor((6 + 2 - 3) / 2) + 1 = 3: (4, 3).
# Mistakes worked by hand:
#   padding left out: (7 - 3) / 2 + 1 = 3, floor(3 / 2) + 1 = 2 -> (3, 2)   (no_padding;
#       the stride of 3 and the + 1 left out give (3, 2) too, and are listed after it)
#   rounding up: 3 + 1 = 4, ceil(2.5) + 1 = 4 -> (4, 4)                       (rounding)
#   stride 1: 6 + 1 = 7, 5 + 1 = 6 -> (7, 6)                                  (stride)
#   rows and columns swapped -> (3, 4)                                        (transposed)
def test_sizes_are_tallied_with_their_mistakes():
    question = question_from_layer(
        "size", x=np.zeros((7, 6)), config=PoolConfig("max", 3, stride=2, padding=1),
        grad_output=np.ones((4, 3)),
    )  # fmt: skip
    assert question.answer == (4, 3)
    given = [(4, 3), (4, 3), (3, 2), (3, 2), (4, 4), (3, 4), (7, 6), (5, 5)]
    counted = tally(question, given)
    assert (counted.count, counted.right, counted.values) == (8, 2, given)
    assert [(w.answer, w.count, w.mistake) for w in counted.wrong] == [
        ((3, 2), 2, "no_padding"),
        ((4, 4), 1, "rounding"),
        ((7, 6), 1, "stride"),
        ((3, 4), 1, "transposed"),
        ((5, 5), 1, None),
    ]


def test_layers_the_analysis_does_not_cover_name_no_mistake():
    question = question_from_layer(
        "value", x=np.arange(16.0).reshape(4, 4), config=PoolConfig("avg", output_size=2),
        grad_output=np.ones((2, 2)),
    )  # fmt: skip
    counted = tally(question, [question.answer, 99.0])
    assert not counted.analysed
    assert counted.right == 1 and counted.wrong == [WrongAnswer(99.0, 1, None)]


# -- mistakes that give the same answer are named together ----------------------------------


def test_two_tie_rules_that_pick_the_same_cells_are_named_together(cells_question):
    # In X4, "split" and "all" both pick both cells of both ties (SPLIT): neither alone
    # explains an answer of SPLIT better than the other.
    split = next(w for w in tally(cells_question, [SPLIT]).wrong)
    assert split.hows == (
        "break ties so that the tied cells share it evenly",
        "break ties so that every tied cell gets all of it",
    )
    assert split.how_all == "break ties by another rule (split evenly or all)"
    last = next(w for w in tally(cells_question, [LAST]).wrong)
    assert last.hows == ("break ties so that the last tied cell in reading order gets it all",)
    assert last.how_all == last.how


def test_three_tie_rules_that_pick_the_same_cells_are_named_together():
    # x = 1 2 2, windows 1×2 at stride 1, ties "first": y[0,0] = 2 at (0, 1); y[0,1]
    # ties (0, 1) and (0, 2), first -> (0, 1). Right: {(0, 1)}. Under "last", "split"
    # and "all" the tie also sends to (0, 2): all three give {(0, 1), (0, 2)}.
    question = question_from_layer(
        "cells", x=[[1, 2, 2]], config=PoolConfig("max", (1, 2), stride=1),
        grad_output=np.ones((1, 2)),
    )  # fmt: skip
    assert question.answer == frozenset({(0, 1)})
    wrong = tally(question, [frozenset({(0, 1), (0, 2)})] * 3).wrong
    assert [(w.count, w.mistake, len(w.hows)) for w in wrong] == [(3, "tie_rule", 3)]
    assert wrong[0].how_all == "break ties by another rule (last, split evenly, or all)"


def test_mistakes_words_joins_clauses_and_names_several_tie_rules_in_one():
    last = "break ties so that the last tied cell in reading order gets it all"
    split = "break ties so that the tied cells share it evenly"
    assert mistakes_words(()) is None
    assert mistakes_words(("pick every cell a window reads",)) == "pick every cell a window reads"
    assert mistakes_words((last,)) == last  # one rule: its own words in full
    assert mistakes_words(("a", "b")) == "a or b"
    assert mistakes_words(("a", "b", "c")) == "a, b, or c"
    assert mistakes_words((last, "pick all", split)) == (
        "break ties by another rule (last or split evenly) or pick all"
    )
