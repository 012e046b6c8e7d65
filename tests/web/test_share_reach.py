"""Issue 22: the share panel's links open on a co-player's phone, or the panel says why not.
The server's bind address (HOST) and this machine's network address (its interfaces) are set
here; tests/e2e/test_share_network.py runs real server processes bound both ways."""

from __future__ import annotations

import re

import pytest

from app.settings import get_settings
from app.web import reach
from app.web.routes.share import qr_svg
from tests.web.test_share import new_game, qr_images, share_panel

LOCAL = "http://127.0.0.1:8000"


@pytest.fixture
def served(monkeypatch):
    """served(bind_host, lan_address): how the server listens and what the interfaces give."""
    def setup(bind: str, lan: str | None = None) -> None:
        monkeypatch.setattr(get_settings(), "host", bind)
        monkeypatch.setattr(reach.netif, "this_machine", lambda host: lan)
    return setup


def reachable(panel: str) -> str:
    return re.search(r'data-reachable="([a-z-]+)"', panel).group(1)


def test_served_on_all_interfaces_a_page_opened_on_127_0_0_1_shares_this_machines_network_address(client, served):
    served("0.0.0.0", "192.168.1.23")
    game = new_game(client)
    panel = share_panel(client.get(LOCAL + game["edit_url"]).text)
    assert reachable(panel) == "network"
    assert f'value="http://192.168.1.23:8000/g/{game["edit_token"]}"' in panel
    assert f'value="http://192.168.1.23:8000/v/{game["view_token"]}"' in panel
    assert "127.0.0.1" not in panel and "only on this computer" not in panel
    play_code = client.get(f"{LOCAL}/g/{game['edit_token']}/qr/play.svg").text  # what the fold loads
    assert play_code == qr_svg(f"http://192.168.1.23:8000/g/{game['edit_token']}", "play link")


@pytest.mark.parametrize("opened_at", ["http://localhost:8000", "http://0.0.0.0:8000", "http://[::1]:8000"])
def test_a_page_opened_at_any_address_only_this_computer_knows_shares_the_network_address(client, served, opened_at):
    """uvicorn prints http://0.0.0.0:8000 when it serves on all interfaces: a browser here opens it."""
    served("0.0.0.0", "192.168.1.23")
    game = new_game(client)
    panel = share_panel(client.get(opened_at + game["edit_url"]).text)
    assert f'value="http://192.168.1.23:8000/v/{game["view_token"]}"' in panel


def test_served_on_all_interfaces_over_ipv6_an_ipv6_address_is_put_in_brackets(client, served):
    served("::", "2001:db8::5")
    game = new_game(client)
    panel = share_panel(client.get("http://localhost:8000" + game["edit_url"]).text)
    assert f'value="http://[2001:db8::5]:8000/v/{game["view_token"]}"' in panel


def test_served_on_loopback_the_panel_says_the_links_open_only_here_and_gives_the_one_command(client, served):
    served("127.0.0.1", "192.168.1.23")  # a network exists, but the server does not listen on it
    game = new_game(client)
    panel = share_panel(client.get(LOCAL + game["edit_url"]).text)
    assert reachable(panel) == "local-only"
    assert f'value="{LOCAL}/v/{game["view_token"]}"' in panel
    assert "These links open only on this computer." in panel
    assert '<code class="share-command">make share</code>' in panel
    assert len(qr_images(panel)) == 2
    assert panel.count('class="share-qr-local"') == 2  # no QR code without the warning beside it


def test_served_on_all_interfaces_with_no_network_the_panel_says_to_join_one(client, served):
    served("0.0.0.0", None)
    game = new_game(client)
    panel = share_panel(client.get(LOCAL + game["edit_url"]).text)
    assert reachable(panel) == "local-only"
    assert "join the table's Wi-Fi" in panel and "make share" not in panel


@pytest.mark.parametrize("bind", ["127.0.0.1", "0.0.0.0"])
def test_a_page_opened_at_a_network_address_shares_that_address(client, served, bind):
    served(bind, "10.0.0.9")
    game = new_game(client)
    panel = share_panel(client.get("http://192.168.1.23:8000" + game["edit_url"]).text)
    assert reachable(panel) == "network"
    assert f'value="http://192.168.1.23:8000/v/{game["view_token"]}"' in panel


def test_behind_a_proxy_the_forwarded_host_wins(client, served):
    served("0.0.0.0", "10.0.0.9")
    game = new_game(client)
    panel = share_panel(client.get(LOCAL + game["edit_url"],
                                   headers={"X-Forwarded-Host": "potham.example.org, inner"}).text)
    assert reachable(panel) == "network"
    assert f'value="http://potham.example.org/v/{game["view_token"]}"' in panel


@pytest.mark.parametrize("forwarded", ["evil.example/<x>", "a b", "localhost:8000", ""])
def test_a_forwarded_host_that_is_not_a_host_or_is_loopback_is_ignored(client, served, forwarded):
    served("127.0.0.1")
    game = new_game(client)
    panel = share_panel(client.get(LOCAL + game["edit_url"], headers={"X-Forwarded-Host": forwarded}).text)
    assert reachable(panel) == "local-only" and f'value="{LOCAL}/v/' in panel


def test_a_live_refresh_follows_a_new_network_address(client, served):
    """The refreshed panels are cached; the share address is part of their key."""
    game = new_game(client)
    refresh = f"{LOCAL}/g/{game['edit_token']}/panels?names=share"
    served("0.0.0.0", "192.168.1.23")
    assert "http://192.168.1.23:8000/v/" in client.get(refresh).text
    served("0.0.0.0", "192.168.7.40")  # the laptop joined another Wi-Fi
    assert "http://192.168.7.40:8000/v/" in client.get(refresh).text
    served("127.0.0.1")
    assert 'data-reachable="local-only"' in client.get(refresh).text


@pytest.mark.parametrize(("bind", "lan", "said"), [
    ("0.0.0.0", "192.168.1.23", "other devices open http://192.168.1.23:8000"),
    ("0.0.0.0", None, "no network address yet"),
    ("127.0.0.1", "192.168.1.23", "run: make share"),
    ("SHARE_HOST", "[2001:db8::5]", "other devices open http://[2001:db8::5]:8000 "),
    ("SHARE_HOST", "laptop.local:9000", "other devices open http://laptop.local:9000 "),
])
def test_the_server_says_at_start_where_other_devices_open_it(capsys, monkeypatch, bind, lan, said):
    monkeypatch.setattr(reach.netif, "this_machine", lambda host: lan)
    share_host = None
    if bind == "SHARE_HOST":
        bind, share_host = "0.0.0.0", lan
    settings = get_settings().model_copy(update={"host": bind, "port": 8000, "share_host": share_host})
    reach.announce(settings)
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


@pytest.mark.parametrize(("share_host", "expected"), [
    ("192.168.1.23", "http://192.168.1.23:8000"),  # the port the page was opened on (a published port)
    ("laptop.local:9000", "http://laptop.local:9000"),
    ("[2001:db8::5]", "http://[2001:db8::5]:8000"),
])
def test_share_host_names_the_address_when_the_app_cannot_see_it(client, served, monkeypatch, share_host, expected):
    """In a Docker container on a bridge network the interfaces hold the container's address only."""
    served("0.0.0.0", "172.17.0.2")
    monkeypatch.setattr(get_settings(), "share_host", share_host)
    game = new_game(client)
    panel = share_panel(client.get(LOCAL + game["edit_url"]).text)
    assert reachable(panel) == "network" and f'value="{expected}/v/{game["view_token"]}"' in panel
    watch_code = client.get(f"{LOCAL}/v/{game['view_token']}/qr/watch.svg").text  # asked from the page's origin
    assert watch_code == qr_svg(f"{expected}/v/{game['view_token']}", "watch link")
