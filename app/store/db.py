"""Database engine and sessions. SQLite gets WAL and a busy timeout; PostgreSQL works by URL.

No freeze under load: a request holds a pooled connection only while one of its
threads is running (`open_game` gives it back before the hop to the handler's thread, the session
closes on the event loop, not on a thread it would have to wait for), and the pool has a
connection for every worker thread plus spares, so no thread ever waits on the pool. At most
`pool_size()` requests are at work at once (app/web/middleware/admission.py): a JSON answer is serialised on
a thread after its handler, still holding the connection, and the rest queue on the event loop."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from app.settings import get_settings
from app.store import storage

DB_POOL_SPARE = 10  # sessions between their handler's end and their close on the event loop


def pool_size() -> int:
    settings = get_settings()
    return settings.db_pool_size or settings.worker_threads + DB_POOL_SPARE


def busy_timeout_ms() -> int:
    """How long a command waits for the write lock (SQLite's busy timeout, PostgreSQL's
    lock_timeout) before it gives up and answers 503 (app/web/errors.py)."""
    return max(1, round(get_settings().db_busy_timeout * 1000))


# PostgreSQL's "try again" errors: lock_not_available (lock_timeout), deadlock_detected,
# serialization_failure. Each rolls the transaction back whole.
PG_BUSY = {"55P03", "40P01", "40001"}


def is_busy(error: OperationalError) -> bool:
    """The database was too busy to take this write (SQLITE_BUSY after the busy timeout, or a
    PostgreSQL lock timeout or deadlock): nothing was written, the client may simply retry."""
    original = error.orig
    if (getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)) in PG_BUSY:
        return True
    text = str(original).lower()
    return "database is locked" in text or "database table is locked" in text or "database is busy" in text


def is_postgres(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


def make_engine(url: str, size: int | None = None) -> Engine:
    parsed = make_url(url)
    size = size or pool_size()
    if parsed.get_backend_name() != "sqlite":  # a row lock waits no longer than SQLite's would
        options = {} if "options" in parsed.query else {"options": f"-c lock_timeout={busy_timeout_ms()}"}
        return create_engine(url, pool_pre_ping=True, pool_size=size, max_overflow=DB_POOL_SPARE,
                             connect_args=options)
    database = parsed.database or ""
    in_memory = database in ("", ":memory:")
    if not in_memory:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    pool = {"poolclass": StaticPool} if in_memory else {"pool_size": size, "max_overflow": DB_POOL_SPARE}
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": busy_timeout_ms() / 1000}, **pool)
    synchronous = get_settings().sqlite_synchronous
    event.listen(engine, "connect", _sqlite_pragmas(wal=not in_memory, synchronous=synchronous))
    if not in_memory:  # a file deleted or replaced under the server is never written into
        storage.watch_file(engine, database)
    return engine


def _sqlite_pragmas(wal: bool, synchronous: str = "full"):
    def on_connect(dbapi_connection, _record) -> None:
        cursor = dbapi_connection.cursor()
        if wal:  # readers never block the writer: a watcher's page stays live while the player acts
            cursor.execute("PRAGMA journal_mode=WAL")
            # normal: no disk flush per commit; safe across a process crash (settings.py)
            cursor.execute(f"PRAGMA synchronous={'NORMAL' if synchronous == 'normal' else 'FULL'}")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return on_connect


_engine: Engine | None = None


def get_engine() -> Engine:
    global _engine
    if _engine is None:
        _engine = make_engine(get_settings().database_url)
    return _engine


async def get_session() -> AsyncIterator[Session]:
    """FastAPI dependency; tests override it with an in-memory database. Async on purpose: its
    close runs on the event loop, so a finished request never waits for a free thread while
    holding a connection."""
    with Session(get_engine()) as session:
        yield session
