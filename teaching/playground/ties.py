"""The tie lab: every tie rule's dL/dx for the same x and dL/dy, checked two ways (pure)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from pooling import TIES, backward, forward, numerical_gradient
from teaching.playground.model import LayerStory
from teaching.tolerances import GRADIENT_CHECK


@dataclass(frozen=True)
class TieRow:
    """One tie rule in the tie lab.

    grad_x: (H, W). total: its sum. slope: dL/dt when the whole input moves up by t,
    measured by central differences; a valid gradient's total must equal it.
    central_gap: largest gap to the per-cell central differences.
    """

    ties: str
    grad_x: np.ndarray
    total: float
    slope: float
    central_gap: float

    @property
    def total_matches(self) -> bool:
        return abs(self.total - self.slope) < GRADIENT_CHECK

    @property
    def matches_central(self) -> bool:
        return self.central_gap < GRADIENT_CHECK


def tie_lab(story: LayerStory, eps: float = 1e-6) -> tuple[list[TieRow], np.ndarray]:
    """Each tie rule's dL/dx, with the checks; and the central differences (H, W)."""
    x, grad = story.x, story.grad_output
    central = numerical_gradient(x, grad, story.config, eps)

    def loss(shift: float) -> float:
        return float((forward(x + shift, story.config).output * grad).sum())

    slope = (loss(eps) - loss(-eps)) / (2 * eps)
    rows = []
    for ties in TIES:
        grad_x = backward(forward(x, replace(story.config, ties=ties)), grad)
        gap = float(np.abs(grad_x - central).max())
        rows.append(TieRow(ties, grad_x, float(grad_x.sum()), slope, gap))
    return rows, central
