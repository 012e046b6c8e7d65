"""Issue 21: an included router none of whose paths fit a request is skipped without asking its
routes (app/web/middleware/route_filter.py). Every request must still reach exactly the route FastAPI's own
matching picks (or the same 405 or 404), and the OpenAPI schema must not change."""

from __future__ import annotations

import re

import pytest
from fastapi.routing import _IncludedRouter
from starlette.routing import Match

from app.bootstrap import create_app
from app.web.middleware import route_filter

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def unfiltered(app):
    for route in app.router.routes:
        vars(route).pop("matches", None)  # FastAPI's own method again
    return app


@pytest.fixture(scope="module")
def apps():
    return create_app(migrate_on_start=False, admin_token="t"), unfiltered(create_app(migrate_on_start=False,
                                                                                        admin_token="t"))


def leaves(router: _IncludedRouter):
    for candidate in router.effective_candidates():
        yield from leaves(candidate) if isinstance(candidate, _IncludedRouter) else [candidate]


def sample_paths(app) -> list[str]:
    """Every route's path with sample parameters, each also with a trailing slash and an extra
    segment, and a few paths no route has."""
    formats = [getattr(r, "path_format", None) or getattr(r, "path", "") for r in app.router.routes]
    formats += [leaf.path_format for r in app.router.routes if isinstance(r, _IncludedRouter) for leaf in leaves(r)]
    paths = {re.sub(r"\{[^}]+\}", "abc", f) or "/" for f in formats}
    paths |= {p.rstrip("/") + "/" for p in paths} | {p.rstrip("/") + "/more" for p in paths}
    return sorted(paths | {"/", "/nowhere", "/g", "/g/", "/v/abc/a/b/c", "/static/app.css", "/api/games/abc/x/y"})


def named(child: dict) -> str:
    """The endpoint by name: each app makes its own (a static files app, a closure)."""
    endpoint = child.get("endpoint")
    return f"{getattr(endpoint, '__module__', '')}.{getattr(endpoint, '__qualname__', type(endpoint).__name__)}"


def selected(app, method: str, path: str):
    """What the app's router picks for this request, as FastAPI's Router.app does: the first full
    match (for an included router, the route inside it), else the first partial one (a 405)."""
    scope = {"type": "http", "method": method, "path": path, "root_path": "", "headers": [], "query_string": b""}
    partial = None
    for index, route in enumerate(app.router.routes):
        match, child = route.matches(scope)
        if match == Match.NONE:
            continue
        if isinstance(route, _IncludedRouter):
            leaf = route
            while isinstance(leaf, _IncludedRouter):  # down to the route FastAPI's handle() picks
                match, child, leaf, context = leaf._match(scope)
            child = {"leaf": context.path_format, "endpoint": named(child), "params": child.get("path_params")}
        else:
            child = {"endpoint": named(child), "params": child.get("path_params")}
        if match == Match.FULL:
            return "full", index, child
        partial = partial or ("partial", index, child)
    return partial or ("none",)


def test_every_request_reaches_the_route_fastapi_itself_picks(apps):
    filtered, plain = apps
    paths = sample_paths(plain)
    assert len(paths) > 150
    picked = {(m, p): selected(filtered, m, p) for m in METHODS for p in paths}
    assert picked == {(m, p): selected(plain, m, p) for m in METHODS for p in paths}
    kinds = {result[0] for result in picked.values()}
    assert kinds == {"full", "partial", "none"}  # the sample reaches routes, 405s and 404s


def test_the_openapi_schema_is_the_same(apps):
    filtered, plain = apps
    assert filtered.openapi() == plain.openapi()


def test_a_router_whose_paths_do_not_fit_is_not_asked(apps, monkeypatch):
    filtered, _ = apps
    asked = []
    for route in filtered.router.routes:
        if isinstance(route, _IncludedRouter):
            monkeypatch.setattr(route, "_match", lambda scope, r=route, own=route._match: asked.append(r) or own(scope))
    assert selected(filtered, "GET", "/g/abc/panels/turn")[0] == "full"
    assert asked and {leaf.path_format for r in asked for leaf in leaves(r)} == {
        "/g/{token}/panels/{name}", "/v/{token}/panels/{name}", "/v/{token}/panels", "/g/{token}/panels",
        "/v/{token}/log", "/g/{token}/log"}  # only the panels' router was asked


def test_a_route_added_to_an_included_router_later_is_matched(apps):
    filtered, _ = apps
    router = next(r for r in filtered.router.routes if isinstance(r, _IncludedRouter)
                  and any(leaf.path_format == "/games/sample" for leaf in leaves(r)))
    assert selected(filtered, "GET", "/games/sample/later") == ("none",)
    router.original_router.add_api_route("/games/sample/later", lambda: None, methods=["GET"])
    try:
        assert selected(filtered, "GET", "/games/sample/later")[0] == "full"
    finally:
        router.original_router.routes.pop()
        router.original_router._mark_routes_changed()


def test_installing_twice_keeps_one_filter(apps):
    filtered, _ = apps
    before = [vars(r).get("matches") for r in filtered.router.routes]
    route_filter.install(filtered)
    assert [vars(r).get("matches") for r in filtered.router.routes] == before
