"""Code that reproduces the Batch page's batch result: a PyTorch snippet and a
NumPy-only one that rebuild the batch, the weights on screen and the network, then print
the batch loss and dL/dK and check them against the page (pure: no Streamlit)."""

from __future__ import annotations

from cnn.network import batch_loss
from teaching.batch.story import BatchStory
from teaching.snippets import (
    NUMPY_HEADER,
    TOLERANCE,
    TORCH_HEADER,
    array_line,
    config_line,
    loop_source,
    number,
    torch_pool_call,
)


def screen_data(story: BatchStory) -> str:
    params = story.params
    taken = story.settings.steps
    weights = "before any step" if taken == 0 else f"after {taken} SGD steps"
    pool = story.trace.pool
    lines = [
        array_line("images", story.images, "the batch, (N, 8, 8)"),
        array_line("labels", story.labels, "their digits, (N,)"),
        f"# The weights {weights} (the Batch result tab lists every one):",
        array_line("kernels", params.kernels, "(F, 1, k, k)"),
        array_line("bias", params.bias, "(F,)"),
        array_line("weights", params.weights, "the linear layer, (10, F * PH * PW)"),
        array_line("out_bias", params.out_bias, "(10,)"),
        "",
        "# On screen:",
        array_line("pooled_shown", pool.output, "each example's pooling output y, (N, F, PH, PW)"),
    ]
    if pool.argmax is not None:
        lines.append(array_line("argmax_shown", pool.argmax, "each window's winner, h * CW + w"))
    lines += [
        array_line(
            "routed_shown",
            story.grads.at_pool_input,
            "each example's own dL_n/d(pooling input), (N, F, CH, CW)",
        ),
        f"loss_shown = {number(batch_loss(story.trace, story.reduction))}",
        array_line(
            "grad_kernels_shown",
            story.reduced.kernels,
            f"the batch dL/dK ({story.reduction}), (F, 1, k, k)",
        ),
    ]
    return "\n".join(lines)


def printed_and_checked(
    *, pooled: str, argmax: str | None, routed: str, loss: str, grad_kernels: str
) -> str:
    """Print the batch loss and dL/dK; assert every array of the screen is reproduced."""
    checks = [
        f"np.testing.assert_allclose({pooled}, pooled_shown, {TOLERANCE})",
        *([f"np.testing.assert_array_equal({argmax}, argmax_shown)"] if argmax else []),
        f"np.testing.assert_allclose({routed}, routed_shown, {TOLERANCE})",
        f"np.testing.assert_allclose({loss}, loss_shown, {TOLERANCE})",
        f"np.testing.assert_allclose({grad_kernels}, grad_kernels_shown, {TOLERANCE})",
    ]
    said = "y, the argmax, the routed gradients" if argmax else "y, the routed gradients"
    return "\n".join(
        [
            f'print("batch loss =", {loss})',
            f'print("batch dL/dK =", {grad_kernels}, sep="\\n")',
            *checks,
            f'print("{said}, the loss and dL/dK equal the numbers on screen.")',
        ]
    )


def per_example(story: BatchStory, batch_gradient: str) -> str:
    """dL_n/d(...) from the batch loss's gradient: the mean's 1/N undone."""
    if story.reduction == "mean":
        return f"{batch_gradient} * len(images)"
    return batch_gradient


def torch_snippet(story: BatchStory) -> str:
    """PyTorch: conv2d, ReLU, the pooling call, linear, cross_entropy, backward."""
    pooled = "pooled, argmax" if story.is_max else "pooled"
    relu = "act = F.relu(conv)" if story.config.relu else "act = conv  # no ReLU"
    return "\n".join(
        [
            TORCH_HEADER,
            screen_data(story),
            "",
            "x = torch.tensor(images)[:, None]  # (N, 1, 8, 8), float64 like the lab",
            "K = torch.tensor(kernels, requires_grad=True)",
            "conv = F.conv2d(x, K, torch.tensor(bias))",
            relu,
            "act.retain_grad()  # the gradient at the pooling input, kept for the check",
            f"{pooled} = {torch_pool_call(story.config.pool, 'act')}",
            "logits = pooled.flatten(1) @ torch.tensor(weights).T + torch.tensor(out_bias)",
            f'loss = F.cross_entropy(logits, torch.tensor(labels), reduction="{story.reduction}")',
            "loss.backward()",
            "",
            printed_and_checked(
                pooled="pooled.detach().numpy()",
                argmax="argmax.numpy()" if story.is_max else None,
                routed=per_example(story, "act.grad.numpy()"),
                loss="loss.item()",
                grad_kernels="K.grad.numpy()",
            ),
        ]
    )


def numpy_snippet(story: BatchStory) -> str:
    """NumPy only: every example forward and back through the lab's loop."""
    mean = story.reduction == "mean"
    return "\n".join(
        [
            NUMPY_HEADER + "from numpy.lib.stride_tricks import sliding_window_view\n",
            screen_data(story),
            "",
            "# Pooling one window at a time, as a textbook writes it.",
            loop_source(),
            "",
            "",
            config_line(story.config.pool),
            "rows = np.arange(len(images))",
            "patches = sliding_window_view(images, kernels.shape[2:], axis=(1, 2))",
            'conv = np.einsum("nijkl,fkl->nfij", patches, kernels[:, 0]) + bias[:, None, None]',
            "act = np.maximum(conv, 0.0)" if story.config.relu else "act = conv  # no ReLU",
            "forward = [[loop_forward_backward(a, None, config) for a in planes]",
            "           for planes in act]  # (y, argmax, None) per example and feature",
            "pooled = np.array([[y for y, _, _ in planes] for planes in forward])  # (N,F,PH,PW)",
            *(
                ["argmax = np.array([[index for _, index, _ in planes] for planes in forward])"]
                if story.is_max
                else []
            ),
            "logits = pooled.reshape(len(images), -1) @ weights.T + out_bias",
            "shifted = logits - logits.max(axis=1, keepdims=True)",
            "log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))",
            f"loss = -log_probs[rows, labels].{'mean' if mean else 'sum'}()",
            "",
            "# Backward, example by example: each routes through its own winners.",
            "grad_logits = np.exp(log_probs)",
            "grad_logits[rows, labels] -= 1.0",
            *(["grad_logits /= len(images)  # the mean's 1/N"] if mean else []),
            "grad_pooled = (grad_logits @ weights).reshape(pooled.shape)",
            "grad_act = np.array([",
            "    [loop_forward_backward(a, g, config)[2] for a, g in zip(acts, grads)]",
            "    for acts, grads in zip(act, grad_pooled)",
            "])",
            "grad_conv = grad_act * (conv > 0)" if story.config.relu else "grad_conv = grad_act",
            'grad_kernels = np.einsum("nfij,nijkl->fkl", grad_conv, patches)[:, None]',
            "",
            printed_and_checked(
                pooled="pooled",
                argmax="argmax" if story.is_max else None,
                routed=per_example(story, "grad_act"),
                loss="loss",
                grad_kernels="grad_kernels",
            ),
        ]
    )
