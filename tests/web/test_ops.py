"""Operable (issue 11 § 4): a health check that asks the database; `/docs` without a CDN."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sqlmodel import Session, create_engine

from app.store.db import get_session

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def test_health_answers_ok_when_the_database_answers(client):
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json() == {"status": "ok", "database": "ok"}


def test_health_answers_503_not_500_when_the_database_does_not(client, tmp_path):
    broken = create_engine(f"sqlite:///{tmp_path / 'missing-folder' / 'x.db'}")

    def no_database() -> Iterator[Session]:
        with Session(broken) as session:
            yield session

    client.app.dependency_overrides[get_session] = no_database
    r = client.get("/api/health")
    assert r.status_code == 503 and r.json()["status"] == "unhealthy"


def test_docs_load_swagger_ui_from_the_app_itself_not_a_cdn(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "http://" not in page.text and "https://" not in page.text
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', page.text)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert "<script>" not in page.text  # no inline script (the page's own starts from a file)
    assert client.get("/openapi.json").json()["info"]["title"].startswith("Potham")


def test_the_vendored_swagger_ui_ships_with_its_licence(client):
    assert "Apache License" in client.get("/static/vendor/swagger-ui-5.35.0/LICENSE").text


def test_redoc_which_needs_a_cdn_is_not_served(client):
    assert client.get("/redoc").status_code == 404
