"""Saved games pages: the home list, create, rename, duplicate and delete (with confirmation)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import Session

from app.store import games

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

HTMX = {"HX-Request": "true"}


def new_game(client, name="Night shift"):
    """A game made through the API and opened on this client's "device", so its home lists it."""
    game = client.post("/api/games", json={"name": name}).json()
    assert client.get(f"/g/{game['edit_token']}").status_code == 200
    return game["edit_token"], game["view_token"]


def test_home_lists_saved_games_last_played_first_with_turn_phase_danger_and_last_played(client, engine):
    with Session(engine) as session:
        old = games.create_game(session, "Old game")
        new = games.create_game(session, "New game")
        old.updated_at = new.updated_at - timedelta(days=2)
        session.add(old)
        session.commit()
        tokens = old.edit_token, new.edit_token
    for token in tokens:  # this device opened both (the home page lists only those)
        client.get(f"/g/{token}")
    page = client.get("/").text
    assert page.index("New game") < page.index("Old game")
    row = page[page.index('id="game-'):]
    assert re.search(r"Turn 1 · Phase 1 Action · Danger 0", row)
    assert re.search(r'Last played <time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>', row)


def test_playing_a_game_moves_it_to_the_top_of_the_list(client):
    first, _ = new_game(client, "First")
    new_game(client, "Second")
    client.post(f"/api/games/{first}/commands", json={"type": "add_character", "character": {"name": "Ada"}})
    page = client.get("/").text
    assert page.index("First") < page.index("Second")


def test_home_says_so_when_there_are_no_saved_games(client):
    assert "No saved games yet" in client.get("/").text


@pytest.mark.parametrize("seed, expected", [("", None), ("42", 42), (" 7 ", 7)])
def test_creating_a_game_from_the_home_form_opens_its_play_page(client, engine, seed, expected):
    r = client.post("/games", data={"name": "  Night shift  ", "seed": seed}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/g/")
    with Session(engine) as session:
        (game,) = games.list_games(session)
    assert game.name == "Night shift" and (expected is None or game.seed == expected)


BAD_NEW_GAMES = [
    ({"name": ""}, "name"),
    ({"name": "   "}, "name"),
    ({"name": "x" * 81}, "name"),
    ({}, "name"),
    ({"name": "ok", "seed": "-1"}, "seed"),
    ({"name": "ok", "seed": "abc"}, "seed"),
    ({"name": "ok", "seed": "9" * 5000}, "seed"),
    ({"name": "ok", "seed": str(2**31)}, "seed"),
]


@pytest.mark.parametrize("data, field", BAD_NEW_GAMES, ids=[f"{f}-{str(d)[:20]}" for d, f in BAD_NEW_GAMES])
def test_a_bad_new_game_is_422_with_the_message_next_to_the_field(client, data, field):
    r = client.post("/games", data=data)
    assert r.status_code == 422
    assert re.search(rf'<input id="new-{field}"[^>]*aria-invalid="true"[^>]*aria-describedby="new-{field}-error"', r.text)
    assert f'id="new-{field}-error"' in r.text
    assert "No saved games yet" in r.text


def test_a_refused_new_game_keeps_what_was_typed_escaped(client):
    r = client.post("/games", data={"name": "<b>Boss</b>", "seed": "<i>"})
    assert r.status_code == 422 and 'value="&lt;b&gt;Boss&lt;/b&gt;"' in r.text and "<b>Boss" not in r.text


def test_game_names_are_escaped_on_the_home_page(client):
    new_game(client, "<script>alert(1)</script>")
    page = client.get("/").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# --- rename -------------------------------------------------------------------------------


@pytest.mark.parametrize("back, htmx, expected", [
    ("home", True, "row"), ("home", False, "/"), ("", True, "title"), ("", False, "game"),
], ids=["home-htmx", "home-plain", "game-htmx", "game-plain"])
def test_renaming_answers_where_it_was_asked(client, back, htmx, expected):
    token, _ = new_game(client)
    r = client.post(f"/g/{token}/rename", data={"name": "Day shift", "back": back},
                    headers=HTMX if htmx else {}, follow_redirects=False)
    assert client.get(f"/api/games/{token}").json()["name"] == "Day shift"
    if expected == "row":
        assert r.status_code == 200 and r.text.lstrip().startswith('<li class="game-row"') and "Day shift" in r.text
    elif expected == "title":
        assert r.status_code == 200 and 'id="game-title"' in r.text
    else:
        assert r.status_code == 303 and r.headers["location"] == ("/" if expected == "/" else f"/g/{token}")


@pytest.mark.parametrize("back, htmx, marker", [
    ("home", True, '<li class="game-row"'), ("home", False, "<html"), ("", True, '<div id="game-title"'),
    ("", False, "<html"),
], ids=["home-htmx", "home-plain", "game-htmx", "game-plain"])
@pytest.mark.parametrize("name", ["", "y" * 81])
def test_a_bad_rename_is_422_keeps_the_typing_and_the_old_name(client, back, htmx, marker, name):
    token, _ = new_game(client)
    r = client.post(f"/g/{token}/rename", data={"name": name, "back": back}, headers=HTMX if htmx else {})
    assert r.status_code == 422 and marker in r.text
    assert "Give a name of 1 to 80 characters." in r.text and 'aria-invalid="true"' in r.text
    assert f'value="{name}"' in r.text
    assert re.search(r'<details class="inline-edit" open>', r.text)
    assert client.get(f"/api/games/{token}").json()["name"] == "Night shift"


# --- duplicate and delete -----------------------------------------------------------------


def test_duplicating_from_home_goes_back_home_with_the_copy_listed_first(client):
    token, _ = new_game(client)
    r = client.post(f"/g/{token}/duplicate", data={"back": "home"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    page = client.get("/").text
    assert page.index("Night shift (copy)") < page.index("Night shift</strong>")


def test_duplicating_from_the_game_page_opens_the_copy_with_the_same_roster(client):
    token, _ = new_game(client)
    client.post(f"/api/games/{token}/commands", json={"type": "add_bot", "bot": {"name": "Warden-2", "role": "hunter"}})
    r = client.post(f"/g/{token}/duplicate", follow_redirects=False)
    copy = r.headers["location"].removeprefix("/g/")
    assert copy != token
    data = client.get(f"/api/games/{copy}").json()
    assert data["name"] == "Night shift (copy)" and [b["name"] for b in data["bots"]] == ["Warden-2"]


@pytest.mark.parametrize("back, keep", [("home", 'href="/"'), ("", 'href="/g/{t}"')])
def test_delete_asks_for_confirmation_first_and_keep_it_goes_back(client, back, keep):
    token, _ = new_game(client)
    page = client.get(f"/g/{token}/delete", params={"back": back}).text
    assert "Yes, delete it" in page and keep.format(t=token) in page
    assert client.get(f"/api/games/{token}").status_code == 200


def test_the_home_list_links_each_game_to_its_delete_confirmation(client):
    token, _ = new_game(client)
    assert f'href="/g/{token}/delete?back=home"' in client.get("/").text


def test_confirming_delete_removes_the_game_and_both_links_stop_working(client):
    token, view = new_game(client)
    r = client.post(f"/g/{token}/delete", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    for url in (f"/g/{token}", f"/v/{view}"):
        r = client.get(url, headers={"Accept": "text/html"})
        assert r.status_code == 404 and "Nothing here" in r.text
    assert "No saved games yet" in client.get("/").text


@pytest.mark.parametrize("method, path", [
    ("post", "/rename"), ("post", "/duplicate"), ("post", "/delete"), ("get", "/delete"),
])
def test_the_view_token_cannot_rename_duplicate_or_delete(client, method, path):
    token, view = new_game(client)
    r = getattr(client, method)(f"/g/{view}{path}", headers={"Accept": "text/html"})
    assert r.status_code == 403 and "Watch only" in r.text
    assert client.get(f"/api/games/{token}").json()["name"] == "Night shift"


def test_the_view_token_on_the_play_path_only_watches(client):
    _, view = new_game(client)
    r = client.get(f"/g/{view}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/v/{view}"


def test_every_page_serves_its_assets_locally(client):
    token, view = new_game(client)
    for url in ("/", f"/g/{token}", f"/v/{view}"):
        page = client.get(url).text
        for src in re.findall(r'(?:src|href)="([^"#]+\.(?:js|css))"', page):
            assert src.startswith("/static/") and client.get(src).status_code == 200
        page = re.sub(r"<input[^>]*data-share-url[^>]*>", "", page)  # share links: our own address, not an asset
        page = re.sub(r'<span class="share-origin">[^<]*</span>', "", page)  # where they open (issue 22)
        assert "http://" not in page and "https://" not in page


@pytest.mark.parametrize("limit", [24, 30, 12], ids=["R-DANGER default", "house limit 30", "house limit 12"])
def test_home_shows_danger_against_each_games_own_limit(client, limit):
    token, _ = new_game(client, "Limits")
    house = client.get(f"/api/games/{token}").json()["house"]
    r = client.post(f"/api/games/{token}/commands",
                    json={"type": "set_house_rules", "house": {**house, "danger_limit": limit}})
    assert r.status_code == 200, r.text
    assert f"Danger 0/{limit}" in client.get("/").text


def test_a_duplicated_or_imported_game_keeps_its_danger_limit_on_the_home_page(client):
    token, _ = new_game(client, "Origin")
    house = client.get(f"/api/games/{token}").json()["house"]
    client.post(f"/api/games/{token}/commands", json={"type": "set_house_rules", "house": {**house, "danger_limit": 18}})
    client.post(f"/g/{token}/duplicate")
    document = client.get(f"/api/games/{token}/export").json()
    imported = client.post("/api/games/import", json=document)
    assert imported.status_code == 201
    client.get(imported.json()["edit_url"])
    assert client.get("/").text.count("Danger 0/18") == 3


def section_order(html: str) -> list[str]:
    return re.findall(r'<section class="card" id="([a-z-]+)"', html)


def test_with_saved_games_the_list_comes_first_then_new_game_then_import(client):
    new_game(client, "Night shift")
    assert section_order(client.get("/").text) == ["saved-games", "new-game", "exchange"]


def test_a_first_visit_starts_with_new_game(client):
    assert section_order(client.get("/").text) == ["new-game", "saved-games", "exchange"]


def test_a_refused_new_game_stays_on_top_with_its_message_and_the_list_below(client):
    new_game(client, "Night shift")
    r = client.post("/games", data={"name": " "})
    assert r.status_code == 422
    assert section_order(r.text) == ["new-game", "saved-games", "exchange"]
    assert "Night shift" in r.text and r.text.count("field-error") == 1  # not repeated in the rows
