"""Error answers for the whole app: friendly pages for people, FastAPI's JSON shape for clients."""

from __future__ import annotations

import math
from typing import Any

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.web.templating import templates


def finite(value: Any) -> Any:
    """JSON has no NaN or Infinity: echo such an input as text instead of failing with a 500."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 `{"detail": [...]}` naming the field, even when the body holds NaN or 1e999
    (FastAPI's default handler echoes the input and cannot serialise a non-finite float)."""
    return JSONResponse({"detail": finite(jsonable_encoder(exc.errors()))}, status_code=422)


def _wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


async def http_error(request: Request, exc: StarletteHTTPException):
    if _wants_html(request):
        context = {"status": exc.status_code, "detail": exc.detail}
        return templates.TemplateResponse(request, "error.html", context, status_code=exc.status_code)
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
