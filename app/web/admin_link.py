"""The admin link: whoever runs the server may list every game, back them all up and restore a
backup (docs/architecture.md § Live sharing: server-wide views need the server's admin token).

The Jupyter-token pattern: ADMIN_TOKEN from the environment if set; otherwise a token made on the
first start and kept in the data folder (next to the SQLite file), readable by its owner only
(mode 600), so the link stays the same across restarts. The server prints the link at startup.
"""

from __future__ import annotations

import hmac
import os
import secrets
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from app.settings import Settings

TOKEN_FILE = "admin_token"
DEFAULT_DATA_DIR = Path("data")


def data_dir(settings: Settings) -> Path:
    """The SQLite file's folder; ./data for an in-memory database or PostgreSQL."""
    url = make_url(settings.database_url)
    database = url.database or ""
    if url.get_backend_name() == "sqlite" and database not in ("", ":memory:"):
        return Path(database).parent
    return DEFAULT_DATA_DIR


def _valid(token: str) -> bool:
    return len(token) >= 20 and all(c.isalnum() or c in "-_" for c in token) and token.isascii()


def ensure_token(settings: Settings) -> str:
    """The admin token: the environment's, else the saved one, else a new one saved with mode 600."""
    if settings.admin_token:
        if not _valid(settings.admin_token):
            raise ValueError("ADMIN_TOKEN must be at least 20 letters, digits, '-' or '_'.")
        return settings.admin_token
    path = data_dir(settings) / TOKEN_FILE
    if path.exists():
        os.chmod(path, 0o600)  # a copy made with a looser mode is tightened again
        saved = path.read_text().strip()
        if _valid(saved):
            return saved
        path.unlink()  # empty or damaged: replaced by a fresh token below
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)  # 32 characters, 192 bits
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(token + "\n")
    return token


def matches(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def announce(settings: Settings, token: str) -> None:
    """Print the admin link where whoever started the server reads it. Not through the logging
    loggers: those redact every token (app/web/logs/redact.py), and this one must be read."""
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host
    print(f"Admin link (every game, backup, restore; keep it secret): "
          f"http://{host}:{settings.port}/admin/{token}", file=sys.stderr, flush=True)
