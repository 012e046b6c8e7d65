"""The ASGI app (`app.main:app`): routers, templates, static files and error pages."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.settings import get_settings
from app.web import api, pages, panels, share
from app.web.templating import templates

ROOT = Path(__file__).resolve().parent.parent


def create_app(migrate_on_start: bool = True) -> FastAPI:
    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if migrate_on_start:  # a database that is behind is brought up to date before serving
            from app.migrate import migrate

            migrate(get_settings().database_url)
        yield

    app = FastAPI(title="Potham Chronicles 2038 · AI-Bot assistant", version="0.1.0", lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(panels.router)
    share.install(app)  # share panel, live updates, export/import, 409 answers, token-free logs
    app.add_exception_handler(StarletteHTTPException, _http_error)
    return app


def _wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


async def _http_error(request: Request, exc: StarletteHTTPException):
    if _wants_html(request):
        return templates.TemplateResponse(
            request, "error.html", {"status": exc.status_code, "detail": exc.detail}, status_code=exc.status_code
        )
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


app = create_app()
