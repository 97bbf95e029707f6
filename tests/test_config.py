"""Invalid settings raise a ValueError that names the parameter, its value and the limit."""

from dataclasses import replace

import numpy as np
import pytest
from strategies import any_config

from pooling import PoolConfig, backward, batch_gradients, forward
from pooling.config import TIES


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(kernel_size=0), ["kernel_size", "at least 1", "0"]),
        (dict(kernel_size=(2, -1)), ["kernel_size", "at least 1", "-1"]),
        (dict(stride=0), ["stride", "at least 1", "0"]),
        (dict(dilation=0), ["dilation", "at least 1", "0"]),
        (dict(padding=-1), ["padding", "at least 0", "-1"]),
        (dict(kernel_size=3, padding=2), ["padding 2", "3-tall window", "kernel_size // 2 = 1"]),
        (dict(kernel_size=(4, 3), padding=(2, 2)), ["padding 2", "3-wide window"]),
        (dict(mode="min"), ["mode", "'min'"]),
        (dict(ties="random"), ["ties", "'random'"]),
        (dict(mode="avg", divisor_override=0), ["divisor_override", "at least 1", "0"]),
        (dict(mode="avg", dilation=2), ["dilation", "max pooling"]),
        (dict(kernel_size=2.5), ["kernel_size", "whole number", "2.5"]),
        (dict(kernel_size=(1, 2, 3)), ["kernel_size", "pair"]),
        (dict(output_size=0), ["output_size", "at least 1"]),
        (dict(output_size=2, stride=3), ["stride", "adaptive"]),
        (dict(output_size=2, kernel_size=3, stride=(3, 2)), ["stride", "adaptive"]),
    ],
)
def test_invalid_settings_name_parameter_and_limit(kwargs, words):
    with pytest.raises(ValueError) as error:
        PoolConfig(**kwargs)
    for word in words:
        assert word in str(error.value)


def test_pairs_are_normalised_and_stride_defaults_to_kernel():
    config = PoolConfig(kernel_size=(3, 2), padding=(1, 1))
    assert config.kernel_size == (3, 2)
    assert config.stride == (3, 2)
    assert config.padding == (1, 1)
    assert config.dilation == (1, 1)


@pytest.mark.parametrize("seed", range(40))
def test_a_config_survives_dataclasses_replace(seed):
    # The Tie lab and the Lesson rebuild the screen's layer with another tie rule.
    config = any_config(np.random.default_rng(seed))
    assert replace(config) == config
    for ties in TIES:
        assert replace(config, ties=ties) == PoolConfig(**{**vars(config), "ties": ties})


def test_output_smaller_than_one_cell_is_refused():
    with pytest.raises(ValueError, match="output height would be 0; it must be at least 1"):
        forward(np.zeros((2, 5)), PoolConfig(kernel_size=3))


def test_window_wholly_in_padding_is_refused_not_garbage():
    # Taps at -1 and 1 of a 1-row input with dilation 2: the window sees only padding.
    with pytest.raises(ValueError, match="covers only padding"):
        forward(np.zeros((1, 4)), PoolConfig(kernel_size=(2, 2), padding=(1, 0), dilation=(2, 1)))


@pytest.mark.parametrize("shape", [(3,), (1, 1, 1, 2, 2)])
def test_wrong_rank_is_refused(shape):
    with pytest.raises(ValueError, match="2, 3 or 4 axes"):
        forward(np.zeros(shape), PoolConfig())


def test_empty_input_is_refused():
    with pytest.raises(ValueError, match="must not be empty"):
        forward(np.zeros((0, 4)), PoolConfig())


def test_grad_output_of_wrong_shape_is_refused():
    result = forward(np.zeros((4, 4)), PoolConfig())
    with pytest.raises(ValueError, match=r"grad_output must have the output's shape \(2, 2\)"):
        backward(result, np.zeros((2, 3)))


def test_batch_needs_four_axes_and_known_reduction():
    with pytest.raises(ValueError, match=r"\(N, C, H, W\)"):
        batch_gradients(np.zeros((4, 4)), np.zeros((2, 2)), PoolConfig())
    with pytest.raises(ValueError, match="reduction"):
        batch_gradients(np.zeros((1, 1, 4, 4)), np.zeros((1, 1, 2, 2)), PoolConfig(), "median")
