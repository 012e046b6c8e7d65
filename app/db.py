"""Database engine and sessions. SQLite gets WAL and a busy timeout; PostgreSQL works by URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from app.settings import get_settings

BUSY_TIMEOUT_MS = 10_000


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    in_memory = database in ("", ":memory:")
    if not in_memory:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
        poolclass=StaticPool if in_memory else None,
    )
    event.listen(engine, "connect", _sqlite_pragmas(wal=not in_memory))
    return engine


def _sqlite_pragmas(wal: bool):
    def on_connect(dbapi_connection, _record) -> None:
        cursor = dbapi_connection.cursor()
        if wal:  # readers never block the writer: a watcher's page stays live while the player acts
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return on_connect


_engine: Engine | None = None


def get_engine() -> Engine:
    global _engine
    if _engine is None:
        _engine = make_engine(get_settings().database_url)
    return _engine


def get_session() -> Iterator[Session]:
    """FastAPI dependency; tests override it with an in-memory database."""
    with Session(get_engine()) as session:
        yield session
