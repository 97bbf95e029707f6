"""The Batch page's last two tabs: SGD steps on the batch, and the five-weight example.

Training plays in the browser (ui/shared/frame_player.py): the run's states are computed on
the server a block at a time (train_frames.py; the browser asks for the next as it
nears the end of what it has) and stepped, jumped and played there, with no script run
per step. The server draws the charts at the step it knows (the link's, or where Play
stopped); every frame the browser draws on them is the figure it would have drawn.

In lecture mode the Training tab is one screen, one idea (each step moves the kernels
and the loss). The projector's 720 px have no row for the learning rate's slider, the
three metrics and a second row of charts: the rate is folded into a popover, the loss
curve and the kernels stand side by side, and the column beside them holds the frame
player (Back ←, 1 step →, 10 steps Shift →, Reset, Play P, the slider) above the losses
in one sentence and, where the steps stop, why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from teaching.batch.story import SEED_GRADIENTS, BatchStory, batch_mean
from teaching.numbers import fmt
from ui.batch.cache import stream_id, training_frames
from ui.batch.state import (
    FIELDS,
    LEARNING_RATES,
    STATE,
    on_train_more,
    on_train_moved,
    publish,
    train_frames_wanted,
)
from ui.batch.train_frames import KernelLook, TrainingBlock, kernel_arguments, loss_arguments
from ui.figures.curves import line_figure
from ui.figures.mosaic import small_multiples
from ui.figures.style import HALF_PX, KERNELS_PX, LOSS_CHART_PX, WEIGHT_COLUMN_PX, WORDS_PX
from ui.shared.chart import cached, chart
from ui.shared.frame_player import FrameWords, frame_player
from ui.shared.grid_editor import grid_editor, grid_text_field, set_grid
from ui.shared.lecture import lecture_on

WHAT_A_STEP_CHANGES = (
    "Pooling has no weights. Each step changes the linear layer after the pool, and the "
    "convolution kernels (drawn here) and biases through the gradient the pool routes "
    "back. A kernel whose ReLU is off at every position of every example gets none."
)
WORDS = FrameWords(
    noun="step",
    slider="Steps taken",
    slider_help="The weights after this many SGD steps on the batch.",
    single="The first step already ran away: there are only the weights before it.",
    others={
        "next": "1 step",
        "next_help": "θ ← θ − η · (batch gradient), every weight (→ key).",
        "back_help": "The weights a step before (← key).",
        "play_help": "A step after another; more are computed as they are wanted (P key).",
        "count": "{n} of {of} computed",
    },
)
JUMPS = (
    {
        "label": "10 steps",
        "help": "Ten steps on (Shift → key).",
        "key": "shift+ArrowRight",
        "delta": 10,
    },
    {
        "label": "Reset",
        "help": "Back to the weights before the first step (the steps stay computed).",
        "to": 0,
    },
)
EXAMPLES = ["#1", "#2"]  # the rows of the five weights' table: its two examples
WEIGHTS_NAME = "The gradients of #1 and #2"
WEIGHTS_WHY = "a row per example, a value per weight"
WEIGHTS_CAPTION = "A row per example, a column per weight: each example's own gradient."
STEPS_LINK = next(f.url for f in FIELDS if f.key == STATE.train_steps)
CHARTS = (STATE.fig_loss, STATE.fig_trained_kernels)


def kernel_look(lecture: bool) -> KernelLook:
    """A desk's kernels in the right column with a colour bar; a projector's beside the
    loss curve, every number written (the bar's room goes to a second kernel)."""
    return KernelLook(
        width_px=KERNELS_PX if lecture else HALF_PX, colour_bar=not lecture, lecture=lecture
    )


def training_view(story: BatchStory) -> None:
    lecture = lecture_on()
    if lecture:
        rate_popover()
    else:
        st.select_slider(
            "Learning rate",
            LEARNING_RATES,
            key=STATE.rate,
            help="How far one step moves the weights along −dL/dθ.",
        )
    look = kernel_look(lecture)
    stream = stream_id(story.settings, look)
    block, payload = training_frames(
        story.settings,
        last=train_frames_wanted(stream),
        look=look,
        keys=CHARTS,
        link=STEPS_LINK,
        words=WORDS,
        jumps=JUMPS,
    )
    step = step_shown(block)
    player = dict(
        keys=STATE.trainer,
        position=step,
        on_move=on_train_moved,
        on_more=partial(on_train_more, stream),
        lecture=lecture,
    )
    loss, kernels = training_figures(block, step, look)
    if lecture:
        lecture_training(
            loss,
            kernels,
            controls=lambda: frame_player(payload, **player),
            note=WHAT_A_STEP_CHANGES,
        )
        return
    frame_player(payload, **player)  # the buttons, the losses in a sentence, a note
    left, right = st.columns([3, 2])
    with left:
        chart(loss, key=STATE.fig_loss)
    with right:
        chart(kernels, key=STATE.fig_trained_kernels)
    st.caption(WHAT_A_STEP_CHANGES)


def step_shown(block: TrainingBlock) -> int:
    """The step the link asks for, or the run's last finite one if it diverged before:
    the link is told so."""
    last = len(block.states) - 1
    if STATE.train_steps_taken() > last:
        st.session_state[STATE.train_steps] = last
        publish()
    return STATE.train_steps_taken()


def training_figures(block: TrainingBlock, step: int, look: KernelLook) -> tuple:
    """The loss curve up to `step` and the kernels after it, as the browser draws that
    frame (the same arguments, the kernels fitted over every frame of the block)."""
    reached = block.states[step]
    loss = cached(line_figure, **loss_arguments(reached.losses))
    kernels = cached(small_multiples, **kernel_arguments(reached, block.fitted, look))
    return loss, kernels


def worked_example_view(reduction: str) -> None:
    st.markdown(
        "Five weights, a batch of two: each example brings its own gradient, and the "
        f"batch's is their {reduction} (the sidebar's loss). Change any number."
    )
    columns = [f"w{i + 1}" for i in range(SEED_GRADIENTS.shape[1])]
    keys = STATE.worked
    if keys.base not in st.session_state:
        set_grid(keys, SEED_GRADIENTS)
    grads = grid_editor(
        keys, WEIGHTS_CAPTION, columns=columns, index=EXAMPLES, column_px=WEIGHT_COLUMN_PX
    )
    # A keyboard and a screen reader type the table here (issue 39).
    grid_text_field(keys, name=WEIGHTS_NAME, shape=SEED_GRADIENTS.shape, why=WEIGHTS_WHY)
    if grads is None:
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


# -- lecture mode: one screen ---------------------------------------------------------

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
