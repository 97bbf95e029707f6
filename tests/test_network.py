"""The tiny CNN's gradients against finite differences and PyTorch autograd."""

import numpy as np
import pytest

from cnn.network import (
    NetConfig,
    batch_loss,
    batched_gradient,
    init_params,
    kernel_gradient_check,
    run_backward,
    run_forward,
    wrong_way_gradient,
)
from pooling import PoolConfig

CONFIGS = [
    NetConfig(3, 3, True, PoolConfig("max", 2)),
    NetConfig(2, 2, False, PoolConfig("avg", 3, stride=1, padding=1)),
    NetConfig(4, 3, True, PoolConfig("max", 3, stride=2, padding=1, ties="split")),
    NetConfig(1, 1, True, PoolConfig("max", output_size=2)),
]


def batch(seed=0, count=6, size=8):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((count, 1, size, size)), rng.integers(0, 10, count)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_kernel_gradient_matches_central_differences(config, reduction):
    x, labels = batch()
    params = init_params(config, (8, 8), seed=3)
    trace = run_forward(params, x, labels, config)
    analytic = run_backward(params, trace).reduced(reduction).kernels
    numeric = kernel_gradient_check(params, x, labels, config, reduction)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("config", CONFIGS)
def test_one_batched_backward_equals_the_mean_of_per_example_gradients(config):
    x, labels = batch(1)
    params = init_params(config, (8, 8), seed=4)
    trace = run_forward(params, x, labels, config)
    per_example = run_backward(params, trace)
    for reduction in ("mean", "sum"):
        batched = batched_gradient(params, trace, reduction)
        reduced = per_example.reduced(reduction)
        for name, value in batched.fields().items():
            np.testing.assert_allclose(value, getattr(reduced, name), atol=1e-12)
    mean, total = per_example.reduced("mean"), per_example.reduced("sum")
    np.testing.assert_allclose(total.kernels / x.shape[0], mean.kernels, atol=1e-15)


def test_each_example_routes_only_its_own_gradient():
    config = CONFIGS[0]
    x, labels = batch(2, count=3)
    params = init_params(config, (8, 8), seed=5)
    together = run_backward(params, run_forward(params, x, labels, config))
    for n in range(3):
        alone = run_backward(params, run_forward(params, x[n : n + 1], labels[n : n + 1], config))
        np.testing.assert_allclose(together.at_pool_input[n], alone.at_pool_input[0], atol=1e-15)
        winners = together.at_pool_input[n] != 0
        assert winners.sum() <= together.at_pool_output[n].size  # one cell per window


def test_the_wrong_way_gives_a_different_kernel_gradient():
    config = CONFIGS[0]
    x, labels = batch(3, count=8)
    params = init_params(config, (8, 8), seed=6)
    trace = run_forward(params, x, labels, config)
    right = run_backward(params, trace).reduced("mean").kernels
    wrong, averaged = wrong_way_gradient(params, trace, config)
    assert averaged.x.shape == (1, 1, 8, 8)
    assert np.abs(wrong.kernels - right).max() > 1e-3


def test_a_sgd_step_on_the_mean_gradient_lowers_the_loss():
    config = CONFIGS[0]
    x, labels = batch(4, count=16)
    params = init_params(config, (8, 8), seed=7)
    trace = run_forward(params, x, labels, config)
    stepped = params.step(run_backward(params, trace).reduced("mean"), 0.05)
    assert batch_loss(run_forward(stepped, x, labels, config), "mean") < batch_loss(trace, "mean")


def test_bad_shapes_are_refused():
    config = CONFIGS[0]
    params = init_params(config, (8, 8), seed=0)
    with pytest.raises(ValueError, match=r"\(N, 1, H, W\)"):
        run_forward(params, np.zeros((2, 8, 8)), np.zeros(2, int), config)
    with pytest.raises(ValueError, match="labels"):
        run_forward(params, np.zeros((2, 1, 8, 8)), np.array([0, 10]), config)
    with pytest.raises(ValueError, match="does not fit"):
        init_params(NetConfig(2, 5), (3, 3), seed=0)
    with pytest.raises(ValueError, match="kernels"):
        NetConfig(kernels=0)


@pytest.mark.torch
@pytest.mark.parametrize("config", CONFIGS[:3])
def test_gradients_match_pytorch_autograd(torch, config):
    functional = torch.nn.functional
    x, labels = batch(5)
    params = init_params(config, (8, 8), seed=8)
    trace = run_forward(params, x, labels, config)
    ours = run_backward(params, trace).reduced("mean")
    leaves = {
        name: torch.tensor(value, requires_grad=True) for name, value in params.fields().items()
    }
    conv = functional.conv2d(torch.tensor(x), leaves["kernels"], leaves["bias"])
    act = torch.relu(conv) if config.relu else conv
    pool = config.pool
    if pool.mode == "max":
        pooled = functional.max_pool2d(
            act, pool.kernel_size, pool.stride, pool.padding, pool.dilation
        )
    else:
        pooled = functional.avg_pool2d(act, pool.kernel_size, pool.stride, pool.padding)
    logits = pooled.flatten(1) @ leaves["weights"].T + leaves["out_bias"]
    loss = functional.cross_entropy(logits, torch.tensor(labels))
    loss.backward()
    assert loss.item() == pytest.approx(batch_loss(trace, "mean"), abs=1e-12)
    for name, leaf in leaves.items():
        np.testing.assert_allclose(getattr(ours, name), leaf.grad.numpy(), atol=1e-12)
