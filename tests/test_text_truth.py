"""Every sentence that states a fact about the numbers on screen, checked against that
fact computed afresh from the model, over settings that break careless wording: max and
average, each tie rule, padding and count_include_pad, ceil mode, negative and zero
dL/dy, mean and sum."""

import ast
import re
from dataclasses import replace
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT

from pooling import TIES, PoolConfig, backward, forward
from pooling.geometry import output_length, rounded_length
from ui.playground import text
from ui.playground.model import Settings, build_lesson
from ui.playground.ties import tie_lab
from ui.shared.formulas import size_formula
from ui.shared.numbers import fmt

TIED = np.array(
    [[4.0, 4.0, 1.0, 0.0], [2.0, 0.0, 3.0, 3.0], [5.0, 1.0, 2.0, 2.0], [5.0, 5.0, 2.0, 0.0]]
)
INTS = np.arange(30.0).reshape(5, 6) % 7 - 2.0


def lesson_for(x, config, upstream=None):
    """upstream: None (all ones), a number (everywhere) or an array shaped like y."""
    x = np.asarray(x, float)
    shape = forward(x, config).output.shape
    if upstream is None:
        return build_lesson(Settings(x, config, "ones", 0))
    grad = np.broadcast_to(np.asarray(upstream, float), shape).copy()
    return build_lesson(Settings(x, config, "custom", 0, grad))


def configs():
    """Max under each tie rule, with and without padding; average with and without
    count_include_pad, a divisor override and ceil mode."""
    for ties, padding in product(TIES, (0, 1)):
        yield PoolConfig("max", 2, stride=1, padding=padding, ties=ties)
        yield PoolConfig("max", 3, stride=2, padding=padding, ties=ties, ceil_mode=True)
    for include, padding in product((True, False), (0, 1)):
        yield PoolConfig("avg", 3, stride=2, padding=padding, count_include_pad=include)
        yield PoolConfig(
            "avg", 2, stride=2, padding=padding, count_include_pad=include, ceil_mode=True
        )
    yield PoolConfig("avg", 3, stride=1, padding=1, divisor_override=4)


UPSTREAMS = (None, -1.5, 0.0, "random")


def lessons():
    rng = np.random.default_rng(0)
    for config, upstream, x in product(configs(), UPSTREAMS, (TIED, INTS)):
        if upstream == "random":
            shape = forward(x, config).output.shape
            upstream = np.round(rng.uniform(-2, 2, shape), 1)
        yield lesson_for(x, config, upstream)


ALL = list(lessons())
BOLD = re.compile(r"\*\*([^*]+)\*\*")


# -- the Playground ------------------------------------------------------------------------


@pytest.mark.parametrize("upstream", [2.0, -2.0, 0.0])
def test_the_all_rule_is_described_truly_for_any_sign(upstream):
    lesson = lesson_for([[4.0, 1.0], [4.0, 0.0]], PoolConfig("max", 2, ties="all"), upstream)
    warning = text.inflation_warning(lesson)
    assert "cannot add up to more" not in warning and "more than" not in warning
    assert "k times its dL/dy" in warning
    sent, total = lesson.grad_output.sum(), lesson.grad_x.sum()
    assert total == 2 * sent  # two tied cells, each given the whole dL/dy
    if upstream:
        assert f"adds up to {fmt(total)} while the windows send {fmt(sent)}" in warning
        assert "adds up to exactly what is sent" in warning
    else:
        assert "dL/dy is 0" in warning and "comes out right" in warning
    step = text.step_sentence(lesson, (0, 0))
    assert "more than dL/dy" not in step and "wrong on purpose" in step
    if upstream:
        assert f"2 × {fmt(upstream)} = **{fmt(2 * upstream)}**" in step


def test_the_all_rule_says_when_mixed_signs_only_hide_it():
    x = np.array([[4.0, 4.0, 1.0, 1.0]])
    lesson = lesson_for(x, PoolConfig("max", (1, 2), ties="all"), [[1.0, -1.0]])
    assert lesson.sums_agree and lesson.tied_windows_sending == 2
    assert "only because the extra amounts cancel" in text.inflation_warning(lesson)


@pytest.mark.parametrize("lesson", ALL, ids=lambda lesson: str(lesson.config))
def test_each_step_sentence_states_what_its_window_sends(lesson):
    for out_cell in np.ndindex(*lesson.output_shape):
        sentence = text.step_sentence(lesson, out_cell)
        sent = lesson.sent_by(out_cell)
        upstream = lesson.grad_output[out_cell]
        bold = BOLD.findall(sentence)[-1]
        receivers = lesson.receivers(out_cell)
        if lesson.config.mode == "avg":
            real = lesson.window_cells(out_cell, real_only=True)
            assert f"each of its {len(real)} real cells" in sentence
            assert {fmt(sent[cell]) for cell in real} == {bold}
            continue
        tied = [
            c
            for c in lesson.window_cells(out_cell, real_only=True)
            if lesson.x[c] == lesson.output[out_cell]
        ]
        if len(tied) > 1:
            assert "tied between " + ", ".join(f"x[{r},{c}]" for r, c in tied) in sentence
            assert "only that cell moves y" not in sentence  # any tied cell moves it
            if lesson.config.ties == "all":
                assert bold == fmt(len(tied) * upstream) == fmt(sent.sum())
            elif lesson.config.ties != "all":
                assert bold == fmt(sent.sum()) == fmt(upstream)
            continue
        (winner,) = receivers
        assert bold == fmt(sent[winner]) == fmt(upstream)
        others = len(lesson.window_cells(out_cell, real_only=True)) - 1
        if others:
            assert f"the other {others} cell" in sentence
            assert np.count_nonzero(sent) <= 1  # the others do get 0


@pytest.mark.parametrize("lesson", ALL[::3], ids=lambda lesson: str(lesson.config))
def test_the_coverage_caption_counts_what_it_says(lesson):
    caption = text.coverage_caption(lesson)
    most, unread = int(lesson.coverage.max()), int((lesson.coverage == 0).sum())
    if most > 1:
        assert f"up to {most} here" in caption
    else:
        assert "No two windows share a cell" in caption
        assert (np.count_nonzero(lesson.shares, axis=(0, 1)) <= 1).all()
    if unread:
        assert f"{unread} cell" in caption
        assert (lesson.grad_x[lesson.coverage == 0] == 0).all()
    else:
        assert "read by no window" not in caption


@pytest.mark.parametrize("lesson", ALL[::2], ids=lambda lesson: str(lesson.config))
def test_the_matrix_sentence_says_where_y_equals_j_x(lesson):
    sentence = text.matrix_sentence(lesson)
    assert "For this x the layer is linear" not in sentence
    matrix = lesson.matrix
    holds_here = np.allclose(matrix @ lesson.x.ravel(), lesson.output.ravel())
    if lesson.config.mode == "avg":
        assert "linear: **y = J x** for every x" in sentence
        other = np.random.default_rng(1).normal(size=lesson.x.shape)
        assert np.allclose(matrix @ other.ravel(), forward(other, lesson.config).output.ravel())
    elif lesson.tied_windows and lesson.config.ties == "all":
        assert "J x is not even y there" in sentence and not holds_here
    else:
        assert holds_here
        said = "around this x" if not lesson.tied_windows else "holds at this x"
        assert said in sentence


def test_the_twin_sentence_counts_the_cells_that_differ():
    from ui.playground.model import twin_settings

    for upstream in (2.5, -1.0, 0.0):
        lesson = lesson_for([[1, 3], [2, 0.5]], PoolConfig("max", 2), upstream)
        twin = build_lesson(twin_settings(lesson))
        differ = int((lesson.grad_x != twin.grad_x).sum())
        sentence = text.twin_sentence(lesson, twin)
        assert np.array_equal(lesson.output, twin.output) and "the same y" in sentence
        if differ:
            assert f"differ in {differ} cells" in sentence
        else:
            assert "agree too" in sentence and "differ in" not in sentence


@pytest.mark.parametrize("upstream", [1.0, -2.0, 0.0])
def test_the_tie_lab_calls_valid_only_the_splits_that_are_gradients(upstream):
    lesson = lesson_for(TIED, PoolConfig("max", 2), upstream)
    sentence = text.tie_lab_sentence(lesson)
    assert f"{lesson.tied_windows} windows hold a tie" in sentence
    assert "between 0 and 1" in sentence and "adding up to 1" in sentence
    rows, _ = tie_lab(lesson)
    for row in rows:
        shares = lesson_for(TIED, replace(lesson.config, ties=row.ties), upstream).shares
        valid = (shares >= 0).all() and np.allclose(shares.sum(axis=(2, 3)), 1)
        assert valid == (row.ties != "all")
        if row.ties != "all":
            assert row.total_matches  # a valid split is a true gradient's total
        elif upstream:
            assert not row.total_matches


@pytest.mark.parametrize("upstream", [2.5, -1.0, 0.0])
def test_home_says_which_splits_of_a_tie_are_valid(upstream):
    from ui.home import tie_words

    said = tie_words(upstream)
    assert "any split that adds up to" not in said.lower()
    assert "between 0 and 1" in said
    if upstream:
        assert f"together they would get {fmt(2 * upstream)}" in said
    else:
        assert "every such split gives both 0" in said


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


# -- the Lesson ------------------------------------------------------------------------------


def steps():
    from ui.lesson.steps import lesson_steps

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


def test_step_four_centre_sits_in_and_wins_every_window():
    from pooling.explain import coverage
    from ui.lesson.model import routed

    step = steps()[3]
    x = step.example[0].values
    config = PoolConfig("max", 2, stride=1)
    y, grad, _ = routed(x, config, 1.0)
    assert coverage(config, *x.shape)[1, 1] == y.size  # "sits in all of them"
    assert grad[1, 1] == y.size and step.choices[step.right_choice].text == fmt(y.size)


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
    from ui.lesson.model import routed
    from ui.lesson.steps_batch import EXAMPLE_A, EXAMPLE_B, MAX_2

    step = steps()[6]
    first, second = (routed(x, MAX_2, 1.0)[1] for x in (EXAMPLE_A, EXAMPLE_B))
    assert not ((first != 0) & (second != 0)).any()
    assert "no winner is shared" in step.reveal
    assert "1.1 and −1.1" in step.mistake  # w3's two gradients, which cancel


def test_step_eight_names_a_winner_that_is_neither_examples():
    from ui.lesson.model import routed
    from ui.lesson.steps_batch import EXAMPLE_A, EXAMPLE_B, MAX_2

    step = steps()[7]
    wrong = routed((EXAMPLE_A + EXAMPLE_B) / 2, MAX_2, 1.0)[1]
    own = sum(routed(x, MAX_2, 1.0)[1] != 0 for x in (EXAMPLE_A, EXAMPLE_B))
    (cell,) = [tuple(c) for c in np.argwhere(wrong)]
    assert own[cell] == 0
    assert f"x[{cell[0]},{cell[1]}], takes everything, and it is neither" in step.reveal


def test_step_ten_shows_the_change_and_says_every_parameter_moved():
    from ui.batch.model import build_batch_lesson
    from ui.figures import grid as grids
    from ui.lesson.steps_batch import PAIR_SETTINGS
    from ui.lesson.views import MAP_PX

    step = steps()[9]
    before = build_batch_lesson(PAIR_SETTINGS).params
    after = build_batch_lesson(replace(PAIR_SETTINGS, steps=1)).params
    change = after.kernels[0, 0] - before.kernels[0, 0]
    shown = {grid.title: grid.values for grid in step.example}
    np.testing.assert_array_equal(shown["ΔK in thousandths"], np.round(change * 1000))
    np.testing.assert_array_equal(shown["K before"], np.round(before.kernels[0, 0], 2))
    assert np.abs(change).max() >= 0.005  # visible at the map's decimals
    for grid in step.example:  # every number written in its cell at the lesson's map width
        figure = grids.grid_figure(
            values=grid.values, title=grid.title, kind=grid.kind, width_px=MAP_PX
        )
        assert figure.data[0].texttemplate == "%{text}", grid.title
    for name, value in before.fields().items():
        assert np.abs(after.fields()[name] - value).max() > 0, name  # every parameter moved
    assert "only the kernel" not in step.reveal and "with only" not in step.reveal
    assert "bias" in step.reveal and "linear layer" in step.reveal
    assert step.choices[step.right_choice].text.startswith("The kernel (and biases)")


# -- the Batch page ----------------------------------------------------------------------


def batch_settings(**changes):
    from pooling.network import NetConfig
    from ui.batch.model import Settings as BatchSettings

    base = BatchSettings(
        "digits", 8, 0, NetConfig(2, 3, True, PoolConfig("max", 2)), "mean", 0.1, 0
    )
    return replace(base, **changes)


def independent_orphans(lesson, feature: int) -> int:
    """Windows whose averaged-image argmax is no example's argmax there (rule "first")."""
    own = lesson.trace.pool.argmax[:, feature]
    averaged = lesson.wrong_trace.pool.argmax[0, feature]
    return int((own != averaged[None]).all(axis=0).sum())


@pytest.mark.parametrize("size", [2, 8, 64])
def test_the_batch_result_counts_the_averaged_images_own_winners(size):
    from ui.batch.checks import wrong_sentence
    from ui.batch.model import build_batch_lesson

    lesson = build_batch_lesson(batch_settings(size=size))
    orphans = independent_orphans(lesson, 0)
    assert lesson.orphan_windows(0) == (orphans, 9)
    said = wrong_sentence(lesson)
    assert "which no example picked" not in said
    if orphans:
        assert f"in {orphans} of the averaged image's 9 windows" in said
    else:
        assert "is also some example's winner" in said


def test_the_wrong_way_is_compared_on_the_sum_s_scale_and_agrees_for_one_example():
    from ui.batch.checks import wrong_sentence
    from ui.batch.model import build_batch_lesson

    mean = build_batch_lesson(batch_settings())
    total = build_batch_lesson(batch_settings(reduction="sum"))
    np.testing.assert_allclose(total.right_kernels, 8 * mean.right_kernels, atol=1e-12)
    assert total.wrong_gap == pytest.approx(8 * mean.wrong_gap, rel=1e-9)
    assert "multiply by N = 8" in wrong_sentence(total)
    single = build_batch_lesson(batch_settings(size=1))
    assert single.wrong_gap < 1e-12 and "the two ways agree" in wrong_sentence(single)


@pytest.mark.parametrize("ties", ["first", "split"])
def test_the_pair_counts_windows_where_the_average_borrows_a_winner(ties):
    from ui.batch.model import build_batch_lesson, winner_masks
    from ui.batch.pair import build_pair
    from ui.batch.pair_view import wrong_sentence

    pool = PoolConfig("max", 2, ties=ties)
    lesson = build_batch_lesson(
        batch_settings(network=replace(batch_settings().network, pool=pool))
    )
    story = build_pair(lesson, 0)
    own = winner_masks(story.trace.activation[:, 0], pool)
    averaged = winner_masks(story.wrong_trace.activation[:, 0], pool)[0]
    expected = sum(
        any(
            averaged[w][cell] and not (own[0][w][cell] and own[1][w][cell])
            for cell in np.ndindex(averaged.shape[2:])
        )
        for w in np.ndindex(averaged.shape[:2])
    )
    assert story.borrowed_windows() == (expected, 9)
    if expected:
        assert f"in {expected} of its 9 windows" in wrong_sentence(story)


@pytest.mark.parametrize("mode", ["max", "avg"])
def test_the_batch_step_sentence_counts_what_it_states(mode):
    from ui.batch.model import build_batch_lesson, winner_masks
    from ui.batch.views import step_sentence

    pool = PoolConfig(mode, 2)
    lesson = build_batch_lesson(
        batch_settings(network=replace(batch_settings().network, pool=pool))
    )
    for example in range(lesson.size):
        said = step_sentence(lesson, 0, example)
        routing = lesson.routing(0)[example] != 0
        assert f"**{int(routing.sum())}** positions" in said
        reached = int((lesson.routing(0)[: example + 1] != 0).any(axis=0).sum())
        assert f"**{reached} of {lesson.positions}**" in said
        if mode == "max":
            won = winner_masks(lesson.trace.activation[example : example + 1, 0], pool)[0].any(
                axis=(0, 1)
            )
            assert not (routing & ~won).any()  # "every one a cell that won one of its windows"
        else:
            same = all(
                (lesson.routing(0)[n] != 0).tolist() == routing.tolist() for n in range(example + 1)
            )
            assert ("the same positions for every example" in said) == (same and example > 0)


def test_the_batch_of_two_follows_the_sum():
    from apptest import figure_titled, heatmap_values, no_exceptions, open_app

    from ui.batch.model import build_batch_lesson
    from ui.batch.pair import build_pair

    app = open_app("pages/2_batch.py", {"red": "sum"})
    assert no_exceptions(app)
    said = "\n".join(md.value for md in app.markdown)
    assert "mean dL/dK" not in said and "K ← K − η · sum dL/dK" in said
    assert "is the sum of the two examples' own kernel gradients" in said
    pair = build_pair(build_batch_lesson(batch_settings(reduction="sum")), 0)
    np.testing.assert_allclose(pair.total, pair.kernel_grads.sum(axis=0))
    shown = heatmap_values(figure_titled(app, "their sum: dL/dK"), "gradient")
    np.testing.assert_allclose(shown, pair.total, atol=1e-12)
    shown_after = heatmap_values(figure_titled(app, "K after"), "value")
    np.testing.assert_allclose(shown_after, pair.kernel_before - 0.1 * pair.total, atol=1e-12)
    losses = {m.label: m.value for m in app.metric}
    assert losses["Loss of the two (sum), before"] == fmt(pair.trace.losses.sum(), 4)


def test_five_weights_follow_the_sum():
    from apptest import open_app

    from ui.batch.model import SEED_GRADIENTS

    app = open_app("pages/2_batch.py", {"red": "sum", "tab": "weights"})
    said = "\n".join(md.value for md in app.markdown)
    assert "is their sum" in said and "their mean" not in said
    frame = next(f.value for f in app.dataframe if "sum = batch gradient" in f.value.index)
    assert frame.iloc[0].tolist() == [fmt(v) for v in SEED_GRADIENTS.sum(axis=0)]


# -- the step-through counts windows from 1, and old links open the same window ---------------


def test_the_step_slider_and_title_give_one_count_and_old_links_still_work():
    from apptest import figure_titled, no_exceptions, open_app

    overlap = {"x": "1,2,0,1;0,9,1,0;2,1,4,1;0,3,1,8", "kh": "2", "kw": "2", "sh": "1", "sw": "1"}
    app = open_app("pages/1_playground.py", {**overlap, "tab": "step", "step": "3"})
    assert no_exceptions(app)
    assert app.slider(key="pg_step_shown").value == 4 and app.session_state["pg_step"] == 3
    assert figure_titled(app, "dL/dx after 4 of 9 windows")
    assert figure_titled(app, "x: the window of y[1,0]")  # position 3 in reading order, as before
    app.slider(key="pg_step_shown").set_value(7).run()
    assert app.session_state["pg_step"] == 6 and app.query_params["step"] == "6"
    assert figure_titled(app, "dL/dx after 7 of 9 windows")


# -- no sentence places a thing left, right, above or below: the layout differs on a phone ----

LAYOUT = re.compile(
    r"\b(on the (left|right)|to the (left|right)|beside|below|above|underneath)\b", re.I
)
NOT_LAYOUT = re.compile(r"\blayers? above\b", re.I)  # the network's layers, not the screen


def screen_strings(path: Path):
    """String literals of a module that are not docstrings (what can reach the screen)."""
    tree = ast.parse(path.read_text())
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
    files = [ROOT / "app.py", *(ROOT / "pages").glob("*.py")]
    files += [p for p in (ROOT / "ui").rglob("*.py") if "figures" not in p.parts]
    found = [
        (path.name, string)
        for path in files
        for string in screen_strings(path)
        if LAYOUT.search(NOT_LAYOUT.sub("", string))
    ]
    assert found == []


@pytest.mark.parametrize("lesson", ALL[::5], ids=lambda lesson: str(lesson.config))
def test_the_ledger_caption_counts_readers_and_senders(lesson):
    for cell in [(0, 0), (1, 2), (lesson.x.shape[0] - 1, lesson.x.shape[1] - 1)]:
        caption = text.ledger_caption(lesson, cell)
        read = int((lesson.shares[:, :, cell[0], cell[1]] != 0).sum())
        windows = int(lesson.coverage[cell])
        assert caption.startswith(f"x[{cell[0]},{cell[1]}] is read by {windows} window")
        assert f"; {read} of them give{'s' * (read == 1)} it a share" in caption
        assert "send it something" not in caption  # a share of a dL/dy of 0 sends nothing
        total = sum(line.amount for line in lesson.ledger(cell))
        assert total == pytest.approx(lesson.grad_x[cell], abs=1e-12)


@pytest.mark.parametrize("lesson", ALL[::4], ids=lambda lesson: str(lesson.config))
def test_the_input_caption_speaks_of_padding_and_winners_only_when_there_are_some(lesson):
    caption = text.input_caption(lesson)
    assert ("Grey cells are padding" in caption) == any(lesson.config.padding)
    assert ("won a window" in caption) == (lesson.config.mode == "max")
    if any(lesson.config.padding):
        assert f"reads {'−∞' if lesson.config.mode == 'max' else '0'} there" in caption


@pytest.mark.parametrize("ties", ["first", "split", "all"])
def test_the_batch_marks_every_cell_its_gradient_goes_to(ties):
    from ui.batch.model import build_batch_lesson
    from ui.batch.pair import build_pair

    network = replace(batch_settings().network, pool=PoolConfig("max", 2, ties=ties))
    lesson = build_batch_lesson(batch_settings(network=network))
    for example in range(3):
        marked = set(lesson.winner_cells(example, 0))
        routed = {tuple(c) for c in np.argwhere(lesson.routing(0)[example] != 0)}
        assert routed <= marked  # "each cell that won a window has a star"
    story = build_pair(lesson, 0)
    for example in (0, 1):
        routed = {tuple(c) for c in np.argwhere(story.routed[example] != 0)}
        assert routed <= set(story.winners(example))


# -- on screen: the views place the sentences tested above, for the settings on screen -------

TIED_LINK = {"x": "4,4,1,0;2,0,3,3;5,1,2,2;5,5,2,0", "ties": "all", "g": "custom"}


def screen_text(app) -> str:
    kinds = ("markdown", "caption", "warning", "error", "info", "success")
    return "\n".join(str(e.value) for kind in kinds for e in app.get(kind))


def test_the_playground_says_true_things_about_all_with_a_negative_dl_dy():
    from apptest import no_exceptions, open_app

    upstream = np.array([[-1.5, 2.0], [0.0, -1.0]])
    lesson = lesson_for(TIED, PoolConfig("max", 2, ties="all"), upstream)
    query = {**TIED_LINK, "gy": "-1.5,2;0,-1"}
    for tab, said in (
        ("forward", text.inflation_warning(lesson)),
        ("step", text.step_sentence(lesson, (0, 0))),
        ("matrix", text.matrix_sentence(lesson)),
        ("ties", text.tie_lab_sentence(lesson)),
    ):
        app = open_app("pages/1_playground.py", {**query, "tab": tab})
        assert no_exceptions(app), tab
        shown = screen_text(app)
        assert said in shown, tab
        assert "more than dL/dy" not in shown and "cannot add up to more" not in shown
    # x[0,0] and x[0,1] tie in y[0,0], whose dL/dy is −1.5: "all" hands out −3.
    assert "2 × −1.5 = **−3**" in text.step_sentence(lesson, (0, 0))
    windows = TIED.reshape(2, 2, 2, 2).transpose(0, 2, 1, 3).reshape(2, 2, 4)
    tied = (windows == windows.max(axis=-1, keepdims=True)).sum(axis=-1)  # k per window
    assert tied.tolist() == [[2, 2], [3, 3]]
    assert lesson.grad_x.sum() == pytest.approx((tied * upstream).sum())  # k times each dL/dy
    assert (
        f"adds up to {fmt((tied * upstream).sum())} while the windows send"
        in text.inflation_warning(lesson)
    )


@pytest.mark.parametrize("tab", ["pair", "result", "weights"])
def test_the_batch_page_under_the_sum_never_calls_the_batch_gradient_a_mean(tab):
    from apptest import no_exceptions, open_app

    app = open_app("pages/2_batch.py", {"red": "sum", "tab": tab})
    assert no_exceptions(app)
    shown = screen_text(app)
    for phrase in ("η · mean", "is their mean", "is the mean of the two", "Right: the mean"):
        assert phrase not in shown, (tab, phrase)


@pytest.mark.parametrize("ties", TIES)
def test_adaptive_max_pooling_speaks_of_its_ties_without_failing(ties):
    config = PoolConfig("max", output_size=(2, 2), ties=ties)
    lesson = lesson_for(TIED, config, -1.0)
    assert lesson.tied_windows == 4  # each quarter of TIED holds its maximum twice or more
    assert "Here 4 window(s) hold a tie" in text.matrix_sentence(lesson)
    rows, _ = tie_lab(lesson)
    assert [row.ties for row in rows] == list(TIES)


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


# -- the Exercises -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_exercise_explanations_state_the_engines_numbers(level):
    from ui.exercises.answers import Verdict, check_cells
    from ui.exercises.problems import make_problem
    from ui.exercises.text import explanation, question

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
