"""Issue 22 end to end: real server processes, one bound to all interfaces and one to 127.0.0.1,
both reached at 127.0.0.1 as the player's own browser reaches them (the second is the shared
server). The first shares this machine's network address, and a link at that address opens the
game; the second says its links open only on this computer, which is true: that address refuses
them."""

from __future__ import annotations

import re

import httpx
import pytest

from app.web import netif
from tests.support.server import LiveServer

pytestmark = pytest.mark.server


@pytest.fixture
def server(tmp_path):
    started = []

    def start(host: str) -> LiveServer:
        started.append(LiveServer(tmp_path / f"share-{len(started)}.db", host=host).start())
        return started[-1]
    yield start
    for s in started:
        s.stop()


def share_panel(url: str) -> str:
    html = httpx.get(url, timeout=30).text
    return re.search(r'<section class="card share".*?</section>', html, re.S).group(0)


def new_game(server: LiveServer) -> dict:
    return httpx.post(server.url + "/api/games", json={"name": "Table"}, timeout=30).json()


def test_bound_to_all_interfaces_the_page_on_127_0_0_1_shares_links_that_open_at_the_network_address(server):
    live = server("0.0.0.0")
    game = new_game(live)
    panel = share_panel(live.url + game["edit_url"])
    address = netif.this_machine("0.0.0.0")
    if address is None:  # a machine on no network: the panel says so instead
        assert 'data-reachable="local-only"' in panel and "join the table's Wi-Fi" in panel
        return
    origin = f"http://{address}:{live.port}"
    assert 'data-reachable="network"' in panel and "127.0.0.1" not in panel
    watch = re.search(r'id="share-watch-url" readonly value="([^"]+)"', panel).group(1)
    play = re.search(r'id="share-play-url" readonly value="([^"]+)"', panel).group(1)
    assert (play, watch) == (f"{origin}/g/{game['edit_token']}", f"{origin}/v/{game['view_token']}")
    opened = httpx.get(watch, timeout=30, trust_env=False)  # what the co-player's phone does with the QR code
    assert opened.status_code == 200 and "Watching:" in opened.text
    assert f"other devices open {origin}" in live.log_path.read_text()  # said at start too


def test_bound_to_loopback_the_panel_warns_its_links_open_only_here_and_gives_the_command(live_server):
    live = live_server  # the shared server listens on 127.0.0.1, as `make run` does
    game = new_game(live)
    panel = share_panel(live.url + game["edit_url"])
    assert 'data-reachable="local-only"' in panel
    assert f'value="{live.url}/v/{game["view_token"]}"' in panel
    assert "These links open only on this computer." in panel and ">make share</code>" in panel
    assert "run: make share" in live.log_path.read_text()
    address = netif.this_machine("0.0.0.0")
    if address is not None:  # the warning is true: the network address does not answer
        with pytest.raises((httpx.ConnectError, httpx.ConnectTimeout)):
            httpx.get(f"http://{address}:{live.port}/v/{game['view_token']}", timeout=5, trust_env=False)
