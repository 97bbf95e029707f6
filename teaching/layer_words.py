"""A pooling layer in words, true for the layer and the x on screen (pure: no
Streamlit), the one place the lab says a layer: every setting that shapes the answer
to a question of its kind, the tie rule only where x has a tie it decides, and what y
sends back. The Exercises, the Lesson and the Class page (the projector and the
students' phones) all say their layer with these; the names of the settings
themselves are teaching/words.py's.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.config import Pair
from teaching.numbers import fmt
from teaching.words import MODE_LABELS, TIE_WORDS


def pair_words(pair: Pair) -> str:
    """(2, 2) -> '2'; (2, 1) -> '(2, 1)' (rows, columns), as PyTorch writes it."""
    return str(pair[0]) if pair[0] == pair[1] else f"({pair[0]}, {pair[1]})"


def ties_matter(x: np.ndarray, config: PoolConfig) -> bool:
    """Max pooling only: some window of x (H, W) holds its maximum in more than one
    cell, so the tie rule decides where that window's gradient goes. (The first and
    the last tied cell then differ, and the earliest cell any window picks first is
    picked last by none, so the two gradients differ.)"""
    if config.mode != "max":
        return False
    ones = np.ones(forward(x, config).output.shape)
    first = backward(forward(x, replace(config, ties="first")), ones)
    last = backward(forward(x, replace(config, ties="last")), ones)
    return not np.array_equal(first, last)


def window_words(config: PoolConfig) -> list[str]:
    """The windows: adaptive pooling's output size, or window, stride, padding,
    dilation and ceil mode (each said only when it is not the default)."""
    mode = MODE_LABELS[config.mode].lower()
    if config.adaptive:
        rows, cols = config.output_size
        if (rows, cols) == (1, 1):
            return [f"global {mode} pooling (one window: the whole input)"]
        return [f"adaptive {mode} pooling to an output of {rows} × {cols}"]
    rows, cols = config.kernel_size
    words = [f"{mode} pooling, window {rows}×{cols}", f"stride {pair_words(config.stride)}"]
    if any(config.padding):
        words.append(f"padding {pair_words(config.padding)}")
    if config.dilation != (1, 1):
        words.append(f"dilation {pair_words(config.dilation)}")
    if config.ceil_mode:
        words.append("ceil mode")
    return words


def window_phrase(config: PoolConfig, *, with_stride: bool = True) -> str:
    """'2×2 window, stride 1' (or '2×2 window'), read from the layer itself, for a
    sentence that goes on about the window (the Lesson's steps)."""
    rows, cols = config.kernel_size
    window = f"{rows}×{cols} window"
    return f"{window}, stride {pair_words(config.stride)}" if with_stride else window


def divisor_words(config: PoolConfig) -> list[str]:
    """Average pooling's divisor, where it is not simply the window's cell count."""
    if config.mode != "avg":
        return []
    if config.divisor_override is not None:
        return [f"every window divides by {config.divisor_override}"]
    if any(config.padding):
        counted = "counts" if config.count_include_pad else "does not count"
        return [f"the divisor {counted} padding cells"]
    return []


def layer_words(config: PoolConfig, x: np.ndarray, *, kind: str = "value") -> str:
    """'max pooling, window 3×3, stride 2, padding 1; on a tie, …': every setting that
    shapes the answer to a question of `kind`. The windows always; the divisor only
    for a gradient's value (it scales the amounts, never which cells get some, nor the
    output size); the tie rule for cells and values, where a window of x has a tie."""
    words = window_words(config)
    if kind == "value":
        words += divisor_words(config)
    text = ", ".join(words)
    if kind != "size" and ties_matter(x, config):
        text += f"; on a tie, {TIE_WORDS[config.ties].rule}"
    return text


def upstream_words(grad_output: np.ndarray) -> str:
    """What y sends back, for a question about cells (dL/dy (OH, OW), all > 0)."""
    values = np.unique(grad_output)
    if values.size == 1:
        return f"Every cell of y sends back dL/dy = {fmt(values[0])}."
    return "Every cell of y sends back a positive dL/dy."
