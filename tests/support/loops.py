"""asyncio.run that works on any pytest-xdist worker."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor


def run_in_own_loop(coroutine):
    """asyncio.run in a thread of its own: a browser test run earlier on the same xdist worker leaves
    Playwright's event loop running in the main thread (its fixture is session-wide), where
    asyncio.run refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
