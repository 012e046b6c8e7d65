"""Headers for pages whose URL is a secret (issue 10 § 4), on every route the app has: the GET
routes are enumerated from the app itself, so a page added later is checked without anyone
remembering to list it here. The event streams are checked against a real server
(tests/e2e/test_watch_crawl.py)."""

from __future__ import annotations

import re

import pytest

from app.web.middleware.headers import CSP
from tests.conftest import ADMIN_TOKEN
from tests.support.html import parse
from tests.support.routes import app_routes

STREAMS = ("/events",)  # never end: checked on a real server
QUERIES = {"/g/{token}/log": "?before=1", "/v/{token}/log": "?before=1",  # required parameters
           "/g/{token}/panels": "?names=status,log", "/v/{token}/panels": "?names=status,log"}
DOWNLOADS = ("/admin/{admin_token}/backup",)


def get_routes() -> list[str]:
    paths = {p for p, methods in app_routes() if "GET" in methods}
    # the watch paths' catch-all (share.watch_guard) serves no page: it answers 404 to a read, 403 to a change
    return sorted(p for p in paths if not p.endswith(STREAMS) and "{rest:path}" not in p)


GET_ROUTES = get_routes()


@pytest.fixture
def game(client) -> dict:
    game = client.post("/api/games", json={"name": "Night shift"}).json()
    r = client.post(f"/api/games/{game['edit_token']}/commands",
                    json={"type": "add_character", "character": {"name": "Ada"}})
    game["character_id"] = r.json()["state"]["characters"][0]["id"]
    game["report_token"] = client.post(f"/api/games/{game['edit_token']}/report-link").json()["report_token"]
    return game


def url_for(path: str, game: dict) -> str:
    token = game["view_token"] if path.startswith("/v/") else game["edit_token"]
    if path.startswith("/r/"):  # the battle report's own link
        token = game["report_token"]
    fillers = {"token": token, "admin_token": ADMIN_TOKEN, "name": "roster", "slug": "characters",
               "model_id": game["character_id"], "ruleset_id": "zone", "fold": "shoot"}
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: fillers[m.group(1)], path) + QUERIES.get(path, "")


def assert_secret_page_headers(r) -> None:
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["cache-control"] == "no-store"
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp


def test_the_enumeration_finds_the_pages_we_know_of():
    assert {"/", "/g/{token}", "/v/{token}", "/g/{token}/panels/{name}", "/admin/{admin_token}",
            "/api/games/{token}/export", "/api/backup", "/g/{token}/qr/play.svg", "/v/{token}/qr/watch.svg"} <= set(GET_ROUTES)


@pytest.mark.parametrize("path", GET_ROUTES)
def test_every_get_route_answers_with_the_headers_of_a_secret_page(client, game, path):
    r = client.get(url_for(path, game), headers={"Accept": "text/html", "Authorization": f"Bearer {ADMIN_TOKEN}"},
                   follow_redirects=False)
    assert r.status_code in (200, 303), r.text[:300]
    assert_secret_page_headers(r)
    if path not in ("/docs", "/redoc", "/docs/oauth2-redirect"):  # FastAPI's own, token-free API docs
        assert r.headers["content-security-policy"] == CSP


@pytest.mark.parametrize("path", [p for p in GET_ROUTES
                                  if not p.startswith(("/api", "/docs", "/redoc", "/openapi")) and p not in DOWNLOADS])
def test_no_page_carries_inline_script_or_style(client, game, path):
    """The policy allows no inline code, so none may be there: no <script> without src, no
    on…= handler, no javascript: link, no style attribute or <style> element."""
    r = client.get(url_for(path, game), headers={"Accept": "text/html"})
    kind = "image/svg+xml" if path.endswith(".svg") else "text/html"  # the share panel's QR codes: SVG, checked alike
    others = {".md": "text/markdown", ".png": "image/png"}  # the battle report's Markdown and card: no markup to run
    if path.endswith(tuple(others)):
        assert r.status_code == 200 and r.headers["content-type"].startswith(others[path[path.rindex("."):]])
        return
    assert r.status_code == 200 and r.headers["content-type"].startswith(kind)
    for node in parse(r.text).walk():
        assert not (node.tag == "script" and not node.attrs.get("src")), f"inline script in {path}"
        assert node.tag != "style", f"<style> in {path}"
        for name, value in node.attrs.items():
            assert not name.startswith(("on", "hx-on")), f"{name} handler in {path}"
            assert name != "style", f"style attribute on <{node.tag}> in {path}"
            assert not (value or "").strip().lower().startswith("javascript:"), f"javascript: URL in {path}"


@pytest.mark.parametrize("method, url, status", [
    ("get", "/g/" + "A" * 32, 404), ("get", "/v/" + "A" * 32, 404), ("get", "/api/games/" + "A" * 32, 404),
    ("post", "/games", 422), ("get", "/static/app.css", 200),
])
def test_errors_and_answers_to_posts_carry_the_headers_too(client, method, url, status):
    r = client.request(method.upper(), url, headers={"Accept": "text/html"}, data={"name": ""})
    assert r.status_code == status
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    if url.startswith("/static/"):  # our own files, the same for everyone: the browser may keep them
        assert r.headers.get("cache-control") != "no-store"
    else:
        assert r.headers["cache-control"] == "no-store"


def test_the_policy_allows_only_our_own_scripts_and_no_framing():
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["script-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP
