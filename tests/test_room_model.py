"""Class mode's pure model: codes, questions (JSON round trip) and answer validation."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from pooling import PoolConfig, backward, forward
from teaching.class_mode import codes
from teaching.class_mode.questions import (
    answer_from_json,
    answer_to_json,
    from_json,
    parse_answer,
    question_from_exercise,
    question_from_layer,
    to_json,
)
from teaching.exercises.model import make_problem

X4 = [[1, 3, 2, 0], [4, 2, 1, 2], [0, 1, 5, 3], [2, 2, 4, 1]]

# -- codes ------------------------------------------------------------------------------------


def test_alphabet_has_no_look_alikes():
    assert not set("0O1IL2Z5S8B") & set(codes.ALPHABET)
    assert len(set(codes.ALPHABET)) == len(codes.ALPHABET) == 25


def test_new_codes_are_six_characters_of_the_alphabet():
    made = {codes.new_code() for _ in range(200)}
    assert all(len(code) == 6 and set(code) <= set(codes.ALPHABET) for code in made)
    assert len(made) > 190  # random, not a counter


def test_normal_code_cleans_what_was_typed():
    assert codes.normal_code(" k7q-x3m ") == "K7QX3M"
    assert codes.normal_code("k7q x3m") == "K7QX3M"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [("", "Type the join code"), ("K7QX3", "(this has 5)"), ("K7QX3MM", "(this has 7)")],
)
def test_normal_code_says_what_is_wrong_with_its_length(typed, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        codes.normal_code(typed)


def test_normal_code_refuses_look_alikes_without_echoing_them():
    with pytest.raises(ValueError, match="no 0, O, 1") as raised:
        codes.normal_code("<b0O1>")
    assert "<b" not in str(raised.value)


def test_tokens_secrets_and_recovery_codes():
    token = codes.new_token()
    assert len(token) == 32 and codes.valid_token(token)
    assert not codes.valid_token(token[:-1]) and not codes.valid_token(None)
    assert not codes.valid_token(token[:-1] + "!")
    assert len(codes.new_secret()) >= 43 and codes.new_secret() != codes.new_secret()
    recovery = codes.new_recovery_code()
    assert len(recovery) == 12 and set(recovery) <= set(codes.ALPHABET)
    shown = codes.grouped(recovery)
    assert shown.count("-") == 2 and shown.replace("-", "") == recovery
    assert codes.normal_recovery_code(shown.lower().replace("-", " - ")) == recovery


def test_digest_is_sha256_hex():
    assert codes.digest("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


# -- questions --------------------------------------------------------------------------------

LAYERS = [
    PoolConfig("max", 2),
    PoolConfig("max", 3, stride=1, ties="split"),
    PoolConfig("avg", 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    PoolConfig("max", 2, stride=1, dilation=2),
    PoolConfig("avg", output_size=(2, 3)),
]


def layer_question(kind, config, *, cell=None, grad=None):
    x = np.arange(25.0).reshape(5, 5) % 7
    shape = forward(x, config).output.shape
    grad = np.arange(1.0, 1 + np.prod(shape)).reshape(shape) if grad is None else grad
    return question_from_layer(kind, x=x, config=config, grad_output=grad, cell=cell)


def same_question(first, second) -> bool:
    a, b = first.problem, second.problem
    return (
        first.kind == second.kind
        and first.source == second.source
        and a.config == b.config
        and a.level == b.level
        and a.cell == b.cell
        and np.array_equal(a.x, b.x)
        and np.array_equal(a.grad_output, b.grad_output)
        and a.answer == b.answer
        and type(a.answer) is type(b.answer)
    )


@pytest.mark.parametrize("config", LAYERS, ids=str)
@pytest.mark.parametrize("kind", ["cells", "value", "size"])
def test_layer_questions_round_trip_through_json(kind, config):
    question = layer_question(kind, config)
    text = to_json(question)
    again = from_json(text)
    assert same_question(question, again) and to_json(again) == text


@pytest.mark.parametrize("kind", ["cells", "value", "size"])
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_exercise_questions_round_trip_and_keep_the_exercise(kind, level):
    question = question_from_exercise(kind, level=level, seed=42, number=3)
    problem = make_problem(kind, level, 42, 3)
    assert question.source == f"exercise set 42 at level {level}, problem 3"
    assert question.answer == problem.answer and np.array_equal(question.problem.x, problem.x)
    assert same_question(question, from_json(to_json(question)))


def test_floats_keep_every_bit_through_json():
    x = np.array([[0.1, 1 / 3], [-0.0, 2.5e-300]])
    question = question_from_layer(
        "value", x=x, config=PoolConfig("avg", 2, stride=1), grad_output=[[math.pi]]
    )
    again = from_json(to_json(question))
    assert again.problem.x.tobytes() == x.tobytes()
    assert again.answer == question.answer == math.pi / 4


def test_layer_answers_are_the_engines():
    config = PoolConfig("max", 2)
    cells = question_from_layer("cells", x=X4, config=config, grad_output=np.ones((2, 2)))
    assert cells.answer == {(1, 0), (0, 2), (3, 0), (2, 2)}  # the tie at (0,2)/(1,3): first
    size = question_from_layer("size", x=X4, config=config, grad_output=np.ones((2, 2)))
    assert size.answer == (2, 2)
    grad = np.array([[1.0, 2.0], [3.0, 4.0]])
    value = question_from_layer("value", x=X4, config=config, grad_output=grad, cell=(2, 2))
    assert value.answer == 4.0 and value.problem.cell == (2, 2)


def test_value_question_defaults_to_the_cell_most_windows_send_to():
    # 3x3 windows at stride 1 over 5x5: the centre (2, 2) is read by all nine, and with
    # average pooling every window sends to every cell it reads.
    question = layer_question("value", PoolConfig("avg", 3, stride=1))
    assert question.problem.cell == (2, 2)
    # max pooling: only winners receive; count, for each cell, the windows that route
    # to it (one upstream cell at a time).
    config = PoolConfig("max", 2, stride=1)
    question = layer_question("value", config)
    result = forward(question.problem.x, config)
    senders = sum(backward(result, one) != 0 for one in np.eye(16).reshape(16, 4, 4))
    assert senders[question.problem.cell] == senders.max() > 1
    first = np.unravel_index(np.argmax(senders), senders.shape)
    assert question.problem.cell == tuple(int(v) for v in first)


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"kind": "batch"}, "a batch question comes from an exercise set, not from one layer"),
        ({"kind": "pairs"}, "a class question asks one of cells, value, size, batch"),
        ({"x": np.zeros((9, 4))}, "1 to 8 rows and columns, not 9×4"),
        ({"x": np.full((4, 4), np.nan)}, "finite numbers only"),
        ({"grad_output": np.ones((3, 3))}, "shaped like y, 2×2"),
        ({"grad_output": [[1, 1], [0, 1]]}, "every dL/dy positive"),
        ({"grad_output": [[1, 1], [-2, 1]]}, "every dL/dy positive"),
        ({"kind": "value", "cell": (4, 0)}, "cell (4, 0) is outside the 4×4 grid"),
    ],
)
def test_layer_questions_refuse_what_is_not_well_defined(changes, reason):
    arguments = {"kind": "cells", "x": X4, "grad_output": np.ones((2, 2)), **changes}
    kind = arguments.pop("kind")
    with pytest.raises(ValueError, match=re.escape(reason)):
        question_from_layer(kind, config=PoolConfig("max", 2), **arguments)


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ({"kind": "pairs", "level": 1, "number": 1}, "one of cells, value, size, batch"),
        ({"kind": "cells", "level": 6, "number": 1}, "levels are 1 to 5"),
        ({"kind": "cells", "level": 1, "number": 11}, "problems 1 to 10"),
    ],
)
def test_exercise_questions_refuse_unknown_sets(arguments, reason):
    kind = arguments.pop("kind")
    with pytest.raises(ValueError, match=reason):
        question_from_exercise(kind, seed=1, **arguments)


@pytest.mark.parametrize("text", ["{", "[]", '{"format": 2}', '{"format": 1, "kind": "batch"}'])
def test_from_json_refuses_what_is_not_a_question(text):
    with pytest.raises(ValueError):
        from_json(text)


# -- answers -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def questions():
    config = PoolConfig("max", 2)
    return {
        kind: question_from_layer(kind, x=X4, config=config, grad_output=np.ones((2, 2)))
        for kind in ("cells", "value", "size")
    }


@pytest.mark.parametrize(
    ("kind", "raw", "parsed"),
    [
        ("cells", [[0, 2], [3, 3]], frozenset({(0, 2), (3, 3)})),
        ("cells", [], frozenset()),
        ("cells", ((1, 0),), frozenset({(1, 0)})),
        ("value", "2.5", 2.5),
        ("value", " −1 ", -1.0),
        ("value", "7/4", 1.75),
        ("value", 3, 3.0),
        ("value", -0.25, -0.25),
        ("size", ["2", "3"], (2, 3)),
        ("size", [2, 64], (2, 64)),
        ("size", (2.0, 1), (2, 1)),
    ],
)
def test_good_answers_parse_and_round_trip(questions, kind, raw, parsed):
    answer = parse_answer(questions[kind], raw)
    assert answer == parsed and type(answer) is type(parsed)
    assert answer_from_json(kind, answer_to_json(answer)) == answer
    assert answer_from_json(questions[kind], answer_to_json(answer)) == answer


@pytest.mark.parametrize(
    ("kind", "raw", "reason"),
    [
        ("cells", "[[0, 1]]", "a set of picked cells"),
        ("cells", {"0": 1}, "a set of picked cells"),
        ("cells", [[0, 0]] * 17, "at most 16 cells"),
        ("cells", [[0]], "(row, column) pair of whole numbers"),
        ("cells", [[0, 1, 2]], "(row, column) pair of whole numbers"),
        ("cells", [[True, 1]], "(row, column) pair of whole numbers"),
        ("cells", [["0", "1"]], "(row, column) pair of whole numbers"),
        ("cells", [[0.5, 1]], "(row, column) pair of whole numbers"),
        ("cells", [[4, 0]], "Cell (4, 0) is outside the 4×4 grid"),
        ("cells", [[0, -1]], "Cell (0, -1) is outside the 4×4 grid"),
        ("cells", [[1, 2], [1, 2]], "Cell (1, 2) is picked twice"),
        ("value", "", "The answer is empty"),
        ("value", "two", "The answer is not a number"),
        ("value", "nan", "The answer is not a finite number"),
        ("value", "1e7", "far larger"),
        ("value", math.inf, "not a finite number"),
        ("value", math.nan, "not a finite number"),
        ("value", -2e6, "far larger"),
        ("value", True, "is a number"),
        ("value", None, "is a number"),
        ("size", "2x3", "two whole numbers"),
        ("size", [2], "two whole numbers"),
        ("size", ["2", "0"], "from 1 to 64"),
        ("size", [65, 1], "from 1 to 64"),
        ("size", ["2.5", "1"], "from 1 to 64"),
        ("size", [True, 1], "from 1 to 64"),
    ],
)
def test_bad_answers_are_refused_with_a_reason(questions, kind, raw, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_answer(questions[kind], raw)
