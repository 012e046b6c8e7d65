"""kill -9 across snapshot boundaries (issue 16): a real server process is killed with SIGKILL
while a writer sends commands past the 50th and 100th steps (where the step log keeps a full
state: app/store/steplog.py). After a restart on the same database, every acknowledged step is there
once, unchanged, in order; "Go back here" to each side of every snapshot restores exactly that
step's state; and the game exports as a document its own import accepts (every delta replayed)."""

from __future__ import annotations

import signal
import threading

import httpx
import pytest

from app.store.steplog import SNAPSHOT_EVERY
from app.transfer import exchange
from tests.conftest import POSTGRES
from tests.support.server import LiveServer

pytestmark = [pytest.mark.server, pytest.mark.db]  # db: again on PostgreSQL in `make test-postgres`

KILL_AFTER = 2 * SNAPSHOT_EVERY + 15  # acknowledged steps before the kill: two snapshots behind


@pytest.fixture
def database(tmp_path):
    if not POSTGRES:
        yield None
        return
    from tests.support.postgres import drop_database, fresh_database

    url = fresh_database(POSTGRES, "kill", migrated=True)
    yield url
    drop_database(url)


def write_until_killed(url: str, token: str, acknowledged: dict[int, str], stop: threading.Event) -> None:
    n = 0
    with httpx.Client(base_url=url, timeout=30) as client:  # one connection, as a player's page keeps
        while not stop.is_set():
            name = f"C{n}"
            try:
                r = client.post(f"/api/games/{token}/commands",
                                json={"type": "add_character", "character": {"name": name}})
            except httpx.HTTPError:
                return  # the server is gone: this command may or may not have landed
            if r.status_code != 200:
                return
            acknowledged[r.json()["seq"]] = name
            n += 1


def test_every_acknowledged_step_survives_kill_9_and_goes_back_across_snapshots(tmp_path, database):
    server = LiveServer(tmp_path / "kill.db", database_url=database).start()
    game = httpx.post(server.url + "/api/games", json={"name": "Kill"}, timeout=30).json()
    token = game["edit_token"]
    acknowledged: dict[int, str] = {}
    stop = threading.Event()
    writer = threading.Thread(target=write_until_killed, args=(server.url, token, acknowledged, stop))
    writer.start()
    try:
        while len(acknowledged) < KILL_AFTER and writer.is_alive():
            writer.join(0.05)
        server.process.send_signal(signal.SIGKILL)  # no shutdown, no last commit
        server.process.wait(30)
    finally:
        stop.set()
        writer.join(60)
        server.stop()
    assert len(acknowledged) >= KILL_AFTER

    again = LiveServer(tmp_path / "kill.db", database_url=database).start()
    try:
        steps = httpx.get(f"{again.url}/api/games/{token}/steps", timeout=60).json()
        assert [s["seq"] for s in steps] == list(range(len(steps)))  # in order, none twice, no gap
        names = {s["seq"]: s["command"]["character"]["name"] for s in steps if s["kind"] == "add_character"}
        assert {seq: names.get(seq) for seq in acknowledged} == acknowledged  # every one, unchanged
        latest = len(steps) - 1
        for target in sorted({SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1,
                              2 * SNAPSHOT_EVERY - 1, 2 * SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY + 1}):
            r = httpx.post(f"{again.url}/api/games/{token}/undo", json={"to_seq": target, "seen": latest},
                           timeout=60)
            assert r.status_code == 200, r.text
            latest = r.json()["seq"]
            state = r.json()["state"]
            assert [c["name"] for c in state["characters"]] == [names[s] for s in range(1, target + 1)]
        document = httpx.get(f"{again.url}/api/games/{token}/export", timeout=60).json()
        exchange.parse_game(document)  # the whole log replays, each delta on the state before it
    finally:
        again.stop()
