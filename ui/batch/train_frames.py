"""The Training tab's frames (pure: no Streamlit): one per state of a training run, t
steps taken, for the browser's player (ui/shared/frame_player.py) to play. Frame t is the
loss curve up to step t, the kernels after step t and the losses in a sentence; the
figures the server draws for step t are built from the same arguments (loss_arguments,
kernel_arguments), so every frame the browser draws is the figure the server would
send for it.

The run is computed a block at a time: the first up to the step the link names and
BLOCK more, then BLOCK more each time the browser nears the end of what it has, up to
STEPS_MAX. A run that diverges ends at its last finite step, said in that frame's note.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from teaching.batch.train_words import divergence_text, losses_sentence
from teaching.batch.trajectory import Reached, Trajectory
from teaching.numbers import fmt
from ui.figures.frame_data import line_frames_data, traces_frames_data
from ui.figures.mosaic import (
    MosaicFit,
    MosaicOptions,
    mosaic_fit,
    mosaic_layout_px,
    small_multiples,
)

BLOCK = 20  # steps a block adds
AHEAD = 10  # frames before the last the browser asks for the next block (2.5 s of Play)
STEPS_MAX = 200  # the page's limit (state.BatchState.TRAIN_STEPS_MAX)
LOSS_TITLE = "Loss after each step"
LOSS_X = "step"  # the loss curve's x axis
LOSS_TRACE = "loss"  # the curve's trace: line_figure names it after its y title
KERNELS_A_ROW = 2


@dataclass(frozen=True)
class KernelLook:
    """How the kernels' mosaic is laid out: its column's width, whether it has a colour
    bar (a desk's) and lecture size."""

    width_px: int
    colour_bar: bool
    lecture: bool


def loss_arguments(losses: list[float]) -> dict:
    """line_figure's arguments for the loss curve after len(losses) - 1 steps."""
    return dict(
        y_values=list(losses),
        title=LOSS_TITLE,
        x_title=LOSS_X,
        y_title=LOSS_TRACE,
        marker_at=len(losses) - 1,
    )


def kernel_maps(reached: Reached) -> np.ndarray:
    """(F, K, K): each kernel (of the one input channel) after the steps taken."""
    return reached.params.kernels[:, 0]


def kernel_titles(taken: int, count: int) -> list[str]:
    return [f"K{f} after step {taken}" for f in range(count)]


def kernels_fit(states: list[Reached], look: KernelLook) -> MosaicFit:
    """How the kernels are written in every frame of `states`: one fit over all."""
    every = np.concatenate([kernel_maps(state) for state in states])
    titles = [t for s in states for t in kernel_titles(s.taken, len(kernel_maps(s)))]
    return mosaic_fit(
        every,
        titles,
        kind="value",
        most_columns=KERNELS_A_ROW,
        layout_px=mosaic_layout_px(look.width_px, lecture=look.lecture, colour_bar=look.colour_bar),
        lecture=look.lecture,
    )


def kernel_arguments(reached: Reached, fitted: MosaicFit, look: KernelLook) -> dict:
    """small_multiples' arguments for the kernels after reached.taken steps."""
    kernels = kernel_maps(reached)
    return dict(
        maps=list(kernels),
        titles=kernel_titles(reached.taken, len(kernels)),
        options=MosaicOptions(
            kind="value",
            most_columns=KERNELS_A_ROW,
            width_px=look.width_px,
            colour_bar=look.colour_bar,
            fitted=fitted,
        ),
        lecture=look.lecture,
    )


def run_states(trajectory: Trajectory, last: int) -> list[Reached]:
    """The states after 0, 1, ... steps, up to `last` or the last finite step."""
    reached = trajectory.reach(min(last, STEPS_MAX))
    return [trajectory.reach(taken) for taken in range(reached.taken + 1)]


# -- words ------------------------------------------------------------------------------


def step_line(rate: float, reduction: str) -> str:
    return f"Each step: θ ← θ − {fmt(rate)} · dL/dθ, L the batch's {reduction} loss."


def short_divergence_text(reached: Reached, *, reduction: str) -> str:
    smaller = " or the mean loss" if reduction == "sum" else ""
    return (
        f"Step {reached.diverged_at} ran away: the loss grew. Shown: after step "
        f"{reached.taken}. Reset; try a smaller learning rate{smaller}."
    )


LIMIT_TEXT = f"{STEPS_MAX} steps is as far as this page trains; Reset to start again."


def state_note(reached: Reached, *, rate: float, reduction: str, short: bool) -> dict | None:
    """Why the steps stop at `reached`, if they do: the run diverged after it, or it is
    the page's last step. short: for a projector's narrow column."""
    if reached.diverged_at is not None:
        said = (
            short_divergence_text(reached, reduction=reduction)
            if short
            else divergence_text(reached, rate=rate, reduction=reduction)
        )
        return {"kind": "error", "text": said}
    if reached.taken >= STEPS_MAX:
        return {"kind": "info", "text": LIMIT_TEXT}
    return None


def frame_words(states: list[Reached], *, rate: float, reduction: str, short: bool) -> list:
    """Each state's words: the losses' sentence, the step's rule (left out on a
    projector), and on the last state kept the reason the steps stop, if they do."""
    words = []
    for reached in states:
        said = {
            "sentence": losses_sentence(reduction, reached.losses),
            "line": step_line(rate, reduction),
            "aside": 1,
        }
        note = state_note(reached, rate=rate, reduction=reduction, short=short)
        if note is not None:
            said["note"] = note
        words.append(said)
    return words


# -- frames -------------------------------------------------------------------------------


class KernelFrames:
    """The kernels' figure of each state of one run for one look, built once per
    state and fit (a block that keeps the fit reuses every earlier frame's). Shared
    between sessions: a lock keeps two from building at once."""

    def __init__(self, look: KernelLook):
        self.look = look
        self._figures: dict[tuple[int, MosaicFit], object] = {}
        self._lock = threading.Lock()

    def data(self, states: list[Reached], fitted: MosaicFit, *, key: str) -> dict:
        """traces_frames_data of the kernels in every state, on the chart keyed `key`."""
        with self._lock:
            figures = [self._figure(state, fitted) for state in states]
        names = tuple(trace.name for trace in figures[0].data if trace.name in ("value", "titles"))
        return traces_frames_data(figures, key=key, names=names)

    def _figure(self, state: Reached, fitted: MosaicFit):
        key = (state.taken, fitted)
        if key not in self._figures:
            self._figures[key] = small_multiples(**kernel_arguments(state, fitted, self.look))
        return self._figures[key]


@dataclass(frozen=True)
class TrainingBlock:
    """The frames of `states` (0..len - 1 steps taken): per chart what the browser
    draws (charts), per frame its words, the kernels' fit over all of them, and
    whether it is the run's last block (final: it diverged, or reached STEPS_MAX)."""

    states: tuple[Reached, ...]
    charts: list[dict]
    words: list[dict]
    fitted: MosaicFit
    final: bool


def training_block(
    states: list[Reached],
    kernels: KernelFrames,
    *,
    keys: tuple[str, str],
    rate: float,
    reduction: str,
) -> TrainingBlock:
    """The frames of `states`: the loss curve growing on the chart keyed keys[0], the
    kernels on keys[1], the words (short notes on a projector)."""
    fitted = kernels_fit(states, kernels.look)
    last = states[-1]
    charts = [
        line_frames_data(
            last.losses,
            key=keys[0],
            trace=LOSS_TRACE,
            now="now",
            grow=True,
            titles=(LOSS_TITLE, LOSS_X),
        ),
        kernels.data(states, fitted, key=keys[1]),
    ]
    words = frame_words(states, rate=rate, reduction=reduction, short=kernels.look.lecture)
    final = last.diverged_at is not None or last.taken >= STEPS_MAX
    return TrainingBlock(tuple(states), charts, words, fitted, final)
