"""Big inputs are pooled a chunk of planes at a time, on every core.

Each step of a fast kernel (one comparison, one maximum, one sum) reads and writes whole
arrays. On a batch of many megabytes every step goes out to main memory; on a chunk
that fits the core's L2 cache it stays there, about three times faster
(benchmarks/bench_pooling.py). Planes are independent, so chunks can run in parallel:
NumPy lets go of the interpreter lock inside its loops, and a few threads keep every
core busy. Small inputs run as one chunk in the caller's thread: for them a thread
costs more than it saves.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache

CHUNK_BYTES = 1 << 22  # input planes per chunk (measured: 1-2 MB lost to overhead, 8 MB no better)
PARALLEL_BYTES = 1 << 21  # inputs at least this big are split over threads
WORKERS = max(1, min(os.cpu_count() or 1, 8))


@cache
def _pool() -> ThreadPoolExecutor:
    # The calling thread is the other worker (for_each_chunk).
    return ThreadPoolExecutor(max_workers=max(1, WORKERS - 1), thread_name_prefix="pooling")


def splits(count: int, plane_bytes: int) -> bool:
    """Whether `count` planes of `plane_bytes` are big enough to go in chunks over
    threads; smaller inputs go in one pass in the caller's thread."""
    return count * plane_bytes >= PARALLEL_BYTES and WORKERS > 1


def chunk_slices(count: int, plane_bytes: int) -> list[slice]:
    """Slices of `count` planes of `plane_bytes` each, CHUNK_BYTES or so apiece."""
    per_chunk = max(1, CHUNK_BYTES // max(plane_bytes, 1))
    return [slice(start, min(start + per_chunk, count)) for start in range(0, count, per_chunk)]


def for_each_chunk(work: Callable[[slice], None], count: int, plane_bytes: int) -> None:
    """work(planes) for every chunk of the `count` planes; in parallel when the input is
    big. Every chunk writes its own slice of the outputs, so the order does not matter."""
    if not splits(count, plane_bytes):
        work(slice(0, count))  # one pass: no loop, no thread, for the small and common
        return
    slices = chunk_slices(count, plane_bytes)
    # One task a thread, each walking its own run of chunks: fewer hand-overs.
    runs = [slices[index::WORKERS] for index in range(WORKERS)]
    # The calling thread walks the first run itself rather than wait idle.
    futures = [_pool().submit(_walk, work, run) for run in runs[1:] if run]
    try:
        _walk(work, runs[0])
    finally:
        for future in futures:
            future.result()  # waits for every run; re-raises a chunk's exception here


def _walk(work: Callable[[slice], None], chunks: list[slice]) -> None:
    for chunk in chunks:
        work(chunk)
