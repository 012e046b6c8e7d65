"""Operating the app: a health check that asks the database, and the API docs served from our
own static files (no CDN: `/docs` works on a table with no internet)."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.store import storage
from app.web.deps import SessionDep

router = APIRouter(include_in_schema=False)

SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"  # swagger-ui-dist 5.35.0, Apache-2.0 (LICENSE there)
DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} · API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{ui}/swagger-ui.css"><link rel="icon" href="{ui}/favicon-32x32.png"></head>
<body><div id="swagger-ui" data-openapi-url="{openapi}"></div>
<script src="{ui}/swagger-ui-bundle.js"></script><script src="/static/api-docs.js"></script>
</body></html>"""


@router.get("/api/health")
def health(session: SessionDep) -> JSONResponse:
    """200 when the app answers and its database does (`SELECT 1`) and can take a write (a cheap
    probe, app/store/storage.py: a full disk, a read-only or lost database, a SQLite file deleted
    or replaced under the server), else 503 with the reason: for Docker's HEALTHCHECK and a load
    balancer."""
    try:
        session.execute(text("SELECT 1")).one()
        storage.probe_write(session.connection(), session.get_bind().url.database)
    except Exception as error:  # any failure of the database is "unhealthy", never a 500
        reason = storage.trouble(error, busy=False) if isinstance(error, DBAPIError) else None
        return JSONResponse({"status": "unhealthy", "database": type(error).__name__,
                             "reason": reason or "The database does not answer."}, 503,
                            headers={"Cache-Control": "no-store"})
    return JSONResponse({"status": "ok", "database": "ok"}, headers={"Cache-Control": "no-store"})


def install(app: FastAPI) -> None:
    """`/docs` from the vendored Swagger UI (FastAPI's docs_url and redoc_url are off: both load
    their scripts from a CDN). The page has no inline script: static/api-docs.js starts it."""
    page = DOCS_PAGE.format(title=app.title, ui=SWAGGER_UI, openapi=app.openapi_url)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(page)

    app.include_router(router)

