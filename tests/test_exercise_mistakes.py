"""The exercises' mistake analysis and answer tolerance (pure, no Streamlit): each known
mistake, worked out with the engine under its wrong assumption and typed, is named; the
right answer is right; a number no mistake gives gets no name."""

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from pooling import PoolConfig, backward, batch_gradients, forward
from pooling.explain import ledger
from pooling.geometry import plane_geometry
from teaching.exercises.mistakes import diagnose, known_mistakes
from teaching.exercises.model import KINDS, LEVELS, Problem, make_problem
from teaching.exercises.replies import cells_reply, marks_legend, typed_reply
from teaching.tolerances import close_enough

# -- two decimals are enough ---------------------------------------------------------------


@pytest.mark.parametrize("typed", [0.66, 0.67, 0.666, 0.6667, 2 / 3, float(Fraction(2, 3))])
def test_an_answer_within_a_hundredth_of_two_thirds_is_right(typed):
    assert close_enough(typed, 2 / 3)


@pytest.mark.parametrize("typed", [0.65, 0.68, 0.5, -0.67])
def test_an_answer_further_from_two_thirds_is_wrong(typed):
    assert not close_enough(typed, 2 / 3)


def test_every_answer_that_rounds_to_the_right_two_decimals_is_right():
    rng = np.random.default_rng(3)
    for answer in rng.uniform(-20, 20, 2000):
        for typed in (round(answer, 2), float(f"{answer:.2f}"), answer + 0.0099, answer - 0.0099):
            assert close_enough(typed, answer), (typed, answer)
        assert not close_enough(answer + 0.0101, answer)
    assert close_enough(0.51, 0.5) and close_enough(100.01, 100.0)  # float error forgiven


# -- a problem made to order ---------------------------------------------------------------


def value_problem(x, config: PoolConfig, grad_output, cell) -> Problem:
    x = np.asarray(x, dtype=float)
    grad = np.asarray(grad_output, dtype=float)
    answer = float(backward(forward(x, config), grad)[cell])
    return Problem("value", 2, config, x, grad, answer, cell=cell)


def engine_value(problem: Problem, config: PoolConfig, grad=None) -> float:
    grad = problem.grad_output if grad is None else grad
    return float(backward(forward(problem.x, config), grad)[problem.cell])


OVERLAP = value_problem(
    [[1, 2, 0, 1], [0, 9, 1, 0], [2, 1, 4, 1], [0, 3, 1, 8]],
    PoolConfig("max", 2, stride=1),
    [[2, 6, 3], [10, -3, 1], [3, 1, 2]],  # the 9 at (1, 1) wins 2, 6, 10 and -3
    (1, 1),
)
AVERAGE_PADDED = value_problem(
    np.arange(16.0).reshape(4, 4),
    PoolConfig("avg", 3, stride=1, padding=1, count_include_pad=True),
    np.arange(1.0, 17.0).reshape(4, 4),
    (0, 0),
)
TIES = value_problem([[3, 3], [1, 3]], PoolConfig("max", 2, ties="first"), [[2.0]], (0, 1))


def named(problem: Problem, typed) -> str | None:
    mistake = diagnose(problem, typed)
    return None if mistake is None else mistake.name


def test_leaving_out_one_overlapping_window_is_named():
    lines = ledger(OVERLAP.x, OVERLAP.grad_output, OVERLAP.config, OVERLAP.cell)
    assert len(lines) == 4  # the 9 wins every window that reads it
    for line in lines:
        typed = OVERLAP.answer - line.amount
        mistake = diagnose(OVERLAP, typed)
        if mistake.name == "left_out_window":  # another mistake may give the same number
            assert f"y[{line.output_cell[0]},{line.output_cell[1]}]" in mistake.how
    typed = OVERLAP.answer - lines[0].amount
    assert named(OVERLAP, typed) == "left_out_window"


def test_counting_one_window_alone_is_named():
    lines = ledger(OVERLAP.x, OVERLAP.grad_output, OVERLAP.config, OVERLAP.cell)
    assert named(OVERLAP, lines[2].amount) == "one_window"  # dL/dy 10 alone


def test_sending_the_gradient_to_non_winners_is_named():
    every = replace(OVERLAP.config, mode="avg", divisor_override=1)
    cell = (0, 0)  # read by one window, which the 9 wins
    problem = replace(
        OVERLAP, cell=cell, answer=engine_value(replace(OVERLAP, cell=cell), OVERLAP.config)
    )
    assert problem.answer == 0
    assert named(problem, engine_value(problem, every)) == "every_cell"


def test_averaging_a_max_window_is_named():
    typed = engine_value(OVERLAP, replace(OVERLAP.config, mode="avg"))
    assert named(OVERLAP, typed) == "averaged_max"


def test_the_wrong_tie_rule_is_named_with_both_rules():
    every_tied = engine_value(TIES, replace(TIES.config, ties="all"))
    split = engine_value(TIES, replace(TIES.config, ties="split"))
    assert (TIES.answer, every_tied, split) == (0.0, 2.0, 2 / 3)
    mistake = diagnose(TIES, 2.0)
    assert mistake.name == "tie_rule" and "every tied cell gets all of it" in mistake.how
    assert "the first tied cell in reading order gets it all" in mistake.truth
    assert named(TIES, 0.67) == "tie_rule"  # split, typed to two decimals


def test_the_divisor_with_padding_is_named_both_ways():
    real_only = replace(AVERAGE_PADDED.config, count_include_pad=False)
    typed = engine_value(AVERAGE_PADDED, real_only)
    assert not close_enough(typed, AVERAGE_PADDED.answer)
    mistake = diagnose(AVERAGE_PADDED, typed)
    assert mistake.name == "divisor_padding" and "real cells" in mistake.how
    other = replace(AVERAGE_PADDED, config=real_only, answer=typed)
    mistake = diagnose(other, AVERAGE_PADDED.answer)
    assert mistake.name == "divisor_padding" and "count the padding cells" in mistake.how


def test_dividing_by_the_kernel_side_or_not_at_all_is_named():
    side = engine_value(AVERAGE_PADDED, replace(AVERAGE_PADDED.config, divisor_override=3))
    assert named(AVERAGE_PADDED, side) == "divisor_side"
    whole = engine_value(AVERAGE_PADDED, replace(AVERAGE_PADDED.config, divisor_override=1))
    assert named(AVERAGE_PADDED, whole) == "no_divisor"


def test_forgetting_the_upstream_gradient_or_its_sign_is_named():
    ones = engine_value(OVERLAP, OVERLAP.config, np.ones_like(OVERLAP.grad_output))
    assert named(OVERLAP, ones) == "no_upstream"
    assert named(OVERLAP, -OVERLAP.answer) == "sign"


def test_the_right_answer_and_a_random_number_name_nothing():
    for problem in (OVERLAP, AVERAGE_PADDED, TIES):
        assert diagnose(problem, problem.answer) is None
        given = {m.answer for m in known_mistakes(problem)} | {problem.answer}
        stray = 1234.5678
        assert all(not close_enough(stray, value) for value in given)
        assert diagnose(problem, stray) is None
        assert typed_reply(problem, stray).mistake == "No known mistake gives 1234.5678."


def test_a_mistake_that_gives_the_right_answer_is_not_listed():
    for kind in KINDS:
        for level in LEVELS:
            for number in (1, 2, 3):
                problem = make_problem(kind, level, 6, number)
                for mistake in known_mistakes(problem):
                    assert diagnose(problem, mistake.answer) is not None, mistake


# -- a batch: reduction, one example -------------------------------------------------------


def batch_problem(reduction: str) -> Problem:
    config = PoolConfig("max", 2, stride=1)
    x = np.array([[[1, 2, 0], [0, 9, 1], [2, 1, 4]], [[9, 2, 0], [0, 1, 1], [2, 1, 4]]], float)
    grad = np.array([[[1, 2], [3, 1]], [[2, 1], [1, 3]]], float)
    result = batch_gradients(x[:, None], grad[:, None], config, reduction)
    cell = (1, 1)
    answer = float(result.reduced[0][cell])
    return Problem("batch", 3, config, x, grad, answer, cell=cell, reduction=reduction)


def test_a_batch_s_wrong_reduction_and_single_example_are_named():
    mean, total = batch_problem("mean"), batch_problem("sum")
    assert (mean.answer, total.answer) == (3.5, 7.0)  # example #0 sends 7, #1 nothing
    assert named(mean, 7.0) == "reduction" and named(total, 3.5) == "reduction"
    said = diagnose(mean, 7.0)
    assert "add up the 2 examples' gradients" in said.how and "divided by 2" in said.truth


def test_a_batch_s_count_mistakes_are_named():
    problem = next(p for n in range(1, 11) if (p := make_problem("batch", 2, 4, n)).asks_count)
    result = batch_gradients(problem.x[:, None], problem.grad_output[:, None], problem.config)
    reached = [int((g != 0).sum()) for g in result.per_example[:, 0]]
    if sum(reached) != problem.answer:
        assert named(problem, sum(reached)) == "counted_twice"
    alone = next(c for c in reached if c != problem.answer)
    assert named(problem, alone) == "one_example"


# -- the output size and the cells ---------------------------------------------------------


def test_size_mistakes_are_the_engine_s_sizes_under_the_wrong_setting():
    config = PoolConfig("max", 3, stride=2, padding=1, ceil_mode=True)
    x = np.zeros((6, 7))
    answer = plane_geometry(config, 6, 7).output_shape
    problem = Problem("size", 5, config, x, np.zeros(answer), answer)
    assert answer == (4, 4)
    assert named(problem, plane_geometry(replace(config, padding=0), 6, 7).output_shape) in (
        "no_padding",
        "rounding",
    )
    assert named(problem, plane_geometry(replace(config, stride=1), 6, 7).output_shape) == "stride"
    assert named(problem, (3, 3)) in ("rounding", "no_padding", "plus_one")
    assert named(problem, (4, 4)) is None and named(problem, (9, 9)) is None


def test_picking_every_tied_cell_is_named():
    problem = make_problem("cells", 4, 4, 2)
    assert problem.config.ties == "split"
    last = replace(problem.config, ties="last")
    result = forward(problem.x, last)
    picks = frozenset(
        (int(r), int(c))
        for r, c in np.argwhere(backward(result, np.ones(result.output.shape)) != 0)
    )
    mistake = diagnose(problem, picks)
    assert mistake.name == "tie_rule" and "last tied cell" in mistake.how
    assert cells_reply(problem, picks).mistake.startswith("Your picks are what you get if you")


# -- the words of a reply ------------------------------------------------------------------


def test_a_reply_speaks_of_what_was_typed():
    assert typed_reply(OVERLAP, OVERLAP.answer).said == (
        f"Right: dL/dx at (1, 1) is {OVERLAP.answer:g}."
    )
    split = replace(TIES, config=replace(TIES.config, ties="split"), answer=2 / 3)
    assert typed_reply(split, 0.66).said == (
        "Right: dL/dx at (0, 1) is 0.6667, and your 0.66 is within 0.01 of it: two "
        "decimals are enough."
    )
    wrong = typed_reply(OVERLAP, -OVERLAP.answer)
    assert not wrong.right
    assert (
        wrong.said
        == f"Your answer is −{OVERLAP.answer:g}, but dL/dx at (1, 1) is {OVERLAP.answer:g}."
    )
    assert wrong.mistake.startswith(f"−{OVERLAP.answer:g} is what you get if you flip the sign")


def test_the_cells_reply_and_legend_count_what_is_drawn():
    problem = make_problem("cells", 2, 4, 2)
    answer = sorted(problem.answer)
    spare = next(c for c in np.ndindex(problem.x.shape) if c not in problem.answer)
    picks = frozenset(answer[1:]) | {spare}
    reply = cells_reply(problem, picks)
    right = len(answer) - 1
    assert reply.said == f"Not quite: {right} right, 1 missed, 1 extra."
    from teaching.exercises.answers import check_cells

    legend = marks_legend(check_cells(problem, picks))
    assert legend == (
        f"On x, a tick marks each of your {right} right picks, a dashed frame the cell you "
        "missed, a cross your 1 extra pick (receiving nothing)."
    )
    assert cells_reply(problem, problem.answer).said == (
        f"Right: all {len(answer)} cells that receive gradient, no other."
    )
    none_right = marks_legend(check_cells(problem, frozenset({spare})))
    assert none_right.startswith(f"On x, a dashed frame marks the {len(answer)} cells you missed")
