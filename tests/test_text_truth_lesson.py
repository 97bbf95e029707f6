"""The Lesson's rewritten reasons (issues 37 and 38), each fact computed: ReLU as the
one-input max, the winner autograd keeps, the shift test and the corner at a tie (with
a negative dL/dy too), the transpose asked, the mean of the routing maps as a shared
per-position weight's gradient, the losses averaged into one objective, and a pool
with no weights whose gradient the convolution's own backward pass turns into dL/dK."""

from dataclasses import replace

import numpy as np
import pytest

from pooling import TIES, PoolConfig, backward, forward, numerical_gradient
from pooling.explain import jacobian, shares
from teaching.lesson.model import routed
from teaching.lesson.steps import lesson_steps
from teaching.numbers import fmt
from teaching.tolerances import GRADIENT_CHECK


def step(number: int):
    return lesson_steps()[number - 1]


def right_text(number: int) -> str:
    chosen = step(number)
    return chosen.choices[chosen.right_choice].text


def test_step_one_bridges_to_relu_as_the_one_input_max():
    upstream = 2.5
    for value, expected in ((3.0, upstream), (-1.0, 0.0)):
        # relu(x) = max(x, 0): its slope is 1 where x > 0 and 0 where x < 0.
        eps = 1e-6
        slope = (max(value + eps, 0) - max(value - eps, 0)) / (2 * eps)
        assert slope * upstream == pytest.approx(expected)
        said = "wins and gets" if expected else "loses to 0 and gets"
        assert f"x = {fmt(value)} {said} {fmt(expected)}" in step(1).reveal
    assert "relu(x) = max(x, 0) is a max with one input" in step(1).reveal


def test_step_two_says_autograd_keeps_the_index_unasked():
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    x = torch.tensor(step(2).example[0].values[None, None], requires_grad=True)
    y = functional.max_pool2d(x, 2)  # no return_indices asked
    assert "Indices" in type(y.grad_fn).__name__  # the index is saved all the same
    np.testing.assert_array_equal(y.grad_fn._saved_result1.numpy(), [[[[1]]]])  # x[0,1]
    y.backward(torch.ones_like(y))
    kept = routed(step(2).example[0].values, PoolConfig("max", 2), 1.0)[1]
    np.testing.assert_array_equal(x.grad[0, 0].numpy(), kept)
    # Keeping x instead and finding the largest cell again routes the same way.
    values = step(2).example[0].values
    again = np.zeros_like(values)
    again[np.unravel_index(values.argmax(), values.shape)] = 1.0
    np.testing.assert_array_equal(again, kept)
    said = step(2).reveal
    assert "whether or not you ask for return_indices" in said
    assert "Keeping x and finding the largest cell again would work too" in said


TIE_X = step(5).example[0].values


@pytest.mark.parametrize("upstream", [1.0, -1.0])
def test_step_five_shift_test_holds_for_every_sign(upstream):
    """Raising every cell by t raises y by t: dL/dt = dL/dy; the valid rules' entries add
    up to it, "all" hands out `tied` times it."""
    tied = int((TIE_X == TIE_X.max()).sum())
    eps = 1e-6
    for t in (0.5, -2.0):
        assert forward(TIE_X + t, PoolConfig("max", 2)).output[0, 0] == TIE_X.max() + t
    loss = lambda shift: upstream * forward(TIE_X + shift, PoolConfig("max", 2)).output[0, 0]  # noqa: E731
    slope = (loss(eps) - loss(-eps)) / (2 * eps)
    assert slope == pytest.approx(upstream)
    for ties in TIES:
        total = routed(TIE_X, replace(PoolConfig("max", 2), ties=ties), upstream)[1].sum()
        assert total == (tied * upstream if ties == "all" else pytest.approx(upstream))
    if upstream < 0:
        said = step(5).reveal
        assert f"with dL/dy = {fmt(upstream)}, “first” hands out {fmt(upstream)} in all" in said
        assert f"“all” hands out {fmt(tied * upstream)}, {tied} times dL/dy" in said


def test_step_five_central_differences_disagree_with_every_one_winner_rule():
    central = numerical_gradient(TIE_X, np.ones((1, 1)), PoolConfig("max", 2))
    agree = {
        ties
        for ties in TIES
        if np.allclose(
            routed(TIE_X, replace(PoolConfig("max", 2), ties=ties), 1.0)[1],
            central,
            atol=GRADIENT_CHECK,
        )
    }
    assert agree == {"split"}
    torch = pytest.importorskip("torch")
    x = torch.tensor(TIE_X[None, None], requires_grad=True)
    torch.nn.functional.max_pool2d(x, 2).sum().backward()
    assert not np.allclose(x.grad[0, 0].numpy(), central, atol=GRADIENT_CHECK)  # PyTorch's
    assert "only “split” agrees; “first”, “last” and “all” do not, PyTorch's included" in (
        step(5).reveal
    )


def test_step_five_subgradient_is_defined_right():
    """A slope g is a subgradient of max at the tie when max(z) ≥ max(x) + g·(z − x) for
    every z: true for fractions between 0 and 1 adding up to 1, false otherwise."""
    x = TIE_X.ravel()
    rng = np.random.default_rng(0)
    probes = x + rng.normal(scale=2.0, size=(2000, x.size))

    def below(g) -> bool:
        return bool((probes.max(axis=1) >= x.max() + (probes - x) @ g - 1e-12).all())

    for t in (0.0, 0.3, 0.5, 1.0):
        assert below(np.array([t, 1 - t, 0.0, 0.0]))
    for g in ([1.0, 1.0, 0, 0], [1.3, -0.3, 0, 0], [0.5, 0.4, 0, 0]):
        assert not below(np.array(g))
    said = step(5).reveal
    assert "A subgradient is the slope of a plane that touches max at the corner" in said
    assert "fractions between 0 and 1 for the tied cells that add up to 1" in said


def test_step_six_asks_the_transpose_and_names_s_as_j():
    chosen = step(6)
    x = chosen.example[0].values
    matrix = shares(x, PoolConfig("max", 2)).reshape(-1, x.size)
    np.testing.assert_array_equal(jacobian(x, PoolConfig("max", 2)), matrix)  # the Playground's J
    assert "the Playground's Matrix tab calls S J" in chosen.idea
    upstream = np.array([1.0, 2.0])
    by_chain_rule = np.array(
        [sum(upstream[o] * matrix[o, j] for o in range(matrix.shape[0])) for j in range(x.size)]
    )
    np.testing.assert_array_equal(by_chain_rule, matrix.T @ upstream)
    grad = backward(forward(x, PoolConfig("max", 2)), upstream[None])
    np.testing.assert_array_equal(grad.ravel(), by_chain_rule)
    named = ", ".join(f"x[{r},{c}] gets {fmt(grad[r, c])}" for r, c in np.argwhere(grad))
    assert right_text(6) == f"{named}; the rest 0"
    assert "(1, 2)" in chosen.question and "Sᵀ dL/dy" in chosen.question
    # The distractors: the average's rows hold 4 entries; each winner wins one window.
    average = shares(x, PoolConfig("avg", 2)).reshape(-1, x.size)
    assert set((average != 0).sum(axis=1)) == {4} and set((matrix != 0).sum(axis=1)) == {1}
    assert set(matrix.sum(axis=0)[matrix.sum(axis=0) > 0]) == {1}
    # θ′ of max per window, by central differences: 1 at the winner, 0 elsewhere = S's row.
    eps = 1e-6
    for o in range(matrix.shape[0]):
        for j in range(x.size):
            bump = np.zeros(x.size)
            bump[j] = eps
            up = forward((x.ravel() + bump).reshape(x.shape), PoolConfig("max", 2)).output.ravel()
            down = forward((x.ravel() - bump).reshape(x.shape), PoolConfig("max", 2)).output.ravel()
            assert (up[o] - down[o]) / (2 * eps) == pytest.approx(matrix[o, j])
    assert "max's θ′ is 1 at the winner and 0 elsewhere, the entries of S's row" in chosen.reveal
    texts = [choice.text for choice in chosen.choices]
    assert "Each cell of window o gets dL/dy_o ÷ 4" in texts
    assert any(text.endswith(f"gets {fmt(upstream.sum())}") for text in texts)


def test_step_seven_mean_of_maps_is_a_shared_bias_gradient():
    from teaching.lesson.steps_batch import EXAMPLE_A, EXAMPLE_B, MAX_2

    # L = mean over the two examples of y_n(x_n + b): dL/db by finite differences.
    def loss(bias: np.ndarray) -> float:
        return float(
            np.mean([forward(x + bias, MAX_2).output.sum() for x in (EXAMPLE_A, EXAMPLE_B)])
        )

    eps = 1e-6
    bias_grad = np.zeros(EXAMPLE_A.shape)
    for cell in np.ndindex(EXAMPLE_A.shape):
        bump = np.zeros(EXAMPLE_A.shape)
        bump[cell] = eps
        bias_grad[cell] = (loss(bump) - loss(-bump)) / (2 * eps)
    maps = (routed(x, MAX_2, 1.0)[1] for x in (EXAMPLE_A, EXAMPLE_B))
    mean = sum(maps) / 2
    np.testing.assert_allclose(bias_grad, mean, atol=1e-6)
    named = ", ".join(f"x[{r},{c}] gets {fmt(mean[r, c])}" for r, c in np.argwhere(mean))
    assert f"The mean of the two maps, {named}, is what a weight shared per position" in (
        step(7).reveal
    )


def test_step_eight_names_the_wrong_way_for_what_it_is():
    chosen = step(8)
    assert chosen.title == "The wrong way: one averaged example"
    assert "run that one averaged example forward and back" in chosen.idea
    assert "average the error" not in (chosen.idea + (chosen.mistake or "")).lower()


def test_step_ten_says_the_losses_are_averaged_into_one_objective():
    from cnn.network import batched_gradient
    from teaching.batch.story import build_batch_story
    from teaching.lesson.steps_batch import PAIR_SETTINGS

    said = step(10).reveal
    assert "never the losses" not in said
    assert "The losses are averaged into one objective, the mean loss" in said
    story = build_batch_story(PAIR_SETTINGS)
    one_call = batched_gradient(story.params, story.trace, "mean").kernels
    np.testing.assert_allclose(one_call, story.grads.per_example.kernels.mean(axis=0), atol=1e-12)


def test_step_eleven_the_pool_has_no_weights_and_the_conv_backward_is_written_out():
    from cnn.network import Params, run_forward
    from teaching.batch.story import build_batch_story
    from teaching.lesson.steps_batch import PAIR_SETTINGS

    chosen = step(11)
    assert sum(choice.right for choice in chosen.choices) == 1
    assert right_text(11).startswith("Nothing: it has no weights")
    assert set(Params.__dataclass_fields__) == {"kernels", "bias", "weights", "out_bias"}
    story = build_batch_story(PAIR_SETTINGS)
    params, x, labels = story.params, story.trace.x[:1], story.labels[:1]

    def loss(k00: float) -> float:  # example #0's own loss, K[0,0] of kernel 0 set to k00
        kernels = params.kernels.copy()
        kernels[0, 0, 0, 0] = k00
        return float(
            run_forward(replace(params, kernels=kernels), x, labels, story.config).losses[0]
        )

    eps, k00 = 1e-6, params.kernels[0, 0, 0, 0]
    numeric = (loss(k00 + eps) - loss(k00 - eps)) / (2 * eps)
    assert f"that sum is {fmt(numeric, 4)}" in chosen.reveal
    shown = chosen.example[0].values
    assert f"top-left cell, {fmt(shown[0, 0])}" in chosen.reveal
    assert shown[0, 0] == pytest.approx(numeric, abs=0.005)
