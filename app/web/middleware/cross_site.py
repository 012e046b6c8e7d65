"""Another site cannot act here: every request that may change something (any method but GET,
HEAD and OPTIONS) is refused with 403 and its reason when the browser says it comes from
another site.

A game's links are its only key, and a page on another origin that knows one (a link pasted in
a chat, a watch link turned into a play link by guessing nothing: the attacker's own game) could
auto-submit a form to it: the browser sends it, and the answer's cookie (the device's list of
games, app/web/device.py) replaced the victim's list, which went from 3 games to 0.

- `Sec-Fetch-Site` (every current browser sends it): only `same-origin` and `none` (the person
  typed the address or used a bookmark) may act; `same-site` and `cross-site` may not.
- Without it, `Origin` when sent: its host and port must be this request's own `Host`. The scheme
  is not compared: behind a proxy that ends TLS the app may see http while the page was https.
- A request with neither (curl, httpx, a script) is not a browser's: served as before.

The cookie itself is SameSite=Lax (app/web/device.py), so another site's POST never carries it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.templating import templates

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OWN_SITE = frozenset({b"same-origin", b"none"})
DEFAULT_PORTS = {"http": "80", "https": "443"}
REFUSED = ("Refused: this request was sent by another site ({}), not by this app's own pages. "
           "Nothing was changed; open the game from its link and act there.")


def host_of(origin: str) -> str | None:
    """`scheme://host[:port]` → `host:port` (the default port written out); None if not an origin."""
    scheme, sep, rest = origin.partition("://")
    if not sep or not rest or "/" in rest:
        return None
    return with_port(rest.lower(), scheme.lower())


def with_port(host: str, scheme: str) -> str:
    if host.endswith("]") or ":" not in host:  # no port (an IPv6 address ends with its bracket)
        return f"{host}:{DEFAULT_PORTS.get(scheme, '')}"
    return host


def refusal(scope: Scope) -> str | None:
    """Why this request may not act, or None."""
    headers = dict(scope["headers"])
    site = headers.get(b"sec-fetch-site")
    if site is not None:
        return None if site.lower() in OWN_SITE else REFUSED.format(site.decode("latin-1"))
    origin = headers.get(b"origin")
    if origin is None:
        return None
    own = with_port(headers.get(b"host", b"").decode("latin-1").lower(), scope.get("scheme", "http"))
    theirs = host_of(origin.decode("latin-1"))
    if theirs is None:  # "null": a sandboxed frame, a file, a redirect from elsewhere
        return REFUSED.format("an opaque origin")
    return None if theirs == own else REFUSED.format(origin.decode("latin-1")[:100])


class CrossSiteRefusal:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        reason = refusal(scope)
        if reason is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if scope["path"].startswith("/api/") or "text/html" not in request.headers.get("accept", ""):
            response = JSONResponse({"detail": reason}, status_code=403)
        else:
            response = templates.TemplateResponse(request, "error.html", {"status": 403, "detail": reason},
                                                  status_code=403)
        await response(scope, receive, send)
