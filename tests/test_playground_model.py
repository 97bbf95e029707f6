"""The Playground's model and sentences, without Streamlit: what it computes, and that
every sentence is true for the settings it describes."""

from dataclasses import replace

import numpy as np
import pytest

from pooling import PoolConfig
from teaching.formulas import ledger_formula
from teaching.playground import text
from teaching.playground.model import LayerSettings, build_layer_story

INTS = np.arange(36.0).reshape(6, 6) % 7


def story_for(x, config, upstream="ones"):
    return build_layer_story(LayerSettings(np.asarray(x, float), config, upstream, seed=0))


def test_the_seed_window_routes_2_5_to_the_winner():
    story = story_for([[1, 3], [2, 0.5]], PoolConfig("max", 2), upstream="seed")
    assert story.grad_x.tolist() == [[0, 2.5], [0, 0]]
    assert story.receivers((0, 0)) == ((0, 1),)
    sentence = text.step_sentence(story, (0, 0))
    assert "x[0,1]" in sentence and "**2.5**" in sentence
    assert "the other 3 cells of the window get 0" in sentence


def test_average_of_the_seed_window_gives_every_cell_half():
    story = story_for([[1, 3], [2, 0.5]], PoolConfig("avg", 2), upstream="seed")
    story = build_layer_story(LayerSettings(story.x, story.config, "custom", 0, np.array([[2.0]])))
    assert story.grad_x.tolist() == [[0.5, 0.5], [0.5, 0.5]]
    assert "the mean of its 4 cells" in text.step_sentence(story, (0, 0))


def test_a_dilated_window_reads_only_its_taps():
    story = story_for(INTS, PoolConfig("max", 3, stride=1, padding=1, dilation=2))
    cells = story.window_cells((0, 0))
    assert cells == tuple((r, c) for r in (-1, 1, 3) for c in (-1, 1, 3))
    assert story.window_cells((0, 0), real_only=True) == ((1, 1), (1, 3), (3, 1), (3, 3))


def test_an_adaptive_window_reads_only_its_own_cells():
    # 5 rows into 3 windows: rows 0-1, 1-3, 3-4; window (0, 0) reads 2 x 2 cells, not
    # the 3 x 3 of the largest window.
    story = story_for(np.arange(25.0).reshape(5, 5), PoolConfig("avg", output_size=3))
    for out_cell in np.ndindex(*story.output_shape):
        receiving = tuple(map(tuple, np.argwhere(story.shares[out_cell] != 0).tolist()))
        assert story.window_cells(out_cell) == receiving
        assert story.window_cells(out_cell, real_only=True) == receiving
    assert story.window_cells((0, 0)) == ((0, 0), (0, 1), (1, 0), (1, 1))


# x[0, 0] is read by the windows of y[0,0], y[0,1], y[1,0] and y[1,1], holding 4, 6, 6
# and 9 real cells; with count_include_pad each divides by 9.
@pytest.mark.parametrize(
    "config, divisor, phrase, grad_corner",
    [
        (
            PoolConfig("avg", 3, stride=1, padding=1),
            "9",
            "count_include_pad counts the 5 padding",
            4 / 9,
        ),
        (
            PoolConfig("avg", 3, stride=1, padding=1, count_include_pad=False),
            "4",
            "the mean of its 4 real cells: with count_include_pad off",
            1 / 4 + 1 / 6 + 1 / 6 + 1 / 9,
        ),
        (
            PoolConfig("avg", 3, stride=1, padding=1, divisor_override=5),
            "5",
            "the divisor override",
            4 / 5,
        ),
    ],
)
def test_the_average_step_says_what_divides_and_why(config, divisor, phrase, grad_corner):
    story = story_for(INTS, config)
    sentence = text.step_sentence(story, (0, 0))  # the corner window: 4 real cells
    assert phrase in sentence
    assert f"dL/dy ÷ {divisor} = 1 ÷ {divisor}" in sentence
    assert story.grad_x[0, 0] == pytest.approx(grad_corner, rel=1e-15)
    if config.divisor_override:
        assert "mean" not in sentence  # an override is no mean


def test_the_input_caption_speaks_of_padding_and_stars_only_when_there_are_some():
    plain = text.input_caption(story_for(INTS, PoolConfig("avg", 2)))
    assert "padding" not in plain and "won" not in plain
    padded = text.input_caption(story_for(INTS, PoolConfig("max", 3, padding=1)))
    assert "reads −∞ there" in padded and "won a window has a star" in padded


def test_the_all_rule_is_flagged_with_the_totals_it_breaks():
    tied = np.array([[4.0, 1.0], [4.0, 0.0]])
    story = story_for(tied, PoolConfig("max", 2, ties="all"))
    assert story.inflates and story.tied_windows == 1
    warning = text.inflation_warning(story)
    assert "adds up to 2" in warning and "windows send 1" in warning
    assert "wrong on purpose" in text.step_sentence(story, (0, 0))
    assert not story_for(tied, PoolConfig("max", 2, ties="first")).inflates
    assert not story_for([[4.0, 1.0], [3.0, 0.0]], PoolConfig("max", 2, ties="all")).inflates


def test_transpose_product_equals_the_backward_pass():
    story = story_for(INTS, PoolConfig("avg", 3, stride=2, padding=1), upstream="random")
    assert story.transpose_gap < 1e-12
    assert "1/divisor at every real cell" in text.matrix_sentence(story)
    selection = story_for(INTS, PoolConfig("max", 2))
    assert "0/1 selection matrix" in text.matrix_sentence(selection)


def test_filled_after_the_last_window_is_dl_dx():
    story = story_for(INTS, PoolConfig("max", 3, stride=1), upstream="random")
    np.testing.assert_allclose(story.filled_after(story.windows - 1), story.grad_x)
    assert story.out_cell(5) == (1, 1)


def test_moving_the_winners_keeps_y_and_moves_the_gradient():
    from teaching.playground.model import same_y_settings

    story = story_for([[1, 3], [2, 0.5]], PoolConfig("max", 2), upstream="seed")
    same_y = build_layer_story(same_y_settings(story))
    np.testing.assert_array_equal(same_y.output, story.output)  # y = 3 either way
    assert same_y.x.tolist() == [[1, 0.5], [2, 3]]  # the 3 swapped with the last smaller cell
    assert same_y.grad_x.tolist() == [[0, 0], [0, 2.5]]
    assert story.grad_x.tolist() == [[0, 2.5], [0, 0]]
    assert "differ in 2 cells" in text.same_y_sentence(story, same_y)


def test_no_same_y_input_where_windows_overlap_or_average():
    from teaching.playground.model import same_y_settings

    overlapping = story_for(INTS, PoolConfig("max", 3, stride=1))
    assert same_y_settings(overlapping) is None and "overlap" in text.no_same_y_reason(overlapping)
    assert same_y_settings(story_for(INTS, PoolConfig("avg", 2))) is None


def test_the_ledger_comes_from_the_lessons_own_shares():
    from pooling.explain import ledger

    story = story_for(INTS, PoolConfig("max", 3, stride=1), upstream="random")
    for cell in [(0, 0), (2, 3), (5, 5)]:
        assert story.ledger(cell) == ledger(story.x, story.grad_output, story.config, cell)
        assert sum(line.amount for line in story.ledger(cell)) == pytest.approx(story.grad_x[cell])


def test_a_long_ledger_is_written_three_terms_a_line_with_the_total_last():
    story = story_for(INTS[:5, :5], PoolConfig("avg", 3, stride=1, padding=1))
    formula = ledger_formula((1, 1), story.ledger((1, 1)), story.grad_x[1, 1])
    assert formula.count(r"\underbrace") == 9 and formula.count(r"\\") == 3
    assert formula.endswith(r"&= 1\end{aligned}")  # 9 windows, each sending 1/9


def test_sums_agree_for_large_gradients_that_cancel():
    # Rounding is relative to what is added (up to 1e6 a cell), not to a sum near 0.
    rng = np.random.default_rng(5)
    x = rng.permutation(256).reshape(16, 16).astype(float)  # no ties
    grad = rng.choice([-1e6, 1e6], size=(15, 15)) + rng.normal(size=(15, 15))
    config = PoolConfig("max", 2, stride=1)
    story = build_layer_story(LayerSettings(x, config, "custom", 0, grad))
    assert story.sums_agree and not story.inflates
    inflated = build_layer_story(
        LayerSettings(np.ones((4, 4)), replace(config, ties="all"), "custom", 0, np.ones((3, 3)))
    )
    assert not inflated.sums_agree


def test_the_story_takes_the_forward_passs_geometry_once(monkeypatch):
    """The model asks the engine for the layer's windows once, in the forward pass, and
    its shares and coverage come from that geometry: the same maps the engine gives when
    asked from scratch."""
    import pooling.explain
    from pooling.explain import coverage, shares

    x = np.arange(30.0).reshape(5, 6) % 7
    config = PoolConfig("avg", 3, stride=2, padding=1, ceil_mode=True)
    expected_shares, expected_coverage = shares(x, config), coverage(config, *x.shape)

    def asked_again(*args, **kwargs):
        raise AssertionError("the model asked for the geometry again")

    monkeypatch.setattr(pooling.explain, "plane_geometry", asked_again)
    story = build_layer_story(LayerSettings(x, config, "ones", seed=0))
    assert np.array_equal(story.shares, expected_shares)
    assert np.array_equal(story.coverage, expected_coverage)
    assert story.coverage.sum() == story.geometry.real.sum()  # each real tap read once
