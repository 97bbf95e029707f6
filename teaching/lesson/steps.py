"""The guided lesson's steps, in the order of the teaching points (routing, the
winner remembered, averaging, overlap, ties, the matrix; then the batch), built once
per process."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from teaching.lesson.model import Step
from teaching.lesson.steps_batch import BATCH_STEPS
from teaching.lesson.steps_layer import LAYER_STEPS


@cache
def lesson_steps() -> tuple[Step, ...]:
    """Built with the right answer first; shown with the choices turned a step further
    each time, so that the right one is not always in the same place."""
    built = [build() for build in (*LAYER_STEPS, *BATCH_STEPS)]
    return tuple(
        replace(step, choices=step.choices[turn:] + step.choices[:turn])
        for step, turn in ((step, index % len(step.choices)) for index, step in enumerate(built))
    )


STEP_COUNT = len(LAYER_STEPS) + len(BATCH_STEPS)
