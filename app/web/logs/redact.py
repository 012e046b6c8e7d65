"""Capability tokens live in URL paths, and whoever reads a token may play the game: they must never
reach a log, nor any piece of one. Uvicorn's access log prints each request's path, so its records
are redacted here.

A path is logged as the app knows it: each segment is kept only when it is one of the app's own
words (a literal segment of a route, a static file's name) or a short number; anything else, a
token or whatever a mistyped link put there, is logged as "…". Matching tokens by their shape
was not enough: `/admin/<first half>.<second half>` kept both halves, each shorter than
a token. A query keeps the names of the routes' query parameters, the app's words and short
numbers. Other records (uvicorn's errors) lose every run of token characters of 12 or more."""

from __future__ import annotations

import logging
import re
from pathlib import Path

TOKEN = re.compile(r"[A-Za-z0-9_-]{12,}")  # in free text: a token is 32 of these (games.new_token)
REDACTED = "…"
STATIC = Path(__file__).resolve().parents[3] / "static"


def redact(text: str) -> str:
    """Free text (an error record): every long run of token characters goes."""
    return TOKEN.sub(REDACTED, text)


def known_words(routes: list) -> frozenset[str]:
    """The literal segments of the app's routes, their query parameters' names, and the names
    under /static."""
    words = {p.name for p in STATIC.rglob("*")} if STATIC.is_dir() else set()
    _route_words(routes, words)
    return frozenset(words)


def _route_words(routes: list, words: set[str]) -> None:
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI's include_router
        if included is not None:
            words.update(_segments(getattr(getattr(route, "include_context", None), "prefix", "")))
            _route_words(included.routes, words)
            continue
        words.update(_segments(getattr(route, "path", "")))
        dependants = [route.dependant] if hasattr(route, "dependant") else []
        while dependants:  # its query parameters' names, its dependencies' too
            dependant = dependants.pop()
            words.update(p.alias for p in dependant.query_params)
            dependants.extend(dependant.dependencies)


def _segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s and "{" not in s]


def _kept(word: str, words: frozenset[str]) -> str:
    return word if word in words or (word.isdigit() and len(word) <= 6) else REDACTED


def redact_path(path: str, words: frozenset[str]) -> str:
    """A request's path and query with nothing in it the app did not write itself (`words`:
    `known_words` of its routes)."""
    path, mark, query = path.partition("?")
    logged = "/".join(_kept(s, words) if s else s for s in path.split("/"))
    if mark:
        pairs = []
        for pair in query.split("&"):
            name, equals, value = pair.partition("=")
            name = _kept(name, words)
            values = ",".join(_kept(v, words) for v in value.split(","))
            pairs.append(name + equals + values if equals else name)
        logged += "?" + "&".join(pairs)
    return logged


class RedactTokens(logging.Filter):
    """Rewrites a record's message arguments (uvicorn's access log: client, method, path,
    version, status; the path as `redact_path` says, any other text as `redact`). `routes`: the
    app's, read when the first request is logged, once every route is in place."""

    def __init__(self, routes: list) -> None:
        super().__init__()
        self.routes = routes
        self.words: frozenset[str] | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            access = record.name == "uvicorn.access" and len(record.args) == 5
            if access and self.words is None:
                self.words = known_words(self.routes)
            record.args = tuple(
                (redact_path(a, self.words) if access and i == 2 else redact(a)) if isinstance(a, str) else a
                for i, a in enumerate(record.args))
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_access_log_filter(routes: list) -> None:
    """Uvicorn configures its loggers before it imports the app, so the filter stays in place."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens(routes))
