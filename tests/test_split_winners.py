"""Who picked each cell over a batch, and the first seed's idea (split each window's
gradient over every cell that won it in any example), against plain loops, PyTorch and
finite differences (cnn/split_winners.py, teaching/batch/story.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_text_truth_batch import batch_settings

from cnn.network import NetConfig, init_params, kernel_gradient_check, run_backward, run_forward
from cnn.split_winners import (
    split_kernel_gradient,
    split_routing,
    window_shares,
    winner_counts,
)
from pooling import PoolConfig, forward
from pooling.geometry import plane_geometry
from teaching.batch.story import build_batch_story

SEED_SETTING = dict(size=100)  # the first seed's batch of 100 digits, the page's network


def loop_counts(activation, pool: PoolConfig, grad_output):
    """Plain loops over examples, kernels and windows, with PyTorch's stored argmax (one
    winner a window: the rule "first")."""
    count, features, height, width = activation.shape
    argmax = forward(activation, pool).argmax  # (N, F, PH, PW): h * W + w
    out_h, out_w = argmax.shape[2:]
    counts = np.zeros((features, out_h, out_w, height, width), dtype=int)
    received = np.zeros(counts.shape)
    for n in range(count):
        for f in range(features):
            for p in range(out_h):
                for q in range(out_w):
                    row, col = divmod(int(argmax[n, f, p, q]), width)
                    counts[f, p, q, row, col] += 1
                    received[f, p, q, row, col] += grad_output[n, f, p, q]
    return counts, received


def network_batch(pool: PoolConfig, *, count: int, seed: int = 1, relu: bool = True):
    config = NetConfig(2, 3, relu, pool)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((count, 1, 8, 8))
    labels = rng.integers(0, 10, count)
    params = init_params(config, (8, 8), seed=seed)
    trace = run_forward(params, x, labels, config)
    return config, params, trace, run_backward(params, trace)


POOLS = [
    PoolConfig("max", 2),
    PoolConfig("max", 3, stride=1),  # overlapping windows
    PoolConfig("max", 3, stride=2, padding=1),
]


@pytest.mark.parametrize("pool", POOLS)
def test_counts_and_received_gradient_equal_a_plain_loop(pool):
    _, _, trace, grads = network_batch(pool, count=37)
    shares = window_shares(trace.activation, pool)
    found = winner_counts(shares, grads.at_pool_output)
    counts, received = loop_counts(trace.activation, pool, grads.at_pool_output)
    np.testing.assert_array_equal(found.counts, counts)
    np.testing.assert_allclose(found.received, received, atol=1e-15)
    # Every example picks exactly one cell in each window (the rule "first").
    assert (found.counts.sum(axis=(3, 4)) == 37).all()
    # Summed over windows, what the cells received is the sum of the routing maps.
    np.testing.assert_allclose(
        found.received.sum(axis=(1, 2)), grads.at_pool_input.sum(axis=0), atol=1e-12
    )


def test_the_busiest_window_has_the_most_distinct_winners():
    story = build_batch_story(batch_settings(**SEED_SETTING))
    counts = story.winners.counts[0]
    distinct = (counts > 0).sum(axis=(2, 3))
    window = story.winners.busiest_window(0)
    assert distinct[window] == distinct.max() > 1
    assert len(story.winners.winners(0, window)) == distinct[window]


def hand_split_kernel_gradient(trace, grad_output, pool: PoolConfig, *, weighted: bool):
    """The idea written out: for each kernel and window, the cells that won it in any
    example (and how often); every example's dL_n/dy split over them; then each
    example's own ReLU and convolution; the mean over the batch."""
    count, features, height, width = trace.activation.shape
    geometry = plane_geometry(pool, height, width)
    argmax = forward(trace.activation, pool).argmax
    out_h, out_w = geometry.output_shape
    routed = np.zeros(trace.activation.shape)
    for f in range(features):
        for p in range(out_h):
            for q in range(out_w):
                wins: dict[int, int] = {}
                for n in range(count):
                    index = int(argmax[n, f, p, q])
                    wins[index] = wins.get(index, 0) + 1
                total = sum(wins.values()) if weighted else len(wins)
                for n in range(count):
                    for index, won in wins.items():
                        share = (won if weighted else 1) / total
                        routed[n, f, index // width, index % width] += (
                            share * grad_output[n, f, p, q]
                        )
    k = trace.patches.shape[-1]
    kernels = np.zeros((features, 1, k, k))
    for n in range(count):
        for f in range(features):
            for i in range(routed.shape[2]):
                for j in range(routed.shape[3]):
                    through = routed[n, f, i, j] * (trace.conv[n, f, i, j] > 0)
                    kernels[f, 0] += through * trace.x[n, 0, i : i + k, j : j + k]
    return kernels / count


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("split", ["even", "weighted"])
def test_the_ideas_kernel_gradient_equals_a_hand_written_one(pool, split):
    _, _, trace, grads = network_batch(pool, count=9)
    shares = window_shares(trace.activation, pool)
    ours = split_kernel_gradient(trace, grads.at_pool_output, shares, reduction="mean", split=split)
    hand = hand_split_kernel_gradient(
        trace, grads.at_pool_output, pool, weighted=split == "weighted"
    )
    np.testing.assert_allclose(ours, hand, atol=1e-13)


def test_on_the_seeds_setting_the_idea_misses_the_checked_gradient():
    story = build_batch_story(batch_settings(**SEED_SETTING))
    numeric = story.numeric_kernels[:, 0]
    assert np.abs(story.right_kernels - numeric).max() < 1e-6  # the right way is checked
    for split, kernels in story.split_kernels.items():
        gap = np.abs(kernels - numeric).max()
        assert gap > 1e3 * np.abs(story.right_kernels - numeric).max(), split
        assert gap > 1e-3, split


@pytest.mark.parametrize("pool", POOLS)
def test_with_one_example_and_no_ties_the_idea_is_the_right_way(pool):
    _, _, trace, grads = network_batch(pool, count=1, seed=4, relu=False)  # ReLU's 0s tie
    assert len(np.unique(trace.activation)) == trace.activation.size  # no ties
    right = grads.reduced("mean").kernels
    shares = window_shares(trace.activation, pool)
    for split in ("even", "weighted"):
        ideas = split_kernel_gradient(
            trace, grads.at_pool_output, shares, reduction="mean", split=split
        )
        assert np.array_equal(ideas, right)


def test_a_cell_another_example_picked_does_not_move_this_examples_output():
    """Why the idea is wrong: in example n a window's output moves only with n's winner."""
    pool = PoolConfig("max", 2)
    _, _, trace, grads = network_batch(pool, count=20, relu=False)  # no tied 0s
    counts = winner_counts(window_shares(trace.activation, pool), grads.at_pool_output).counts
    y = forward(trace.activation, pool).output
    argmax = forward(trace.activation, pool).argmax
    width = trace.activation.shape[3]
    checked = 0
    for p, q in np.ndindex(counts.shape[1:3]):
        for row, col in np.argwhere(counts[0, p, q] > 0):
            for n in np.flatnonzero(argmax[:, 0, p, q] != row * width + col):
                bumped = trace.activation.copy()
                bumped[n, 0, row, col] += 1e-6
                assert forward(bumped, pool).output[n, 0, p, q] == y[n, 0, p, q]
                checked += 1
    assert checked > 20


def test_routing_the_ideas_way_keeps_each_windows_total():
    """The idea spreads, never adds: each window still sends all of its dL_n/dy."""
    pool = PoolConfig("max", 2)
    _, _, trace, grads = network_batch(pool, count=12)
    routed = split_routing(window_shares(trace.activation, pool), grads.at_pool_output, "even")
    np.testing.assert_allclose(
        routed.sum(axis=(2, 3)), grads.at_pool_output.sum(axis=(2, 3)), atol=1e-12
    )


@pytest.mark.torch
def test_the_right_kernel_gradient_of_the_seeds_batch_is_pytorchs(torch):
    functional = torch.nn.functional
    story = build_batch_story(batch_settings(**SEED_SETTING))
    kernels = torch.tensor(story.params.kernels, requires_grad=True)
    conv = functional.conv2d(torch.tensor(story.trace.x), kernels, torch.tensor(story.params.bias))
    pooled = functional.max_pool2d(torch.relu(conv), 2)
    logits = pooled.flatten(1) @ torch.tensor(story.params.weights).T
    logits = logits + torch.tensor(story.params.out_bias)
    functional.cross_entropy(logits, torch.tensor(story.labels)).backward()
    np.testing.assert_allclose(story.right_kernels, kernels.grad.numpy()[:, 0], atol=1e-12)
    for kernels_of_idea in story.split_kernels.values():
        assert np.abs(kernels_of_idea - kernels.grad.numpy()[:, 0]).max() > 1e-3


def test_the_finite_difference_check_is_the_networks_own():
    settings = batch_settings(size=5)
    story = build_batch_story(settings)
    again = kernel_gradient_check(
        story.params, story.trace.x, story.labels, settings.network, settings.reduction
    )
    np.testing.assert_array_equal(story.numeric_kernels, again)


def test_average_pooling_has_no_winners_to_split():
    network = replace(batch_settings().network, pool=PoolConfig("avg", 2))
    story = build_batch_story(batch_settings(network=network))
    assert story.winners is None and story.split_kernels == {}
