"""An answer given by a middleware before the app: 4xx with its reason, as the app's own errors
are (app/web/errors.py): JSON for the API and for clients, the error page for a browser's page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from app.web.templating import templates


def client_address(scope: Scope) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded: uvicorn's proxy headers)."""
    client = scope.get("client")
    return client[0] if client else "-"


async def refuse(scope: Scope, receive: Receive, send: Send, status: int, reason: str,
                 headers: dict[str, str] | None = None) -> None:
    request = Request(scope)
    wants_page = not scope["path"].startswith("/api/") and "text/html" in request.headers.get("accept", "")
    if wants_page and not request.headers.get("hx-request"):
        response = templates.TemplateResponse(request, "error.html", {"status": status, "detail": reason},
                                              status_code=status, headers=headers)
    else:
        response = JSONResponse({"detail": reason}, status_code=status, headers=headers)
    await response(scope, receive, send)
