"""What a framework does, said right (issue 37, item 6): one backward call on the batch's
mean loss leaves 1/N of each example's own gradient at its pooling input, through its
own winners (against PyTorch's act.grad), and the Step through's running "mean of
#0…#n" map is what a weight shared per position receives (against finite differences)."""

from dataclasses import replace

import numpy as np
import pytest
from apptest import no_exceptions, open_app

from cnn.network import NetConfig
from pooling import PoolConfig, forward
from teaching.batch.one_call import one_call, one_call_sentences
from teaching.batch.step_words import shared_map_words
from teaching.batch.story import BatchSettings, build_batch_story
from teaching.numbers import fmt

BATCH = "screens/batch.py"


def settings(**changes) -> BatchSettings:
    base = BatchSettings(
        source="digits",
        size=8,
        seed=0,
        network=NetConfig(2, 3, True, PoolConfig("max", 2)),
        reduction="mean",
        learning_rate=0.1,
        steps=0,
    )
    return replace(base, **changes)


def torch_act_grad(story) -> np.ndarray:
    """(N, F, CH, CW): the pooling input's .grad after loss.<reduction>().backward()."""
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    params = story.params
    x = torch.tensor(story.images[:, None])
    kernels = torch.tensor(params.kernels, requires_grad=True)
    conv = functional.conv2d(x, kernels, torch.tensor(params.bias))
    act = functional.relu(conv)
    act.retain_grad()
    pool = story.config.pool
    pooled = functional.max_pool2d(act, pool.kernel_size, pool.stride)
    logits = pooled.flatten(1) @ torch.tensor(params.weights).T + torch.tensor(params.out_bias)
    loss = functional.cross_entropy(logits, torch.tensor(story.labels), reduction=story.reduction)
    loss.backward()
    return act.grad.numpy()


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_one_backward_call_sends_each_example_its_own_share(reduction):
    story = build_batch_story(settings(reduction=reduction))
    grad = torch_act_grad(story)
    scale = 1 / story.size if reduction == "mean" else 1.0
    for feature in range(story.config.kernels):
        call = one_call(story, feature)
        np.testing.assert_allclose(call.at_pool_input, grad[:, feature], atol=1e-12)
        np.testing.assert_allclose(call.at_pool_input, scale * story.routing(feature), atol=1e-12)
        # Only on each example's own winners: every nonzero cell is one its windows send to.
        reached = story.window_masks[:, feature].any(axis=(1, 2))
        assert not ((call.at_pool_input != 0) & ~reached).any()
        assert call.outside == (0,) * story.size
    said = " ".join(one_call_sentences(one_call(story, 0)))
    share = f"1/{story.size} of its own gradient" if reduction == "mean" else "its own gradient"
    assert f"loss.{reduction}().backward() gives each of the {story.size} examples {share}" in said
    assert f"example's own gradient is {fmt(one_call(story, 0).gap)}" in said
    assert "It lands on the example's own winners only" in said


def test_the_screen_of_one_backward_call_is_on_the_batch_result():
    app = open_app(BATCH, {"tab": "result", "screen": "3", "lecture": "1"})
    assert no_exceptions(app)
    said = "\n".join(md.value for md in app.markdown)
    assert "One call of loss.mean().backward()" in said
    keys = [chart.proto.id for chart in app.get("plotly_chart")]
    assert any(key.endswith("bt_fig_one_call_0") for key in keys)
    assert any(key.endswith("bt_fig_one_call_1") for key in keys)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_the_running_map_is_a_shared_per_position_weights_gradient(reduction):
    """Add a bias b to every example's pooling input (kernel 0): dL/db by central
    differences equals the last running map, the "mean (or sum) of #0…#n"."""
    # No ReLU: no window of zeros, whose tie a central difference would see as a corner.
    network = NetConfig(2, 3, False, PoolConfig("max", 2))
    story = build_batch_story(settings(size=4, reduction=reduction, network=network))
    trace, params, pool = story.trace, story.params, story.config.pool

    def loss(bias: np.ndarray) -> float:
        activation = trace.activation.copy()
        activation[:, 0] += bias
        flat = forward(activation, pool).output.reshape(story.size, -1)
        logits = flat @ params.weights.T + params.out_bias
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        losses = -log_probs[np.arange(story.size), story.labels]
        return float(losses.mean() if reduction == "mean" else losses.sum())

    eps = 1e-6
    shape = trace.activation.shape[2:]
    numeric = np.zeros(shape)
    for cell in np.ndindex(shape):
        bump = np.zeros(shape)
        bump[cell] = eps
        numeric[cell] = (loss(bump) - loss(-bump)) / (2 * eps)
    np.testing.assert_allclose(story.routing_running(0)[-1], numeric, atol=1e-6)
    said = shared_map_words(reduction)
    assert f"“{reduction} of #0…#n” map is what a weight shared per position gets" in said
