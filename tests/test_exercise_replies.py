"""The words a mistake is explained in: true for the layer on screen (its tie rule, its
padding), the likelier reading of a number first, and the number an answer came to."""

from dataclasses import replace

import numpy as np
from test_exercise_mistakes import OVERLAP, TIES, engine_value, named, value_problem

from pooling import PoolConfig, backward, forward
from teaching.exercises.mistakes import diagnose, known_mistakes
from teaching.exercises.model import Problem
from teaching.exercises.replies import typed_reply


def test_a_max_window_s_rule_is_said_with_the_layer_s_own_tie_rule():
    """Under "split" tied cells share: the reply to an averaged max window must not
    say the gradient goes to one winner."""
    from teaching.words import TIE_WORDS

    split = replace(TIES, config=replace(TIES.config, ties="split"))
    split = value_problem(split.x, split.config, split.grad_output, split.cell)
    averaged = engine_value(split, replace(split.config, mode="avg"))
    mistake = diagnose(split, averaged)
    assert mistake is not None and mistake.name == "averaged_max"
    assert TIE_WORDS["split"].rule in mistake.truth and "winner" not in mistake.truth


def test_a_typed_zero_is_first_read_as_no_window_not_a_swapped_cell():
    """(0, 1) receives; the swapped (1, 0) receives 0 too, and so does no window at all:
    0 is named as the more likely mistake, sending the cell nothing."""
    problem = value_problem([[1, 9], [2, 3]], PoolConfig("max", 2), [[1.0]], (0, 1))
    assert named(problem, 0.0) == "nothing"


def test_padding_is_said_to_move_the_windows_not_only_to_add_some():
    """At stride 2, padding 1 moves every window: the unpadded answer is not a subset
    of the padded one, so "adds windows" would be false."""
    x = np.arange(25.0).reshape(5, 5)
    config = PoolConfig("max", 3, stride=2, padding=1)
    result = forward(x, config)
    grad_x = backward(result, np.ones(result.output.shape))
    answer = frozenset((int(r), int(c)) for r, c in np.argwhere(grad_x != 0))
    problem = Problem("cells", 3, config, x, np.ones(result.output.shape), answer)
    unpadded = next(m for m in known_mistakes(problem) if m.name == "no_padding")
    assert not unpadded.answer <= answer  # padding moved windows off cells they read
    assert "start at −1" in unpadded.truth and "adds windows" not in unpadded.truth


def test_a_fraction_typed_is_quoted_as_the_number_it_comes_to():
    reply = typed_reply(OVERLAP, 7 / 3)
    assert reply.said.startswith("Your answer is about 2.3333, but ")
    assert typed_reply(OVERLAP, 2.5).said.startswith("Your answer is 2.5, but ")
