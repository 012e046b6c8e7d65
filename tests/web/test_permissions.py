"""Roles: the watch link reads everything and changes nothing; unknown links open nothing.

The mutating routes are enumerated from the app itself, so a route added later is covered
without anyone remembering to list it here."""

from __future__ import annotations

import re

import pytest

from app.web.panels import PANELS
from tests.support.routes import app_routes

MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
# Values for path parameters other than {token}; anything unknown gets "x" (403 comes first).
FILLERS = {"which": "watch", "name": "roster", "seq": "0", "id": "x"}


def routes_with_token(methods: set[str]) -> list[tuple[str, str]]:
    found = []
    for path, route_methods in app_routes():  # every route, included routers' too
        if "{token}" in path:
            found += [(method, path) for method in sorted(route_methods & methods)]
    return sorted(set(found))


MUTATING_ROUTES = routes_with_token(MUTATING)
ALL_TOKEN_ROUTES = routes_with_token(MUTATING | {"GET"})


def fill(path: str, token: str) -> str:
    path = path.replace("{token}", token)
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: FILLERS.get(m.group(1), "x"), path)


def new_game(client):
    game = client.post("/api/games", json={"name": "Night shift"}).json()
    r = client.post(f"/api/games/{game['edit_token']}/commands",
                    json={"type": "add_character", "character": {"name": "Ada"}})
    assert r.status_code == 200
    return game


def snapshot(client, token):
    return client.get(f"/api/games/{token}").json(), client.get(f"/api/games/{token}/steps").json()


def test_the_enumeration_finds_the_mutating_routes_we_know_of():
    known = {("POST", "/api/games/{token}/commands"), ("POST", "/api/games/{token}/undo"),
             ("DELETE", "/api/games/{token}"), ("POST", "/g/{token}/rename"),
             ("POST", "/g/{token}/links/{which}"), ("POST", "/api/games/{token}/links/{which}")}
    assert known <= set(MUTATING_ROUTES)


@pytest.mark.parametrize("method, path", MUTATING_ROUTES, ids=[f"{m} {p}" for m, p in MUTATING_ROUTES])
def test_the_watch_link_is_refused_on_every_mutating_route(client, method, path):
    game = new_game(client)
    before = snapshot(client, game["edit_token"])
    r = client.request(method, fill(path, game["view_token"]), json={}, follow_redirects=False)
    assert r.status_code == 403, r.text
    assert snapshot(client, game["edit_token"]) == before


@pytest.mark.parametrize("method, path", ALL_TOKEN_ROUTES, ids=[f"{m} {p}" for m, p in ALL_TOKEN_ROUTES])
def test_an_unknown_token_is_404_on_every_route_that_takes_one(client, method, path):
    new_game(client)
    r = client.request(method, fill(path, "A" * 32), json={}, follow_redirects=False)
    assert r.status_code == 404, r.text


@pytest.mark.parametrize("token_kind", ["view_token", "edit_token"])
def test_the_watch_page_and_its_panels_show_no_controls_and_no_play_link(client, token_kind):
    game = new_game(client)
    token = game[token_kind]
    pages = [client.get(f"/v/{token}").text] + [client.get(f"/v/{token}/panels/{n}").text for n in PANELS]
    for html in pages:
        assert "<form" not in html
        assert not re.search(r"hx-(post|put|patch|delete)=", html)
        if token_kind == "view_token":
            assert game["edit_token"] not in html


def test_the_play_link_used_on_the_watch_path_still_only_watches(client):
    game = new_game(client)
    r = client.get(f"/g/{game['view_token']}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/v/{game['view_token']}"


def test_the_watch_link_may_read_and_export_everything(client):
    game = new_game(client)
    view = game["view_token"]
    assert client.get(f"/api/games/{view}").json()["characters"][0]["name"] == "Ada"
    assert len(client.get(f"/api/games/{view}/steps").json()) == 2
    export = client.get(f"/api/games/{view}/export")
    assert export.status_code == 200 and len(export.json()["steps"]) == 2


@pytest.mark.parametrize("method", sorted(MUTATING))
@pytest.mark.parametrize("path", ["/v/{token}", "/v/{token}/commands", "/v/{token}/roster/characters",
                                  "/v/{token}/panels/roster", "/v/{token}/links/watch"])
@pytest.mark.parametrize("token_kind", ["view_token", "edit_token"])
def test_every_change_sent_to_a_watch_path_answers_403_as_the_readme_says(client, method, path, token_kind):
    """Issue 18: a POST to the watch link answered 404 (no such route) while the README says every
    change answers 403. A capability link that exists refuses what it cannot do (403, its reason);
    one that does not exist stays 404, so guessing tokens learns nothing."""
    game = new_game(client)
    before = snapshot(client, game["edit_token"])
    r = client.request(method, path.format(token=game[token_kind]), data={"name": "Eve"}, follow_redirects=False)
    assert r.status_code == 403 and "watch link" in r.text
    assert snapshot(client, game["edit_token"]) == before
    assert client.request(method, path.format(token="A" * 32), follow_redirects=False).status_code == 404


def test_a_read_of_a_watch_path_no_route_serves_is_404_not_405(client):
    """The 403 guard for changes on watch paths must not turn a read of an unknown path into a 405."""
    game = client.post("/api/games", json={"name": "Night shift"}).json()
    assert client.get(f"/v/{game['view_token']}/no-such-page").status_code == 404
    assert client.post(f"/v/{game['view_token']}/no-such-page").status_code == 403
