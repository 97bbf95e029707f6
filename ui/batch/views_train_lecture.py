"""The Batch page's Training tab in lecture mode: one screen, one idea (each step moves
the kernels and the loss). The projector's 720 px have no row for the learning rate's
slider, the three metrics and a second row of charts: the rate is folded into a
popover, the loss curve and the kernels stand side by side, and the column beside
them holds the player's buttons (1 step →, 10 steps Shift →, Play P, Reset) above the
losses in one sentence. Formatting and placing only."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ..figures.curves import line_figure
from ..figures.mosaic import small_multiples
from ..figures.style import KERNELS_PX, LOSS_CHART_PX, WORDS_PX
from ..minibatch.trajectory import Reached
from ..pure.numbers import fmt
from ..shared.chart import cached, chart
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
    reached: Reached, *, reduction: str, controls: Callable[[], None], note: str
) -> None:
    """The loss curve and the kernels now, the player's buttons and the losses beside
    them, `note` (what a step changes) under the kernels."""
    charts, words = st.columns([LOSS_CHART_PX + KERNELS_PX + PARTS_GAP, WORDS_PX], gap="small")
    with charts:
        loss_place, kernel_place = st.columns([LOSS_CHART_PX, KERNELS_PX], gap="small")
        kernels = reached.params.kernels[:, 0]
        loss = cached(
            line_figure,
            y_values=reached.losses,
            title="Loss after each step",
            x_title="step",
            y_title="loss",
            marker_at=reached.taken,
        )
        with loss_place:
            chart(loss, key=STATE.fig_loss)
        trained = cached(
            small_multiples,
            maps=list(kernels),
            titles=[f"K{f} after step {reached.taken}" for f in range(len(kernels))],
            kind="value",
            most_columns=2,
            width_px=KERNELS_PX,
            colour_bar=False,  # every number is written; its room goes to a second kernel
        )
        with kernel_place:  # the note under the kernels, shorter than the loss curve
            chart(trained, key=STATE.fig_trained_kernels)
            st.caption(note)
    with words:
        controls()
        st.markdown(losses_sentence(reduction, reached.losses))


def losses_sentence(reduction: str, losses: list[float]) -> str:
    """The metrics of the desk's row as one sentence: steps taken, the batch loss now
    and its change from the step before, the loss before the first step."""
    taken = len(losses) - 1
    now = (
        f"Batch loss ({reduction}) after {taken} step{'s' * (taken != 1)}: **{fmt(losses[-1], 4)}**"
    )
    if taken == 0:
        return f"{now}, before any step."
    change = losses[-1] - losses[-2]
    return (
        f"{now} ({'+' if change > 0 else ''}{fmt(change, 4)} from the step before); "
        f"before the first step: {fmt(losses[0], 4)}."
    )
