"""The batch of two told to its end: the model against hand sums and PyTorch, the tab
through AppTest."""

import numpy as np
import pytest
from apptest import errors, figure_titled, heatmap_values, no_exceptions, open_app
from test_batch_model import settings

from cnn.network import NetConfig
from pooling import PoolConfig
from ui.minibatch.pair import build_pair
from ui.minibatch.story import build_batch_story
from ui.pure.formulas import batch_rule, step_rule
from ui.pure.numbers import fmt

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
    written = rf"{batch_rule('mean', 2)}\qquad {step_rule('mean', '0.1')}"
    assert app.get("latex")[0].value.strip("$\n") == written
    text = "\n".join(md.value for md in app.markdown)
    assert "a winner of the averaged image is not a winner of both examples" in text
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
