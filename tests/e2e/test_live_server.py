"""The event stream and the logs of a real server process (uvicorn), not the test client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from tests.support.server import ROOT, LiveServer, answers, free_port

pytestmark = pytest.mark.server


def new_game(url: str) -> dict:
    return httpx.post(url + "/api/games", json={"name": "Live"}, timeout=10).json()


def next_event(lines) -> tuple[str, dict]:
    event = None
    for line in lines:
        if line.startswith("event: "):
            event = line[len("event: "):]
        elif line.startswith("data: ") and event:
            return event, json.loads(line[len("data: "):])
    raise AssertionError("the stream ended")


@pytest.mark.db  # again on PostgreSQL in `make test-postgres`; the other two serve SQLite files in both passes
def test_a_watcher_hears_each_step_from_the_real_server(live_server):
    game = new_game(live_server.url)
    token = game["edit_token"]
    with httpx.stream("GET", f"{live_server.url}/v/{game['view_token']}/events", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next_event(lines) == ("step", {"seq": 0})
        httpx.post(f"{live_server.url}/api/games/{token}/commands",
                   json={"type": "add_character", "character": {"name": "Ada"}}, timeout=10)
        kind, data = next_event(lines)  # a step after the first also brings its panels
        assert (kind, data["seq"], "panels" in data) == ("step", 1, True)
        httpx.post(f"{live_server.url}/api/games/{token}/undo", json={}, timeout=10)
        kind, data = next_event(lines)
        assert (kind, data["seq"], "panels" in data) == ("step", 2, True)


def test_stopping_the_server_ends_open_streams_instead_of_waiting_for_them(tmp_path):
    server = LiveServer(tmp_path / "stop.db").start()
    game = new_game(server.url)
    process = server.process
    with httpx.stream("GET", f"{server.url}/v/{game['view_token']}/events", timeout=10) as stream:
        lines = stream.iter_lines()
        next_event(lines)
        process.terminate()
        assert next_event(lines) == ("closing", {})
    try:
        process.wait(8)  # without the shutdown hook uvicorn waits for the stream forever
    finally:
        server.stop()
    assert process.returncode is not None


def test_tokens_never_reach_the_access_log(tmp_path):
    """`python -m app` logs every request; the paths it logs have their tokens redacted."""
    port = free_port()
    log_path = tmp_path / "app.log"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'log.db'}", "HOST": "127.0.0.1",
           "PORT": str(port), "PYTHONUNBUFFERED": "1"}
    with open(log_path, "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if answers(port):
                break
            time.sleep(0.05)
        game = new_game(url)
        for path in (f"/g/{game['edit_token']}", f"/v/{game['view_token']}", f"/g/{game['edit_token']}/panels/log",
                     f"/api/games/{game['view_token']}", f"/api/games/{game['edit_token']}/export",
                     f"/g/{'X' * 32}"):
            httpx.get(url + path, timeout=10)
    finally:
        process.terminate()
        process.wait(10)
    text = log_path.read_text()
    assert "GET /g/…" in text and "GET /api/games/…/export" in text  # the access log is on
    for token in (game["edit_token"], game["view_token"], "X" * 32):
        assert token not in text
