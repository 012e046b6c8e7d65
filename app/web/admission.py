"""Admission: at most as many requests at work as the pool has connections; the rest queue.

A request can hold its pooled connection while it waits for a worker thread: FastAPI serialises
a JSON answer on a thread after the handler returns, and the session closes only after that.
With more requests at work than connections, every thread could wait for a connection held by a
request that waits for a thread: 100 new games at once froze the server for the pool's 30 s
timeout and answered 500 (issue 11 §1). Admitting at most `pool_size()` requests at a time makes
that impossible; the others wait here, on the event loop, holding nothing, and are served in
turn instead of failing.

Live streams (`…/events`) are long and hold no connection once subscribed (app/web/live.py),
and static files need none: neither is counted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send


def counted(path: str) -> bool:
    return not (path.endswith("/events") or path.startswith("/static/"))


class Admission:
    def __init__(self, app: ASGIApp, limit: Callable[[], int]):
        self.app = app
        self.limit = limit  # read when serving starts: settings may change until then
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def slots(self) -> asyncio.Semaphore:
        """One semaphore per event loop: a test client may serve the same app from a new loop."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.limit()))
        return self._slots[1]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not counted(scope["path"]):
            await self.app(scope, receive, send)
            return
        async with self.slots():
            await self.app(scope, receive, send)
