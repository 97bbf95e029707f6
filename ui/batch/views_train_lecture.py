"""The Batch page's Training tab in lecture mode: one screen, one idea (each step moves
the kernels and the loss). The projector's 720 px have no row for the learning rate's
slider, the three metrics and a second row of charts: the rate is folded into a
popover, the loss curve and the kernels stand side by side, and the column beside
them holds the frame player (Back ←, 1 step →, 10 steps Shift →, Reset, Play P, the
slider) above the losses in one sentence and, where the steps stop, why. Formatting
and placing only."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go
import streamlit as st

from teaching.numbers import fmt

from ..figures.style import KERNELS_PX, LOSS_CHART_PX, WORDS_PX
from ..shared.chart import chart
from .state import LEARNING_RATES, STATE

PARTS_GAP = 16  # st.columns' small gap


def rate_popover() -> None:
    """The learning rate, folded: the popover's label says the rate in use."""
    rate = st.session_state[STATE.rate]
    with st.popover(f"Learning rate {fmt(rate)}", icon=":material/speed:"):
        st.select_slider(
            "Learning rate",
            LEARNING_RATES,
            key=STATE.rate,
            help="How far one step moves the weights along −dL/dθ.",
        )


def lecture_training(
    loss: go.Figure, kernels: go.Figure, *, controls: Callable[[], None], note: str
) -> None:
    """The loss curve and the kernels now side by side, `note` (what a step changes)
    under the kernels, and beside them the player (controls(): its buttons, the losses
    in a sentence)."""
    charts, words = st.columns([LOSS_CHART_PX + KERNELS_PX + PARTS_GAP, WORDS_PX], gap="small")
    with charts:
        loss_place, kernel_place = st.columns([LOSS_CHART_PX, KERNELS_PX], gap="small")
        with loss_place:
            chart(loss, key=STATE.fig_loss)
        with kernel_place:  # the note under the kernels, shorter than the loss curve
            chart(kernels, key=STATE.fig_trained_kernels)
            st.caption(note)
    with words:
        controls()
