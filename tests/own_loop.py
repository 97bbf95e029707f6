"""asyncio.run where a test may already sit in a running loop."""

from __future__ import annotations

import asyncio
import concurrent.futures


def run_in_own_loop(coroutine):
    """asyncio.run on a thread of its own: a browser test earlier in the same process
    leaves Playwright's sync event loop running on this thread, where asyncio.run
    refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
