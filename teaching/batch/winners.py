"""What the Batch page's Winners tab says (pure: no Streamlit): who picked each cell of a
window across the batch, and the first seed's idea, "split the gradient over every
cell that was a maximum in any example", against the right way and the check."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cnn.split_winners import SPLITS
from pooling.config import Cell
from pooling.geometry import plane_geometry
from teaching.batch.story import BatchStory
from teaching.numbers import fmt
from teaching.tolerances import SUMMATION_ORDER

SPLIT_NAMES = {
    "even": "split evenly over every cell that won in any example",
    "weighted": "split over those cells by how often each won",
}


def windows_of(story: BatchStory) -> list[Cell]:
    """Every window (ph, pw) of the pooling layer, in reading order."""
    out_h, out_w = story.trace.pool.output.shape[2:]
    return [(p, q) for p in range(out_h) for q in range(out_w)]


def window_cells(story: BatchStory, window: Cell) -> tuple[Cell, ...]:
    """The pooling-input cells `window` reads (padding included, for its outline)."""
    height, width = story.trace.activation.shape[2:]
    return plane_geometry(story.config.pool, height, width).window_cells(window)


@dataclass(frozen=True)
class WindowRow:
    """One cell that won the window in some example: how many, their share of the
    batch, and the upstream gradient it received from the window summed over them."""

    cell: Cell
    examples: int
    share: float
    received: float


def window_rows(story: BatchStory, feature: int, window: Cell) -> list[WindowRow]:
    """The cells that won `window` of kernel `feature` in at least one example."""
    winners = story.winners
    counts = winners.counts[(feature, *window)]
    received = winners.received[(feature, *window)]
    return [
        WindowRow(
            (int(r), int(c)),
            int(counts[r, c]),
            float(counts[r, c]) / story.size,
            float(received[r, c]),
        )
        for r, c in winners.winners(feature, window)
    ]


def one_winner_each(story: BatchStory, feature: int, window: Cell) -> bool:
    """Every example sent the window's gradient to exactly one cell (no tie split it)."""
    return int(story.winners.counts[(feature, *window)].sum()) == story.size


def picks_sentence(story: BatchStory, feature: int, window: Cell) -> str:
    """How many distinct cells won `window` across the batch, and where each example's
    gradient went (at most ~35 words: it is a projector's sentence)."""
    rows = window_rows(story, feature, window)
    examples = f"{story.size} example{'s' * (story.size > 1)}"
    if len(rows) == 1:
        won = f"one cell, {rows[0].cell}, won it in all {examples}"
    else:
        won = f"{len(rows)} distinct cells won it across the {examples}"
    own = (
        "only to its own winner"
        if one_winner_each(story, feature, window)
        else f"only to its own winners (tied cells share under the rule “{story.config.pool.ties}”)"
    )
    return (
        f"Window {window}, kernel {feature}: {won}. Each example sent its dL_n/dy {own}; "
        "the window's other cells got nothing from that example."
    )


@dataclass(frozen=True)
class SplitComparison:
    """One kernel's dL/dK four ways, (k, k) each, and each one's largest gap to the
    finite-difference check."""

    right: np.ndarray
    numeric: np.ndarray
    splits: dict[str, np.ndarray]

    def gap(self, kernels: np.ndarray) -> float:
        return float(np.abs(kernels - self.numeric).max())

    @property
    def right_gap(self) -> float:
        return self.gap(self.right)

    @property
    def split_gap(self) -> float:
        """The even split's largest gap to the check."""
        return self.gap(self.splits["even"])


def split_comparison(story: BatchStory, feature: int) -> SplitComparison:
    return SplitComparison(
        right=story.right_kernels[feature],
        numeric=story.numeric_kernels[feature, 0],
        splits={split: story.split_kernels[split][feature] for split in SPLITS},
    )


def every_window_single(story: BatchStory, feature: int) -> bool:
    """Every window of kernel `feature` has one winner across the whole batch."""
    return bool(((story.winners.counts[feature] > 0).sum(axis=(2, 3)) == 1).all())


def split_sentence(story: BatchStory, feature: int) -> str:
    """The idea against the check, and why it is wrong (or why it agrees here)."""
    compared = split_comparison(story, feature)
    if every_window_single(story, feature):
        return (
            f"Every window of kernel {feature} has one winner across the batch, so splitting "
            "over every winner is the right routing here: both agree with the check."
        )
    if compared.split_gap < SUMMATION_ORDER:  # several winners, yet no gap to show
        return (
            f"Here the split happens to give kernel {feature}'s gradient to the last digit, "
            "though windows had several winners."
        )
    return (
        f"Split over every winner, dL/dK misses the finite-difference check by up to "
        f"{fmt(compared.split_gap)} (the right way: {compared.right_gap:.1e}). A cell that did "
        "not win in example n does not change L_n, so it gets none of L_n's gradient."
    )
