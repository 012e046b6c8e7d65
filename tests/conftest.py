"""Shared fixtures: every web test gets an empty in-memory database (each xdist worker has one,
emptied before every test) and a client of the worker's shared app (tests/support/client.py).

Set TEST_DATABASE_URL (a PostgreSQL server, e.g. the throwaway cluster .ci/run starts with
tests/support/postgres.py) to run the same tests on PostgreSQL: each xdist worker gets a database
of its own on that server, emptied before every test, and every real server process (`serving`)
a fresh database too."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session, SQLModel

import app.store.tables  # noqa: F401
from app.bootstrap import create_app
from app.store import db
from app.store.db import make_engine
from tests.support.client import OneHopClient
from tests.support.server import LiveServer, share_tls_context

POSTGRES = os.environ.get("TEST_DATABASE_URL")
share_tls_context()  # httpx's calls in the tests load no CA bundle each (60 ms of CPU each)
# The garbage collector: what was imported (the app, its templates, the test tools) is set aside
# for good, and a full collection comes ten times less often. A worker's heap is large, so each
# full one took about 90 ms of CPU, 20 of them in a minute of web tests (half the collector's
# time); a test's garbage still goes in the young collections, and memory grew by 7 MB.
gc.collect()
gc.freeze()
gc.set_threshold(7000, 10, 10)


@pytest.fixture(scope="session")
def postgres_engine():
    """This worker's PostgreSQL database with the tables (None without TEST_DATABASE_URL)."""
    if not POSTGRES:
        yield None
        return
    from tests.support.postgres import drop_database, fresh_database

    url = fresh_database(POSTGRES, "web")
    engine = make_engine(url, size=5)
    SQLModel.metadata.create_all(engine)
    yield engine
    engine.dispose()
    drop_database(url)


@pytest.fixture(scope="session")
def sqlite_engine():
    """This worker's in-memory SQLite database with the tables, emptied before every test (below).
    One engine for the session, not one per test: SQLAlchemy caches each statement's compiled SQL
    per engine, so a new engine per test compiled every query again, and made the tables again
    (both together were about a fifth of a typical web test's CPU)."""
    engine = make_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    yield engine
    engine.dispose()


def emptied(engine):
    """`engine` with no rows left by an earlier test, its next ids 1 again as in a new database:
    a plain DELETE of the few rows a test leaves (SQLite's tables have no AUTOINCREMENT, so its
    ids restart by themselves; PostgreSQL's sequences are set back). On PostgreSQL this took
    half the time of TRUNCATE … RESTART IDENTITY, which replaces each table's files."""
    with engine.begin() as connection:
        for table in reversed(SQLModel.metadata.sorted_tables):
            connection.execute(table.delete())
            if engine.dialect.name == "postgresql":
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), 1, false)"))
    return engine


@pytest.fixture
def engine(postgres_engine, sqlite_engine):
    return emptied(postgres_engine if postgres_engine is not None else sqlite_engine)


@pytest.fixture
def session(engine) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


# The admin link's secret in web tests (a real server makes its own in its data folder).
ADMIN_TOKEN = "test-admin-token-0123456789"


@pytest.fixture
def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@contextmanager
def client_of(app: FastAPI, engine) -> Iterator[TestClient]:
    """A test client of `app` whose requests use `engine` (its lifespan runs on entering).
    The app's own `get_session` serves `engine`: it is made the process's engine for the test
    (app.store.db keeps one), then the one before is put back. Not a dependency override: while
    `app.dependency_overrides` holds anything, FastAPI analyses every dependency of the route
    again on every request (a sixth of the CPU of the web tests), and a sync override ran in a
    worker thread, two more hops per request. A test may still override (e.g. a broken
    database); the overrides are cleared before and after."""
    app.dependency_overrides.clear()  # what an earlier test set (e.g. a broken database) goes
    saved, db._engine = db._engine, engine
    try:
        with OneHopClient(app) as client:
            yield client
    finally:
        app.dependency_overrides.clear()
        db._engine = saved


@pytest.fixture(scope="session")
def shared_app() -> FastAPI:
    """One app for this worker's web tests. FastAPI analyses a route's dependencies on the first
    request that reaches it in an app (0.1 s of CPU and more per page), so a new app per test paid
    that again in every test. Sharing is safe: the app holds no game state (each test has its own
    database, through the override above, and its own client, so its own cookies and event loop),
    and `client_of` resets the overrides. A test that adds routes uses `fresh_client`."""
    return create_app(migrate_on_start=False, admin_token=ADMIN_TOKEN)


@pytest.fixture
def client(engine, shared_app) -> Iterator[TestClient]:
    with client_of(shared_app, engine) as client:
        yield client


@pytest.fixture
def fresh_client(engine) -> Iterator[TestClient]:
    """A client of an app of this test's own, to change (add a route) without touching others."""
    with client_of(create_app(migrate_on_start=False, admin_token=ADMIN_TOKEN), engine) as client:
        yield client


@contextmanager
def serving(db_path: Path) -> Iterator[LiveServer]:
    """A real uvicorn process with its own migrated SQLite file at `db_path` (or a fresh
    PostgreSQL database), stopped (and the database dropped) after."""
    url = None
    if POSTGRES:
        from tests.support.postgres import drop_database, fresh_database

        url = fresh_database(POSTGRES, "e2e", migrated=True)
    server = LiveServer(db_path, database_url=url).start()
    try:
        yield server
    finally:
        server.stop()
        if url:
            drop_database(url)


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory):
    """One real server for every browser and end-to-end test of this worker: starting a uvicorn
    process (imports, migration) cost more than most of these tests. Sharing it is safe because
    each test plays games of its own (new links; the browser tests in new browser contexts, so
    their own device cookie and home list) and asserts nothing about the server's other games."""
    with serving(tmp_path_factory.mktemp("shared") / "live.db") as server:
        yield server


@pytest.fixture
def live_server(shared_server):
    """The shared server (above). A test that stops, kills or restarts its server, or needs a
    database, log or settings of its own, starts its own (`own_server`, or a LiveServer)."""
    if shared_server.process is None or shared_server.process.poll() is not None:
        raise RuntimeError("the shared server stopped: a test that stops its server must use own_server")
    return shared_server


@pytest.fixture
def own_server(tmp_path):
    """A server of this test's own, to stop and restart at will."""
    with serving(tmp_path / "live.db") as server:
        yield server
