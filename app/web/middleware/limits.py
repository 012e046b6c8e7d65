"""Request bodies have a size limit: an absurd body is refused at once with 413, before it is
parsed, validated or echoed back in a 422 (a 5 MB list would otherwise cost seconds and memory).

A command, a roster or house form and a rules request are a few KB. Imports carry a whole game
and restores a whole backup: they keep their own, larger limits and their own answers
(app/web/routes/exchange.py, app/web/routes/admin.py).
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 1024 * 1024
IMPORT_PATHS = frozenset({"/api/games/import", "/games/import", "/api/restore"})


def has_own_limit(path: str) -> bool:
    return path in IMPORT_PATHS or (path.startswith("/admin/") and path.endswith("/restore"))
TOO_LARGE = "The request body is larger than 1 MB."


class BodyLimit:
    """Refuse a declared Content-Length over the limit without reading a byte; count the bytes
    of a body sent without one (chunked) and stop reading as soon as it passes the limit. The
    refusal is an HTTPException raised where the app reads the body, so the app's own error
    handler answers: JSON for the API, an error page for people."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or has_own_limit(scope["path"]):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        declared_ok = declared.isdigit() and len(declared) < 10 and int(declared) <= MAX_BODY
        received = 0

        async def counted() -> Message:
            nonlocal received
            if not declared_ok:  # refused before a byte is read
                raise HTTPException(413, TOO_LARGE)
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY:
                raise HTTPException(413, TOO_LARGE)
            return message

        await self.app(scope, counted, send)
