"""Pooling controls: widgets with stable keys that turn into a PoolConfig."""

from __future__ import annotations

import streamlit as st

from pooling import TIES, PoolConfig

from ..pure.links import Field, flag, int_in, one_of, write_flag
from ..pure.words import MODE_HELP, MODE_LABELS, TIE_LABELS, tie_help

KERNEL_MAX, STRIDE_MAX, PADDING_MAX, DILATION_MAX, DIVISOR_MAX = 8, 8, 4, 4, 99
OUTPUT_MAX = 16
SIZINGS = {"window": "Window and stride", "output": "Output size"}


def pool_fields(prefix: str) -> list[Field]:
    """The pooling settings as share-link fields."""
    return [
        Field(f"{prefix}_mode", "mode", "max", one_of(("max", "avg"))),
        Field(f"{prefix}_kh", "kh", 2, int_in(1, KERNEL_MAX)),
        Field(f"{prefix}_kw", "kw", 2, int_in(1, KERNEL_MAX)),
        Field(f"{prefix}_sh", "sh", 2, int_in(1, STRIDE_MAX)),
        Field(f"{prefix}_sw", "sw", 2, int_in(1, STRIDE_MAX)),
        Field(f"{prefix}_pad", "pad", 0, int_in(0, PADDING_MAX)),
        Field(f"{prefix}_dil", "dil", 1, int_in(1, DILATION_MAX)),
        Field(f"{prefix}_ceil", "ceil", False, flag, write_flag),
        Field(f"{prefix}_cip", "cip", True, flag, write_flag),
        Field(f"{prefix}_div", "div", 0, int_in(0, DIVISOR_MAX)),
        Field(f"{prefix}_ties", "ties", "first", one_of(TIES)),
        Field(f"{prefix}_sizing", "sizing", "window", one_of(tuple(SIZINGS))),
        Field(f"{prefix}_oh", "oh", 2, int_in(1, OUTPUT_MAX)),
        Field(f"{prefix}_ow", "ow", 2, int_in(1, OUTPUT_MAX)),
    ]


def _pair(prefix: str, name: str, label: str, low: int, high: int, help_text: str) -> None:
    left, right = st.columns(2)
    left.number_input(f"{label} height", low, high, key=f"{prefix}_{name}h", help=help_text)
    right.number_input(f"{label} width", low, high, key=f"{prefix}_{name}w", help=help_text)


def window_controls(prefix: str, *, is_max: bool) -> None:
    """Window, stride, padding, dilation, ceil mode and the average's divisor."""
    _pair(prefix, "k", "Window", 1, KERNEL_MAX, "Size of each pooling window (kernel_size).")
    _pair(
        prefix,
        "s",
        "Stride",
        1,
        STRIDE_MAX,
        "How far the window moves each step. Smaller than the window: windows overlap.",
    )
    left, right = st.columns(2)
    left.number_input(
        "Padding",
        0,
        PADDING_MAX,
        key=f"{prefix}_pad",
        help="Cells added on every side: −∞ for max, 0 for average. At most half the window.",
    )
    right.number_input(
        "Dilation",
        1,
        DILATION_MAX,
        key=f"{prefix}_dil",
        disabled=not is_max,
        help="Gap between the cells a window reads (max pooling only).",
    )
    st.toggle(
        "Ceil mode",
        key=f"{prefix}_ceil",
        help="Round the output size up: a last, partial window may hang over the edge.",
    )
    st.toggle(
        "Count padding in the average",
        key=f"{prefix}_cip",
        disabled=is_max,
        help="count_include_pad: divide by the window size including padding cells.",
    )
    st.number_input(
        "Divisor override (0 = off)",
        0,
        DIVISOR_MAX,
        key=f"{prefix}_div",
        disabled=is_max,
        help="divisor_override: divide every window's sum by this.",
    )


def pool_controls(prefix: str) -> None:
    """The widgets, in the order a student thinks of them."""
    state = st.session_state
    is_max = state.get(f"{prefix}_mode", "max") == "max"
    st.radio(
        "Pooling",
        ["max", "avg"],
        key=f"{prefix}_mode",
        horizontal=True,
        format_func=MODE_LABELS.get,
        help=MODE_HELP,
    )
    st.radio(
        "Windows from",
        tuple(SIZINGS),
        key=f"{prefix}_sizing",
        horizontal=True,
        format_func=SIZINGS.get,
        help="Window and stride: you set the windows, the output size follows. Output "
        "size (adaptive pooling): you set the output, and PyTorch's rule picks each "
        "window: output row i reads input rows floor(i·H/out) up to, not including, "
        "ceil((i+1)·H/out), so windows may differ in size and overlap. Output size 1 × 1 "
        "is global pooling.",
    )
    if state.get(f"{prefix}_sizing", "window") == "output":
        _pair(prefix, "o", "Output", 1, OUTPUT_MAX, "Cells of the output (1 = global pooling).")
    else:
        window_controls(prefix, is_max=is_max)
    st.selectbox(
        "Ties",
        TIES,
        key=f"{prefix}_ties",
        disabled=not is_max,
        format_func=TIE_LABELS.get,
        help=tie_help(),
    )


def config_from_state(prefix: str) -> PoolConfig:
    """The PoolConfig the widgets describe; ValueError naming the broken rule."""
    state = st.session_state
    mode = state[f"{prefix}_mode"]
    if state[f"{prefix}_sizing"] == "output":
        output = (state[f"{prefix}_oh"], state[f"{prefix}_ow"])
        return PoolConfig(mode=mode, output_size=output, ties=state[f"{prefix}_ties"])
    return PoolConfig(
        mode=mode,
        kernel_size=(state[f"{prefix}_kh"], state[f"{prefix}_kw"]),
        stride=(state[f"{prefix}_sh"], state[f"{prefix}_sw"]),
        padding=state[f"{prefix}_pad"],
        dilation=state[f"{prefix}_dil"] if mode == "max" else 1,
        ceil_mode=state[f"{prefix}_ceil"],
        count_include_pad=state[f"{prefix}_cip"],
        divisor_override=(state[f"{prefix}_div"] or None) if mode == "avg" else None,
        ties=state[f"{prefix}_ties"],
    )
