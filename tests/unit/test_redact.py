"""Tokens are capabilities: the access log must not keep them (app/redact.py)."""

from __future__ import annotations

import logging

import pytest

from app.games import new_token
from app.redact import RedactTokens, redact

TOKEN = new_token()


@pytest.mark.parametrize("path, logged", [
    (f"/g/{TOKEN}", "/g/…"),
    (f"/v/{TOKEN}/panels/roster", "/v/…/panels/roster"),
    (f"/api/games/{TOKEN}/export", "/api/games/…/export"),
    ("/api/games/import", "/api/games/import"),
    ("/static/vendor/htmx-ext-sse-2.2.4.min.js", "/static/vendor/htmx-ext-sse-2.2.4.min.js"),
], ids=["play page", "watch panel", "export", "no token", "static file"])
def test_a_path_is_logged_without_its_token(path, logged):
    assert redact(path) == logged


def test_the_filter_rewrites_an_access_log_record_as_uvicorn_makes_it():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", f"/g/{TOKEN}/events", "1.1", 200), None)
    assert RedactTokens().filter(record) is True
    assert TOKEN not in record.getMessage() and "GET /g/…/events" in record.getMessage()
