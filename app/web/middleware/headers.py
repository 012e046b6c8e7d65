"""Security headers on every answer: a page's URL is a secret (it carries a game's token), so the
browser must not leak it (Referer), keep it (cache) or run anything but our own files on it.

- `Referrer-Policy: no-referrer`: a link or an asset fetched from /g/<token> never sends that URL.
- `X-Content-Type-Options: nosniff`: an export or an error is never read as a script or a page.
- `Content-Security-Policy`: scripts and styles from /static only (no inline script, no
  `onclick`, no eval: htmx runs with `allowEval` off, see base.html), no framing
  (`frame-ancestors 'none'`), forms post only to us. The API docs (/docs) run the Swagger UI the
  app serves from /static (app/web/routes/ops.py), which sets inline styles: their policy allows those.
- `Cache-Control: no-store` on everything but /static: pages, partials and JSON answers carry
  tokens or a game's private state, and a shared device must not keep them.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
API_DOCS_CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
])
API_DOCS = ("/docs", "/redoc")

COMMON = [(b"referrer-policy", b"no-referrer"), (b"x-content-type-options", b"nosniff")]


def headers_for(path: str) -> list[tuple[bytes, bytes]]:
    csp = API_DOCS_CSP if path.startswith(API_DOCS) else CSP
    extra = [(b"content-security-policy", csp.encode())]
    if not path.startswith("/static/"):
        extra.append((b"cache-control", b"no-store"))
    return COMMON + extra


class SecurityHeaders:
    """Adds the headers above to every HTTP answer (a header the route set itself is replaced),
    a 500 too."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = headers_for(scope["path"])
        names = {name for name, _ in added}

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + added}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # Starlette's last-resort 500 is sent from outside every middleware, without these
            # headers: it is answered here instead, and the error goes on to be logged.
            if not started:
                await send_with_headers({"type": "http.response.start", "status": 500, "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", b"21")]})
                await send_with_headers({"type": "http.response.body", "body": b"Internal Server Error"})
            raise
