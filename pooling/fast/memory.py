"""Freed arrays stay with the process for the next call (glibc's malloc only).

By default glibc hands every allocation above 128 KiB straight from the kernel
(mmap) and gives it back on free, so each call's outputs and temporaries start on
fresh pages, and the first write to every 4 KiB page is a page fault. On a batch of
64 28x28 planes that was half of a forward pass and most of a backward pass
(benchmarks/bench_pooling.py). Raising the two thresholds keeps freed blocks in the
heap, where the next call finds them already mapped. Elsewhere (another C library,
another OS) nothing changes.

It changes the whole process, so the engine never calls it on import: the app and the
benchmarks call it at start-up. Calling it again does nothing more.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt parameters, from <malloc.h>
MMAP_ABOVE = 64 << 20  # blocks above this still come from (and go back to) the kernel
TRIM_ABOVE = 256 << 20  # free memory kept at the heap's top before it goes back


@cache
def keep_freed_memory() -> bool:
    """Apply the thresholds; whether they took effect."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_ABOVE)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_ABOVE)
    )
