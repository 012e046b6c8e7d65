"""Settings from the environment (or a `.env` file): where the games live and where we serve."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # SQLite file by default; any SQLAlchemy URL works, e.g. postgresql+psycopg://user@host/db
    database_url: str = "sqlite:///./data/potham.db"
    # Where `make run` / `python -m app` serves. Use HOST=0.0.0.0 to reach it from a tablet.
    host: str = "127.0.0.1"
    port: int = 8000
    # The address other devices use (host or host:port) when the app cannot see it itself, e.g. in a
    # Docker container on a bridge network. Unset: this machine's interfaces tell (app/web/reach.py).
    share_host: str | None = None
    # Sync routes run on this many threads (anyio's default is 40). Every one of them may hold a
    # database connection, so the pool has at least as many (a smaller pool froze the
    # server). Requests beyond them wait their turn; none fails for want of a thread.
    worker_threads: int = 40
    # Connections per process; None: worker_threads + DB_POOL_SPARE. On PostgreSQL keep
    # processes × pool below the server's max_connections.
    db_pool_size: int | None = None
    # Seconds a command waits for the database's write lock (SQLite's busy timeout, PostgreSQL's
    # lock_timeout) before it answers 503 with Retry-After, having changed nothing.
    db_busy_timeout: float = 10.0
    # Seconds a request's body may take to arrive once its headers are in (app/web/middleware/admission.py):
    # a client that never sends the body it announced gets 408 and holds nothing meanwhile.
    body_read_seconds: float = 20.0
    # The limits a stranger cannot exceed (docs/limits.md lists each with its default).
    # A request's line and headers together (431 beyond; 414 when its URL alone passes max_url_bytes),
    # counted as they arrive, before any of it is parsed (app/web/middleware/connections.py).
    max_head_bytes: int = 16 * 1024
    max_url_bytes: int = 8 * 1024
    # Seconds a new connection may wait before its first byte, and a request from its first byte
    # to its last header: then the connection is closed (a keep-alive connection between two
    # requests waits up to 75 s, app/__main__.py).
    idle_seconds: float = 10.0
    head_seconds: float = 10.0
    # Bytes a second a request's body must keep up once body_read_seconds have passed: the body's
    # deadline grows only with the bytes that arrived, never with the size it announced.
    body_min_rate: int = 16 * 1024
    # Per client address: open connections (a trusted proxy's are not counted: it counts its
    # own clients) and open live streams; beyond them, 429 with Retry-After.
    connections_per_client: int = 64
    streams_per_client: int = 16
    # Imports (and restores) one client address may have reading at once, within import_gate.
    imports_per_client: int = 2
    # New games and imports one client address may make in an hour (429 with Retry-After beyond);
    # 0: no quota (`make run`). `make share` and the container set it (docs/deployment.md).
    games_per_hour: int = 0
    # Imports and restores at work (reading their bodies or storing) at once; the others queue
    # (app/web/middleware/admission.py). Each reads up to 20 MB (a restore 1 GB), so few at a time.
    import_gate: int = 4
    # Bring the database up to date when the app starts. Several replicas (compose.yaml) set it
    # to false and run `python -m app.store.migrate` once, before them.
    migrate_on_start: bool = True
    # App processes on HOST:PORT (`python -m app`). More than one needs PostgreSQL: live updates
    # cross processes through its LISTEN/NOTIFY (app/live/pg_relay.py).
    workers: int = 1
    # SQLite's `synchronous` under WAL (app/store/db.py): "normal" (default) writes each committed step to
    # the WAL before the answer, so a crashed or killed server (kill -9) loses no answered step;
    # only a power cut or an OS crash may lose the last steps answered before it. "full" also
    # waits for the disk (fsync) on every commit: that holds across a power cut too, at the cost
    # of a disk flush per step (most of a command's time on a slow disk). PostgreSQL ignores it.
    sqlite_synchronous: Literal["normal", "full"] = "normal"
    # Re-read a template when its file changed (Jinja's auto_reload), for editing templates while
    # the server runs. Off: no file is checked on a render (a turn panel's includes and
    # imports looked at seven files' times on every render).
    templates_reload: bool = False
    # The admin link's secret (see app/web/admin_link.py). Unset: made on first start, kept in the
    # data folder.
    admin_token: str | None = None


@lru_cache
def get_settings() -> Settings:
    return Settings()
