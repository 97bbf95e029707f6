"""Random pooling settings and inputs shared by the engine tests (seeded, reproducible)."""

from __future__ import annotations

import numpy as np

from pooling import PoolConfig, forward


def random_config(
    rng: np.random.Generator, mode: str | None = None, ties: str = "first"
) -> PoolConfig:
    """A valid PoolConfig drawn from small kernels, strides, paddings and dilations."""
    mode = mode or str(rng.choice(["max", "avg"]))
    kernel = tuple(int(v) for v in rng.integers(1, 5, 2))
    stride = None if rng.random() < 0.3 else tuple(int(v) for v in rng.integers(1, 5, 2))
    padding = tuple(int(rng.integers(0, k // 2 + 1)) for k in kernel)
    dilation = tuple(int(v) for v in rng.integers(1, 4, 2)) if mode == "max" else (1, 1)
    return PoolConfig(
        mode,
        kernel,
        stride,
        padding,
        dilation,
        ceil_mode=bool(rng.random() < 0.5),
        count_include_pad=bool(rng.random() < 0.5),
        divisor_override=None if rng.random() < 0.7 else int(rng.integers(1, 6)),
        ties=ties,
    )


def random_adaptive_config(rng: np.random.Generator, ties: str = "first") -> PoolConfig:
    mode = str(rng.choice(["max", "avg"]))
    return PoolConfig(mode, output_size=tuple(int(v) for v in rng.integers(1, 9, 2)), ties=ties)


def random_input(rng: np.random.Generator, shape) -> np.ndarray:
    """Small integers (many ties), sometimes floats, NaN or -inf sprinkled in."""
    x = rng.integers(-3, 4, shape).astype(np.float64)
    roll = rng.random()
    if roll < 0.2:
        x = rng.standard_normal(shape)
    elif roll < 0.35:
        x[rng.random(shape) < 0.1] = np.nan
    elif roll < 0.45:
        x[rng.random(shape) < 0.3] = -np.inf
    return x


def random_shape(rng: np.random.Generator):
    n, c = (int(v) for v in rng.integers(1, 3, 2))
    h, w = (int(v) for v in rng.integers(1, 11, 2))
    return n, c, h, w


def any_config(rng: np.random.Generator, ties: str = "first") -> PoolConfig:
    """A regular pooling layer four times in five, an adaptive one otherwise."""
    return (
        random_config(rng, ties=ties) if rng.random() < 0.8 else random_adaptive_config(rng, ties)
    )


def valid_cases(rng: np.random.Generator, count: int, make_config, make_x):
    """Up to `count` (config, x, forward result, random upstream gradient) cases,
    skipping the drawn layers that do not fit their input (forward's ValueError)."""
    for _ in range(count):
        config, x = make_config(rng), make_x(rng)
        try:
            result = forward(x, config)
        except ValueError:
            continue
        yield config, x, result, rng.standard_normal(result.output.shape)
