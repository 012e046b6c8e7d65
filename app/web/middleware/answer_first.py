"""A step's own answer before its live push (a tap to its updated panel).

A command commits its step and then renders its answer (the panels it changed). At the commit
the game's live streams wake and render the push of that step (app/web/routes/live.py) in another
worker thread. Both are Python work under one interpreter lock: rendered at once, each took
about as long as both, and the player who tapped waited for the push of their own tap. So the
push of a step that a request made waits until that request has sent its answer (at most
WAIT_SECONDS), then renders: the player who tapped sees the answer first, and the other pages get
the push when they would have anyway (the same work, in turn instead of at once). A step made
outside a request here (another process on PostgreSQL, a script) is pushed at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

WAIT_SECONDS = 1.0  # a push never waits longer than this for its step's answer

Key = tuple[int, int]  # (game id, step)
# the steps the current request committed (set per request by AnswerFirst; worker threads
# see it too: FastAPI runs sync routes in a copy of the request's context)
_made: ContextVar[list[Key] | None] = ContextVar("steps_made_here", default=None)
_lock = threading.Lock()
_unanswered: dict[Key, concurrent.futures.Future] = {}


def step_made(game_id: int, seq: int) -> None:
    """A step was committed (game_commands.STEP_LISTENERS, before the hub wakes the streams):
    if a request here made it, its push waits for that request's answer."""
    made = _made.get()
    if made is None:
        return
    with _lock:
        _unanswered[(game_id, seq)] = concurrent.futures.Future()
    made.append((game_id, seq))


def _answered(made: list[Key]) -> None:
    with _lock:
        futures = [_unanswered.pop(key, None) for key in made]
    made.clear()
    for future in futures:
        if future is not None and not future.done():
            future.set_result(None)


async def answered(game_id: int, seq: int) -> None:
    """Return once the request that made step `seq` of the game has sent its answer (at once if
    no request here is answering for it; at the latest after WAIT_SECONDS)."""
    with _lock:
        future = _unanswered.get((game_id, seq))
    if future is None:
        return
    try:
        await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), WAIT_SECONDS)
    except TimeoutError:
        pass


class AnswerFirst:
    """Marks the steps a request makes, and lets their pushes go once its answer is sent (or the
    request failed). Reading requests make no step: they pass untouched."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        made: list[Key] = []
        token = _made.set(made)

        async def sending(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                _answered(made)

        try:
            await self.app(scope, receive, sending)
        finally:
            _made.reset(token)
            _answered(made)
