"""No input answers 500 (issue 10 § 3): every reproduction from the attack probe, each a test
that failed before the fix. Huge and negative integers, lone surrogates, NUL characters, and
imports that validated but broke the new game."""

from __future__ import annotations

import json

import pytest

from tests.web.test_exchange import broken, count_games, sample, set_path

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

HUGE = [10**30, 2**63, -5]
JSON = {"content-type": "application/json"}


def new_game(client, name="Probe") -> dict:
    return client.post("/api/games", json={"name": name, "seed": 3}).json()


# --- unbounded integers --------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/g/{edit}", "/v/{view}", "/g/{edit}/panels/log", "/v/{view}/panels/log",
                                  "/g/{edit}/log", "/v/{view}/log"])
@pytest.mark.parametrize("before", HUGE)
def test_a_log_page_number_out_of_range_is_clamped_to_the_games_steps_not_a_500(client, path, before):
    game = new_game(client)
    r = client.get(path.format(edit=game["edit_token"], view=game["view_token"]), params={"before": before})
    assert r.status_code == 200
    if before > 0 and not path.endswith("/log"):  # past the newest step: the whole (short) log shows
        assert "created" in r.text


@pytest.mark.parametrize("seen", [10**30, 2**63, -1])
def test_a_seen_step_out_of_range_is_a_422_naming_seen(client, seen):
    token = new_game(client)["edit_token"]
    by_query = client.post(f"/api/games/{token}/commands", params={"seen": seen}, json={"type": "next_phase"})
    in_body = client.post(f"/api/games/{token}/commands", json={"type": "next_phase", "seen": seen})
    undo = client.post(f"/api/games/{token}/undo", json={"seen": seen})
    go_back = client.post(f"/api/games/{token}/undo", json={"to_seq": seen})
    assert by_query.status_code == 422 and by_query.json()["detail"][0]["loc"] == ["query", "seen"]
    assert in_body.status_code == 422 and in_body.json()["detail"][0]["loc"] == ["body", "seen"]
    assert undo.status_code == 422 and go_back.status_code == 422
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


def test_a_form_seen_of_thirty_digits_is_ignored_not_a_500(client):
    token = new_game(client)["edit_token"]
    r = client.post(f"/g/{token}/undo", data={"seen": str(10**30), "to_seq": str(10**30)},
                    headers={"HX-Request": "true"})
    assert r.status_code == 400 and "Nothing to undo" in r.text


@pytest.mark.parametrize("field", ["turn", "danger", "danger_excess"])
@pytest.mark.parametrize("value", [10**20, 2**63])
def test_an_import_whose_state_holds_an_integer_no_database_column_holds_is_a_422(client, field, value):
    before = count_games(client)
    r = client.post("/api/games/import", json=broken(set_path(["steps", 10, "state", field], value)))
    assert r.status_code == 422, r.text
    assert ["body", "steps", 10, "state", field] in [e["loc"] for e in r.json()["detail"]]
    assert count_games(client) == before


@pytest.mark.parametrize("value", ["1e999", "-1e999", "NaN"])
def test_an_import_with_an_infinite_distance_is_a_422(client, value):
    document = json.dumps(sample(1)).replace('"walk": 4.0', f'"walk": {value}', 1)
    assert f'"walk": {value}' in document
    r = client.post("/api/games/import", content=document, headers=JSON)
    assert r.status_code == 422, r.text


# --- lone surrogates -----------------------------------------------------------------------

SURROGATE_NAME = '{"name": "a\\ud800b"}'


def test_a_lone_surrogate_in_a_new_games_name_is_a_422_that_echoes_safely(client):
    r = client.post("/api/games", content=SURROGATE_NAME, headers=JSON)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "name"]


def test_a_lone_surrogate_in_a_rename_is_a_422(client):
    token = new_game(client)["edit_token"]
    r = client.post(f"/api/games/{token}/rename", content=SURROGATE_NAME, headers=JSON)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "name"]
    assert client.get(f"/api/games/{token}").json()["name"] == "Probe"


@pytest.mark.parametrize("path", ["/api/rules/activation", "/api/rules/melee", "/api/rules/shoot",
                                  "/api/rules/noise", "/api/rules/odds"])
@pytest.mark.parametrize("body", ['{"bot": "a\\ud800b"}', '{"a\\udfff": 1}', '"\\ud800"'],
                         ids=["in a value", "in a key", "the whole body"])
def test_a_lone_surrogate_anywhere_in_a_rules_request_is_a_422(client, path, body):
    r = client.post(path, content=body, headers=JSON)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]


@pytest.mark.parametrize("body", ['{"type": "adjust", "note\\ud800": 1}', '{"type": "a\\ud800"}',
                                  '{"type": "add_character", "character": {"name": "\\udc00"}}'],
                         ids=["a key", "the command's type", "a name"])
def test_a_lone_surrogate_in_a_command_is_a_422_and_nothing_is_stored(client, body):
    token = new_game(client)["edit_token"]
    r = client.post(f"/api/games/{token}/commands", content=body, headers=JSON)
    assert r.status_code == 422, r.text
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


def test_a_lone_surrogate_in_an_import_is_a_422(client):
    document = json.dumps(sample(1)).replace('"Night shift at Potham Docks"', '"Night\\ud800"', 1)
    r = client.post("/api/games/import", content=document, headers=JSON)
    assert r.status_code == 422 and ["body", "name"] in [e["loc"] for e in r.json()["detail"]]
    page = client.post("/games/import", files={"file": ("x.json", document.encode(), "application/json")})
    assert page.status_code == 422 and 'id="import-error"' in page.text


# --- NUL and other control characters in names (refused, not stripped) ---------------------


@pytest.mark.parametrize("name", ["a\x00b", "two\nlines", "bell\x07"])
def test_a_control_character_in_a_games_name_is_refused_with_a_422(client, name):
    r = client.post("/api/games", json={"name": name})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "name"]
    token = new_game(client)["edit_token"]
    assert client.post(f"/api/games/{token}/rename", json={"name": name}).status_code == 422
    page = client.post("/games", data={"name": name})
    assert page.status_code == 422 and "must not contain control characters" in page.text


def test_a_nul_in_a_roster_name_is_refused_next_to_the_field(client):
    token = new_game(client)["edit_token"]
    api = client.post(f"/api/games/{token}/commands",
                      json={"type": "add_character", "character": {"name": "Ada\x00"}})
    assert api.status_code == 422 and api.json()["detail"][0]["loc"] == ["body", "character", "name"]
    form = client.post(f"/g/{token}/roster/characters", headers={"HX-Request": "true"},
                       data={"name": "Ada\x00", "points": "0", "health": "3", "max_health": "3"})
    assert form.status_code == 422 and "control characters" in form.text
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


def test_a_nul_in_an_imported_name_is_a_422(client):
    r = client.post("/api/games/import", json=broken(set_path(["name"], "Night\x00shift")))
    assert r.status_code == 422 and ["body", "name"] in [e["loc"] for e in r.json()["detail"]]


# --- imports that validated but broke the game ----------------------------------------------

BREAKING = {
    "dice faces that are a number (every page of the game answered 500)":
        set_path(["steps", 1, "entries", 0, "dice"], {"by": "app", "faces": 5}),
    "a roll with negative hits": set_path(["steps", 1, "entries", 0, "dice"], {"attack": {"hits": -1}}),
    "an undo to step null (every later undo answered 500)": set_path(["steps", 10, "command", "to_seq"], None),
    "an undo to step 'x'": set_path(["steps", 10, "command", "to_seq"], "x"),
    "an undo to a later step": set_path(["steps", 10, "command", "to_seq"], 10),
    "an undo that restores another state": set_path(["steps", 10, "state", "danger"], 3),
    "an undo with a stray field": set_path(["steps", 10, "command", "why"], "x"),
    "a create step with a stray field": set_path(["steps", 0, "command", "name"], "x"),
    "a second create step": lambda d: d["steps"][1].update(kind="create", command={"type": "create"}),
}


@pytest.mark.parametrize("change", BREAKING.values(), ids=BREAKING.keys())
def test_an_import_that_would_break_the_game_is_refused_whole(client, change):
    before = count_games(client)
    r = client.post("/api/games/import", json=broken(change))
    assert r.status_code == 422, r.text
    assert count_games(client) == before


def test_every_step_the_app_writes_imports_back_and_plays_on(client):
    """The import's checks accept everything the app itself writes, dice and undos included."""
    from tests.web.test_command_properties import ROSTER, one_turn

    token = new_game(client)["edit_token"]
    for command in ROSTER:
        client.post(f"/api/games/{token}/commands", json=command)
    state = client.get(f"/api/games/{token}").json()
    ids = [c["id"] for c in state["characters"]] + [b["id"] for b in state["bots"]]
    for command in one_turn(*ids):
        assert client.post(f"/api/games/{token}/commands", json=command).status_code == 200
    client.post(f"/api/games/{token}/undo", json={"to_seq": 3})
    document = client.get(f"/api/games/{token}/export").json()
    assert any(e["dice"] for s in document["steps"] for e in s["entries"])
    r = client.post("/api/games/import", json=document)
    assert r.status_code == 201, r.text
    copy = r.json()["edit_token"]
    assert client.get(f"/g/{copy}").status_code == 200
    assert client.post(f"/api/games/{copy}/undo", json={}).status_code == 200
