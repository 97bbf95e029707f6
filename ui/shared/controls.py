"""Pooling controls: one object per page (`PoolControls`) that declares the pooling
layer's share-link fields, draws its widgets and reads them into a PoolConfig."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import streamlit as st

from pooling import TIES, PoolConfig
from pooling.config import MODES, Mode
from teaching.links import MAX_GRID, Field, flag, int_in, one_of, write_flag
from teaching.words import MODE_HELP, MODE_LABELS, TIE_LABELS, pad_label, tie_help
from ui.shared.state import PoolKeys

# The pooling layer's limits, their one home: the widgets and the links' bounds read them.
KERNEL_MAX, STRIDE_MAX, PADDING_MAX, DILATION_MAX, DIVISOR_MAX = 8, 8, 4, 4, 99
OUTPUT_MAX = MAX_GRID  # an adaptive output as large as the largest grid
Sizing = Literal["window", "output"]
SIZINGS: dict[Sizing, str] = {"window": "Window and stride", "output": "Output size"}


@dataclass(frozen=True)
class PoolControls:
    """The pooling layer's widgets on one page. keys: their session-state keys, from
    the page's state declaration (PoolKeys.under(prefix))."""

    keys: PoolKeys

    @classmethod
    def under(cls, prefix: str) -> PoolControls:
        return cls(PoolKeys.under(prefix))

    @property
    def fields(self) -> list[Field]:
        """The pooling settings as share-link fields."""
        keys = self.keys
        return [
            Field(keys.mode, "mode", "max", one_of(MODES)),
            Field(keys.kh, "kh", 2, int_in(1, KERNEL_MAX)),
            Field(keys.kw, "kw", 2, int_in(1, KERNEL_MAX)),
            Field(keys.sh, "sh", 2, int_in(1, STRIDE_MAX)),
            Field(keys.sw, "sw", 2, int_in(1, STRIDE_MAX)),
            Field(keys.pad, "pad", 0, int_in(0, PADDING_MAX)),
            Field(keys.dil, "dil", 1, int_in(1, DILATION_MAX)),
            Field(keys.ceil, "ceil", False, flag, write_flag),
            Field(keys.cip, "cip", True, flag, write_flag),
            Field(keys.div, "div", 0, int_in(0, DIVISOR_MAX)),
            Field(keys.ties, "ties", "first", one_of(TIES)),
            Field(keys.sizing, "sizing", "window", one_of(tuple(SIZINGS))),
            Field(keys.oh, "oh", 2, int_in(1, OUTPUT_MAX)),
            Field(keys.ow, "ow", 2, int_in(1, OUTPUT_MAX)),
        ]

    def mode(self) -> Mode:
        return st.session_state.get(self.keys.mode, "max")

    def sizing(self) -> Sizing:
        return st.session_state.get(self.keys.sizing, "window")

    def draw_mode(self) -> None:
        """The Pooling radio: max or average."""
        st.radio(
            "Pooling",
            MODES,
            key=self.keys.mode,
            horizontal=True,
            format_func=MODE_LABELS.get,
            help=MODE_HELP,
        )

    def draw(self) -> None:
        """The widgets, in the order a student thinks of them."""
        keys, is_max = self.keys, self.mode() == "max"
        self.draw_mode()
        st.radio(
            "Windows from",
            tuple(SIZINGS),
            key=keys.sizing,
            horizontal=True,
            format_func=SIZINGS.get,
            help="Window and stride: you set the windows, the output size follows. Output "
            "size (adaptive pooling): you set the output, and PyTorch's rule picks each "
            "window: output row i reads input rows floor(i·H/out) up to, not including, "
            "ceil((i+1)·H/out), so windows may differ in size and overlap. Output size 1 × 1 "
            "is global pooling.",
        )
        if self.sizing() == "output":
            _pair(
                "Output",
                (keys.oh, keys.ow),
                OUTPUT_MAX,
                "Cells of the output (1 = global pooling).",
            )
        else:
            self.draw_window(is_max=is_max)
        st.selectbox(
            "Ties",
            TIES,
            key=keys.ties,
            disabled=not is_max,
            format_func=TIE_LABELS.get,
            help=tie_help(),
        )

    def draw_window(self, *, is_max: bool) -> None:
        """Window, stride, padding, dilation, ceil mode and the average's divisor."""
        keys = self.keys
        _pair(
            "Window", (keys.kh, keys.kw), KERNEL_MAX, "Size of each pooling window (kernel_size)."
        )
        _pair(
            "Stride",
            (keys.sh, keys.sw),
            STRIDE_MAX,
            "How far the window moves each step. Smaller than the window: windows overlap.",
        )
        left, right = st.columns(2)
        left.number_input(
            "Padding",
            0,
            PADDING_MAX,
            key=keys.pad,
            help=f"Cells added on every side: {pad_label('max')} for max, {pad_label('avg')} for "
            "average. At most half the window.",
        )
        right.number_input(
            "Dilation",
            1,
            DILATION_MAX,
            key=keys.dil,
            disabled=not is_max,
            help="Gap between the cells a window reads (max pooling only).",
        )
        st.toggle(
            "Ceil mode",
            key=keys.ceil,
            help="Round the output size up: a last, partial window may hang over the edge.",
        )
        st.toggle(
            "Count padding in the average",
            key=keys.cip,
            disabled=is_max,
            help="count_include_pad: divide by the window size including padding cells.",
        )
        st.number_input(
            "Divisor override (0 = off)",
            0,
            DIVISOR_MAX,
            key=keys.div,
            disabled=is_max,
            help="divisor_override: divide every window's sum by this.",
        )

    def config(self) -> PoolConfig:
        """The PoolConfig the widgets describe; ValueError naming the broken rule."""
        state, keys = st.session_state, self.keys
        mode = state[keys.mode]
        if state[keys.sizing] == "output":
            output = (state[keys.oh], state[keys.ow])
            return PoolConfig(mode=mode, output_size=output, ties=state[keys.ties])
        return PoolConfig(
            mode=mode,
            kernel_size=(state[keys.kh], state[keys.kw]),
            stride=(state[keys.sh], state[keys.sw]),
            padding=state[keys.pad],
            dilation=state[keys.dil] if mode == "max" else 1,
            ceil_mode=state[keys.ceil],
            count_include_pad=state[keys.cip],
            divisor_override=(state[keys.div] or None) if mode == "avg" else None,
            ties=state[keys.ties],
        )


def _pair(label: str, keys: tuple[str, str], high: int, help_text: str) -> None:
    """Two number inputs side by side, 1 to `high`: height and width."""
    left, right = st.columns(2)
    left.number_input(f"{label} height", 1, high, key=keys[0], help=help_text)
    right.number_input(f"{label} width", 1, high, key=keys[1], help=help_text)
