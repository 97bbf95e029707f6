"""Everything the Playground shows for one grid and one pooling layer, computed once.

Pure: engine calls and array bookkeeping, no Streamlit. Pages and figures read it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from pooling import TIES, PoolConfig, backward, forward, numerical_gradient
from pooling.explain import coverage, shares

UPSTREAMS = ("ones", "random", "seed", "custom")
UPSTREAM_LABELS = {
    "ones": "All ones",
    "random": "Random",
    "seed": "2.5 everywhere (the seed)",
    "custom": "Edit it",
}
SEED_UPSTREAM = 2.5


def upstream_gradient(
    kind: str, shape: tuple[int, int], seed: int, custom: np.ndarray | None = None
) -> np.ndarray:
    """dL/dy for the output shape: ones, seeded random (1 decimal), 2.5, or the user's."""
    if kind == "ones":
        return np.ones(shape)
    if kind == "seed":
        return np.full(shape, SEED_UPSTREAM)
    if kind == "random":
        return np.round(np.random.default_rng(seed).uniform(-2, 2, shape), 1)
    if custom is None or custom.shape != shape:
        raise ValueError(f"the edited dL/dy must have the output's shape {shape}")
    return custom


@dataclass(frozen=True)
class Lesson:
    """x: (H, W); output, grad_output: (OH, OW); grad_x, coverage: (H, W);
    shares: (OH, OW, H, W), the part of each output's gradient each cell gets;
    argmax: (OH, OW) or None for average pooling."""

    x: np.ndarray
    config: PoolConfig
    output: np.ndarray
    argmax: np.ndarray | None
    grad_output: np.ndarray
    grad_x: np.ndarray
    shares: np.ndarray
    coverage: np.ndarray

    @property
    def output_shape(self) -> tuple[int, int]:
        return self.output.shape

    def sent(self) -> np.ndarray:
        """(OH, OW, H, W): what each output sends each input cell (share * dL/dy)."""
        return self.shares * self.grad_output[:, :, None, None]

    def filled_after(self, step: int) -> np.ndarray:
        """(H, W): dL/dx once windows 0..step (reading order) have sent their gradient."""
        sent = self.sent().reshape((-1,) + self.x.shape)
        return sent[: step + 1].sum(axis=0)

    def receivers(self, out_cell: tuple[int, int]) -> list[tuple[int, int]]:
        """Input cells that output `out_cell` sends a share to."""
        return [tuple(map(int, c)) for c in np.argwhere(self.shares[out_cell] != 0)]

    def tied_windows(self) -> int:
        """How many max windows hold their maximum in two or more cells."""
        if self.config.mode != "max":
            return 0
        every_tie = shares(self.x, replace(self.config, ties="all"))
        return int((every_tie.sum(axis=(2, 3)) > 1).sum())


def build_lesson(
    x: np.ndarray,
    config: PoolConfig,
    grad_output_kind: str,
    seed: int,
    custom_grad: np.ndarray | None = None,
) -> Lesson:
    """Run forward and backward. ValueError (with the engine's message) when the
    layer does not fit the grid."""
    result = forward(x, config)
    grad = upstream_gradient(grad_output_kind, result.output.shape, seed, custom_grad)
    return Lesson(
        x,
        config,
        result.output,
        result.argmax,
        grad,
        backward(result, grad),
        shares(x, config),
        coverage(config, *x.shape),
    )


@dataclass(frozen=True)
class TieRow:
    """One tie policy in the tie lab.

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
        return abs(self.total - self.slope) < 1e-6

    @property
    def matches_central(self) -> bool:
        return self.central_gap < 1e-6


def tie_lab(lesson: Lesson, eps: float = 1e-6) -> tuple[list[TieRow], np.ndarray]:
    """Each tie policy's dL/dx, with the checks; and the central differences (H, W)."""
    x, grad = lesson.x, lesson.grad_output
    central = numerical_gradient(x, grad, lesson.config, eps)

    def loss(shift: float) -> float:
        return float((forward(x + shift, lesson.config).output * grad).sum())

    slope = (loss(eps) - loss(-eps)) / (2 * eps)
    rows = []
    for ties in TIES:
        config = replace(lesson.config, ties=ties)
        grad_x = backward(forward(x, config), grad)
        rows.append(
            TieRow(ties, grad_x, float(grad_x.sum()), slope, float(np.abs(grad_x - central).max()))
        )
    return rows, central
