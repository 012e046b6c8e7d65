"""The home page lists only the games this browser created or opened (issue 10 § 1), kept in an
HttpOnly cookie of their links (app/web/device.py)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.web import device
from tests.support.html import parse

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def api_game(client, name="Night shift") -> dict:
    return client.post("/api/games", json={"name": name}).json()


def rows(html: str) -> list[tuple[str, str]]:
    """(name, href) of each game on the home page."""
    page = parse(html)
    return [(li.one(cls="game-name").text(), li.one("a", cls="game-link").attrs["href"])
            for li in page.all("li", cls="game-row")]


@pytest.fixture
def other_browser(client) -> TestClient:
    """A second device on the same server: the same app, its own cookies."""
    return TestClient(client.app)


def test_a_new_browser_sees_no_game_even_when_the_server_has_many(client):
    made = [api_game(client, n) for n in ("One", "Two")]
    html = client.get("/").text
    assert rows(html) == [] and "No saved games yet on this device" in html
    for game in made:
        assert game["edit_token"] not in html and game["view_token"] not in html


def test_creating_a_game_on_the_home_page_lists_it_on_this_device_only(client, other_browser):
    r = client.post("/games", data={"name": "Mine"})
    assert r.status_code == 200 and r.url.path.startswith("/g/")
    assert rows(client.get("/").text) == [("Mine", r.url.path)]
    assert rows(other_browser.get("/").text) == []


def test_opening_a_watch_link_lists_the_watch_link_without_controls(client, other_browser):
    game = api_game(client)
    other_browser.get(f"/v/{game['view_token']}")
    html = other_browser.get("/").text
    assert rows(html) == [("Night shift", f"/v/{game['view_token']}")]
    assert game["edit_token"] not in html and "Watch only" in html
    assert "Rename" not in html and "Duplicate" not in html and "Delete" not in html


def test_a_watch_page_opened_with_the_play_link_keeps_only_the_watch_link(client):
    game = api_game(client)
    client.get(f"/v/{game['edit_token']}")
    assert client.cookies[device.COOKIE] == game["view_token"]
    assert rows(client.get("/").text) == [("Night shift", f"/v/{game['view_token']}")]


def test_the_play_link_wins_when_this_device_holds_both(client):
    game = api_game(client)
    client.get(f"/v/{game['view_token']}")
    client.get(f"/g/{game['edit_token']}")
    assert rows(client.get("/").text) == [("Night shift", f"/g/{game['edit_token']}")]


def test_the_cookie_holds_only_links_is_httponly_and_lax(client):
    game = api_game(client)
    r = client.get(f"/g/{game['edit_token']}")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{device.COOKIE}={game['edit_token']};")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie


@pytest.mark.parametrize("pasted", ["http://192.168.1.20:8000/{p}/{t}", "  {t}  ", "/{p}/{t}?before=3"],
                         ids=["whole link", "token alone", "path"])
@pytest.mark.parametrize("which", ["play", "watch"])
def test_pasting_a_link_opens_its_game(client, pasted, which):
    game = api_game(client)
    token, prefix = (game["edit_token"], "g") if which == "play" else (game["view_token"], "v")
    r = client.post("/open", data={"link": pasted.format(p=prefix, t=token)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/{prefix}/{token}"


@pytest.mark.parametrize("pasted", ["", "hello", "http://x/g/" + "A" * 32])
def test_pasting_a_link_that_opens_nothing_says_so_next_to_the_field(client, pasted):
    r = client.post("/open", data={"link": pasted})
    assert r.status_code == 422
    field = parse(r.text).by_id("open-link")
    assert field.attrs["aria-invalid"] == "true" and "No game opens with this link" in r.text


def test_forget_takes_a_game_off_this_device_and_leaves_the_game(client):
    keep, drop = api_game(client, "Keep"), api_game(client, "Drop")
    for game in (keep, drop):
        client.get(f"/g/{game['edit_token']}")
    r = client.post("/forget", data={"token": drop["edit_token"]}, follow_redirects=False)
    assert r.status_code == 303
    assert [name for name, _ in rows(client.get("/").text)] == ["Keep"]
    assert client.get(f"/api/games/{drop['edit_token']}").status_code == 200


def test_a_deleted_game_or_a_replaced_link_leaves_the_list_and_the_cookie(client):
    gone, moved = api_game(client, "Gone"), api_game(client, "Moved")
    for game in (gone, moved):
        client.get(f"/v/{game['view_token']}")
    client.delete(f"/api/games/{gone['edit_token']}")
    new = client.post(f"/api/games/{moved['edit_token']}/links/watch").json()
    assert rows(client.get("/").text) == []
    assert device.COOKIE not in client.cookies
    client.get(new["view_url"])
    assert rows(client.get("/").text) == [("Moved", new["view_url"])]


def test_duplicating_from_home_lists_the_copy_on_this_device(client):
    game = api_game(client)
    client.get(f"/g/{game['edit_token']}")
    client.post(f"/g/{game['edit_token']}/duplicate", data={"back": "home"})
    assert [name for name, _ in rows(client.get("/").text)] == ["Night shift (copy)", "Night shift"]


def test_the_list_keeps_the_newest_links_within_a_cookies_size(client, monkeypatch):
    monkeypatch.setattr(device, "MAX_KEPT", 3)
    made = [api_game(client, f"Game {n}") for n in range(5)]
    for game in made:
        client.get(f"/g/{game['edit_token']}")
    assert client.cookies[device.COOKIE].split(".") == [g["edit_token"] for g in reversed(made[-3:])]
    assert len(device.COOKIE + client.cookies[device.COOKIE]) < 4096 / device.MAX_KEPT * 3 + 100


def test_a_cookie_full_of_junk_lists_nothing_and_breaks_nothing(client):
    client.cookies.set(device.COOKIE, "x." + "<script>" + "." + "A" * 32 + ".;;")
    r = client.get("/")
    assert r.status_code == 200 and rows(r.text) == []


def test_a_hundred_links_fit_in_one_cookie():
    assert len(device.COOKIE) + device.MAX_KEPT * 33 < 4096
    assert re.fullmatch(device.TOKEN, "A" * 32)
