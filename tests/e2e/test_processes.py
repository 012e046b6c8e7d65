"""Several app processes on one PostgreSQL database (issue 11 § 2): live updates cross processes
through LISTEN/NOTIFY, one command at a time per game holds across them (a row lock), and a page
on process A shows a step committed through process B. Real uvicorn processes, a real PostgreSQL
(the cluster TEST_DATABASE_URL names, or a throwaway one started here)."""

from __future__ import annotations

import json
import secrets
import threading
from collections import Counter

import httpx
import pytest

from tests.conftest import POSTGRES
from tests.e2e.test_concurrency import assert_each_acknowledged_command_is_in_the_log_once, race, record
from tests.support import postgres
from tests.support.server import LiveServer, stop_all

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def cluster():
    if POSTGRES:
        yield POSTGRES
        return
    with postgres.throwaway() as url:
        yield url


@pytest.fixture(scope="module")
def two_processes(cluster, tmp_path_factory):
    """Two servers on one database for the module's tests; each test plays a game of its own.
    As compose.yaml runs its replicas: the schema migrated once first, then both processes
    started side by side without migrating, with one admin token."""
    url = postgres.fresh_database(cluster, "two", migrated=True)
    folder = tmp_path_factory.mktemp("two")
    env = {"MIGRATE_ON_START": "false", "ADMIN_TOKEN": secrets.token_urlsafe(24)}
    a, b = (LiveServer(folder / f"{name}.db", database_url=url, env=env).launch() for name in "ab")
    a.ready(), b.ready()
    yield a, b
    stop_all([a, b])
    postgres.drop_database(url)


class Watcher(threading.Thread):
    """Reads a stream until it announces step `until` (or it ends); keeps every event."""

    def __init__(self, url: str, until: int):
        super().__init__(daemon=True)
        self.url, self.until, self.events, self.ready = url, until, [], threading.Event()

    def run(self) -> None:
        with httpx.stream("GET", self.url, timeout=120) as stream:
            event = None
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    event = line[len("event: "):]
                elif line.startswith("data: "):
                    self.events.append((event, json.loads(line[len("data: "):])))
                    self.ready.set()
                    if event == "step" and self.events[-1][1]["seq"] >= self.until or event == "revoked":
                        return


def watch(server: LiveServer, view: str, until: int) -> Watcher:
    watcher = Watcher(f"{server.url}/v/{view}/events", until)
    watcher.start()
    assert watcher.ready.wait(30)
    return watcher


def test_a_watcher_on_one_process_hears_every_step_a_writer_commits_on_the_other(two_processes):
    a, b = two_processes
    game = httpx.post(b.url + "/api/games", json={"name": "Across"}, timeout=30).json()
    watcher = watch(a, game["view_token"], until=20)
    for n in range(20):
        r = httpx.post(f"{b.url}/api/games/{game['edit_token']}/commands",
                       json={"type": "add_character", "character": {"name": f"B{n}"}}, timeout=30)
        assert r.status_code == 200
    watcher.join(60)
    kind, last = watcher.events[-1]
    assert (kind, last["seq"]) == ("step", 20)
    assert "B19" in last["panels"]["html"]  # pushed by process A, from what B committed
    # and the page on process A shows what was committed through process B
    page = httpx.get(f"{a.url}/v/{game['view_token']}/panels", params={"names": "log,roster"}, timeout=30)
    assert page.headers["X-Game-Seq"] == "20" and 'id="step-20"' in page.text and "B19" in page.text


def test_two_writers_on_two_processes_100_commands_each_make_steps_1_to_200_with_no_gap(two_processes):
    a, b = two_processes
    game = httpx.post(a.url + "/api/games", json={"name": "Race"}, timeout=30).json()
    watcher = watch(a, game["view_token"], until=200)
    results, elapsed = race([a.url, b.url], game["edit_token"])
    record("two-processes-postgres", results, elapsed)
    assert Counter(r["status"] for r in results) == {200: 200}
    assert_each_acknowledged_command_is_in_the_log_once(a.url, game["edit_token"], results)
    watcher.join(60)
    assert (watcher.events[-1][0], watcher.events[-1][1]["seq"]) == ("step", 200)


def test_deleting_a_game_on_one_process_ends_its_streams_on_the_other(two_processes):
    a, b = two_processes
    game = httpx.post(a.url + "/api/games", json={"name": "Gone"}, timeout=30).json()
    watcher = watch(a, game["view_token"], until=10**9)
    assert httpx.delete(f"{b.url}/api/games/{game['edit_token']}", timeout=30).status_code in (200, 204)
    watcher.join(30)
    assert watcher.events[-1] == ("revoked", {"reason": "deleted"})
