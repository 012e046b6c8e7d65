"""Capability tokens live in URL paths, and whoever reads a token may play the game: they must never
reach a log. Uvicorn's access log prints each request's path, so its records are redacted here."""

from __future__ import annotations

import logging
import re

# A token is 32 URL-safe characters (games.new_token); no other path segment is that long.
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")
REDACTED = "…"


def redact(text: str) -> str:
    return TOKEN.sub(REDACTED, text)


class RedactTokens(logging.Filter):
    """Rewrites a record's message arguments (uvicorn: client, method, path, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_access_log_filter() -> None:
    """Uvicorn configures its loggers before it imports the app, so the filter stays in place."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
