"""The PostgreSQL relay's message handling (its LISTEN/NOTIFY path runs for real in
tests/e2e/test_processes.py)."""

from __future__ import annotations

import json

from app.live import Hub, Message
from app.live_pg import PgRelay, conninfo, is_postgres


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
