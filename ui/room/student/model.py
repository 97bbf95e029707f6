"""What the students' page computes (pure: no Streamlit): a stored token checked, a
nickname made plain, the layer and the question in words true for the question on
screen, an answer as the page writes it, the reply once the answer is revealed, and
whether the room's pulse says the page must be drawn again.

A question's `problem` is an Exercises problem (ui/exercises/model.Problem: x (H, W),
grad_output shaped like y, the engine's answer), so the Exercises' replies and mistake
analysis apply to it unchanged.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.config import Pair

from ...exercises.model import Problem
from ...exercises.replies import Reply, cells_reply, quantity, shown, typed_reply
from ...pure.numbers import fmt
from ...pure.words import MODE_LABELS, TIE_WORDS
from .. import codes

NICKNAME_CHARS = 24  # a nickname is cut here: a name, not a message


def valid_token(stored: object) -> str | None:
    """The token a browser kept, or None when what came back is not one (it is user
    input: any JSON at all)."""
    if codes.valid_token(stored):
        return stored
    return None


def clean_nickname(text: str) -> str:
    """A nickname as plain text: letters, digits, punctuation and single spaces only
    (no control, format or private-use characters), at most NICKNAME_CHARS long. It is
    never rendered as markup either: the page shows it character for character."""
    kept = "".join(
        char if unicodedata.category(char)[0] in "LNPS" else " "
        for char in unicodedata.normalize("NFC", text)
        if unicodedata.category(char) not in ("Cf", "Co", "Cn", "Cs")
    )
    return " ".join(kept.split())[:NICKNAME_CHARS].strip()


# -- the question in words ----------------------------------------------------------------


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


def question_text(problem: Problem) -> str:
    """The question, as markdown (every part computed from the problem)."""
    layer = f"Layer: {layer_words(problem.config, problem.x, kind=problem.kind)}."
    if problem.kind == "cells":
        return (
            f"{layer} {upstream_words(problem.grad_output)} **Tap every cell of x that "
            "receives gradient.** Tap a cell again to take it back."
        )
    if problem.kind == "value":
        r, c = problem.cell
        return (
            f"{layer} The map dL/dy holds each window's upstream gradient. "
            f"**What is dL/dx at ({r}, {c})**, the cell outlined on x? Two decimals are enough."
        )
    height, width = problem.x.shape
    return f"An input of {height} × {width} cells. {layer} **What is the output size?**"


# -- answers ------------------------------------------------------------------------------


def cells_text(cells) -> str:
    """'(0, 1), (2, 2)' in reading order, or 'no cells'."""
    ordered = sorted(cells)
    return ", ".join(f"({r}, {c})" for r, c in ordered) if ordered else "no cells"


def answer_text(problem: Problem, answer) -> str:
    """A saved answer as the page writes it: cells, a number, or 'H × W'."""
    if problem.kind == "cells":
        return cells_text(answer)
    return shown(problem, answer)


def box_text(problem: Problem, answer) -> tuple[str, ...]:
    """A saved answer as the answer boxes hold it (the number box; rows and columns)."""
    if problem.kind == "size":
        return str(answer[0]), str(answer[1])
    return (fmt(float(answer), 6).replace("−", "-"),)


def revealed_reply(problem: Problem, answer) -> Reply:
    """What the page says once the answer is revealed, about this student's answer
    (None: they gave none). The Exercises' replies, with their known mistakes."""
    if answer is None:
        if problem.kind == "cells":
            count = len(problem.answer)
            cells = "the cell that receives" if count == 1 else f"the {count} cells that receive"
            return Reply(False, f"You did not answer. Framed on x: {cells} gradient.")
        return Reply(
            False, f"You did not answer: {quantity(problem)} is {shown(problem, problem.answer)}."
        )
    if problem.kind == "cells":
        return cells_reply(problem, frozenset(answer))
    return typed_reply(problem, answer)


# -- the pulse ----------------------------------------------------------------------------


def pulse_key(pulse) -> tuple | None:
    """What of a room's pulse the page is drawn from (round, state, vote, ended); None
    when there is no pulse (the room is gone)."""
    if pulse is None:
        return None
    return (pulse.round_number, pulse.state, pulse.vote, pulse.ended)


def must_redraw(seen: tuple | None, pulse) -> bool:
    """The page was drawn from pulse `seen`; does `pulse` call for drawing it again?"""
    return pulse_key(pulse) != seen
