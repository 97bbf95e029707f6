"""The Batch page's model and data, without Streamlit."""

import subprocess
import sys

import numpy as np
import pytest

from cnn.network import NetConfig
from pooling import PoolConfig
from teaching.batch.story import SEED_GRADIENTS, BatchSettings, batch_mean, build_batch_story
from teaching.digits import digit_images


def settings(**changes) -> BatchSettings:
    base = dict(
        source="digits",
        size=8,
        seed=0,
        network=NetConfig(2, 3, True, PoolConfig("max", 2)),
        reduction="mean",
        learning_rate=0.1,
        steps=0,
    )
    return BatchSettings(**{**base, **changes})


def test_the_five_weight_example_gives_the_seed_mean():
    mean, cancelled = batch_mean(SEED_GRADIENTS)
    np.testing.assert_allclose(mean, [1.35, 0.15, 0.0, -0.2, -0.8], atol=1e-15)
    assert cancelled == (2,)  # w3: 1.1 and -1.1


def test_the_digits_are_scikit_learns_without_importing_it():
    from sklearn.datasets import load_digits

    images, labels = digit_images()
    reference = load_digits()
    np.testing.assert_array_equal(images, reference.images)
    np.testing.assert_array_equal(labels, reference.target)
    check = "import sys; from teaching.digits import digit_images; digit_images(); "
    check += "print('sklearn' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=".")
    assert loaded.stdout.strip() == "False", loaded.stderr


def test_a_divergent_learning_rate_stops_at_the_step_that_overflowed():
    network = NetConfig(2, 3, False, PoolConfig("max", 2))
    story = build_batch_story(
        settings(network=network, reduction="sum", learning_rate=3.0, steps=40, size=64)
    )
    assert story.diverged_at is not None and 1 <= story.diverged_at <= 40
    assert len(story.losses) == story.diverged_at  # before each finite step, and after
    assert np.isfinite(story.losses).all()
    assert np.isfinite(story.kernel_fd_gap) and story.kernel_fd_gap < 1e-3


def test_the_issue_link_trains_to_a_finite_loss():
    network = NetConfig(2, 3, False, PoolConfig("max", 2))
    story = build_batch_story(
        settings(network=network, reduction="sum", learning_rate=0.3, steps=8)
    )
    assert np.isfinite(story.losses).all() and np.isfinite(story.kernel_fd_gap)


def test_average_pooling_has_no_winners_and_every_example_reaches_the_same_cells():
    story = build_batch_story(settings(network=NetConfig(2, 3, False, PoolConfig("avg", 2))))
    assert story.winner_cells(0, 0) == ()
    reached = story.positions_reached(0)
    assert (reached == reached[0]).all()


def test_max_pooling_examples_pick_their_own_winners():
    story = build_batch_story(settings(size=16))
    reached = story.positions_reached(0)
    assert reached[-1] > reached[0]
    assert story.positions_routed(0, 0) <= len(story.winner_cells(0, 0))


def test_the_wrong_way_differs_and_the_checks_hold():
    story = build_batch_story(settings())
    assert story.wrong_gap > 1e-6
    assert story.batched_gap < 1e-12 and story.kernel_fd_gap < 1e-6
    table = story.reduction_table
    np.testing.assert_allclose(table["scaled"], table["mean"], rtol=1e-12)


def test_a_network_that_does_not_fit_raises_a_value_error():
    with pytest.raises(ValueError, match="output height would be"):
        build_batch_story(settings(network=NetConfig(2, 5, True, PoolConfig("max", 8))))


def test_a_trajectory_takes_only_the_steps_not_yet_taken(monkeypatch):
    import teaching.batch.trajectory as trajectory_module
    from teaching.batch.story import start_trajectory

    chosen = settings(size=16, steps=11)
    trajectory = start_trajectory(chosen)
    trajectory.reach(10)
    backward_calls = []
    real_backward = trajectory_module.run_backward
    monkeypatch.setattr(
        trajectory_module,
        "run_backward",
        lambda *args: backward_calls.append(1) or real_backward(*args),
    )
    reached = trajectory.reach(11)
    assert len(backward_calls) == 1  # one step more, not eleven from zero
    assert trajectory.reach(3).taken == 3 and len(backward_calls) == 1  # kept, not recomputed
    fresh = build_batch_story(chosen)  # its own trajectory, from zero
    assert reached.losses == fresh.losses
    np.testing.assert_array_equal(reached.params.kernels, fresh.params.kernels)
