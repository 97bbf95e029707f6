"""The Training tab's sentences (pure): the losses reached, and why a run that ran away
stopped; ui/batch/train_frames.py puts them in the frames the browser plays."""

from __future__ import annotations

from teaching.batch.trajectory import Reached
from teaching.numbers import fmt


def losses_sentence(reduction: str, losses: list[float]) -> str:
    """The desk's three metrics as one sentence: steps taken, the batch loss now and
    its change from the step before, the loss before the first step."""
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


def divergence_text(reached: Reached, *, rate: float, reduction: str) -> str:
    return (
        f"Step {reached.diverged_at} ran away: at learning rate {rate} "
        f"with the {reduction} loss, each step overshoots the minimum further than the "
        "last, and the loss grows instead of shrinking. Training stopped there; what you see "
        f"is after step {reached.taken}. Reset, and try a smaller learning rate"
        + (
            " or the mean loss (the sum makes each step N times longer)."
            if reduction == "sum"
            else "."
        )
    )
