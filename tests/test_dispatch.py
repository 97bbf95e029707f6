"""The dispatch table chooses, and nothing else does; importing the engine changes
nothing in the process."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pooling import PoolConfig, backward, forward
from pooling.fast import KERNELS, by_name

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "shape, config, kernel",
    [
        ((1, 1, 8, 8), PoolConfig("max", 2), "small"),
        ((64, 1, 28, 28), PoolConfig("max", 2), "tiles"),
        ((64, 1, 28, 28), PoolConfig("max", 3, stride=1), "flat"),
        ((4, 16, 64, 64), PoolConfig("max", 3, stride=2, padding=1), "phases"),
        ((4, 16, 64, 64), PoolConfig("max", 2, stride=3), "shifted"),
        ((4, 16, 64, 64), PoolConfig("avg", 2), "shifted"),
        ((1, 1, 8, 8), PoolConfig("avg", 3, stride=1, padding=1), "small"),
        ((1, 1, 8, 8), PoolConfig("max", 2, ties="split"), None),
        ((64, 1, 28, 28), PoolConfig("max", 3, ties="all"), None),
        ((64, 1, 28, 28), PoolConfig("max", output_size=5), None),
    ],
)
def test_the_table_chooses_the_kernel_for_each_benchmark_like_layer(shape, config, kernel):
    """The order of KERNELS decides (the benchmark's cases first); ties "split" and
    "all" and adaptive windows go to the general path."""
    x = np.random.default_rng(0).standard_normal(shape)
    assert forward(x, config).kernel == kernel


def test_an_empty_table_forces_the_general_path_with_the_same_numbers():
    rng = np.random.default_rng(3)
    x = rng.integers(-2, 3, (3, 2, 9, 11)).astype(np.float64)
    for config in (PoolConfig("max", 3, stride=2, padding=1), PoolConfig("avg", 2)):
        fast, general = forward(x, config), forward(x, config, kernels=())
        assert fast.kernel is not None and general.kernel is None
        np.testing.assert_allclose(fast.output, general.output, rtol=1e-13)
        grad = rng.standard_normal(fast.output.shape)
        np.testing.assert_allclose(
            backward(fast, grad), backward(general, grad, kernels=()), rtol=1e-12, atol=1e-12
        )


def test_kernels_are_found_by_name_and_claim_what_they_compute():
    assert [kernel.name for kernel in KERNELS] == ["small", "flat", "tiles", "phases", "shifted"]
    assert by_name("flat") is KERNELS[1]
    with pytest.raises(KeyError, match="no fast kernel is called 'loop'"):
        by_name("loop")
    for kernel in KERNELS:
        assert kernel.modes <= {"max", "avg"}
        assert (kernel.max_forward is None) or kernel.ties <= {"first", "last"}


IMPORT_CHECK = """
import ctypes, sys
import numpy  # NumPy itself may load libraries: only the engine is on trial

calls = []
loader = ctypes.CDLL
ctypes.CDLL = lambda *args, **kwargs: calls.append(args) or loader(*args, **kwargs)
import pooling, pooling.fast, pooling.ops
print(len(calls))
pooling.keep_freed_memory()
print(len(calls))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mallopt is glibc's")
def test_importing_the_engine_leaves_the_allocator_alone():
    """The allocator tuning (mallopt, through ctypes) runs only when asked for."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_CHECK], cwd=ROOT, capture_output=True, text=True, check=True
    )
    before, after = (int(line) for line in done.stdout.split())
    assert before == 0 and after == 1  # asked for, it does load the C library
