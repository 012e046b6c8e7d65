"""The real servers the tests start are forked from a zygote that has imported the app once
(tests/support/forked.py). Each must still be a server of its own: its own settings, read from
its own environment when it starts and on every request, its own database, log and process."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import httpx
import pytest

from tests.support.forked import ForkedProcess, zygote
from tests.support.server import LiveServer, stop_all

pytestmark = pytest.mark.server

SETTINGS = {  # what differs between the two servers: read at start (the admin token) and per request
    "a": {"ADMIN_TOKEN": "a-admin-token-0123456789", "SHARE_HOST": "table-a.example:8123"},
    "b": {"ADMIN_TOKEN": "b-admin-token-0123456789", "SHARE_HOST": "table-b.example:9456"},
}


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def play_link_on_share_panel(server: LiveServer, edit_url: str) -> str:
    page = httpx.get(server.url + edit_url, timeout=30).text
    return re.search(r'id="share-play-url" readonly value="([^"]+)"', page).group(1)


def test_two_forked_servers_side_by_side_each_serve_their_own_settings_database_and_log(tmp_path):
    servers = {name: LiveServer(tmp_path / f"{name}.db", env=env, fork=True).launch()
               for name, env in SETTINGS.items()}
    try:
        for server in servers.values():
            server.ready()
        a, b = servers["a"], servers["b"]
        assert all(isinstance(s.process, ForkedProcess) for s in (a, b))
        assert parent_of(a.process.pid) == parent_of(b.process.pid) == zygote().process.pid
        games = {name: httpx.post(s.url + "/api/games", json={"name": name}, timeout=30).json()
                 for name, s in servers.items()}
        for name, server in servers.items():
            other = "b" if name == "a" else "a"
            own_token, other_token = SETTINGS[name]["ADMIN_TOKEN"], SETTINGS[other]["ADMIN_TOKEN"]
            assert httpx.get(f"{server.url}/admin/{own_token}", timeout=30).status_code == 200
            assert httpx.get(f"{server.url}/admin/{other_token}", timeout=30).status_code == 404
            share_host = SETTINGS[name]["SHARE_HOST"]
            play = play_link_on_share_panel(server, games[name]["edit_url"])
            assert play == f"http://{share_host}/g/{games[name]['edit_token']}"
            assert httpx.get(f"{server.url}/api/games/{games[other]['edit_token']}", timeout=30).status_code == 404
            log = server.log_path.read_text()
            assert f"/admin/{own_token}" in log and f"other devices open http://{share_host}" in log
            assert other_token not in log and SETTINGS[other]["SHARE_HOST"] not in log
    finally:
        stop_all(list(servers.values()))


def test_a_forked_server_killed_with_sigkill_is_reported_as_popen_reports_it(tmp_path):
    server = LiveServer(tmp_path / "k.db", fork=True).start()
    try:
        assert server.process.poll() is None
        server.process.send_signal(signal.SIGKILL)
        assert server.process.wait(30) == -signal.SIGKILL
        assert not server.answers()
    finally:
        server.stop()
