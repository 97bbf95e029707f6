"""SGD on one batch, kept step by step: asking for step s computes only the steps not
yet taken, from the last state kept (never from zero again). Pure: no Streamlit."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from cnn.network import NetConfig, Params, batch_loss, run_backward, run_forward

DIVERGED = 100.0  # a loss this many times the starting one: the learning rate diverges


def _finite(params: Params) -> bool:
    return all(np.isfinite(value).all() for value in params.fields().values())


@dataclass(frozen=True)
class Reached:
    """Training as far as step `steps` asked for.

    params: the last parameters kept; losses: the batch loss before each step taken and
    after the last; diverged_at: the step that ran away, if it is at or before `steps`
    (then params and losses stop before it) or the one after (there is no step on from
    here), else None.
    """

    params: Params
    losses: list[float]
    diverged_at: int | None

    @property
    def taken(self) -> int:
        return len(self.losses) - 1


class Trajectory:
    """Every parameter state of one training run (one batch, network, reduction and
    learning rate). Many sessions share one: a lock keeps them from stepping twice."""

    def __init__(
        self,
        *,
        start: Params,
        x: np.ndarray,
        labels: np.ndarray,
        network: NetConfig,
        reduction: str,
        learning_rate: float,
    ):
        """x: (N, 1, H, W); labels: (N,)."""
        self.x, self.labels, self._network = x, labels, network
        self._reduction, self._rate = reduction, learning_rate
        self._lock = threading.Lock()
        self._trace = run_forward(start, x, labels, network)
        self._params = [start]
        self._losses = [batch_loss(self._trace, reduction)]
        self._ceiling = DIVERGED * max(self._losses[0], 1.0)
        self.diverged_at: int | None = None

    def reach(self, steps: int) -> Reached:
        """The state after `steps` steps, taking only the steps not yet taken. A step
        whose loss is not finite or passes DIVERGED times the first ends the run: the
        page never shows runaway numbers."""
        with self._lock:
            while len(self._params) <= steps and self.diverged_at is None:
                self._take_step()
            kept = min(steps, len(self._params) - 1)
            ran_away = (
                self.diverged_at if self.diverged_at and self.diverged_at <= steps + 1 else None
            )
            return Reached(self._params[kept], self._losses[: kept + 1], ran_away)

    def _take_step(self) -> None:
        params = self._params[-1]
        gradient = run_backward(params, self._trace).reduced(self._reduction)
        stepped = params.step(gradient, self._rate)
        if not _finite(stepped):
            self.diverged_at = len(self._params)
            return
        trace = run_forward(stepped, self.x, self.labels, self._network)
        loss = batch_loss(trace, self._reduction)
        if not np.isfinite(loss) or loss > self._ceiling:
            self.diverged_at = len(self._params)
            return
        self._params.append(stepped)
        self._losses.append(loss)
        self._trace = trace
