"""The PostgreSQL relay's message handling (its LISTEN/NOTIFY path runs for real in
tests/e2e/test_processes.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.bootstrap import start_relay
from app.live import hub as live
from app.live.hub import Hub, LocalRelay, Message
from app.live.pg_relay import PgRelay, conninfo, is_postgres

ROOT = Path(__file__).resolve().parents[2]


class Recorder(Hub):
    def __init__(self):
        super().__init__()
        self.delivered = []

    def deliver(self, game_id, message):
        self.delivered.append((game_id, message))


def test_a_sqlalchemy_url_becomes_the_libpq_url_psycopg_connects_with():
    url = "postgresql+psycopg://potham:s3cret@db:5432/potham?host=/run/pg"
    assert conninfo(url) == "postgresql://potham:s3cret@db:5432/potham?host=%2Frun%2Fpg"
    assert is_postgres(url) and not is_postgres("sqlite:///./data/potham.db")


def test_messages_from_other_processes_reach_the_hub_and_our_own_echo_does_not():
    hub = Recorder()
    relay = PgRelay(hub, "postgresql+psycopg://u@h/db")
    relay._receive(json.dumps(["another-process", 7, "step", 42, None]))
    relay._receive(json.dumps([relay.origin, 7, "step", 43, None]))  # delivered locally when sent
    relay._receive(json.dumps(["another-process", 7, "revoked", None, "old-token"]))
    relay._receive("not json")
    assert hub.delivered == [(7, Message("step", 42)), (7, Message("revoked", None, "old-token"))]


WITHOUT_PSYCOPG = """
import sys
sys.modules["psycopg"] = None  # what `import psycopg` meets without the `postgres` extra
from fastapi.testclient import TestClient
import app.bootstrap
with TestClient(app.bootstrap.create_app(admin_token="t")) as client:  # the lifespan runs: migrate, relay
    assert client.get("/api/health").status_code == 200
assert "psycopg" not in {name for name, module in sys.modules.items() if module is not None}
print("started")
"""


def test_the_app_starts_on_sqlite_without_psycopg_installed(tmp_path):
    """psycopg is only the optional `postgres` extra (issue 17): on SQLite the app must not need it."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'potham.db'}"}
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_PSYCOPG], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("started")


def test_on_postgresql_the_app_still_starts_the_relay_and_on_sqlite_none(monkeypatch):
    monkeypatch.setattr(live, "hub", Hub())  # start() installs the relay on the hub: not the real one
    assert start_relay("sqlite:///./data/potham.db") is None and isinstance(live.hub.relay, LocalRelay)
    relay = start_relay("postgresql+psycopg://u@127.0.0.1:1/nowhere")  # no server: it keeps retrying
    try:
        assert isinstance(relay, PgRelay) and live.hub.relay is relay
    finally:
        relay.stop()
