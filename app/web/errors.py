"""Error answers for the whole app: friendly pages for people, FastAPI's JSON shape for clients."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from html import escape
from typing import Any

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.store import storage
from app.store.db import is_busy
from app.web.templating import templates

MAX_ERRORS = 20  # a body with 50,000 wrong items gets the first few, not a 20 MB answer
MAX_ECHO = 200  # characters of a wrong text repeated back
RETRY_AFTER_S = storage.RETRY_AFTER[storage.BUSY]  # waited the whole busy timeout: the queue drains
BUSY = storage.BUSY
logger = logging.getLogger("uvicorn.error")


def echo(value: Any) -> Any:
    """The part of a wrong input a 422 repeats: a number or a short text. JSON has no NaN or
    Infinity, so those come back as text; a long text is cut; a list or object is not repeated
    at all (it may be megabytes, or nested a thousand deep). A text is always valid UTF-8."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str):
        return utf8(value if len(value) <= MAX_ECHO else value[:MAX_ECHO] + "…")
    return value


def utf8(text: str) -> str:
    """A lone surrogate (JSON "\\ud800") cannot be encoded as UTF-8: it is echoed as "?"."""
    return text.encode("utf-8", "replace").decode("utf-8")


def safe_loc(loc: Any) -> list[Any]:
    """An error's field path; a key of the input (any text the client sent) made UTF-8-safe."""
    return [utf8(part) if isinstance(part, str) else part for part in loc]


def _error(error: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in error.items() if k != "input"}
    out["loc"] = safe_loc(error.get("loc", ()))
    if not isinstance(error.get("input"), dict | list | tuple):
        out["input"] = echo(error.get("input"))
    return out


# Routes that open their game in their own worker thread instead of in a dependency (a
# sync dependency takes a worker thread of its own, a second wait for one under load), each with
# how to check its link alone. FastAPI checks a route's query and body before calling it, so a
# wrong field would answer 422 before the link's 404 or 403: here a wrong field on such a route
# answers what its link answers first, as when a dependency opened the game. A body that is not
# JSON at all stays a 422 first, as FastAPI answers it before any dependency.
LINK_CHECKED_IN_ROUTE: dict[Callable[..., Any], Callable[[Request], Awaitable[None]]] = {}


async def validation_error(request: Request, exc: RequestValidationError):
    """422 `{"detail": [...]}` naming each field, FastAPI's shape, at most MAX_ERRORS of them."""
    check_link = LINK_CHECKED_IN_ROUTE.get(request.scope.get("endpoint"))
    if check_link is not None and not any(e.get("type") == "json_invalid" for e in exc.errors()):
        try:
            await check_link(request)
        except StarletteHTTPException as refused:  # no game (404), a watch link (403)
            return await http_error(request, refused)
        except DBAPIError as failed:  # as a dependency's would be: busy, a 503
            return await database_error(request, failed)
    errors = [_error(e) for e in exc.errors()[:MAX_ERRORS]]
    return JSONResponse({"detail": jsonable_encoder(errors)}, status_code=422)


def _wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


async def http_error(request: Request, exc: StarletteHTTPException):
    if _wants_html(request):
        context = {"status": exc.status_code, "detail": exc.detail}
        return templates.TemplateResponse(request, "error.html", context, status_code=exc.status_code)
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def database_error(request: Request, exc: DBAPIError):
    """A write the database could not take, said out loud: 503 with its reason and Retry-After,
    never a bare 500. Busy (a command that waited longer than the busy timeout for the write
    lock, under overload), the disk full, the database unreachable or read-only, the SQLite file
    deleted under the server (app/store/storage.py). The transaction was rolled back whole (the
    session closes on the way out, app/store/db.py get_session), so nothing of it was written. Any
    other database failure stays a server error."""
    reason = storage.trouble(exc, busy=isinstance(exc, OperationalError) and is_busy(exc))
    if reason is None:
        raise exc
    if reason != storage.BUSY:  # the operator must hear of it; a busy moment is not news
        said = (str(exc.orig).splitlines() or [""])[0][:200]
        logger.warning("%s %s: 503, %s%s", request.method, request.url.path, reason,
                       "" if said == reason else f" ({said})")
    headers = {"Retry-After": str(storage.retry_after(reason))}
    if request.headers.get("HX-Request"):  # a tap on a game page: live.js shows it where the tap was
        return HTMLResponse(f"<p>{escape(reason)}</p>", status_code=503, headers=headers)
    if _wants_html(request):
        context = {"status": 503, "detail": reason}
        return templates.TemplateResponse(request, "error.html", context, status_code=503, headers=headers)
    return JSONResponse({"detail": reason}, status_code=503, headers=headers)
