"""Home's, the Lesson's and the Exercises' sentences against the engine's numbers, verdicts
said in words, and no screen text that names a place on the screen."""

import ast
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT
from source_tree import parsed

from pooling import PoolConfig, backward, forward
from pooling.geometry import output_length, rounded_length
from teaching.formulas import size_formula
from teaching.numbers import fmt

# -- the Lesson ------------------------------------------------------------------------------


def steps():
    from teaching.lesson.steps import lesson_steps

    return lesson_steps()


def test_every_lesson_verdict_says_right_or_wrong_in_words():
    for step in steps():
        for index, choice in enumerate(step.choices):
            verdict = step.verdict(index)
            assert verdict.startswith("Right: " if choice.right else "Not quite: "), verdict
            assert "Right:" not in choice.why and "Not quite" not in choice.why


def test_lesson_cells_are_named_as_the_pages_name_them():
    for step in steps():
        said = " ".join([step.reveal, step.idea, *(c.text for c in step.choices)])
        assert not re.search(r"\(\d+, \d+\): [−\d]", said), step.title


def test_step_four_centre_sits_in_more_windows_than_it_wins():
    from pooling.explain import coverage
    from teaching.lesson.model import routed

    step = steps()[3]
    x = step.example[0].values
    config = PoolConfig("max", 2, stride=1)
    y, grad, argmax = routed(x, config, 1.0)
    sits = int(coverage(config, *x.shape)[1, 1])
    wins = int((argmax == 1 * x.shape[1] + 1).sum())
    assert sits == y.size == 4 and wins == 2 < sits  # sitting in and winning differ
    assert f"x[1,1] sits in {sits} of them" in step.idea
    assert grad[1, 1] == wins and step.choices[step.right_choice].text == fmt(wins)
    assert f"it wins {wins} of its {sits} windows" in step.choices[step.right_choice].why
    # The rule in the reveal, for any dL/dy: the sum of dL/dy over the windows a cell wins.
    upstream = np.array([[0.5, -2.0], [3.0, 1.5]])
    _, grad, argmax = routed(x, config, upstream)
    for cell in np.ndindex(x.shape):
        won = argmax == cell[0] * x.shape[1] + cell[1]
        assert grad[cell] == upstream[won].sum()
    assert "a cell's gradient is the sum of dL/dy over the windows it wins" in step.reveal


def test_step_five_names_a_real_mistake_and_calls_the_split_valid():
    step = steps()[4]
    x = step.example[0].values
    tied = int((x == x.max()).sum())
    every = backward(forward(x, PoolConfig("max", 2, ties="all")), np.ones((1, 1)))
    assert every.sum() == tied != 1  # the belief the mistake names: a total of tied × dL/dy
    assert f"{tied} cells get 1 each, {fmt(every.sum())} in all" in step.mistake
    split = next(c for c in step.choices if c.text.startswith("Split evenly"))
    assert "valid" in split.why and "fair" not in split.why
    assert "split the gradient" not in step.mistake.lower()


def test_step_six_writes_s_transposed_g_as_a_vector_and_per_cell():
    from pooling.explain import shares

    step = steps()[5]
    x = step.example[0].values
    matrix = shares(x, PoolConfig("max", 2)).reshape(-1, x.size)
    product_ = matrix.T @ np.array([1.0, 2.0])
    assert "(" + ", ".join(fmt(v) for v in product_) + ")" in step.reveal
    for r, c in np.argwhere(product_.reshape(x.shape)):
        assert f"x[{r},{c}] gets {fmt(product_.reshape(x.shape)[r, c])}" in step.reveal


def test_step_seven_says_no_winner_is_shared_only_when_none_is():
    from teaching.lesson.model import routed
    from teaching.lesson.steps_batch import EXAMPLE_A, EXAMPLE_B, MAX_2

    step = steps()[6]
    first, second = (routed(x, MAX_2, 1.0)[1] for x in (EXAMPLE_A, EXAMPLE_B))
    assert not ((first != 0) & (second != 0)).any()
    assert "no winner is shared" in step.reveal
    assert "1.1 and −1.1" in step.mistake  # w3's two gradients, which cancel


def test_step_eight_names_a_winner_that_is_neither_examples():
    from teaching.lesson.model import routed
    from teaching.lesson.steps_batch import EXAMPLE_A, EXAMPLE_B, MAX_2

    step = steps()[7]
    wrong = routed((EXAMPLE_A + EXAMPLE_B) / 2, MAX_2, 1.0)[1]
    own = sum(routed(x, MAX_2, 1.0)[1] != 0 for x in (EXAMPLE_A, EXAMPLE_B))
    (cell,) = [tuple(c) for c in np.argwhere(wrong)]
    assert own[cell] == 0
    assert f"x[{cell[0]},{cell[1]}], takes everything, and it is neither" in step.reveal


def test_step_ten_is_one_update_from_a_batch_with_every_claim_computed():
    from cnn.network import run_forward
    from teaching.batch.story import build_batch_story
    from teaching.lesson.steps_batch import PAIR_SETTINGS
    from ui.figures import grid as grids
    from ui.figures.style import HALF_PX

    step = steps()[9]
    story = build_batch_story(PAIR_SETTINGS)
    params, x, labels = story.params, story.trace.x, story.labels
    per_example = story.grads.per_example.kernels[:, 0, 0]  # (2, k, k): dL_n/dK
    mean = per_example.mean(axis=0)
    shown = {grid.title: grid.values for grid in step.example}
    np.testing.assert_array_equal(shown["dL_0/dK"], np.round(per_example[0], 2))
    np.testing.assert_array_equal(shown["dL_1/dK"], np.round(per_example[1], 2))
    np.testing.assert_array_equal(shown["mean dL/dK"], np.round(mean, 2))
    # The losses, each before and after the step, by a second forward pass.
    moved = replace(params, kernels=params.kernels - 0.1 * mean[None, None])
    before, after = story.trace.losses, run_forward(moved, x, labels, story.config).losses
    for n in (0, 1):
        assert f"#{n} {fmt(before[n], 3)} → {fmt(after[n], 3)}" in step.idea
    assert f"mean {fmt(before.mean(), 3)} → {fmt(after.mean(), 3)}" in step.idea
    assert r"\frac{1}{N}\sum_{n} \frac{\partial L_n}{\partial K}" in step.idea
    # "The mean loss went down; #0's own loss went up, #1's went down"
    assert after.mean() < before.mean() and after[0] > before[0] and after[1] < before[1]
    assert "The mean loss went down; #0's own loss went up, #1's went down" in step.reveal
    k00 = params.kernels[0, 0, 0, 0]
    assert f"{fmt(k00, 4)} − 0.1 × ({fmt(mean[0, 0], 4)}) = {fmt(k00 - 0.1 * mean[0, 0], 4)}" in (
        step.reveal
    )
    # "opposite signs in k of K's 9 entries": counted; and the mean gradient is not 0.
    opposed = int((per_example[0] * per_example[1] < 0).sum())
    assert f"opposite signs in {opposed} of K's 9 entries" in " ".join(
        choice.why for choice in step.choices
    )
    assert 0 < opposed < 9 and np.abs(mean).min() > 0
    assert (before > 0).all() and (after > 0).all()  # "never negative"
    for grid in step.example:  # every number written in its cell at the story's map width
        figure = grids.grid_figure(
            values=grid.values,
            title=grid.title,
            options=grids.GridOptions(kind=grid.kind, width_px=HALF_PX),
        )
        assert figure.data[0].texttemplate == "%{text}", grid.title


# -- no sentence places a thing left, right, above or below: the layout differs on a phone ----

LAYOUT = re.compile(
    r"\b(on the (left|right)|to the (left|right)|beside|below|above|underneath)\b", re.I
)
NOT_LAYOUT = re.compile(r"\blayers? above\b", re.I)  # the network's layers, not the screen


def screen_strings(path: Path):
    """String literals of a module that are not docstrings (what can reach the screen)."""
    tree = parsed(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.value


def test_no_screen_text_names_a_place_on_the_screen():
    files = [ROOT / "app.py", *(ROOT / "screens").glob("*.py")]
    files += [p for p in (ROOT / "ui").rglob("*.py") if "figures" not in p.parts]
    files += list((ROOT / "teaching").rglob("*.py"))  # what the pages say lives here
    found = [
        (path.name, string)
        for path in files
        for string in screen_strings(path)
        if LAYOUT.search(NOT_LAYOUT.sub("", string))
    ]
    assert found == []


# -- the Exercises -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_exercise_explanations_state_the_engines_numbers(level):
    from teaching.exercises.answers import Verdict, check_cells
    from teaching.exercises.model import make_problem
    from teaching.exercises.text import explanation, question

    for number in range(1, 11):
        batch = make_problem("batch", level, 3, number)
        said, _ = explanation(batch, Verdict(False))
        per_example = [
            backward(forward(x, batch.config), g) != 0
            for x, g in zip(batch.x, batch.grad_output, strict=True)
        ]
        if batch.asks_count:
            union = int(np.logical_or.reduce(per_example).sum())
            assert union == batch.answer and f"together they reach {union}," in said
            widest = max(int(m.sum()) for m in per_example)
            assert ("not all in the same places" in said) == (union > widest)
        elif batch.picks_cells:  # one window's cells: tests/test_exercise_batch_window.py
            assert f"together they reach {len(batch.answer)}." in said
        else:
            assert said.endswith(f"= {fmt(batch.answer, 4)}.")
        value = make_problem("value", level, 3, number)
        _, lines = explanation(value, Verdict(False))
        assert lines[0].endswith(f"= {fmt(value.answer)}") or lines[0].endswith(
            rf"&= {fmt(value.answer)}\end{{aligned}}"
        )
        cells = make_problem("cells", level, 3, number)
        wrong = frozenset(set(cells.answer) ^ {(0, 0)})
        lead, _ = explanation(cells, check_cells(cells, wrong))
        if (0, 0) not in cells.answer:  # chosen, yet no window sends it anything
            grad = backward(forward(cells.x, cells.config), cells.grad_output)
            assert grad[0, 0] == 0 and "(0, 0), which no window sends anything to" in lead
        assert "beside" not in question(value)


# -- Home and the output-size formula ------------------------------------------------------


@pytest.mark.parametrize("upstream", [2.5, -1.0, 0.0])
def test_home_says_which_splits_of_a_tie_are_valid(upstream):
    from ui.home import tie_words

    said = tie_words(upstream)
    assert "any split that adds up to" not in said.lower()
    # The shift test with the number on screen: y(a + t, b + t) = y(a, b) + t, so the
    # two gradients add up to dL/dy under every valid rule, and twice it under "all".
    for ties, factor in (("first", 1), ("last", 1), ("split", 1), ("all", 2)):
        result = forward(np.array([[2.0, 2.0]]), PoolConfig("max", (1, 2), ties=ties))
        assert backward(result, [[upstream]]).sum() == factor * upstream
    assert f"dL/da + dL/db must equal dL/dy = {fmt(upstream)}" in said
    if upstream:
        assert "a fraction between 0 and 1" in said
        assert f"together they would get {fmt(2 * upstream)}" in said
    else:
        assert "every split gives both 0" in said


def test_home_says_how_far_an_average_of_two_moves():
    from ui.home import average_words, two_cell_gradients

    nudge = 0.25
    before = two_cell_gradients(1.0, 3.0, 2.5, "avg")
    after = two_cell_gradients(1.0 + nudge, 3.0, 2.5, "avg")
    assert after[0] - before[0] == nudge / 2  # "moves y by half the nudge"
    assert "moves y by half the nudge" in average_words(before[1])
    assert f"**{fmt(2.5 / 2)}**" in average_words(before[1])


@pytest.mark.parametrize(
    "size, kernel, stride, padding", [(5, 2, 2, 1), (4, 2, 3, 1), (8, 3, 3, 1), (6, 3, 2, 1)]
)
def test_the_ceil_mode_formula_says_where_the_dropped_window_would_start(
    size, kernel, stride, padding
):
    config = PoolConfig("max", kernel, stride=stride, padding=padding, ceil_mode=True)
    line = size_formula(config, size, size)[0]
    plain = rounded_length(size, kernel, stride, padding, 1, True)
    kept = output_length(size, kernel, stride, padding, 1, True)
    assert "past the padding" not in line
    if plain == kept:
        assert "dropped" not in line
        return
    start = (plain - 1) * stride  # in the padded row, left padding first
    assert start >= padding + size  # in the right padding or past it
    assert f"start at padded position {start}" in line
    assert f"{padding} + {size} = {padding + size}" in line and f"{plain} - 1 = {kept}" in line


@pytest.mark.parametrize("a, b", [(1.0, 3.0), (3.0, 1.0), (2.0, 2.0), (-1.0, -4.0)])
@pytest.mark.parametrize("upstream", [2.5, -1.5, 0.0])
def test_home_says_who_gets_the_gradient_and_how_much(a, b, upstream):
    from ui.home import two_cell_gradients, why_max

    y, grad_a, grad_b = two_cell_gradients(a, b, upstream, "max")
    said = why_max(a, b, upstream, grad_a, grad_b)
    assert y == max(a, b)
    if a > b:
        assert f"dL/da = dL/dy · 1 = **{fmt(upstream)}**" in said and grad_b == 0
    elif b > a:
        assert f"dL/db = dL/dy · 1 = **{fmt(upstream)}**" in said and grad_a == 0
    else:  # PyTorch's rule: the whole dL/dy to the first cell
        assert "to the first cell, a" in said and (grad_a, grad_b) == (upstream, 0.0)
    mean, avg_a, avg_b = two_cell_gradients(a, b, upstream, "avg")
    assert mean == (a + b) / 2 and avg_a == avg_b == upstream / 2
