"""A client that leaves before its request was read is one INFO line, never a traceback.

Starlette raises ClientDisconnect where a route reads a body whose client went away; nothing
caught it, so uvicorn logged "Exception in ASGI application" with a 4.8 KB traceback each time:
a client that dropped its imports in a loop wrote 19 MB of log in 5 s. Nothing can be answered
to a client that left, so nothing is sent."""

from __future__ import annotations

import logging

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

logger = logging.getLogger("uvicorn.error")


def who(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "-"


class Departures:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            logger.info('%s - "%s %s" left before its request was read; nothing was changed',
                        who(scope), scope["method"], scope["path"])
