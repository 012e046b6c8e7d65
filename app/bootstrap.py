"""create_app: the app's one place of wiring: routers, templates, static files, middleware and
error pages (app/main.py serves it)."""

from __future__ import annotations

import gc
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anyio import to_thread
from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import rulesets
from app.live import hub as live
from app.rulesets.base import RulesetWeb
from app.settings import get_settings
from app.store import game_commands, games
from app.store.db import is_postgres, pool_size
from app.web import admin_link as admin
from app.web import errors, panels, reach, view
from app.web.middleware import answer_first, route_filter
from app.web.middleware.admission import Admission
from app.web.middleware.answer_first import AnswerFirst
from app.web.middleware.cross_site import CrossSiteRefusal
from app.web.middleware.departures import Departures
from app.web.middleware.headers import SecurityHeaders
from app.web.middleware.limits import BodyLimit
from app.web.middleware.per_client import PerClient
from app.web.routes import admin as admin_routes
from app.web.routes import api, ops, pages, report, sample, share, steps
from app.web.routes import rulesets as rulesets_routes
from app.web.templating import ROWS, RULE_PAGES, templates

if TYPE_CHECKING:
    from app.live.pg_relay import PgRelay

ROOT = Path(__file__).resolve().parent.parent


def wire_listeners() -> None:
    """Who hears of a committed step, in this order: the answer-first middleware, so a request's
    own step is marked before anything is pushed, then the hub, which wakes the live streams
    (a push then waits for that request's answer). A renamed or deleted game: the hub."""
    game_commands.STEP_LISTENERS[:] = [answer_first.step_made, live.hub.step]
    games.GAME_LISTENERS[:] = [live.hub.game_changed]


def install_ruleset(app: FastAPI, glossaries: APIRouter, ruleset_id: str, web: RulesetWeb) -> None:
    """One ruleset's web part: its rule glossary page, its line in the lists, its game page, panels
    and context, its log labels and template names, its page routes and stateless API."""
    RULE_PAGES[ruleset_id] = web.rules or f"/rules/{ruleset_id}"
    if web.rules is None:
        glossaries.add_api_route(f"/rules/{ruleset_id}", rulesets_routes.rules_page(ruleset_id),
                            methods=["GET"], response_class=HTMLResponse)
    if web.row is not None:
        ROWS[ruleset_id] = web.row
    panels.RULESET_PAGES[ruleset_id] = web.page
    panels.RULESET_PANELS[ruleset_id] = {**rulesets_routes.GENERIC_PANELS, **web.panels}
    panels.RULESET_HOOKS[ruleset_id] = [web.context]
    for kind, label in web.step_labels.items():  # the first ruleset to name a kind keeps its label
        view.STEP_LABELS.setdefault(kind, label)
    view.COMMAND_LABELS.update(web.command_labels)
    templates.env.globals.update(web.template_globals)
    templates.env.filters.update(web.template_filters)
    if web.api is not None:
        app.include_router(web.api, prefix=f"/api/rulesets/{ruleset_id}", tags=[f"rules: {ruleset_id}"])
    if web.router is not None:
        app.include_router(web.router)


def include_routers(app: FastAPI) -> None:
    """Every router, in matching order: each ruleset's first (2038's hot stateless endpoint
    matches at once), then the shell's."""
    app.include_router(rulesets_routes.router)  # GET /api/rulesets
    glossaries = APIRouter(include_in_schema=False)  # one per app: create_app may run many times
    for ruleset_id in rulesets.RULESETS:  # the registry's order
        install_ruleset(app, glossaries, ruleset_id, rulesets_routes.web_part(ruleset_id))
    app.include_router(glossaries)
    report.install(app)  # the battle report: /g|/v/{token}/report, /r/{report_token}, its JSON
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(panels.router)
    app.include_router(sample.router)
    app.include_router(steps.router)  # undo
    app.include_router(admin_routes.router)
    app.include_router(admin_routes.api_router)


def start_relay(url: str) -> PgRelay | None:
    """Live updates across processes through PostgreSQL (app/live/pg_relay.py), imported only on
    PostgreSQL: it needs psycopg, the optional `postgres` extra, which SQLite never does."""
    if not is_postgres(url):
        return None
    from app.live import pg_relay as live_pg

    return live_pg.start(live.hub, url)


def lifespan_for(migrate_on_start: bool) -> Any:
    """The app's start and stop: threads, migration, the admin link, the PostgreSQL relay."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        settings = get_settings()
        # as many threads as the pool has connections for (app.store.db); more requests queue for one
        to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        templates.env.auto_reload = settings.templates_reload  # no file looked at on a render
        if migrate_on_start and settings.migrate_on_start:  # behind? brought up to date first
            from app.store.migrate import migrate

            migrate(settings.database_url)
        if app.state.admin_token is None:
            app.state.admin_token = admin.ensure_token(settings)
            admin.announce(settings, app.state.admin_token)
            reach.announce(settings)  # where other devices at the table open it
        relay = start_relay(settings.database_url)  # several processes on PostgreSQL
        if getattr(app.state, "served", False):
            freeze_the_start()
        try:
            yield
        finally:
            if relay is not None:
                relay.stop()
                live.hub.relay = live.LocalRelay(live.hub)

    return lifespan


def freeze_the_start() -> None:
    """Everything the served app holds at its start (its modules, routes, settings: some 150,000
    objects) is kept for its whole life: out of the garbage collector's full passes, which walked
    all of them and stopped the process for 150-190 ms of CPU every few hundred steps.
    Garbage first, so none is kept. Only the served app: a test's apps come and go in one process."""
    gc.collect()
    gc.freeze()


def create_app(migrate_on_start: bool = True, admin_token: str | None = None) -> FastAPI:
    """`admin_token`: the admin link's secret; None reads ADMIN_TOKEN or the data folder's
    (made on the first start) and prints the admin link (app/web/admin_link.py)."""
    app = FastAPI(title="Potham Chronicles 2038 · AI-Bot assistant", version="0.1.0",
                  lifespan=lifespan_for(migrate_on_start),
                  docs_url=None, redoc_url=None)  # ops.install serves /docs from static, not a CDN
    app.state.admin_token = admin_token
    wire_listeners()
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    include_routers(app)
    ops.install(app)  # /api/health, /docs
    share.install(app)  # share panel, live updates, export/import, 409 answers, token-free logs
    route_filter.install(app)  # a router none of whose paths fit is skipped at once
    app.add_exception_handler(StarletteHTTPException, errors.http_error)
    app.add_exception_handler(RequestValidationError, errors.validation_error)
    app.add_exception_handler(DBAPIError, errors.database_error)  # busy, disk full, gone: 503, never 500
    app.add_middleware(AnswerFirst)  # a step's own answer is sent before its live push is rendered
    app.add_middleware(Admission, limit=pool_size)  # no more requests at work than connections
    app.add_middleware(BodyLimit)  # absurd bodies refused before they are read (413)
    app.add_middleware(PerClient)  # live streams at once, new games an hour, per client (429)
    app.add_middleware(CrossSiteRefusal)  # another site's form acts on nothing (403)
    app.add_middleware(Departures)  # a client that left is one INFO line, never a traceback
    app.add_middleware(SecurityHeaders)  # outermost: every answer, errors too, gets the headers
    return app
