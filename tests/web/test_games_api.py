"""The JSON games API (docs/api.md § Games): create, read, commands, undo, tokens."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def new_game(client, name="Night shift"):
    response = client.post("/api/games", json={"name": name})
    assert response.status_code == 201
    return response.json()


def test_creating_a_game_answers_its_two_links(client):
    game = new_game(client)
    assert game["edit_url"] == f"/g/{game['edit_token']}"
    assert game["view_url"] == f"/v/{game['view_token']}"
    assert game["edit_token"] != game["view_token"] and len(game["edit_token"]) >= 32


def test_reading_a_game_by_either_token_gives_turn_phase_danger_and_seq(client):
    game = new_game(client)
    for token in (game["edit_token"], game["view_token"]):
        data = client.get(f"/api/games/{token}").json()
        assert (data["name"], data["turn"], data["phase"], data["danger"], data["seq"]) == ("Night shift", 1, 1, 0, 0)
    assert "edit_token" not in client.get(f"/api/games/{game['view_token']}").json()


def test_an_unknown_token_is_404(client):
    assert client.get("/api/games/not-a-token").status_code == 404


def test_a_command_appends_a_step_and_undo_appends_another(client):
    game = new_game(client)
    token = game["edit_token"]
    r = client.post(f"/api/games/{token}/commands", json={"type": "add_bot", "bot": {"name": "Warden-2", "role": "hunter"}})
    assert r.status_code == 200, r.text
    assert r.json()["seq"] == 1
    assert [b["name"] for b in client.get(f"/api/games/{token}").json()["bots"]] == ["Warden-2"]
    r = client.post(f"/api/games/{token}/undo", json={})
    assert r.json()["seq"] == 2
    data = client.get(f"/api/games/{token}").json()
    assert data["bots"] == [] and data["seq"] == 2


def test_repeated_undo_keeps_walking_back(client):
    token = new_game(client)["edit_token"]
    for name in ("A", "B"):
        client.post(f"/api/games/{token}/commands", json={"type": "add_character", "character": {"name": name}})
    client.post(f"/api/games/{token}/undo", json={})
    client.post(f"/api/games/{token}/undo", json={})
    assert client.get(f"/api/games/{token}").json()["characters"] == []
    assert client.post(f"/api/games/{token}/undo", json={}).status_code == 400


def test_a_bad_command_is_422_naming_the_field_and_changes_nothing(client):
    token = new_game(client)["edit_token"]
    r = client.post(f"/api/games/{token}/commands", json={"type": "add_bot", "bot": {"name": "", "role": "boss"}})
    assert r.status_code == 422
    locs = {tuple(e["loc"]) for e in r.json()["detail"]}
    assert ("body", "bot", "name") in locs and ("body", "bot", "role") in locs
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


def test_an_unknown_command_type_is_422_on_type(client):
    token = new_game(client)["edit_token"]
    r = client.post(f"/api/games/{token}/commands", json={"type": "launch_nukes"})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "type"]


def test_the_view_token_cannot_change_anything(client):
    game = new_game(client)
    view = game["view_token"]
    assert client.post(f"/api/games/{view}/commands", json={"type": "add_character", "character": {"name": "X"}}).status_code == 403
    assert client.post(f"/api/games/{view}/undo", json={}).status_code == 403
    assert client.delete(f"/api/games/{view}").status_code == 403


def test_non_finite_numbers_in_any_json_body_are_422_not_500(client):
    raw = {"content-type": "application/json"}
    for path, body in [("/api/games", b'{"name": NaN}'),
                       ("/api/rules/odds", b'{"attack": {"pool": {"red": Infinity}}, "defense": {"pool": {}}}'),
                       ("/api/rules/activation", b'{"bot": {"name": "W", "role": "hunter", "walk": NaN}}')]:
        response = client.post(path, content=body, headers=raw)
        assert response.status_code == 422, (path, response.text)
        assert response.json()["detail"][0]["loc"][0] == "body"


def test_R_DICE_house_rules_through_the_json_api_get_the_same_game_checks_as_the_page(client):
    token = new_game(client)["edit_token"]
    send = f"/api/games/{token}/commands"
    assert client.post(send, json={"type": "add_bot", "bot": {"name": "W", "role": "hunter", "melee": {"red": 2}}}).status_code == 200
    house = client.get(f"/api/games/{token}").json()["house"]
    no_red = {**house, "dice_faces": {k: v for k, v in house["dice_faces"].items() if k != "red"}}
    odd_faces = {**house, "dice_faces": {**house["dice_faces"], "white": ["blank", "boom"]}}
    for bad in (no_red, odd_faces):
        r = client.post(send, json={"type": "set_house_rules", "house": bad})
        assert r.status_code == 400, r.text
    assert client.get(f"/api/games/{token}").json()["house"] == house
    assert client.post(send, json={"type": "set_house_rules", "house": {**house, "danger_limit": 30}}).status_code == 200
