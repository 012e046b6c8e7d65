"""Admission: at most as many requests at work as the pool has connections; the rest queue.

A request can hold its pooled connection while it waits for a worker thread: FastAPI serialises
a JSON answer on a thread after the handler returns, and the session closes only after that.
With more requests at work than connections, every thread could wait for a connection held by a
request that waits for a thread: 100 new games at once froze the server for the pool's 30 s
timeout and answered 500. Admitting at most `pool_size()` requests at a time makes
that impossible; the others wait here, on the event loop, holding nothing, and are served in
turn instead of failing.

A request counts only once its body is in: a client that sends the headers of a POST
and never its body held a slot for as long as its socket stayed open, and 50 of them froze every
route. The body (at most 1 MB: app/web/middleware/limits.py) is read here first, before a slot is taken,
and must arrive within `body_read_seconds`; else the answer is 408 and the connection closes.

Imports and restores (20 MB, 1 GB on disk) read their own bodies: they pass through a gate of
their own (`import_gate` at a time, 4 by default; the others queue; one stores at a time)
instead of the pool's slots, so 120 imports at once never hold the health route or a player's
command. One client address holds at most `imports_per_client` of the gate's places (2): four
silent imports of one stranger held all of it, and every other import and the admin's restore
waited behind them.

A body's deadline grows only with what arrives: `body_read_seconds`, plus the time its bytes so
far would take at `body_min_rate` (16 KB/s). It grew with the size the headers announced (20 s +
20 MB at 64 KB/s: 325 s for a socket that never sent a byte).

Live streams (`…/events`) are long and hold no connection once subscribed (app/web/routes/live.py),
and static files need none: neither is counted."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from contextlib import asynccontextmanager

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import get_settings
from app.web.middleware.limits import MAX_BODY, has_own_limit

TIMED_OUT = "The request body did not arrive in time."


class BodyTimeout(Exception):
    """The request body did not arrive before its deadline."""


def counted(path: str) -> bool:
    return not (path.endswith("/events") or path.startswith("/static/"))


def has_body(scope: Scope) -> bool:
    headers = dict(scope["headers"])
    return b"transfer-encoding" in headers or headers.get(b"content-length", b"0") not in (b"0", b"")


class Admission:
    def __init__(self, app: ASGIApp, limit: Callable[[], int]):
        self.app = app
        self.limit = limit  # read when serving starts: settings may change until then
        self._gates: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore, asyncio.Semaphore] | None = None
        # client address -> its places at the gate, and how many requests use or wait for them
        self.importing: dict[str, tuple[asyncio.Semaphore, int]] = {}

    def gates(self) -> tuple[asyncio.Semaphore, asyncio.Semaphore]:
        """The pool's slots and the imports' gate, per event loop: a test client may serve the
        same app from a new loop."""
        loop = asyncio.get_running_loop()
        if self._gates is None or self._gates[0] is not loop:
            gate = get_settings().import_gate
            self._gates = (loop, asyncio.Semaphore(self.limit()), asyncio.Semaphore(gate))
            self.importing = {}
        return self._gates[1], self._gates[2]

    @asynccontextmanager
    async def import_place(self, scope: Scope, imports: asyncio.Semaphore):
        """A place at the imports' gate, after one of this client address's own places."""
        client = (scope.get("client") or ("-", 0))[0]
        own, users = self.importing.get(client) or (asyncio.Semaphore(get_settings().imports_per_client), 0)
        self.importing[client] = (own, users + 1)
        try:
            async with own, imports:
                yield
        finally:
            own, users = self.importing[client]
            if users <= 1:
                del self.importing[client]
            else:
                self.importing[client] = (own, users - 1)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not counted(scope["path"]):
            await self.app(scope, receive, send)
            return
        slots, imports = self.gates()
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            if has_own_limit(scope["path"]):
                async with self.import_place(scope, imports):
                    await self.app(scope, with_deadline(receive), watched)
                return
            if has_body(scope):
                receive = await read_ahead(receive)
            async with slots:
                await self.app(scope, receive, watched)
        except BodyTimeout:
            if not started:
                await timed_out(send)


def with_deadline(receive: Receive) -> Receive:
    """`receive`, raising BodyTimeout for a body message not in by its deadline: body_read_seconds
    from the start, plus the bytes in so far at body_min_rate."""
    settings = get_settings()
    deadline = asyncio.get_running_loop().time() + settings.body_read_seconds
    done = False

    async def timed() -> Message:
        nonlocal done, deadline
        if done:  # the body is in: what comes now is the client leaving, which may take any time
            return await receive()
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:
            raise BodyTimeout from None
        deadline += len(message.get("body", b"")) / settings.body_min_rate
        done = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    return timed


async def read_ahead(receive: Receive) -> Receive:
    """Read the whole body now, by its deadline (BodyTimeout if not), and hand back a `receive`
    that replays it. An error raised while reading (BodyLimit's 413) is raised again where the
    app reads the body, so the app answers it as its own."""
    timed = with_deadline(receive)
    messages: list[Message] = []
    error: Exception | None = None
    size = 0
    try:
        while True:
            message = await timed()
            messages.append(message)
            size += len(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body", False) or size > MAX_BODY:
                break
    except BodyTimeout:
        raise
    except Exception as raised:  # noqa: BLE001 - replayed to the app below
        error = raised

    async def replay() -> Message:
        if messages:
            return messages.pop(0)
        if error is not None:
            raise error
        return await receive()

    return replay


async def timed_out(send: Send) -> None:
    body = json.dumps({"detail": TIMED_OUT}).encode()
    await send({"type": "http.response.start", "status": 408, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
