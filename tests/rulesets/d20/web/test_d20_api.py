"""The d20 ruleset's stateless API (docs/api.md § Rulesets): `POST /api/rulesets/d20/odds` with
docs/api.md's exact values, `/activation` answering each step with its reason and D20 rule id, and
bad input answered 422 naming the field, never 500."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rulesets.d20.web.d20_schemas import ActivationIn, OddsIn
from tests.support.examples import examples
from tests.support.json_strategies import from_schema, wild_json

ODDS = "/api/rulesets/d20/odds"
ACTIVATION = "/api/rulesets/d20/activation"
EXAMPLE = {"bonus": 5, "defense": 15, "range": "short", "cover": "none"}
RAIDER = {
    "npc": {"name": "Raider", "role": "hunter", "speed": 6, "attributes": {"vigor": 2, "agility": 1},
            "skills": {"blade_waltz": 2, "arrow_time": 1},
            "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"},
                        {"name": "Carbine", "kind": "ranged", "damage": "1d10", "short": 8, "long": 20}]},
    "characters": [{"name": "Ada", "distance": 4, "line_of_sight": True, "defense": 14}],
    "directive": {},
}


def with_change(body: dict, path: str, value) -> dict:
    data = copy.deepcopy(body)
    *parents, leaf = path.split(".")
    node = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[leaf] = value
    return data


@pytest.mark.parametrize("change, p_hit, p_crit", [
    pytest.param({}, 0.55, 0.05, id="D20-ATTACK-ROLL-api-md-example"),
    pytest.param({"range": "long"}, 0.45, 0.05, id="D20-RANGE-long-minus-2"),
    pytest.param({"cover": "heavy"}, 0.35, 0.0, id="D20-COVER-heavy-no-crit"),
    pytest.param({"cover": "light"}, 0.50, 0.05, id="D20-COVER-light"),
    pytest.param({"cover": "medium"}, 0.45, 0.05, id="D20-COVER-medium"),
])
def test_D20_ATTACK_ROLL_odds_answer_api_md_exact_values(client, change, p_hit, p_crit):
    response = client.post(ODDS, json={**EXAMPLE, **change})
    assert response.status_code == 200
    data = response.json()
    assert (data["p_hit"], data["p_crit"], data["p_glitch"]) == (p_hit, p_crit, 0.05)
    assert data["rule"] == "D20-ATTACK-ROLL" and data["no_shot"] is False


def test_D20_RANGE_beyond_long_is_no_shot(client):
    data = client.post(ODDS, json={**EXAMPLE, "range": "beyond"}).json()
    assert data["no_shot"] is True and data["p_hit"] == data["p_crit"] == data["p_glitch"] == 0
    assert data["rule"] == "D20-RANGE"


def test_D20_DAMAGE_odds_with_damage_dice_add_the_distribution(client):
    data = client.post(ODDS, json={**EXAMPLE, "damage": "1d8", "damage_bonus": 3}).json()
    assert data["expected_damage"] == pytest.approx(0.5 * 7.5 + 0.05 * 12)
    assert data["damage_at_least"]["1"] == 0.55 and data["damage_at_least"]["19"] == pytest.approx(0.05 / 64)
    assert data["exact"]["p_hit"] == "11/20" and data["hit_on"] == 10


def test_D20_EDGE_edge_and_hindrance(client):
    edge = client.post(ODDS, json={**EXAMPLE, "mode": "edge"}).json()["p_hit"]
    hindrance = client.post(ODDS, json={**EXAMPLE, "mode": "hindrance"}).json()["p_hit"]
    assert edge == pytest.approx(1 - (9 / 20) ** 2) and hindrance == pytest.approx((11 / 20) ** 2)


@pytest.mark.parametrize("body, loc", [
    ({"defense": 15}, ["body", "bonus"]),
    ({**EXAMPLE, "range": "far"}, ["body", "range"]),
    ({**EXAMPLE, "cover": "total"}, ["body", "cover"]),
    ({**EXAMPLE, "damage": "1d7"}, ["body", "damage"]),
    ({**EXAMPLE, "bonus": "lots"}, ["body", "bonus"]),
    ({**EXAMPLE, "defense": -1}, ["body", "defense"]),
    ({**EXAMPLE, "colour": "red"}, ["body", "colour"]),
])
def test_bad_odds_input_answers_422_naming_the_field(client, body, loc):
    response = client.post(ODDS, json=body)
    assert response.status_code == 422
    assert loc in [e["loc"] for e in response.json()["detail"]]


def test_D20_ROLE_HUNTER_activation_answers_steps_with_reasons_rules_and_odds(client):
    response = client.post(ACTIVATION, json=RAIDER)
    assert response.status_code == 200
    data = response.json()
    assert data["ruleset"] == "d20" and data["npc"] == "Raider"
    assert [(s["slot"], s["action"], s["target"]) for s in data["actions"]] == [
        ("move", "move", "Ada"), ("action", "attack", "Ada"), ("reaction", "ready", None)]
    assert all(s["reason"] and s["rule"].startswith("D20-") for s in data["actions"])
    assert data["actions"][0]["rule"] == "D20-ROLE-HUNTER" and data["actions"][0]["squares"] == 3
    assert data["actions"][1]["odds"]["p_hit"] == 0.65
    assert [u["slot"] for u in data["unused"]] == ["minor"]


def test_D20_HUNTER_RANDOM_the_same_request_rolls_the_same_direction(client):
    body = with_change(RAIDER, "characters", [])
    first = client.post(ACTIVATION, json=body).json()
    assert first == client.post(ACTIVATION, json=body).json()
    assert 1 <= first["actions"][0]["direction"] <= 8
    given = client.post(ACTIVATION, json=with_change(body, "directive", {"direction": 7})).json()
    assert given["actions"][0]["direction"] == 7


def test_D20_ROLE_PATROL_standing_on_its_waypoint_needs_the_next_distance(client):
    body = with_change(with_change(RAIDER, "npc.role", "patrol"), "characters", [])
    body["directive"] = {"waypoint": "B", "waypoint_distance": 0, "next_waypoint": "C"}
    data = client.post(ACTIVATION, json=body).json()
    assert data["needs"] == ["next_waypoint_distance"] and data["reached"] == ["B"]


@pytest.mark.parametrize("path, value, loc", [
    ("npc.role", "boss", ["body", "npc", "role"]),
    ("npc.speed", -1, ["body", "npc", "speed"]),
    ("npc.weapons.0.damage", "lots", ["body", "npc", "weapons", 0, "damage"]),
    ("npc.conditions", ["sleepy"], ["body", "npc", "conditions", 0]),
    ("npc.attributes", {"luck": 2}, ["body", "npc", "attributes", "luck", "[key]"]),
    ("characters.0.distance", 0, ["body", "characters", 0, "distance"]),
    ("characters.0.cover", "wall", ["body", "characters", 0, "cover"]),
    ("directive.direction", 9, ["body", "directive", "direction"]),
    ("npc.name", "", ["body", "npc", "name"]),
    ("characters.0.distance", 1.5, ["body", "characters", 0, "distance"]),
])
def test_bad_activation_input_answers_422_naming_the_field(client, path, value, loc):
    response = client.post(ACTIVATION, json=with_change(RAIDER, path, value))
    assert response.status_code == 422, response.text
    assert loc in [e["loc"] for e in response.json()["detail"]]


def test_two_characters_with_one_name_and_a_foreign_wielded_weapon_are_422(client):
    twins = with_change(RAIDER, "characters", RAIDER["characters"] * 2)
    assert ["body", "characters"] in [e["loc"] for e in client.post(ACTIVATION, json=twins).json()["detail"]]
    foreign = with_change(RAIDER, "npc.wielding", "Rifle")
    assert client.post(ACTIVATION, json=foreign).status_code == 422


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([ODDS, ACTIVATION]), wild_json)
def test_no_body_makes_a_d20_endpoint_answer_500(client, path, body):
    raw = json.dumps(body)  # NaN and Infinity as JavaScript writes them: the server must refuse them
    response = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert response.status_code in (200, 422), response.text


@pytest.mark.parametrize("raw", ['{"bonus": NaN, "defense": 15}', '{"bonus": 1e400, "defense": 15}', "not json",
                                 '{"npc": {"name": "R", "role": "hunter", "speed": Infinity}}'])
def test_non_finite_numbers_and_broken_json_are_422(client, raw):
    for path in (ODDS, ACTIVATION):
        response = client.post(path, content=raw, headers={"content-type": "application/json"})
        assert response.status_code == 422


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.data())
def test_mostly_valid_bodies_answer_200_or_422_never_500(client, data):
    model, path = data.draw(st.sampled_from([(ActivationIn, ACTIVATION), (OddsIn, ODDS)]))
    body = data.draw(from_schema(model.model_json_schema(), ["Ada", "Machete", "Vault", "1d8"]))
    response = client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
    assert response.status_code in (200, 422), response.text


def test_a_d20_npc_turn_through_the_games_api_keeps_its_own_seen_facts(client):
    """`seen` in a command's JSON is the step the client last saw, unless it is a list: then it is
    the d20 NPC turn's own facts (D20-FACTS), which must reach the command, not answer 422."""
    game = client.post("/api/games", json={"name": "Ambush", "ruleset": "d20"}).json()
    url = f"/api/games/{game['edit_token']}/commands"
    ada = {"name": "Ada", "attributes": {"agility": 3}, "defense": 14, "hp": 8}
    state = client.post(url, json={"type": "add_character", "character": ada}).json()["state"]
    raider = {"name": "Raider", "role": "hunter", "skills": {"blade_waltz": 2}, "hp": 9,
              "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"}]}
    state = client.post(url, json={"type": "add_npc", "npc": raider}).json()["state"]
    ada_id, raider_id = state["characters"][0]["id"], state["npcs"][0]["id"]
    r = client.post(url, json={"type": "npc_turn", "npc_id": raider_id,
                               "seen": [{"character_id": ada_id, "distance": 3, "line_of_sight": True}]})
    assert r.status_code == 200, r.text
    assert "Ada" in json.dumps(r.json()["entries"])  # the Raider went for the Character it was told of
