"""A command waits for the database in a worker thread, never on the event loop (issue 16: no one
can hold the server). Before, the form routes (`/g/{token}/turn`, the Phase 2 taps, house rules,
the zone and d20 forms) were `async def` that ran the command on the event loop: while SQLite's
write lock was held elsewhere (another process, a backup tool, a long write), every request of the
server — the health route included — waited up to the busy timeout (10 s) behind one form post.

Against a real server on a SQLite file: an outside connection holds the write lock, a form command
is sent and waits; the health route must answer meanwhile. Answers, never durations, are asserted:
the health request's timeout is generous, and the command is checked to be still waiting."""

from __future__ import annotations

import sqlite3
import threading

import httpx
import pytest

from tests.conftest import POSTGRES
from tests.support.server import LiveServer

# Not marked db: SQLite's write lock on purpose, so the PostgreSQL pass ran the same test again.
pytestmark = pytest.mark.server


@pytest.fixture
def server(tmp_path, request):
    # SQLite on purpose in every pass: the write lock an outside connection can take is SQLite's.
    # The shared server in the SQLite pass (it serves a file), else one of its own.
    if not POSTGRES:
        yield request.getfixturevalue("live_server")
        return
    server = LiveServer(tmp_path / "loop.db").start()
    yield server
    server.stop()


def test_a_form_command_waiting_for_the_database_leaves_the_health_route_answering(server):
    game = httpx.post(server.url + "/api/games", json={"name": "Locked out"}, timeout=30).json()
    holder = sqlite3.connect(server.db_path, timeout=30, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as another writer would hold it
    answers: list[int] = []
    sender = threading.Thread(target=lambda: answers.append(httpx.post(
        f"{server.url}/g/{game['edit_token']}/turn", data={"type": "next_phase"}, timeout=60).status_code))
    try:
        sender.start()
        sender.join(1.0)  # let the command reach the database and wait there
        assert sender.is_alive() and not answers, "the command should be waiting for the write lock"
        health = httpx.get(server.url + "/api/health", timeout=8)  # well under the 10 s busy timeout
        assert health.status_code == 200
        assert sender.is_alive(), "health must answer while the command still waits, not after it"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        sender.join(60)
    assert answers and answers[0] in (200, 303, 503), answers
