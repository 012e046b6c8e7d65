"""Route matching that skips a router none of whose paths fit.

FastAPI keeps each included router as one entry of the app's routes and, for every request, asks
each in turn, which asks each of its routes with some bookkeeping per route (scope keys set and
restored): a panel or a command tried some fifty routes before its own, about a tenth of a
cached panel's CPU time. Here each of the app's included routers first matches the request's
path against its routes' own path patterns (the regexes FastAPI itself matches them with, joined
into one); when none fits, it answers "no match" at once, which is exactly what asking its routes
would have answered (a route of an included router matches, fully or but for the method, only if
its path pattern does). Otherwise FastAPI's own matching runs, untouched. Nothing else changes:
the same routes in the same order, the same OpenAPI schema (tests/web/test_route_filter.py).

A router whose routes are not all plain HTTP routes with a path pattern (a mount, a websocket, a
frontend route) is not filtered; the patterns are gathered again whenever one of the routers
under it changes its routes (FastAPI counts every change: a route added after start).
"""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.routing import APIRoute, APIRouter, _EffectiveRouteContext, _IncludedRouter
from starlette._utils import get_route_path
from starlette.routing import Match
from starlette.types import Scope

GROUP = re.compile(r"\(\?P<\w+>")  # a path parameter's named group: unnamed once joined


def path_patterns(router: _IncludedRouter) -> list[str] | None:
    """Every route's path pattern under this included router, nested ones too; None when one of
    its routes is not an HTTP route matched by its pattern alone."""
    patterns: list[str] = []
    for candidate in router.effective_candidates():
        if isinstance(candidate, _IncludedRouter):
            nested = path_patterns(candidate)
            if nested is None:
                return None
            patterns += nested
        elif isinstance(candidate, _EffectiveRouteContext) and type(candidate.original_route) is APIRoute \
                and candidate.path_regex is not None:
            patterns.append(candidate.path_regex.pattern)
        else:
            return None
    return patterns


def routers_under(router: APIRouter) -> list[APIRouter]:
    """This router and every router included in it: their change counters say when to look again."""
    found = [router]
    for route in router.routes:
        if isinstance(route, _IncludedRouter):
            found += routers_under(route.original_router)
    return found


class Filtered:
    """An included router's `matches`: "no match" at once when no path of its routes fits."""

    def __init__(self, router: _IncludedRouter):
        self.router, self.ask = router, router.matches  # FastAPI's own (the class's method, bound)
        self.routers: list[APIRouter] = []
        self.versions: list[int] | None = None
        self.pattern: re.Pattern[str] | None = None

    def gather(self) -> None:
        self.routers = routers_under(self.router.original_router)
        self.versions = [r._routes_version for r in self.routers]
        patterns = path_patterns(self.router)
        self.pattern = None if patterns is None else re.compile(
            "|".join(f"(?:{GROUP.sub('(?:', p)})" for p in patterns) or "(?!)")

    def __call__(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return self.ask(scope)
        if self.versions != [r._routes_version for r in self.routers]:  # None at first: gather
            self.gather()
        if self.pattern is not None and self.pattern.match(get_route_path(scope)) is None:
            return Match.NONE, {}
        return self.ask(scope)


def install(app: FastAPI) -> None:
    """Filter each of the app's included routers (call once every router is included)."""
    for route in app.router.routes:
        if isinstance(route, _IncludedRouter) and "matches" not in vars(route):
            route.matches = Filtered(route)  # type: ignore[method-assign]
