"""The Batch page's last two tabs: SGD steps on the batch, and the five-weight example."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures.curves import line_figure
from ..shared.chart import cached, chart
from ..shared.grid_editor import parse_edited
from ..shared.numbers import fmt
from .model import SEED_GRADIENTS, BatchLesson, batch_mean
from .state import LEARNING_RATES, RATE, STEPS, STEPS_MAX, P, reset_training, take_step


def training_view(lesson: BatchLesson) -> None:
    steps = st.session_state[STEPS]
    left, middle, right = st.columns([2, 1, 1], vertical_alignment="bottom")
    left.select_slider(
        "Learning rate",
        LEARNING_RATES,
        key=RATE,
        help="How far one step moves the weights along −dL/dθ.",
    )
    middle.button(
        "SGD step",
        key=f"{P}_sgd",
        icon=":material/south:",
        on_click=take_step,
        disabled=steps >= STEPS_MAX or lesson.diverged_at is not None,
        width="stretch",
        help="θ ← θ − learning rate × (batch gradient), for every weight.",
    )
    right.button("Reset weights", key=f"{P}_reset", on_click=reset_training, width="stretch")
    if lesson.diverged_at is not None:
        st.error(divergence_text(lesson, st.session_state[RATE]), icon=":material/trending_up:")
    elif steps >= STEPS_MAX:
        st.info(f"{STEPS_MAX} steps is as far as this page trains; reset to start again.")
    loss_metrics(lesson)
    figure = cached(
        line_figure,
        y_values=lesson.losses,
        title="Loss after each step",
        x_title="step",
        y_title="loss",
    )
    chart(figure, key=f"{P}_fig_loss")
    st.caption(
        "Pooling has no weights: the step changes the convolution kernels and biases "
        "(through the routed gradient) and the linear layer after the pool."
    )


def divergence_text(lesson: BatchLesson, rate: float) -> str:
    shown = lesson.diverged_at - 1
    return (
        f"Step {lesson.diverged_at} ran away: at learning rate {rate} with the "
        f"{lesson.reduction} loss, each step overshoots the minimum further than the last, "
        "and the loss grows instead of shrinking. Training stopped there; what you see is "
        f"after step {shown}. Reset, and try a smaller learning rate"
        + (
            " or the mean loss (the sum makes each step N times longer)."
            if lesson.reduction == "sum"
            else "."
        )
    )


def loss_metrics(lesson: BatchLesson) -> None:
    losses = lesson.losses
    cells = st.columns(3)
    cells[0].metric("Steps taken", len(losses) - 1)
    cells[1].metric(
        f"Batch loss ({lesson.reduction})",
        fmt(losses[-1], 4),
        delta=None if len(losses) < 2 else fmt(losses[-1] - losses[-2], 4),
        delta_color="inverse",
        help="The change is from the step before.",
    )
    cells[2].metric("Before the first step", fmt(losses[0], 4))


def worked_example_view() -> None:
    st.markdown(
        "Five weights, a batch of two: each example brings its own gradient, and the "
        "batch's is their mean. Change any number."
    )
    columns = [f"w{i + 1}" for i in range(SEED_GRADIENTS.shape[1])]
    frame = pd.DataFrame(SEED_GRADIENTS, columns=columns, index=["example 1", "example 2"])
    edited = st.data_editor(
        frame,
        key=f"{P}_worked",
        width="content",
        column_config={c: st.column_config.NumberColumn(c, format="plain") for c in columns},
    )
    try:
        grads = parse_edited(edited)
    except ValueError as error:
        st.error(str(error))
        return
    mean, cancelled = batch_mean(grads)
    st.dataframe(
        pd.DataFrame([mean], columns=columns, index=["mean = batch gradient"]).map(fmt),
        width="content",
        key=f"{P}_worked_mean",
    )
    if cancelled:
        zero = [columns[i] for i in cancelled]
        st.caption(
            f"{', '.join(zero)}: the examples pull in opposite directions and cancel; "
            "this step leaves it where it is."
        )
