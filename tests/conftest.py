"""Shared fixtures: every web test gets a fresh in-memory database (SQLModel's testing docs).

Set TEST_DATABASE_URL (e.g. postgresql+psycopg://potham:potham@localhost/potham_test) to run the
same tests against that database instead; each test then starts from empty tables."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, SQLModel

import app.tables  # noqa: F401
from app.db import get_session, make_engine
from app.main import create_app


@pytest.fixture
def engine():
    url = os.environ.get("TEST_DATABASE_URL", "sqlite://")
    engine = make_engine(url)
    SQLModel.metadata.drop_all(engine)
    SQLModel.metadata.create_all(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


# The admin link's secret in web tests (a real server makes its own in its data folder).
ADMIN_TOKEN = "test-admin-token-0123456789"


@pytest.fixture
def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def client(engine) -> Iterator[TestClient]:
    app = create_app(migrate_on_start=False, admin_token=ADMIN_TOKEN)

    def override() -> Iterator[Session]:
        with Session(engine) as session:
            yield session

    app.dependency_overrides[get_session] = override
    with TestClient(app) as client:
        yield client


@pytest.fixture
def live_server(tmp_path):
    """A real uvicorn process with its own migrated SQLite file."""
    from tests.support.server import LiveServer

    server = LiveServer(tmp_path / "live.db").start()
    yield server
    server.stop()
