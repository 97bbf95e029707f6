"""Forward + backward time of the engine against PyTorch CPU, as ratios.

Run by hand: `python benchmarks/bench_pooling.py [TEXT]` (needs torch; TEXT keeps only
the cases whose shape, written as "(128, 2, 6, 6)", holds it). Both run on the same
float64 arrays in one process, in alternating blocks of rounds, and the median of all
rounds is kept, so that machine load hits both alike. Blocks rather than single rounds:
PyTorch's OpenMP threads keep spinning for a while after each call, and whatever ran
right after one paid for it (up to 4 ms on the 32x16x64x64 cases); within a block each
side runs in its own steady state. The first round of a block is not counted. A ratio is
ours / PyTorch's: below 1 is faster.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pooling import PoolConfig, backward, forward, keep_freed_memory  # noqa: E402

CASES = [
    ((1, 1, 8, 8), PoolConfig("max", 2)),
    # The Batch page's pooling input at its largest batch (issue 37): 128 digits, two
    # kernels' 6x6 maps (8x8 through a 3x3 convolution), and the overlapping layer.
    ((128, 2, 6, 6), PoolConfig("max", 2)),
    ((128, 4, 6, 6), PoolConfig("max", 3, stride=1)),
    ((64, 1, 28, 28), PoolConfig("max", 2)),
    ((64, 1, 28, 28), PoolConfig("max", 3, stride=1)),
    ((32, 16, 64, 64), PoolConfig("max", 3, stride=2, padding=1)),
    ((32, 16, 64, 64), PoolConfig("avg", 2)),
    ((32, 16, 64, 64), PoolConfig("avg", 3, stride=1, padding=1)),
]
TARGET_RATIO = 1.0
BLOCK = 10  # rounds in a row for one side


def describe(config: PoolConfig) -> str:
    k, s, p = config.kernel_size[0], config.stride[0], config.padding[0]
    return f"{config.mode} k{k}" + (f" s{s}" if s != k else "") + (f" p{p}" if p else "")


def torch_step(torch, x, config):
    """PyTorch forward + backward for `config` on a leaf tensor x."""
    functional = torch.nn.functional
    kwargs = dict(kernel_size=config.kernel_size, stride=config.stride, padding=config.padding)
    if config.mode == "max":
        y = functional.max_pool2d(x, dilation=config.dilation, **kwargs)
    else:
        y = functional.avg_pool2d(x, **kwargs)
    return lambda grad: torch.autograd.grad(y, x, grad)[0]


def timed(step) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def bench(torch, shape, config, rounds):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape)
    grad = rng.standard_normal(forward(x, config).output.shape)
    x_torch = torch.tensor(x, requires_grad=True)
    grad_torch = torch.tensor(grad)
    ours, theirs = [], []
    for _ in range(max(1, rounds // BLOCK)):
        ours.extend(block(lambda: backward(forward(x, config), grad)))
        theirs.extend(block(lambda: torch_step(torch, x_torch, config)(grad_torch)))
    return statistics.median(ours), statistics.median(theirs)


def block(step) -> list[float]:
    """BLOCK timed rounds of step, after one that is not counted."""
    step()
    return [timed(step) for _ in range(BLOCK)]


def main() -> int:
    import torch

    only = sys.argv[1] if len(sys.argv) > 1 else ""  # e.g. "128,": the cases whose shape has it

    keep_freed_memory()  # as the app does at start-up: pooling/fast/memory.py
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; numpy {np.__version__}")
    print(f"{'shape':<18} {'config':<14} {'ours ms':>9} {'torch ms':>9} {'ratio':>6}")
    worst = 0.0
    for shape, config in CASES:
        if only not in str(shape):
            continue
        rounds = 400 if np.prod(shape) < 1e5 else 40
        ours, theirs = bench(torch, shape, config, rounds)
        ratio = ours / theirs
        worst = max(worst, ratio)
        times = f"{ours * 1e3:9.3f} {theirs * 1e3:9.3f}"
        print(f"{str(shape):<18} {describe(config):<14} {times} {ratio:6.2f}")
    print(f"worst ratio {worst:.2f} (target <= {TARGET_RATIO})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
