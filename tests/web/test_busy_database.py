"""Overload (issue 21): a command that waits longer than the busy timeout for the database's write
lock answers 503 with Retry-After and a message saying nothing was changed, never a 500, and
nothing of it is written. The lock is a real one, held by another connection: SQLite's write lock
on the same file, or on PostgreSQL (TEST_DATABASE_URL, `make test-postgres`) the game's row lock
that a command takes. The wait is made short through the settings (DB_BUSY_TIMEOUT)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool
from sqlmodel import Session, SQLModel

from app.bootstrap import create_app
from app.settings import get_settings
from app.store.db import get_session, make_engine
from app.web.errors import BUSY
from tests.conftest import POSTGRES

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

ADD = {"type": "add_character", "character": {"name": "Ada"}}


@pytest.fixture
def busy_client(tmp_path, monkeypatch) -> Iterator[tuple[TestClient, str]]:
    monkeypatch.setenv("DB_BUSY_TIMEOUT", "0.2")
    get_settings.cache_clear()
    url = f"sqlite:///{tmp_path / 'busy.db'}"
    if POSTGRES:
        from tests.support.postgres import drop_database, fresh_database

        url = fresh_database(POSTGRES, "busy")
    engine = make_engine(url)
    SQLModel.metadata.create_all(engine)
    app = create_app(migrate_on_start=False, admin_token="test-admin-token-0123456789")

    def override() -> Iterator[Session]:
        with Session(engine) as session:
            yield session

    app.dependency_overrides[get_session] = override
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            yield client, url
    finally:
        engine.dispose()
        get_settings.cache_clear()
        if POSTGRES:
            drop_database(url)


@contextmanager
def write_lock_held(url: str) -> Iterator[None]:
    """Another connection takes the lock a command needs and keeps it until the block ends:
    SQLite's write lock, or every game's row lock on PostgreSQL."""
    if not POSTGRES:
        other = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
    else:
        from sqlalchemy import create_engine, text

        other = create_engine(url, poolclass=NullPool).connect()
        other.execute(text("SELECT id FROM game FOR UPDATE"))
    try:
        yield
    finally:
        if POSTGRES:
            other.rollback()
        else:
            other.execute("ROLLBACK")
        other.close()


def new_game(client: TestClient) -> str:
    r = client.post("/api/games", json={"name": "Busy table"})
    assert r.status_code == 201
    return r.json()["edit_token"]


def steps_of(client: TestClient, token: str) -> list:
    r = client.get(f"/api/games/{token}/steps")
    assert r.status_code == 200
    return r.json()


def test_a_command_that_cannot_get_the_write_lock_answers_503_with_retry_after_and_writes_nothing(busy_client):
    client, url = busy_client
    token = new_game(client)
    before = steps_of(client, token)

    with write_lock_held(url):
        r = client.post(f"/api/games/{token}/commands", json=ADD)
        assert r.status_code == 503
        assert int(r.headers["Retry-After"]) > 0
        assert r.json() == {"detail": BUSY}
        assert "nothing was changed" in BUSY and "try again" in BUSY

    assert steps_of(client, token) == before  # the command's transaction was rolled back whole
    again = client.post(f"/api/games/{token}/commands", json=ADD)  # and retrying works
    assert again.status_code == 200
    assert again.json()["seq"] == max(s["seq"] for s in before) + 1
    assert [c["name"] for c in again.json()["state"]["characters"]] == ["Ada"]


@pytest.mark.parametrize("headers, expected_type, shows", [
    ({"Accept": "text/html"}, "text/html", "<h1>Busy</h1>"),
    ({"Accept": "text/html", "HX-Request": "true"}, "text/html", f"<p>{BUSY}</p>"),
])
def test_a_page_tap_that_cannot_get_the_write_lock_gets_the_busy_message_not_a_server_error(
        busy_client, headers, expected_type, shows):
    client, url = busy_client
    token = new_game(client)
    assert client.post(f"/api/games/{token}/commands", json=ADD).status_code == 200
    before = steps_of(client, token)

    with write_lock_held(url):
        r = client.post(f"/g/{token}/undo", data={}, headers=headers)

    assert r.status_code == 503
    assert int(r.headers["Retry-After"]) > 0
    assert r.headers["content-type"].startswith(expected_type)
    assert shows in r.text and BUSY in r.text
    assert steps_of(client, token) == before


class PgError(Exception):
    """A psycopg error as the driver raises it: its SQLSTATE in `sqlstate`."""

    def __init__(self, sqlstate: str):
        super().__init__(f"SQLSTATE {sqlstate}")
        self.sqlstate = sqlstate


@pytest.mark.parametrize("original, busy", [
    (sqlite3.OperationalError("database is locked"), True),  # SQLite after its busy timeout
    (PgError("55P03"), True),  # PostgreSQL lock_not_available (its lock_timeout)
    (PgError("40P01"), True),  # deadlock_detected: rolled back, safe to retry
    (sqlite3.OperationalError("no such column: x"), False),
    (PgError("57P01"), False),  # admin_shutdown: not a "try again in a moment"
])
def test_only_a_lock_wait_is_called_busy_other_database_failures_stay_server_errors(original, busy):
    from sqlalchemy.exc import OperationalError

    from app.store.db import is_busy

    assert is_busy(OperationalError("UPDATE game", {}, original)) is busy
