"""Everything the Batch page shows, computed once per run (pure: no Streamlit)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pooling.network import (
    Backward,
    NetConfig,
    Params,
    Trace,
    batch_loss,
    batched_gradient,
    init_params,
    kernel_gradient_check,
    run_backward,
    run_forward,
    wrong_way_gradient,
)

from .presets import digit_images

SOURCES = ("digits", "noise", "edit")
SOURCE_LABELS = {"digits": "Handwritten digits", "noise": "Random noise", "edit": "Digits you edit"}
IMAGE_SIZE = 8


def sample_batch(
    source: str, size: int, seed: int, edits: dict[int, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Images (N, 8, 8) scaled to [0, 1] and labels (N,), drawn with `seed`."""
    rng = np.random.default_rng(seed)
    if source == "noise":
        return rng.uniform(0.0, 1.0, (size, IMAGE_SIZE, IMAGE_SIZE)), rng.integers(0, 10, size)
    images, labels = digit_images()
    chosen = rng.choice(len(images), size=size, replace=False)
    batch = images[chosen] / 16.0
    for index, grid in (edits or {}).items():
        if source == "edit" and index < size:
            batch[index] = grid
    return batch, labels[chosen]


def train(
    params: Params,
    x: np.ndarray,
    labels: np.ndarray,
    config: NetConfig,
    reduction: str,
    learning_rate: float,
    steps: int,
) -> tuple[Params, list[float]]:
    """`steps` SGD steps on the batch gradient; returns the final params and the loss
    before each step and after the last (steps + 1 values)."""
    losses = []
    for _ in range(steps):
        trace = run_forward(params, x, labels, config)
        losses.append(batch_loss(trace, reduction))
        params = params.step(run_backward(params, trace).reduced(reduction), learning_rate)
    losses.append(batch_loss(run_forward(params, x, labels, config), reduction))
    return params, losses


@dataclass(frozen=True)
class BatchLesson:
    """images: (N, 8, 8); trace and per-example backward of the current params.

    reduced: the batch gradient (mean or sum); batched_gap: largest gap between one
    batched backward and the reduced per-example gradients; kernel_fd_gap: largest
    gap of dL/dK to central differences; wrong: the averaged-input gradient.
    """

    images: np.ndarray
    labels: np.ndarray
    config: NetConfig
    reduction: str
    params: Params
    trace: Trace
    grads: Backward
    reduced: Params
    batched_gap: float
    kernel_fd_gap: float
    wrong: Params
    wrong_trace: Trace
    losses: list[float]

    @property
    def size(self) -> int:
        return self.images.shape[0]

    def routing_running_mean(self, feature: int) -> np.ndarray:
        """(N, CH, CW): mean of the routing maps of examples 0..n, for each n."""
        maps = self.grads.at_pool_input[:, feature]
        return np.cumsum(maps, axis=0) / np.arange(1, self.size + 1)[:, None, None]

    def kernel_running_mean(self, feature: int) -> np.ndarray:
        """(N, k, k): mean of dL_n/dK (kernel `feature`) over examples 0..n."""
        kernels = self.grads.per_example.kernels[:, feature, 0]
        return np.cumsum(kernels, axis=0) / np.arange(1, self.size + 1)[:, None, None]

    def positions_reached(self, feature: int) -> np.ndarray:
        """(N,): pooling-input positions that examples 0..n sent any gradient to."""
        reached = np.logical_or.accumulate(self.grads.at_pool_input[:, feature] != 0, axis=0)
        return reached.reshape(self.size, -1).sum(axis=1)

    def winner_cells(self, example: int, feature: int) -> list[tuple[int, int]]:
        """Pooling-input cells that won a window for this example (max pooling)."""
        if self.config.pool.mode != "max":
            return []
        width = self.trace.activation.shape[3]
        flat = np.unique(self.trace.pool.argmax[example, feature])
        return [divmod(int(index), width) for index in flat]


def build_batch_lesson(
    source: str,
    size: int,
    seed: int,
    config: NetConfig,
    reduction: str,
    learning_rate: float,
    steps: int,
    edits: dict[int, np.ndarray] | None = None,
) -> BatchLesson:
    images, labels = sample_batch(source, size, seed, edits)
    x = images[:, None]
    params, losses = train(
        init_params(config, images.shape[1:], seed),
        x,
        labels,
        config,
        reduction,
        learning_rate,
        steps,
    )
    trace = run_forward(params, x, labels, config)
    grads = run_backward(params, trace)
    reduced = grads.reduced(reduction)
    batched = batched_gradient(params, trace, reduction)
    gap = max(
        float(np.abs(getattr(batched, name) - value).max())
        for name, value in reduced.fields().items()
    )
    numeric = kernel_gradient_check(params, x, labels, config, reduction)
    wrong, wrong_trace = wrong_way_gradient(params, trace, config)
    return BatchLesson(
        images,
        labels,
        config,
        reduction,
        params,
        trace,
        grads,
        reduced,
        gap,
        float(np.abs(numeric - reduced.kernels).max()),
        wrong,
        wrong_trace,
        losses,
    )


SEED_GRADIENTS = np.array([[1.5, -2.0, 1.1, 0.4, -0.9], [1.2, 2.3, -1.1, -0.8, -0.7]])
