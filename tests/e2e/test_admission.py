"""No stranger can hold the server (issue 16): against a real server process, bodies that never
arrive and a crowd of imports leave the health route, and a new game, answering.

Before the fix, the admission limiter took one of its 50 slots as soon as a request's headers
were in and held it while waiting for the body: 60 POSTs that announce a body and never send it
froze every route for as long as their sockets stayed open, and 120 imports at once queued the
health route behind them. These tests assert answers, never durations: the health check has a
generous timeout, and the hanging sockets are checked to be still waiting when it answers."""

from __future__ import annotations

import asyncio
import select
import socket

import httpx
import pytest

from tests.conftest import POSTGRES
from tests.e2e.test_load import game_with_steps
from tests.support.loops import run_in_own_loop
from tests.support.server import LiveServer

pytestmark = [pytest.mark.server, pytest.mark.db]  # db: again on PostgreSQL in `make test-postgres`

# The server's body deadline here: long enough for health and a new game to answer first (tens of
# milliseconds, even on a loaded machine), short because the test waits it out twice (the hanging
# bodies, then the imports queued behind the gate): 8 s kept a worker idle 16 s.
READ_SECONDS = 4
HANGING = 60
# Imports reading at once here (4 in production): the 15 hanging imports fill it and 7 still queue
# behind it, so a queued one is let go too. At 4 they were let go in four rounds of READ_SECONDS.
GATE = 8


@pytest.fixture
def server(tmp_path):
    """A server of this test's own: it reads bodies on a shorter deadline, with a wider import
    gate."""
    url = None
    if POSTGRES:
        from tests.support.postgres import drop_database, fresh_database

        url = fresh_database(POSTGRES, "adm", migrated=True)
    server = LiveServer(tmp_path / "adm.db", database_url=url,
                        env={"BODY_READ_SECONDS": str(READ_SECONDS), "IMPORT_GATE": str(GATE)}).start()
    yield server
    server.stop()
    if url:
        drop_database(url)


def unfinished_post(port: int, n: int) -> socket.socket:
    """A POST whose body never (fully) comes: no body, half a body, a chunked body left open, or
    an import's body begun."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    shapes = [head + b"Content-Length: 100\r\n\r\n",
              head + b"Content-Length: 100\r\n\r\n" + b'{"name": "slow',
              head + b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"nam\r\n",
              head.replace(b"/api/games", b"/api/games/import") + b"Content-Length: 100\r\n\r\n{"]
    sock.sendall(shapes[n % len(shapes)])
    return sock


def answered(sock: socket.socket) -> bool:
    readable, _, _ = select.select([sock], [], [], 0)
    return bool(readable)


def test_health_and_new_games_answer_while_60_connections_sit_on_unfinished_bodies(server):
    sockets = [unfinished_post(server.port, n) for n in range(HANGING)]
    try:
        health = httpx.get(server.url + "/api/health", timeout=60)
        assert health.status_code == 200 and health.json()["status"] == "ok"
        new_game = httpx.post(server.url + "/api/games", json={"name": "Still here"}, timeout=60)
        assert new_game.status_code == 201
        still_waiting = [s for s in sockets if not answered(s)]
        assert len(still_waiting) == HANGING  # they hang still: health did not wait for them
        # and each of them is let go in the end: 408, connection closed
        for sock in sockets:
            sock.settimeout(120)
            head = sock.recv(4096)
            assert head.startswith(b"HTTP/1.1 408"), head[:80]
            assert b"connection: close" in head.lower()
    finally:
        for sock in sockets:
            sock.close()


def test_health_answers_while_120_imports_run(live_server):
    """On the shared server: its settings are production's (the gate of 4)."""
    server = live_server
    game = game_with_steps(server.url, steps=30)
    document = httpx.get(f"{server.url}/api/games/{game['edit_token']}/export", timeout=30).content

    async def crowd() -> tuple[int, int, list[int]]:
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        async with httpx.AsyncClient(base_url=server.url, timeout=600, limits=limits) as client:
            imports = [asyncio.create_task(client.post(
                "/api/games/import", content=document, headers={"content-type": "application/json"}))
                for _ in range(120)]
            while not any(task.done() for task in imports):  # the imports are at work
                await asyncio.sleep(0.05)
            health = await client.get("/api/health")
            pending = sum(not task.done() for task in imports)
            statuses = [(await task).status_code for task in imports]
            return health.status_code, pending, statuses

    health, pending, statuses = run_in_own_loop(crowd())
    assert health == 200
    # it answered while most imports still ran; it used to queue behind every one at work
    assert pending >= 60, pending
    assert statuses == [201] * 120
