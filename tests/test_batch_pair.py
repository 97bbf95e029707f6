"""The batch of two told to its end: the model against hand sums and PyTorch, the tab
through AppTest."""

import numpy as np
import pytest
from apptest import errors, figure_titled, heatmap_values, no_exceptions, open_app
from test_batch_model import settings

from cnn.network import NetConfig
from pooling import PoolConfig
from teaching.batch.pair import build_pair
from teaching.batch.story import build_batch_story
from teaching.formulas import batch_rule, step_rule
from teaching.numbers import fmt

BATCH = "screens/batch.py"


@pytest.fixture(scope="module")
def pair():
    return build_pair(build_batch_story(settings(steps=2)), 0)


def test_each_example_is_its_own_and_the_batch_gradient_is_their_mean(pair):
    story = pair.batch
    # An example's gradient does not depend on who else is in the batch.
    np.testing.assert_array_equal(pair.kernel_grads, story.grads.per_example.kernels[:2, 0, 0])
    np.testing.assert_allclose(pair.mean, (pair.kernel_grads[0] + pair.kernel_grads[1]) / 2)
    np.testing.assert_allclose(pair.total, 2 * pair.mean)
    np.testing.assert_allclose(
        pair.kernel_after("mean"), story.params.kernels[0, 0] - 0.1 * pair.mean
    )


@pytest.mark.torch
def test_the_step_matches_pytorch_sgd_on_the_kernels(pair, torch):
    f = torch.nn.functional
    story, params = pair.batch, pair.batch.params
    x = torch.tensor(story.trace.x[:2])
    kernels = torch.tensor(params.kernels, requires_grad=True)
    conv = f.relu(f.conv2d(x, kernels, torch.tensor(params.bias)))
    pooled = f.max_pool2d(conv, 2).flatten(1)
    logits = pooled @ torch.tensor(params.weights).T + torch.tensor(params.out_bias)
    loss = f.cross_entropy(logits, torch.tensor(story.labels[:2]))
    loss.backward()
    np.testing.assert_allclose(kernels.grad[0, 0].numpy(), pair.mean, atol=1e-12)
    assert pair.losses["before"] == pytest.approx(loss.item(), abs=1e-12)
    with torch.no_grad():
        optimizer = torch.optim.SGD([kernels], lr=0.1)
        optimizer.step()
        np.testing.assert_allclose(kernels[0, 0].numpy(), pair.kernel_after("mean"), atol=1e-12)
        conv = f.relu(f.conv2d(x, kernels, torch.tensor(params.bias)))
        pooled = f.max_pool2d(conv, 2).flatten(1)
        logits = pooled @ torch.tensor(params.weights).T + torch.tensor(params.out_bias)
        after = f.cross_entropy(logits, torch.tensor(story.labels[:2])).item()
    assert pair.losses["mean"] == pytest.approx(after, abs=1e-12)


def test_the_argmax_table_is_what_routes_the_gradient(pair):
    for example in (0, 1):
        table = pair.argmax_table(example)
        routed = pair.routed[example]
        upstream = pair.grads.at_pool_output[example, 0]
        rebuilt = np.zeros_like(routed)
        for (i, j), (row, col) in zip(
            np.ndindex(table.shape[:2]), table.reshape(-1, 2), strict=True
        ):
            rebuilt[row, col] += upstream[i, j]
        np.testing.assert_allclose(rebuilt, routed, atol=1e-15)


def test_the_wrong_way_differs_and_average_pooling_keeps_no_index(pair):
    assert pair.wrong_gap > 1e-3
    borrowed, windows = pair.borrowed_windows()
    own = [pair.argmax_table(n) for n in (0, 1)]
    assert windows == 9 and borrowed >= int((own[0] != own[1]).any(axis=-1).sum())
    average = build_pair(
        build_batch_story(settings(network=NetConfig(2, 3, True, PoolConfig("avg", 2)))), 0
    )
    assert average.argmax_table(0) is None and average.averaged_winners == ()


def test_the_tab_tells_the_story_with_the_models_numbers():
    app = open_app(BATCH)  # the first tab
    assert no_exceptions(app) and errors(app) == []
    story = build_batch_story(settings())
    pair = build_pair(story, 0)
    shown_mean = heatmap_values(figure_titled(app, "mean dL/dK"), "gradient")
    np.testing.assert_allclose(shown_mean, pair.mean, atol=1e-12)
    for example in (0, 1):
        shown = heatmap_values(figure_titled(app, f"dL_{example}/dK"), "gradient")
        np.testing.assert_allclose(shown, pair.kernel_grads[example], atol=1e-12)
    shown_after = heatmap_values(figure_titled(app, "K after"), "value")
    np.testing.assert_allclose(shown_after, pair.kernel_after("mean"), atol=1e-12)
    argmax = app.dataframe[0].value
    row, col = pair.argmax_table(0)[0, 0]
    assert argmax.iloc[0, 0] == f"({row}, {col})"
    text = "\n".join(md.value for md in app.markdown)
    assert f"${batch_rule('mean', 2)}$\u2003${{{step_rule('mean', '0.1')}}}$" in text
    assert "one of them is not a winner of both examples" in text
    losses = zip(pair.losses_before, pair.losses_after, strict=True)
    for before, after in losses:  # each example's own loss, before and after the step
        assert f"{fmt(before, 3)} → {fmt(after, 3)}" in text


def test_the_tab_follows_average_pooling_and_a_batch_of_one():
    app = open_app(BATCH, {"mode": "avg"})
    assert no_exceptions(app) and errors(app) == []
    text = "\n".join(md.value for md in app.markdown)
    assert "keeps no index" in text and "winner" not in text
    single = open_app(BATCH, {"n": "1"})
    assert no_exceptions(single)
    assert any("needs two examples" in info.value for info in single.info)


# -- seed 003 on one screen: "losses 2 and −2: do they cancel, how is each weight updated?" --


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_the_gradient_of_the_batch_loss_is_the_reduction_of_each_examples(reduction):
    """d/dK (1/N Σ L_n) = 1/N Σ dL_n/dK (for the sum, without 1/N): the batch loss's
    gradient by central differences against the pair's mean (or sum) of dL_n/dK."""
    from cnn.network import kernel_gradient_check

    pair = build_pair(build_batch_story(settings(reduction=reduction)), 0)
    story = pair.batch
    x, labels = story.trace.x[:2], story.labels[:2]
    numeric = kernel_gradient_check(story.params, x, labels, story.config, reduction)
    np.testing.assert_allclose(numeric[0, 0], pair.batch_grad, atol=1e-7)
    own = [
        kernel_gradient_check(story.params, x[n : n + 1], labels[n : n + 1], story.config, "sum")
        for n in (0, 1)
    ]
    np.testing.assert_allclose(own[0][0, 0], pair.kernel_grads[0], atol=1e-7)
    np.testing.assert_allclose(own[1][0, 0], pair.kernel_grads[1], atol=1e-7)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_each_loss_after_the_step_is_a_second_forward_pass(reduction):
    from dataclasses import replace

    from cnn.network import run_forward

    pair = build_pair(build_batch_story(settings(reduction=reduction)), 0)
    story = pair.batch
    gradient = story.grads.per_example.kernels[:2]  # (2, F, 1, k, k)
    gradient = gradient.mean(axis=0) if reduction == "mean" else gradient.sum(axis=0)
    moved = replace(story.params, kernels=story.params.kernels - 0.1 * gradient)
    after = run_forward(moved, story.trace.x[:2], story.labels[:2], story.config).losses
    np.testing.assert_allclose(pair.losses_after, after, atol=1e-12)
    np.testing.assert_allclose(pair.losses_before, story.trace.losses[:2], atol=1e-12)
    reduce = np.mean if reduction == "mean" else np.sum
    assert pair.losses[reduction] == pytest.approx(reduce(after), abs=1e-12)
    signs = np.sign(
        np.round([*(after - pair.losses_before), reduce(after) - reduce(pair.losses_before)], 3)
    )
    assert pair.loss_trends(3) == tuple(int(s) for s in signs)
    assert (pair.losses_before > 0).all() and (after > 0).all()  # cross-entropy: never negative


def test_the_screen_says_what_the_numbers_show():
    """Its loss line, its count of opposed entries and its trend words, computed here."""
    from ui.batch.views_update import answer_line, losses_line

    for reduction in ("mean", "sum"):
        pair = build_pair(build_batch_story(settings(reduction=reduction)), 0)
        before, after = pair.losses_before, pair.losses_after
        said = losses_line(pair)
        for n in (0, 1):
            trend = "up" if after[n] > before[n] else "down"
            assert f"{fmt(before[n], 3)} → {fmt(after[n], 3)} ({trend})" in said
        total = (
            (before.mean(), after.mean()) if reduction == "mean" else (before.sum(), after.sum())
        )
        trend = "up" if total[1] > total[0] else "down"
        assert f"{reduction} {fmt(total[0], 3)} → {fmt(total[1], 3)} ({trend})" in said
        grads = pair.batch.grads.per_example.kernels[:2, 0, 0]
        pulls = np.sign(grads)
        opposed = int((pulls[0] * pulls[1] == -1).sum())  # one up, the other down
        assert 0 < opposed and f"in {opposed} of K's 9 entries" in answer_line(pair)
        assert reduction in answer_line(pair) and "every kernel" in answer_line(pair)


def test_the_screen_says_so_when_one_example_sends_a_kernel_nothing():
    """A kernel whose ReLU is dead for one example: that example sends it no gradient,
    and the screen must not say the two pull every entry the same way. The case is
    searched for, then every sentence checked against its numbers."""
    from ui.batch.views_update import answer_line

    for seed in range(40):
        story = build_batch_story(settings(seed=seed, network=NetConfig(4, 3, True)))
        for feature in range(4):
            pair = build_pair(story, feature)
            grads = pair.kernel_grads
            silent = [n for n in (0, 1) if not grads[n].any()]
            if len(silent) == 1:
                said = answer_line(pair)
                assert f"#{silent[0]} sends kernel {feature} no gradient" in said
                assert "every entry of K the same way" not in said
                return
    pytest.fail("no setting found where one example sends a kernel nothing")
