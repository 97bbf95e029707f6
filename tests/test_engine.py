"""The engine against the seed numbers, the loop reference, finite differences and the
Jacobian, without PyTorch."""

import numpy as np
import pytest
from strategies import any_config, random_config, random_input, random_shape, valid_cases

from pooling import (
    TIES,
    PoolConfig,
    backward,
    batch_gradients,
    forward,
    jacobian,
    numerical_gradient,
)
from pooling.geometry import output_length
from pooling.reference import loop_forward_backward

SEED_WINDOW = np.array([[1.0, 3.0], [2.0, 0.5]])


def test_seed_max_routes_to_the_winner():
    result = forward(SEED_WINDOW, PoolConfig("max", 2))
    assert result.output.tolist() == [[3.0]]
    assert result.argmax.tolist() == [[1]]  # (0, 1) -> 0 * 2 + 1
    assert backward(result, [[2.5]]).tolist() == [[0.0, 2.5], [0.0, 0.0]]


def test_seed_average_spreads_evenly():
    result = forward(SEED_WINDOW, PoolConfig("avg", 2))
    assert result.output.tolist() == [[1.625]]
    assert backward(result, [[2.0]]).tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_overlapping_windows_add_up():
    # 3x3 windows, stride 1, on a 4x4 ramp: the bottom-right 2x2 wins every window.
    x = np.arange(16.0).reshape(4, 4)
    grad = backward(forward(x, PoolConfig("max", 3, stride=1)), np.ones((2, 2)))
    expected = np.zeros((4, 4))
    expected[2:, 2:] = 1.0
    assert grad.tolist() == expected.tolist()
    grad = backward(
        forward(
            np.zeros((4, 4)) + [[0, 0, 0, 0], [0, 9, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
            PoolConfig("max", 3, stride=1),
        ),
        [[1.0, 2.0], [3.0, 4.0]],
    )
    assert grad[1, 1] == 10.0 and grad.sum() == 10.0  # in all four windows


@pytest.mark.parametrize(
    "size, kernel, stride, padding, dilation, ceil, expected",
    [
        (5, 2, 2, 0, 1, False, 2),
        (5, 2, 2, 0, 1, True, 3),
        (6, 3, 2, 1, 1, True, 4),
        (4, 2, 3, 1, 1, True, 2),
        (7, 3, 2, 0, 2, False, 2),
        (1, 1, 1, 0, 1, True, 1),
    ],
)
def test_output_length_formula(size, kernel, stride, padding, dilation, ceil, expected):
    assert output_length(size, kernel, stride, padding, dilation, ceil) == expected


def test_ceil_mode_drops_a_window_that_would_start_in_the_right_padding():
    # in 4, k 2, s 3, p 1: formula gives 3, but window 2 would start at 5 >= 4 + 1.
    assert output_length(4, 2, 3, 1, 1, True) == 2


def test_average_divisor_counts_padding_but_not_ceil_overhang():
    x = np.ones((3, 3))
    with_pad = forward(x, PoolConfig("avg", 2, stride=2, padding=1, ceil_mode=True)).output
    without_pad = forward(
        x, PoolConfig("avg", 2, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
    ).output
    # Corner window: 1 real cell of 4 padded ones.
    assert with_pad[0, 0] == 0.25 and without_pad[0, 0] == 1.0
    overridden = forward(x, PoolConfig("avg", 2, stride=2, padding=1, divisor_override=2)).output
    assert overridden[0, 0] == 0.5


def small_integers(rng):
    return rng.integers(-2, 3, random_shape(rng)).astype(np.float64)


@pytest.mark.parametrize("ties", TIES)
def test_forward_and_backward_match_the_loop(ties):
    cases = valid_cases(
        np.random.default_rng(7),
        300,
        lambda rng: any_config(rng, ties),
        lambda rng: random_input(rng, random_shape(rng)[2:]),
    )
    for config, x, result, grad in cases:
        output, argmax, grad_x = loop_forward_backward(x, grad, config)
        if config.mode == "max":
            np.testing.assert_array_equal(result.output, output)
            np.testing.assert_array_equal(result.argmax, argmax)
        else:  # a kernel may sum a window by rows, then columns: last-bit rounding
            np.testing.assert_allclose(result.output, output, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(backward(result, grad), grad_x, rtol=1e-12, atol=1e-12)


def test_gradients_match_central_differences_where_max_is_smooth():
    # Continuous inputs: no ties, so max is differentiable at every drawn x.
    cases = list(
        valid_cases(
            np.random.default_rng(3),
            200,
            any_config,
            lambda rng: rng.standard_normal(random_shape(rng)),
        )
    )
    for config, x, result, grad in cases:
        np.testing.assert_allclose(
            backward(result, grad), numerical_gradient(x, grad, config), rtol=1e-6, atol=1e-7
        )
    assert len(cases) > 100


def test_split_ties_equal_the_central_difference_on_two_way_ties():
    x = np.array([[4.0, 1.0], [4.0, 0.0]])
    config = PoolConfig("max", 2, ties="split")
    grad = backward(forward(x, config), [[3.0]])
    np.testing.assert_allclose(grad, numerical_gradient(x, [[3.0]], config))
    assert grad.tolist() == [[1.5, 0.0], [1.5, 0.0]]


def test_all_ties_fail_the_check_and_inflate_the_total():
    x = np.array([[4.0, 4.0], [4.0, 0.0]])
    grads = {ties: backward(forward(x, PoolConfig("max", 2, ties=ties)), [[1.0]]) for ties in TIES}
    assert grads["first"].tolist() == [[1, 0], [0, 0]]
    assert grads["last"].tolist() == [[0, 0], [1, 0]]
    np.testing.assert_allclose(grads["split"], [[1 / 3, 1 / 3], [1 / 3, 0]])
    assert grads["all"].sum() == 3.0
    # Moving the whole window up by t moves the max by t: the gradient must sum to 1.
    whole = numerical_gradient(x[None], [[[1.0]]], PoolConfig("max", 2, ties="first"))
    assert whole.sum() == pytest.approx(1.5)  # central differences: 1/2 per tied cell
    for ties in ("first", "last", "split"):
        assert grads[ties].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("ties", TIES)
def test_jacobian_reproduces_forward_and_backward(ties):
    cases = valid_cases(
        np.random.default_rng(11), 100, lambda rng: any_config(rng, ties), small_integers
    )
    for config, x, result, grad in cases:
        matrix = jacobian(x, config)
        assert matrix.shape == (result.output.size, x.size)
        np.testing.assert_allclose(
            matrix.T @ grad.ravel(), backward(result, grad).ravel(), rtol=1e-12, atol=1e-12
        )
        if ties != "all":
            np.testing.assert_allclose(
                matrix @ x.ravel(), result.output.ravel(), rtol=1e-12, atol=1e-12
            )
        if config.mode == "max" and ties in ("first", "last"):
            assert set(np.unique(matrix)) <= {0.0, 1.0}
            assert (matrix.sum(axis=1) == 1).all()  # one 1 per row


@pytest.mark.parametrize("ties", ["first", "last", "split"])
def test_max_gradient_conserves_the_upstream_total(ties):
    cases = valid_cases(
        np.random.default_rng(5),
        100,
        lambda rng: random_config(rng, mode="max", ties=ties),
        small_integers,
    )
    for _, _, result, grad in cases:
        assert backward(result, grad).sum() == pytest.approx(grad.sum(), abs=1e-9)


def test_average_gradient_conserves_each_window_share_of_real_cells():
    cases = valid_cases(
        np.random.default_rng(6),
        100,
        lambda rng: random_config(rng, mode="avg"),
        lambda rng: rng.standard_normal(random_shape(rng)),
    )
    for _, _, result, grad in cases:
        geometry = result.geometry
        real_cells = geometry.rows.real_count[:, None] * geometry.cols.real_count[None, :]
        expected = (grad * real_cells / geometry.divisor).sum()
        assert backward(result, grad).sum() == pytest.approx(expected, abs=1e-9)


def test_nan_wins_and_the_last_nan_is_the_argmax():
    x = np.array([[1.0, np.nan], [np.nan, 5.0]])
    result = forward(x, PoolConfig("max", 2))
    assert np.isnan(result.output[0, 0]) and result.argmax[0, 0] == 2
    assert backward(result, [[1.0]]).tolist()[1][0] == 1.0


def test_window_of_minus_infinity_names_its_first_real_cell():
    x = np.full((3, 3), -np.inf)
    result = forward(x, PoolConfig("max", 2, stride=2, padding=1))
    assert result.argmax.tolist() == [[0, 1], [3, 4]]
    assert (result.output == -np.inf).all()


def test_seed_batch_mean_of_weight_gradients():
    per_example = np.array([[1.5, -2.0, 1.1, 0.4, -0.9], [1.2, 2.3, -1.1, -0.8, -0.7]])
    from pooling.batch import reduce_batch

    np.testing.assert_allclose(
        reduce_batch(per_example, "mean"), [1.35, 0.15, 0.0, -0.2, -0.8], atol=1e-15
    )


def test_batch_routes_each_example_on_its_own():
    x = np.zeros((2, 1, 2, 2))
    x[0, 0, 0, 0] = 5.0  # example 0 wins at (0, 0)
    x[1, 0, 1, 1] = 5.0  # example 1 wins at (1, 1)
    grad = np.array([2.0, 4.0]).reshape(2, 1, 1, 1)
    batch = batch_gradients(x, grad, PoolConfig("max", 2))
    assert batch.per_example[0, 0].tolist() == [[2.0, 0.0], [0.0, 0.0]]
    assert batch.per_example[1, 0].tolist() == [[0.0, 0.0], [0.0, 4.0]]
    assert batch.reduced[0].tolist() == [[1.0, 0.0], [0.0, 2.0]]  # spread over two cells
    summed = batch_gradients(x, grad, PoolConfig("max", 2), reduction="sum")
    np.testing.assert_array_equal(summed.reduced, 2 * batch.reduced)


def test_mean_of_routing_maps_is_the_gradient_of_a_shared_bias():
    rng = np.random.default_rng(2)
    z = rng.standard_normal((4, 1, 6, 6))
    config = PoolConfig("max", 3, stride=2, padding=1)
    grad = rng.standard_normal(forward(z, config).output.shape)
    batch = batch_gradients(z, grad, config)

    def mean_loss(bias):
        return (forward(z + bias, config).output * grad).sum(axis=(1, 2, 3)).mean()

    eps = 1e-6
    numeric = np.zeros((1, 6, 6))
    for index in np.ndindex(numeric.shape):
        bump = np.zeros((1, 6, 6))
        bump[index] = eps
        numeric[index] = (mean_loss(bump) - mean_loss(-bump)) / (2 * eps)
    np.testing.assert_allclose(batch.reduced, numeric, atol=1e-7)
