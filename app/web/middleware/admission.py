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
command, and their bodies must keep up MIN_RATE bytes a second on top of the same read deadline.

Live streams (`…/events`) are long and hold no connection once subscribed (app/web/routes/live.py),
and static files need none: neither is counted."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import get_settings
from app.web.middleware.limits import MAX_BODY, has_own_limit

MIN_RATE = 64 * 1024  # bytes a second an import's body must keep up, on top of the read deadline
IMPORT_MAX = 1024**3  # the largest body an import path reads (a restore's)
# the largest a player's import reads (app/transfer/exchange.py's 20 MB, and a form's)
GAME_MAX = 21 * 1024**2
TIMED_OUT = "The request body did not arrive in time."


class BodyTimeout(Exception):
    """The request body did not arrive before its deadline."""


def counted(path: str) -> bool:
    return not (path.endswith("/events") or path.startswith("/static/"))


def declared_length(scope: Scope) -> int | None:
    """The body's Content-Length; None when it is sent chunked (or the header is not a number)."""
    value = dict(scope["headers"]).get(b"content-length")
    return int(value) if value is not None and value.isdigit() and len(value) < 16 else None


def has_body(scope: Scope) -> bool:
    headers = dict(scope["headers"])
    return b"transfer-encoding" in headers or headers.get(b"content-length", b"0") not in (b"0", b"")


class Admission:
    def __init__(self, app: ASGIApp, limit: Callable[[], int]):
        self.app = app
        self.limit = limit  # read when serving starts: settings may change until then
        self._gates: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore, asyncio.Semaphore] | None = None

    def gates(self) -> tuple[asyncio.Semaphore, asyncio.Semaphore]:
        """The pool's slots and the imports' gate, per event loop: a test client may serve the
        same app from a new loop."""
        loop = asyncio.get_running_loop()
        if self._gates is None or self._gates[0] is not loop:
            gate = get_settings().import_gate
            self._gates = (loop, asyncio.Semaphore(self.limit()), asyncio.Semaphore(gate))
        return self._gates[1], self._gates[2]

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
                async with imports:
                    await self.app(scope, with_deadline(receive, import_deadline(scope)), watched)
                return
            if has_body(scope):
                receive = await read_ahead(receive, get_settings().body_read_seconds)
            async with slots:
                await self.app(scope, receive, watched)
        except BodyTimeout:
            if not started:
                await timed_out(send)


def import_deadline(scope: Scope) -> float:
    """Seconds an import's whole body may take: the read deadline, plus its size at MIN_RATE (a
    body sent without its size: the largest that path takes, 20 MB for an import, 1 GB for an
    admin's restore)."""
    largest = IMPORT_MAX if scope["path"].endswith("/restore") else GAME_MAX
    size = declared_length(scope)
    size = largest if size is None else min(size, largest)
    return get_settings().body_read_seconds + size / MIN_RATE


def with_deadline(receive: Receive, seconds: float) -> Receive:
    """`receive`, raising BodyTimeout for a body message asked for after the deadline passed."""
    deadline = asyncio.get_running_loop().time() + seconds
    done = False

    async def timed() -> Message:
        nonlocal done
        if done:  # the body is in: what comes now is the client leaving, which may take any time
            return await receive()
        try:
            async with asyncio.timeout_at(deadline):
                message = await receive()
        except TimeoutError:
            raise BodyTimeout from None
        done = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    return timed


async def read_ahead(receive: Receive, seconds: float) -> Receive:
    """Read the whole body now, within `seconds` (BodyTimeout if not), and hand back a `receive`
    that replays it. An error raised while reading (BodyLimit's 413) is raised again where the
    app reads the body, so the app answers it as its own."""
    timed = with_deadline(receive, seconds)
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
