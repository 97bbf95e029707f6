"""Every output value, output size, argmax index and input gradient equals PyTorch's
(float64, CPU), over thousands of random configurations."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import random_adaptive_config, random_config, random_input, random_shape

from pooling import PoolConfig, backward, forward

pytestmark = pytest.mark.torch


def torch_pool(torch, x, config: PoolConfig):
    """PyTorch's output, argmax (None for avg) and the leaf tensor it came from."""
    functional = torch.nn.functional
    leaf = torch.tensor(x, requires_grad=True)
    if config.adaptive and config.mode == "max":
        output, argmax = functional.adaptive_max_pool2d(
            leaf, config.output_size, return_indices=True
        )
    elif config.adaptive:
        output, argmax = functional.adaptive_avg_pool2d(leaf, config.output_size), None
    elif config.mode == "max":
        output, argmax = functional.max_pool2d(
            leaf,
            config.kernel_size,
            config.stride,
            config.padding,
            config.dilation,
            ceil_mode=config.ceil_mode,
            return_indices=True,
        )
    else:
        output, argmax = (
            functional.avg_pool2d(
                leaf,
                config.kernel_size,
                config.stride,
                config.padding,
                ceil_mode=config.ceil_mode,
                count_include_pad=config.count_include_pad,
                divisor_override=config.divisor_override,
            ),
            None,
        )
    return leaf, output, argmax


def assert_matches_torch(torch, x, config, grad_seed=0):
    """Compare with PyTorch; returns False when both refuse the configuration."""
    try:
        result = forward(x, config)
    except ValueError as error:
        if "covers only padding" in str(error):
            return False  # PyTorch leaves this undefined; we refuse it (tested)
        with pytest.raises(RuntimeError):
            torch_pool(torch, x, config)
        return False
    leaf, output, argmax = torch_pool(torch, x, config)
    assert result.output.shape == tuple(output.shape)
    np.testing.assert_allclose(
        result.output, output.detach().numpy(), rtol=1e-13, atol=1e-13, equal_nan=True
    )
    if argmax is not None:
        np.testing.assert_array_equal(result.argmax, argmax.numpy())
    grad = np.random.default_rng(grad_seed).standard_normal(result.output.shape)
    (expected,) = torch.autograd.grad(output, leaf, torch.tensor(grad))
    np.testing.assert_allclose(
        backward(result, grad), expected.numpy(), rtol=1e-12, atol=1e-12, equal_nan=True
    )
    return True


def test_seeded_sweep_of_pooling_configurations(torch):
    rng = np.random.default_rng(2026)
    compared = 0
    for case in range(3000):
        config = random_config(rng)
        compared += assert_matches_torch(torch, random_input(rng, random_shape(rng)), config, case)
    assert compared > 2000


def test_seeded_sweep_of_adaptive_pooling(torch):
    rng = np.random.default_rng(7)
    for case in range(600):
        config = random_adaptive_config(rng)
        assert assert_matches_torch(torch, random_input(rng, random_shape(rng)), config, case)


def test_global_pooling_is_adaptive_to_one_cell(torch):
    x = np.arange(30.0).reshape(1, 2, 3, 5)
    for mode in ("max", "avg"):
        assert assert_matches_torch(torch, x, PoolConfig(mode, output_size=1))


def test_larger_batches_and_channels(torch):
    rng = np.random.default_rng(1)
    for config in (
        PoolConfig("max", 3, stride=2, padding=1),
        PoolConfig("avg", 3, 1, 1),
        PoolConfig("max", 2),
        PoolConfig("avg", 2, ceil_mode=True),
        PoolConfig("max", (2, 3), (1, 2), (1, 1), (2, 1), ceil_mode=True),
    ):
        x = rng.standard_normal((8, 5, 33, 37))
        assert assert_matches_torch(torch, x, config)
        x = rng.integers(0, 3, (8, 5, 33, 37)).astype(np.float64)
        assert assert_matches_torch(torch, x, config)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_hypothesis_configurations(torch, data):
    mode = data.draw(st.sampled_from(["max", "avg"]))
    kernel = data.draw(st.tuples(st.integers(1, 4), st.integers(1, 4)))
    stride = data.draw(st.none() | st.tuples(st.integers(1, 4), st.integers(1, 4)))
    padding = tuple(data.draw(st.integers(0, k // 2)) for k in kernel)
    dilation = (
        data.draw(st.tuples(st.integers(1, 3), st.integers(1, 3))) if mode == "max" else (1, 1)
    )
    config = PoolConfig(
        mode,
        kernel,
        stride,
        padding,
        dilation,
        ceil_mode=data.draw(st.booleans()),
        count_include_pad=data.draw(st.booleans()),
        divisor_override=data.draw(st.none() | st.integers(1, 9)),
    )
    shape = data.draw(
        st.tuples(st.integers(1, 2), st.integers(1, 2), st.integers(1, 9), st.integers(1, 9))
    )
    values = data.draw(
        st.lists(
            st.sampled_from([-2.0, 0.0, 1.0, 1.0, 3.5, np.nan, -np.inf]),
            min_size=int(np.prod(shape)),
            max_size=int(np.prod(shape)),
        )
    )
    assert_matches_torch(torch, np.array(values).reshape(shape), config)
