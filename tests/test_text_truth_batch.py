"""Every sentence of the Batch page that states a fact about its numbers, checked
against the model: the wrong way's winners, the pair and the step-through, mean and
sum."""

from dataclasses import replace

import numpy as np
import pytest

from pooling import PoolConfig
from teaching.numbers import fmt
from ui.figures.frame_data import SIGNIFICANT

# -- the Batch page ----------------------------------------------------------------------


def batch_settings(**changes):
    from cnn.network import NetConfig
    from teaching.batch.story import BatchSettings

    base = BatchSettings(
        "digits", 8, 0, NetConfig(2, 3, True, PoolConfig("max", 2)), "mean", 0.1, 0
    )
    return replace(base, **changes)


def independent_orphans(story, feature: int) -> int:
    """Windows whose averaged-image argmax is no example's argmax there (rule "first")."""
    own = story.trace.pool.argmax[:, feature]
    averaged = story.wrong_trace.pool.argmax[0, feature]
    return int((own != averaged[None]).all(axis=0).sum())


@pytest.mark.parametrize("size", [2, 8, 64])
def test_the_batch_result_counts_the_averaged_images_own_winners(size):
    from teaching.batch.story import build_batch_story
    from ui.batch.views_checks import wrong_sentence

    story = build_batch_story(batch_settings(size=size))
    orphans = independent_orphans(story, 0)
    assert story.orphan_windows(0) == (orphans, 9)
    said = wrong_sentence(story)
    assert "which no example picked" not in said
    if orphans:
        assert f"in {orphans} of the averaged image's 9 windows" in said
    else:
        assert "is also some example's winner" in said


def test_the_wrong_way_is_compared_on_the_sum_s_scale_and_agrees_for_one_example():
    from teaching.batch.story import build_batch_story
    from ui.batch.views_checks import wrong_sentence

    mean = build_batch_story(batch_settings())
    total = build_batch_story(batch_settings(reduction="sum"))
    np.testing.assert_allclose(total.right_kernels, 8 * mean.right_kernels, atol=1e-12)
    assert total.wrong_gap == pytest.approx(8 * mean.wrong_gap, rel=1e-9)
    assert "multiply by N = 8" in wrong_sentence(total)
    single = build_batch_story(batch_settings(size=1))
    assert single.wrong_gap < 1e-12 and "the two ways agree" in wrong_sentence(single)


@pytest.mark.parametrize("ties", ["first", "split"])
def test_the_pair_counts_windows_where_the_average_borrows_a_winner(ties):
    from teaching.batch.pair import build_pair
    from teaching.batch.pair_words import wrong_sentence
    from teaching.batch.story import build_batch_story, winner_masks

    pool = PoolConfig("max", 2, ties=ties)
    story = build_batch_story(batch_settings(network=replace(batch_settings().network, pool=pool)))
    pair = build_pair(story, 0)
    own = winner_masks(pair.trace.activation[:, 0], pool)
    averaged = winner_masks(pair.wrong_trace.activation[:, 0], pool)[0]
    expected = sum(
        any(
            averaged[w][cell] and not (own[0][w][cell] and own[1][w][cell])
            for cell in np.ndindex(averaged.shape[2:])
        )
        for w in np.ndindex(averaged.shape[:2])
    )
    assert pair.borrowed_windows() == (expected, 9)
    if expected:
        assert f"in {expected} of its 9 windows" in wrong_sentence(pair)


@pytest.mark.parametrize("mode", ["max", "avg"])
def test_the_batch_step_sentence_counts_what_it_states(mode):
    from teaching.batch.step_words import step_sentence
    from teaching.batch.story import build_batch_story, winner_masks

    pool = PoolConfig(mode, 2)
    story = build_batch_story(batch_settings(network=replace(batch_settings().network, pool=pool)))
    for example in range(story.size):
        said = step_sentence(story, 0, example)
        routing = story.routing(0)[example] != 0
        assert f"**{int(routing.sum())}** positions" in said
        reached = int((story.routing(0)[: example + 1] != 0).any(axis=0).sum())
        assert f"**{reached} of {story.positions}**" in said
        if mode == "max":
            won = winner_masks(story.trace.activation[example : example + 1, 0], pool)[0].any(
                axis=(0, 1)
            )
            assert not (routing & ~won).any()  # "every one a cell that won one of its windows"
        else:
            same = all(
                (story.routing(0)[n] != 0).tolist() == routing.tolist() for n in range(example + 1)
            )
            assert ("the same positions for every example" in said) == (same and example > 0)


def test_the_batch_of_two_follows_the_sum():
    from apptest import figure_titled, heatmap_values, no_exceptions, open_app

    from teaching.batch.pair import build_pair
    from teaching.batch.story import build_batch_story

    app = open_app("screens/batch.py", {"red": "sum"})
    assert no_exceptions(app)
    said = "\n".join(md.value for md in app.markdown)
    one_step = said.split("One step from the batch")[1].split("The wrong way")[0]
    assert "mean" not in one_step and "sum" in one_step
    assert r"\frac{1}{N}" not in one_step and r"K \leftarrow K - \eta\," in one_step
    pair = build_pair(build_batch_story(batch_settings(reduction="sum")), 0)
    np.testing.assert_allclose(pair.total, pair.kernel_grads.sum(axis=0))
    shown = heatmap_values(figure_titled(app, "sum dL/dK"), "gradient")
    np.testing.assert_allclose(shown, pair.total, atol=1e-12)
    shown_after = heatmap_values(figure_titled(app, "K after"), "value")
    np.testing.assert_allclose(shown_after, pair.kernel_before - 0.1 * pair.total, atol=1e-12)
    assert f"sum {fmt(pair.trace.losses.sum(), 3)} → " in said


def test_five_weights_follow_the_sum():
    from apptest import open_app

    from teaching.batch.story import SEED_GRADIENTS

    app = open_app("screens/batch.py", {"red": "sum", "tab": "weights"})
    said = "\n".join(md.value for md in app.markdown)
    assert "is their sum" in said and "their mean" not in said
    frame = next(f.value for f in app.dataframe if "batch (sum)" in f.value.index)
    assert frame.iloc[0].tolist() == [fmt(v) for v in SEED_GRADIENTS.sum(axis=0)]


@pytest.mark.parametrize("ties", ["first", "split", "all"])
def test_the_batch_marks_every_cell_its_gradient_goes_to(ties):
    from teaching.batch.pair import build_pair
    from teaching.batch.story import build_batch_story

    network = replace(batch_settings().network, pool=PoolConfig("max", 2, ties=ties))
    story = build_batch_story(batch_settings(network=network))
    for example in range(3):
        marked = set(story.winner_cells(example, 0))
        routed = {tuple(c) for c in np.argwhere(story.routing(0)[example] != 0)}
        assert routed <= marked  # "each cell that won a window has a star"
    pair = build_pair(story, 0)
    for example in (0, 1):
        routed = {tuple(c) for c in np.argwhere(pair.routed[example] != 0)}
        assert routed <= set(pair.winners(example))


def screen_text(app) -> str:
    kinds = ("markdown", "caption", "warning", "error", "info", "success")
    return "\n".join(str(e.value) for kind in kinds for e in app.get(kind))


@pytest.mark.parametrize("tab", ["pair", "result", "weights"])
def test_the_batch_page_under_the_sum_never_calls_the_batch_gradient_a_mean(tab):
    from apptest import no_exceptions, open_app

    app = open_app("screens/batch.py", {"red": "sum", "tab": tab})
    assert no_exceptions(app)
    shown = screen_text(app)
    for phrase in ("η · mean", "is their mean", "is the mean of the two", "Right: the mean"):
        assert phrase not in shown, (tab, phrase)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_the_batch_built_up_step_by_step_follows_the_loss(reduction):
    from apptest import figure_titled, heatmap_values, no_exceptions, open_app

    from teaching.batch.story import build_batch_story

    app = open_app("screens/batch.py", {"red": reduction, "tab": "step", "ex": "2"})
    assert no_exceptions(app)
    story = build_batch_story(batch_settings(reduction=reduction))
    routing = story.routing(0)[:3].sum(axis=0)
    kernels = story.grads.per_example.kernels[:3, 0, 0].sum(axis=0)
    if reduction == "mean":
        routing, kernels = routing / 3, kernels / 3
    # The step-through's maps carry z at frame_data.SIGNIFICANT digits (the colour; the
    # numbers written on a map are its labels): equal to that many digits.
    rtol = 0.5 * 10 ** (1 - SIGNIFICANT)
    shown = heatmap_values(figure_titled(app, f"{reduction} of #0…#2"), "gradient")
    np.testing.assert_allclose(shown, routing, rtol=rtol, atol=1e-12)
    shown = heatmap_values(figure_titled(app, f"{reduction} dL/dK, #0…#2"), "gradient")
    np.testing.assert_allclose(shown, kernels, rtol=rtol, atol=1e-12)
