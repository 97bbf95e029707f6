"""Everything the Playground shows for one grid and one pooling layer, computed once.

Pure: engine calls and array bookkeeping, no Streamlit. Views and figures read it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal, get_args

import numpy as np

from pooling import PoolConfig, backward, forward
from pooling.config import Cell
from pooling.explain import LedgerLine, coverage_of, ledger_from_shares, shares
from pooling.geometry import Divisor, PlaneGeometry
from teaching.tolerances import SUMMATION_ORDER
from teaching.words import pad_label

Upstream = Literal["ones", "random", "seed", "custom"]  # where dL/dy comes from
UPSTREAMS: tuple[Upstream, ...] = get_args(Upstream)
UPSTREAM_LABELS: dict[Upstream, str] = {
    "ones": "All ones",
    "random": "Random",
    "seed": "2.5 everywhere (the seed)",
    "custom": "Edit it",
}
SEED_UPSTREAM = 2.5


def upstream_gradient(
    upstream: Upstream, shape: tuple[int, int], seed: int, custom: np.ndarray | None = None
) -> np.ndarray:
    """dL/dy for the output shape: ones, seeded random (1 decimal), 2.5, or the user's."""
    if upstream == "ones":
        return np.ones(shape)
    if upstream == "seed":
        return np.full(shape, SEED_UPSTREAM)
    if upstream == "random":
        return np.round(np.random.default_rng(seed).uniform(-2, 2, shape), 1)
    if custom is None or custom.shape != shape:
        raise ValueError(f"the edited dL/dy must have the output's shape {shape}")
    return custom


@dataclass(frozen=True)
class LayerSettings:
    """What the page computes from: the cache key. x: (H, W); custom: (OH, OW) or None."""

    x: np.ndarray
    config: PoolConfig
    upstream: Upstream
    seed: int
    custom: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class LayerStory:
    """What `settings` gives. output, grad_output: (OH, OW); grad_x, coverage: (H, W);
    shares: (OH, OW, H, W), the part of each output's gradient each cell gets;
    argmax: (OH, OW), h * W + w of each window's winner as PyTorch gives it (None for
    average pooling); geometry: the engine's windows of this layer on this grid."""

    settings: LayerSettings
    output: np.ndarray
    argmax: np.ndarray | None
    grad_output: np.ndarray
    grad_x: np.ndarray
    shares: np.ndarray
    coverage: np.ndarray
    geometry: PlaneGeometry

    @property
    def x(self) -> np.ndarray:
        """(H, W): the input."""
        return self.settings.x

    @property
    def config(self) -> PoolConfig:
        return self.settings.config

    @property
    def output_shape(self) -> tuple[int, int]:
        return self.output.shape

    @property
    def windows(self) -> int:
        return self.output.size

    @property
    def pad_label(self) -> str:
        """What pooling reads in a padding cell."""
        return pad_label(self.config.mode)

    def out_cell(self, step: int) -> Cell:
        """Output cell of window number `step` in reading order."""
        return divmod(int(step), self.output_shape[1])

    def sent_by(self, out_cell: Cell) -> np.ndarray:
        """(H, W): what output `out_cell` sends each input cell (share * dL/dy)."""
        return self.shares[out_cell] * self.grad_output[out_cell]

    def filled_after(self, step: int) -> np.ndarray:
        """(H, W): dL/dx once windows 0..step (reading order) have sent their gradient."""
        return self.running_totals[step]

    @cached_property
    def sent_by_window(self) -> np.ndarray:
        """(windows, H, W): what each window (reading order) sends each input cell."""
        sent = self.shares * self.grad_output[:, :, None, None]
        return sent.reshape((-1,) + self.x.shape)

    @cached_property
    def running_totals(self) -> np.ndarray:
        """(windows, H, W): dL/dx once windows 0..k have sent their gradient, for each
        k; the last is the backward pass's dL/dx (to rounding)."""
        return np.cumsum(self.sent_by_window, axis=0)

    def receivers(self, out_cell: Cell) -> tuple[Cell, ...]:
        """Input cells that output `out_cell` sends a share to."""
        return tuple((int(r), int(c)) for r, c in np.argwhere(self.shares[out_cell] != 0))

    def window_cells(self, out_cell: Cell, *, real_only: bool = False) -> tuple[Cell, ...]:
        """The cells window `out_cell` reads (a dilated window skips cells): padding
        included unless `real_only`; ceil mode's overhang past the padding is left out,
        as it is not drawn."""
        return self.geometry.window_cells(out_cell, real_only=real_only)

    def winner_cells(self) -> tuple[Cell, ...]:
        """Cells some max window sends gradient to (none for average pooling)."""
        if self.config.mode != "max":
            return ()
        receiving = (self.shares != 0).any(axis=(0, 1))
        return tuple((int(r), int(c)) for r, c in np.argwhere(receiving))

    def busiest_cell(self) -> Cell:
        """The input cell the most windows send something to: where a ledger says most."""
        senders = (self.shares != 0).sum(axis=(0, 1))
        return tuple(int(i) for i in np.unravel_index(senders.argmax(), senders.shape))

    def divisor(self, out_cell: Cell) -> Divisor:
        """What average window `out_cell` divides by, and why (the engine's breakdown)."""
        return self.geometry.divisor_of(out_cell)

    @cached_property
    def tie_shares(self) -> np.ndarray:
        """(OH, OW, H, W): 1 at every cell holding its max window's maximum (the shares
        of the rule "all"); zeros for average pooling."""
        if self.config.mode != "max":
            return np.zeros_like(self.shares)
        return shares(self.x, replace(self.config, ties="all"))

    @cached_property
    def tie_counts(self) -> np.ndarray:
        """(OH, OW) ints: how many cells hold each max window's maximum (0 for average)."""
        return np.rint(self.tie_shares.sum(axis=(2, 3))).astype(int)

    def tied_cells(self, out_cell: Cell) -> tuple[Cell, ...]:
        """The cells holding window `out_cell`'s maximum (one unless there is a tie)."""
        return tuple((int(r), int(c)) for r, c in np.argwhere(self.tie_shares[out_cell] != 0))

    @property
    def tied_windows(self) -> int:
        """How many max windows hold their maximum in two or more cells."""
        return int((self.tie_counts > 1).sum())

    @property
    def tied_windows_sending(self) -> int:
        """Tied windows whose dL/dy is not 0: where the tie rule changes dL/dx."""
        return int(((self.tie_counts > 1) & (self.grad_output != 0)).sum())

    @property
    def inflates(self) -> bool:
        """ties="all" with a tie on screen: a window whose maximum k cells share hands
        out k times its dL/dy, so it adds (k - 1) times its dL/dy to dL/dx's total (more
        for a positive dL/dy, less for a negative one, nothing for 0). The true gradient
        of max pooling adds up to exactly what the windows send."""
        return self.config.mode == "max" and self.config.ties == "all" and self.tied_windows > 0

    @property
    def sums_agree(self) -> bool:
        """dL/dx adds up to what the windows send (to rounding). The two sums add the
        same amounts in other orders, so they may differ by rounding relative to the size
        of what is added (up to 1e6 a cell), not to their result, which may cancel."""
        added = np.abs(self.grad_x).sum() + np.abs(self.grad_output).sum()
        gap = abs(self.grad_x.sum() - self.grad_output.sum())
        return bool(gap <= SUMMATION_ORDER * max(added, 1.0))

    @property
    def linear_everywhere(self) -> bool:
        """Average pooling: y = J x for every x. Max pooling is only piecewise linear."""
        return self.config.mode == "avg"

    @cached_property
    def matrix(self) -> np.ndarray:
        """(OH*OW, H*W): J, with y = J x for this x."""
        return self.shares.reshape(self.output.size, self.x.size)

    @cached_property
    def transpose_product(self) -> np.ndarray:
        """(H*W,): Jᵀ dL/dy, which must equal dL/dx."""
        return self.matrix.T @ self.grad_output.ravel()

    def ledger(self, cell: Cell) -> list[LedgerLine]:
        """Every window that sends `cell` something, from this story's share maps."""
        return ledger_from_shares(self.shares, self.grad_output, cell)

    @property
    def transpose_gap(self) -> float:
        """Largest gap between Jᵀ dL/dy and the backward pass's dL/dx."""
        return float(np.abs(self.transpose_product - self.grad_x.ravel()).max())


def build_layer_story(settings: LayerSettings) -> LayerStory:
    """Run forward and backward. ValueError (with the engine's message) when the
    layer does not fit the grid."""
    x, config = settings.x, settings.config
    result = forward(x, config)
    grad = upstream_gradient(settings.upstream, result.output.shape, settings.seed, settings.custom)
    return LayerStory(
        settings=settings,
        output=result.output,
        argmax=result.argmax,
        grad_output=grad,
        grad_x=backward(result, grad),
        shares=shares(x, config, geometry=result.geometry),
        coverage=coverage_of(result.geometry),
        geometry=result.geometry,
    )


def moved_winners(story: LayerStory) -> np.ndarray | None:
    """x with each max window's winner swapped for the last other cell of its window
    that holds less: every window keeps its maximum, so y is the same, but the winners
    (and so dL/dx) move. (H, W), or None where that cannot be done this simply: average
    pooling, overlapping windows (a swap would change a neighbour's maximum), or no
    window with a smaller cell to swap with."""
    if story.config.mode != "max" or story.coverage.max() > 1:
        return None
    moved_x = np.array(story.x)
    moved = False
    for out_cell in np.ndindex(*story.output_shape):
        winner = story.receivers(out_cell)[0]
        smaller = [
            c for c in story.window_cells(out_cell, real_only=True) if moved_x[c] < moved_x[winner]
        ]
        if smaller:
            swap = smaller[-1]
            moved_x[winner], moved_x[swap] = moved_x[swap], moved_x[winner]
            moved = True
    return moved_x if moved else None


def same_y_settings(story: LayerStory) -> LayerSettings | None:
    """The settings of `moved_winners(story)`: the same layer and the same dL/dy."""
    moved_x = moved_winners(story)
    if moved_x is None:
        return None
    return LayerSettings(moved_x, story.config, "custom", 0, np.array(story.grad_output))
