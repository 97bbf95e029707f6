"""Code that reproduces the Playground's screen: a PyTorch snippet and a NumPy-only one
that rebuild x, the layer and dL/dy, print y, the argmax and dL/dx, and check them
against the numbers on screen (pure: no Streamlit)."""

from __future__ import annotations

from teaching.playground.model import LayerStory
from teaching.snippets import (
    NUMPY_HEADER,
    TOLERANCE,
    TORCH_HEADER,
    array_line,
    config_line,
    loop_source,
    torch_pool_call,
)


def screen_data(story: LayerStory) -> str:
    """The screen's grids as arrays: the inputs to rebuild, and what to check against."""
    lines = [
        array_line("x", story.x, "the input grid, (H, W)"),
        array_line("grad_y", story.grad_output, "dL/dy, the upstream gradient, (OH, OW)"),
        "",
        "# On screen:",
        array_line("y_shown", story.output, "y"),
        array_line("grad_x_shown", story.grad_x, "dL/dx"),
    ]
    if story.argmax is not None:
        lines.append(array_line("argmax_shown", story.argmax, "each window's winner, h * W + w"))
    return "\n".join(lines)


def printed_and_checked(y: str, argmax: str | None, grad_x: str) -> str:
    lines = [f'print("y =", {y}, sep="\\n")']
    if argmax is not None:
        lines.append(f'print("argmax (h * W + w) =", {argmax}, sep="\\n")')
    lines.append(f'print("dL/dx =", {grad_x}, sep="\\n")')
    lines.append(f"np.testing.assert_allclose({y}, y_shown, {TOLERANCE})")
    if argmax is not None:
        lines.append(f"np.testing.assert_array_equal({argmax}, argmax_shown)")
    lines.append(f"np.testing.assert_allclose({grad_x}, grad_x_shown, {TOLERANCE})")
    lines.append('print("y, the argmax and dL/dx equal the numbers on screen.")')
    return "\n".join(lines)


def torch_snippet(story: LayerStory) -> str:
    """PyTorch: the layer's own call, y.backward(dL/dy), x.grad. Only for layers whose
    backward PyTorch computes (see snippets.torch_tie_note)."""
    is_max = story.argmax is not None
    call = torch_pool_call(story.config, "x_t")
    result = "y_t, argmax_t" if is_max else "y_t"
    return "\n".join(
        [
            TORCH_HEADER,
            screen_data(story),
            "",
            "# A batch of one, one channel: (1, 1, H, W), in float64 like the lab.",
            "x_t = torch.tensor(x)[None, None].requires_grad_()",
            f"{result} = {call}",
            "y_t.backward(torch.tensor(grad_y)[None, None])",
            "",
            printed_and_checked(
                "y_t[0, 0].detach().numpy()",
                "argmax_t[0, 0].numpy()" if is_max else None,
                "x_t.grad[0, 0].numpy()",
            ),
        ]
    )


def numpy_snippet(story: LayerStory) -> str:
    """NumPy only: the lab's window-at-a-time loop, then the same prints and checks."""
    is_max = story.argmax is not None
    return "\n".join(
        [
            NUMPY_HEADER,
            screen_data(story),
            "",
            "# Pooling one window at a time, as a textbook writes it.",
            loop_source(),
            "",
            "",
            config_line(story.config),
            "y, argmax, grad_x = loop_forward_backward(x, grad_y, config)",
            "",
            printed_and_checked("y", "argmax" if is_max else None, "grad_x"),
        ]
    )
