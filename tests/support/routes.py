"""The app's routes, listed once per test process.

Several test modules enumerate the routes at collection, so that a route added later is covered
without anyone listing it (tests/web/test_permissions.py, test_security_headers.py,
test_robustness.py). Each made a new app and walked its routers (0.17 s of CPU apiece, in every
xdist worker of both passes); the list depends on the code only, so one walk serves them all."""

from __future__ import annotations

from functools import cache


@cache
def app_routes() -> tuple[tuple[str, frozenset[str]], ...]:
    """(path, methods) of every route of a new app, those of included routers too."""
    from fastapi.routing import APIRoute

    from app.bootstrap import create_app

    app = create_app(migrate_on_start=False)
    try:  # newer FastAPI keeps included routers nested
        from fastapi.routing import iter_route_contexts
    except ImportError:
        return tuple((r.path, frozenset(r.methods)) for r in app.routes if isinstance(r, APIRoute))
    return tuple((c.path, frozenset(c.methods)) for c in iter_route_contexts(app.routes) if c.methods and c.path)
