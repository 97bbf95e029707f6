"""What the "Two examples" tab says of the wrong way (one averaged example run forward and
back once), computed from the pair (pure)."""

from __future__ import annotations

from teaching.batch.pair import PairStory
from teaching.numbers import fmt
from teaching.tolerances import SUMMATION_ORDER


def wrong_sentence(pair: PairStory) -> str:
    if pair.wrong_gap < SUMMATION_ORDER:
        return (
            "Here the two ways agree on kernel "
            f"{pair.feature}: neither example sends it any gradient that averaging could change."
            if not pair.kernel_grads.any()
            else "Here the two ways happen to agree on this kernel, to the last digit."
        )
    gap = f"Largest gap between the wrong and the right dL/dK: **{fmt(pair.wrong_gap, 4)}**."
    products = (
        "each example's kernel gradient multiplies its own error with its own image, and "
        "the mean of those products is in general not the product of the means"
    )
    if not pair.batch.is_max:
        return f"{products[0].upper()}{products[1:]}. {gap}"
    borrowed, windows = pair.borrowed_windows()
    if borrowed == 0:
        return (
            "Here every winner of the averaged image is a winner of both examples in that "
            f"window, yet the gradients differ: {products}. {gap}"
        )
    return (
        f"The averaged image picks its own winners: in {borrowed} of its {windows} windows, "
        "one of them is not a winner of both examples. There the wrong way sends at least "
        f"one example's error to a cell that example did not pick there. {gap}"
    )
