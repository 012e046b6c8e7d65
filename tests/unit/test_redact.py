"""Tokens are capabilities: the access log must not keep them (app/web/logs/redact.py)."""

from __future__ import annotations

import logging

import pytest

from app.bootstrap import create_app
from app.store.games import new_token
from app.web.logs.redact import RedactTokens, known_words, redact
from app.web.logs.redact import redact_path as redact_with

ROUTES = create_app(migrate_on_start=False, admin_token="t" * 32).routes
WORDS = known_words(ROUTES)


def redact_path(path: str) -> str:
    return redact_with(path, WORDS)

TOKEN = new_token()


@pytest.mark.parametrize("path, logged", [
    (f"/g/{TOKEN}", "/g/…"),
    (f"/v/{TOKEN}/panels/roster", "/v/…/panels/roster"),
    (f"/api/games/{TOKEN}/export", "/api/games/…/export"),
    ("/api/games/import", "/api/games/import"),
    ("/static/vendor/htmx-ext-sse-2.2.4.min.js", "/static/vendor/htmx-ext-sse-2.2.4.min.js"),
], ids=["play page", "watch panel", "export", "no token", "static file"])
def test_a_path_is_logged_without_its_token(path, logged):
    assert redact_path(path) == logged


HALF = len(TOKEN) // 2


@pytest.mark.parametrize("path, logged", [
    (f"/admin/{TOKEN[:HALF]}.{TOKEN[HALF:]}", "/admin/…"),
    (f"/g/{TOKEN[:HALF]}/{TOKEN[HALF:]}/panels/log", "/g/…/…/panels/log"),
    (f"/v/{TOKEN[:10]}%2F{TOKEN[10:]}", "/v/…"),
    (f"/api/games/{TOKEN[:8]}", "/api/games/…"),
    (f"/g/{TOKEN}/log?before=40&names=log,{TOKEN[:9]}", "/g/…/log?before=40&names=log,…"),
    (f"/static/{TOKEN[:HALF]}", "/static/…"),
    (f"/?{TOKEN[:6]}={TOKEN[6:]}", "/?…=…"),
], ids=["admin link split by a dot", "split by a slash", "split by an encoded slash", "a quarter",
        "in the query", "under static", "a query of nothing but token"])
def test_a_mistyped_link_leaves_no_piece_of_its_token_in_the_log(path, logged):
    """Issue 16: the redaction matched one unbroken run of token characters, so a link cut in two
    was logged in clear. Now only the app's own words and short numbers are kept."""
    assert redact_path(path) == logged
    assert all(piece not in redact_path(path) for piece in (TOKEN[:6], TOKEN[HALF:HALF + 6], TOKEN[-6:]))


def test_an_error_record_loses_every_run_of_token_characters():
    assert TOKEN[:HALF] not in redact(f"Invalid request for /admin/{TOKEN[:HALF]}.{TOKEN[HALF:]}")


def test_the_filter_rewrites_an_access_log_record_as_uvicorn_makes_it():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", f"/g/{TOKEN[:HALF]}.{TOKEN[HALF:]}/events", "1.1", 200),
                               None)
    assert RedactTokens(ROUTES).filter(record) is True
    assert record.getMessage() == '127.0.0.1:5000 - "GET /g/…/events HTTP/1.1" 200'
