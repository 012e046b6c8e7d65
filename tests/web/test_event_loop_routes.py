"""Routes that use the database are plain `def` (FastAPI runs them in a worker thread), so a
command waiting for the game's lock or the database never holds the event loop (issue 16).
The few `async def` routes that touch the database say why they may."""

from __future__ import annotations

import inspect

import pytest
from fastapi.routing import iter_route_contexts

from app.bootstrap import create_app

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

# async on purpose: each hands its database work to a worker thread or a bounded gate itself
ASYNC_WITH_A_SESSION = {
    "app.web.routes.admin.admin_restore", "app.web.routes.admin.api_restore",  # spooled body, then a thread
    "app.web.routes.exchange.import_upload", "app.web.routes.exchange.import_json",  # exchange.one_at_a_time
    "app.web.routes.live.events",  # a stream: it awaits the hub, its reads are short
}


def test_no_route_runs_database_work_on_the_event_loop():
    offenders = []
    for route in iter_route_contexts(create_app(migrate_on_start=False).routes):
        endpoint = route.endpoint
        if endpoint is None or not inspect.iscoroutinefunction(endpoint):
            continue
        takes_session = any(p.annotation and "SessionDep" in str(p.annotation)
                            for p in inspect.signature(endpoint).parameters.values())
        name = f"{endpoint.__module__}.{endpoint.__name__}"
        if takes_session and name not in ASYNC_WITH_A_SESSION:
            offenders.append(f"{sorted(route.methods)} {route.path}: {name}")
    assert offenders == []


def test_the_allowed_async_routes_still_exist():
    """The allow-list names real routes: a renamed one must be looked at again."""
    names = {f"{r.endpoint.__module__}.{r.endpoint.__name__}"
             for r in iter_route_contexts(create_app(migrate_on_start=False).routes) if r.endpoint}
    assert ASYNC_WITH_A_SESSION <= names
