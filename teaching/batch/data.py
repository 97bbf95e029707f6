"""Where the Batch page's images come from: digits, noise, or digits the user edits."""

from __future__ import annotations

from typing import Literal

import numpy as np

from teaching.digits import IMAGE_SIZE, digit_images

Source = Literal["digits", "noise", "edit"]
SOURCES: dict[Source, str] = {
    "digits": "Handwritten digits",
    "noise": "Random noise",
    "edit": "Digits you edit",
}
INK = 16.0  # the digits' largest value: images are scaled to [0, 1]
# Examples in a batch: the first seed's question is about a batch of 100, and a
# power of two past it is what frameworks' examples use (the digits hold 1,797).
BATCH_MAX = 128

Edits = tuple[tuple[int, np.ndarray], ...]  # (example, its edited (8, 8) image)


def sample_batch(
    source: Source, size: int, seed: int, edits: Edits = ()
) -> tuple[np.ndarray, np.ndarray]:
    """Images (N, 8, 8) in [0, 1] and labels (N,), drawn with `seed`; with "edit",
    the user's edited images replace the drawn ones. ValueError when `size` is not
    a batch size from 1 to BATCH_MAX."""
    check_batch_size(size)
    rng = np.random.default_rng(seed)
    if source == "noise":
        return rng.uniform(0.0, 1.0, (size, IMAGE_SIZE, IMAGE_SIZE)), rng.integers(0, 10, size)
    images, labels = digit_images()
    chosen = rng.choice(len(images), size=size, replace=False)
    batch = images[chosen] / INK
    if source == "edit":
        for index, grid in edits:
            if index < size:
                batch[index] = grid
    return batch, labels[chosen]


def check_batch_size(size: int) -> None:
    """ValueError, naming the limit, unless `size` is a whole number from 1 to BATCH_MAX."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise ValueError(f"the batch size must be a whole number, got {size!r}")
    if not 1 <= size <= BATCH_MAX:
        raise ValueError(f"the batch size must be from 1 to {BATCH_MAX} examples, got {size}")
