"""The Batch page's last two tabs: SGD steps on the batch, and the five-weight example."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures.curves import line_figure
from ..figures.mosaic import small_multiples
from ..figures.style import HALF_PX, WEIGHT_COLUMN_PX
from ..minibatch.story import SEED_GRADIENTS, BatchStory, batch_mean
from ..minibatch.trajectory import Reached, Trajectory
from ..pure.numbers import fmt, metric_delta
from ..shared.chart import cached, chart
from ..shared.grid_editor import parse_edited
from ..shared.lecture import lecture_on
from ..shared.player import Steps, is_playing, move, play_button, player, stop
from .cache import trajectory_of
from .state import LEARNING_RATES, STATE, publish
from .views_train_lecture import lecture_training, rate_popover

WHAT_A_STEP_CHANGES = (
    "Pooling has no weights: each step changes the convolution kernels (drawn here) "
    "and biases through the gradient the pool routes back (a kernel whose ReLU is off "
    "at every position of every example gets none), and the linear layer after the pool."
)


def training_view(story: BatchStory) -> None:
    if lecture_on():
        rate_popover()
    else:
        st.select_slider(
            "Learning rate",
            LEARNING_RATES,
            key=STATE.rate,
            help="How far one step moves the weights along −dL/dθ.",
        )
    trajectory = trajectory_of(story.settings)
    steps = Steps(
        keys=STATE.trainer,
        count=STATE.STEPS_MAX + 1,
        noun="step",
        slider_label="Steps taken",
        help_text="",
        single_note="",
        seconds=0.4,
    )
    if lecture_on():  # the buttons beside the charts, drawn with them
        player(
            steps,
            draw=lambda taken: lecture_figures(story, steps, trajectory, taken),
            publish=publish,
            controls=lambda _steps: None,
        )
        return
    player(
        steps,
        draw=lambda taken: training_figures(story, trajectory.reach(taken)),
        publish=publish,
        controls=lambda steps: training_controls(steps, trajectory),
    )


def lecture_figures(story: BatchStory, steps: Steps, trajectory: Trajectory, taken: int) -> None:
    reached = trajectory.reach(taken)

    def controls() -> None:  # the buttons, and under them why they stopped, if they did
        training_controls(steps, trajectory)
        alert(story, reached, short=True)

    lecture_training(
        reached, reduction=story.reduction, controls=controls, note=WHAT_A_STEP_CHANGES
    )


def training_controls(steps: Steps, trajectory: Trajectory) -> None:
    """One step, ten, Play/Pause and Reset. A run that diverges stops at its last
    finite step: the count goes back there and Play stops."""
    reached = trajectory.reach(STATE.steps_taken())
    if reached.diverged_at is not None and STATE.steps_taken() > reached.taken:
        st.session_state[STATE.steps] = reached.taken
        if is_playing(steps.keys):
            stop(steps.keys)
            st.rerun(scope="app")  # the page again, with a fragment without a timer
    stuck = STATE.steps_taken() >= STATE.STEPS_MAX or reached.diverged_at is not None
    buttons = st.container(horizontal=True, gap="small")
    for label, delta, icon, key, help_text in (
        ("1 step", 1, ":material/south:", "right", "θ ← θ − η · (batch gradient), every weight"),
        ("10 steps", 10, ":material/keyboard_double_arrow_down:", "shift+right", "Ten at once"),
    ):
        buttons.button(
            label,
            key=STATE.train_button(delta),
            icon=icon,
            on_click=move,
            args=(steps, delta),
            disabled=stuck,
            shortcut=key,
            help=f"{help_text} ({key.replace('shift+', 'Shift ').replace('right', '→')} key).",
        )
    play_button(buttons, steps, help_text="A step every moment.", disabled=stuck)
    buttons.button(
        "Reset",
        key=STATE.train_reset,
        icon=":material/restart_alt:",
        on_click=move,
        args=(steps, -STATE.STEPS_MAX),
        disabled=STATE.steps_taken() == 0,
        help="Back to the weights before the first step (the steps stay computed).",
    )


def alert(story: BatchStory, reached: Reached, *, short: bool = False) -> None:
    """Why the steps stopped, if they did: a run that diverged, or the last step.
    short: in the narrow column beside the charts (lecture mode), the bare facts."""
    if reached.diverged_at is not None:
        said = short_divergence_text(story, reached) if short else divergence_text(story, reached)
        st.error(said, icon=":material/trending_up:")
    elif reached.taken >= STATE.STEPS_MAX:
        st.info(f"{STATE.STEPS_MAX} steps is as far as this page trains; Reset to start again.")


def training_figures(story: BatchStory, reached: Reached) -> None:
    alert(story, reached)
    loss_metrics(story.reduction, reached.losses)
    left, right = st.columns([3, 2])
    (loss_builder, loss_args), (kernel_builder, kernel_args) = training_charts(reached)
    with left:
        chart(cached(loss_builder, **loss_args), key=STATE.fig_loss)
    with right:
        chart(cached(kernel_builder, **kernel_args), key=STATE.fig_trained_kernels)
    st.caption(WHAT_A_STEP_CHANGES)


def training_charts(reached: Reached) -> list[tuple]:
    """(builder, its arguments) of the loss curve and of the kernels now: what a step
    of training redraws."""
    kernels = reached.params.kernels[:, 0]
    return [
        (
            line_figure,
            dict(
                y_values=reached.losses,
                title="Loss after each step",
                x_title="step",
                y_title="loss",
                marker_at=reached.taken,
            ),
        ),
        (
            small_multiples,
            dict(
                maps=list(kernels),
                titles=[f"K{f} after step {reached.taken}" for f in range(len(kernels))],
                kind="value",
                most_columns=2,
                width_px=HALF_PX,
            ),
        ),
    ]


def divergence_text(story: BatchStory, reached: Reached) -> str:
    return (
        f"Step {reached.diverged_at} ran away: at learning rate {story.settings.learning_rate} "
        f"with the {story.reduction} loss, each step overshoots the minimum further than the "
        "last, and the loss grows instead of shrinking. Training stopped there; what you see "
        f"is after step {reached.taken}. Reset, and try a smaller learning rate"
        + (
            " or the mean loss (the sum makes each step N times longer)."
            if story.reduction == "sum"
            else "."
        )
    )


def short_divergence_text(story: BatchStory, reached: Reached) -> str:
    smaller = " or the mean loss" if story.reduction == "sum" else ""
    return (
        f"Step {reached.diverged_at} ran away: the loss grew. Shown: after step "
        f"{reached.taken}. Reset; try a smaller learning rate{smaller}."
    )


def loss_metrics(reduction: str, losses: list[float]) -> None:
    cells = st.columns(3)
    cells[0].metric("Steps taken", len(losses) - 1)
    cells[1].metric(
        f"Batch loss ({reduction})",
        fmt(losses[-1], 4),
        delta=None if len(losses) < 2 else metric_delta(losses[-1] - losses[-2], 4),
        delta_color="inverse",
        help="The change is from the step before.",
    )
    cells[2].metric("Before the first step", fmt(losses[0], 4))


def worked_example_view(reduction: str) -> None:
    st.markdown(
        "Five weights, a batch of two: each example brings its own gradient, and the "
        f"batch's is their {reduction} (the sidebar's loss). Change any number."
    )
    columns = [f"w{i + 1}" for i in range(SEED_GRADIENTS.shape[1])]
    frame = pd.DataFrame(SEED_GRADIENTS, columns=columns, index=["#1", "#2"])
    edited = st.data_editor(
        frame,
        key=STATE.worked,
        width="content",
        column_config={
            c: st.column_config.NumberColumn(c, format="plain", width=WEIGHT_COLUMN_PX)
            for c in columns
        },
    )
    try:
        grads = parse_edited(edited)
    except ValueError as error:
        st.error(str(error))
        return
    reduced, cancelled = batch_mean(grads, reduction)
    st.dataframe(
        pd.DataFrame([reduced], columns=columns, index=[f"batch ({reduction})"]).map(fmt),
        width="content",
        key=STATE.worked_mean,
    )
    if cancelled:
        zero = [columns[i] for i in cancelled]
        st.caption(
            f"{', '.join(zero)}: the examples pull in opposite directions and cancel; "
            "this step leaves it where it is."
        )
