"""Route matching that skips a router none of whose paths fit (issue 21).

FastAPI keeps each included router as one entry of the app's routes and, for every request, asks
each in turn, which asks each of its routes with some bookkeeping per route (scope keys set and
restored): a panel or a command tried some fifty routes before its own, about a tenth of a
cached panel's CPU time. Here each of the app's included routers first matches the request's
path against its routes' own path patterns (the regexes FastAPI itself matches them with); when
none fits, it answers "no match" at once, which is exactly what asking its routes would have
answered (a route of an included router matches, fully or but for the method, only if its path
pattern does). Otherwise FastAPI's own matching runs, untouched. Nothing else changes: the same
routes in the same order, the same OpenAPI schema (tests/web/test_route_filter.py).

A router whose routes are not all plain HTTP routes with a path pattern (a mount, a websocket, a
frontend route) is not filtered; the patterns are gathered again whenever FastAPI's own version of
the router's routes changes (a route added after start).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute, _EffectiveRouteContext, _IncludedRouter
from starlette._utils import get_route_path
from starlette.routing import Match
from starlette.types import Scope


def path_patterns(router: _IncludedRouter) -> list[re.Pattern[str]] | None:
    """Every route's path pattern under this included router, nested ones too; None when one of
    its routes is not an HTTP route matched by its pattern alone."""
    patterns: list[re.Pattern[str]] = []
    for candidate in router.effective_candidates():
        if isinstance(candidate, _IncludedRouter):
            nested = path_patterns(candidate)
            if nested is None:
                return None
            patterns += nested
        elif isinstance(candidate, _EffectiveRouteContext) and type(candidate.original_route) is APIRoute \
                and candidate.path_regex is not None:
            patterns.append(candidate.path_regex)
        else:
            return None
    return patterns


def filtered(router: _IncludedRouter) -> Any:
    """`router.matches`, answering "no match" without asking its routes when no path fits."""
    ask = router.matches  # FastAPI's own (the class's method, bound)
    known: list[Any] = [None, None]  # [routes version, patterns]

    def matches(scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return ask(scope)
        version = router.original_router._get_routes_version()
        if known[0] != version:
            known[:] = [version, path_patterns(router)]
        patterns = known[1]
        if patterns is not None:
            path = get_route_path(scope)
            if not any(pattern.match(path) for pattern in patterns):
                return Match.NONE, {}
        return ask(scope)

    return matches


def install(app: FastAPI) -> None:
    """Filter each of the app's included routers (call once every router is included)."""
    for route in app.router.routes:
        if isinstance(route, _IncludedRouter) and "matches" not in vars(route):
            route.matches = filtered(route)  # type: ignore[method-assign]
