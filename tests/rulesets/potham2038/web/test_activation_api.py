"""POST /api/rules/activation: the docs/api.md contract, and bad input answered 422 naming the field."""

from __future__ import annotations

import copy

import pytest

URL = "/api/rules/activation"

EXAMPLE = {
    "bot": {
        "name": "Warden-2", "role": "hunter", "walk": 4, "run": 8, "control_zone": 3, "points": 60, "health": 4,
        "shoot": {"range": 18, "ammo": True}, "knocked_down": False, "rebooted": False, "full_throttle": False,
        "special_rules": ["marked_target"],
    },
    "characters": [{"name": "Ada", "distance": 2.5, "line_of_sight": True, "base_contact": False}],
    "directive": {},
}


def body(**changes) -> dict:
    data = copy.deepcopy(EXAMPLE)
    for path, value in changes.items():
        *parents, leaf = path.split("__")
        node = data
        for key in parents:
            node = node[key]
        node[leaf] = value
    return data


def test_R_ACT_TWO_the_api_md_example_answers_the_contract(client):
    response = client.post(URL, json=EXAMPLE)
    assert response.status_code == 200
    data = response.json()
    assert data["bot"] == "Warden-2"
    assert data["marked"] == [{"character": "Ada", "stacks": 1, "rule": "R-MARK-ACT"}]
    assert data["ties"] == []
    keys = ("slot", "family", "action", "phase", "target", "move", "fallback", "rule")
    assert [tuple(a[k] for k in keys) for a in data["actions"]] == [
        (1, "maneuver", "walk", 2, "Ada", 2.5, False, "R-ROLE-HUNTER"),
        (2, "attack", "melee", 3, "Ada", None, False, "R-ACT-TWO"),
    ]
    assert all(a["reason"] for a in data["actions"])


def test_defaults_apply_when_optional_fields_are_left_out(client):
    minimal = {"bot": {"name": "Gate-1", "role": "hunter", "walk": 4, "run": 8},
               "characters": [{"name": "Ada", "distance": 3}]}  # zone 3, no LOS: still inside
    data = client.post(URL, json=minimal).json()
    assert data["marked"] == [{"character": "Ada", "stacks": 1, "rule": "R-MARK-ACT"}]
    assert [(a["action"], a["move"]) for a in data["actions"]] == [("walk", 3.0), ("melee", None)]
    assert data["arrived"] is False and data["notes"] == []


@pytest.mark.parametrize(("role", "directive", "first"), [
    ("sentry", {"subject": "Vault", "subject_distance": 6}, ("walk", "Vault", 4.0)),
    ("worker", {"object": "Console", "object_distance": 3, "object_contact": False}, ("walk", "Console", 3.0)),
    ("worker", {"object": "Console", "object_contact": True}, ("activate", "Console", None)),
    ("patrol", {"waypoint": "B", "waypoint_distance": 7}, ("run", "B", 7.0)),
    ("hunter", {"direction": 5}, ("random_move", None, 4.0)),
], ids=["R-ROLE-SENTRY", "R-ROLE-WORKER", "R-ROLE-WORKER-contact", "R-ROLE-PATROL", "R-ROLE-HUNTER-random"])
def test_each_role_takes_its_directive(client, role, directive, first):
    request = body(bot__role=role, directive=directive, characters=[])
    data = client.post(URL, json=request).json()
    action = data["actions"][0]
    assert (action["action"], action["target"], action["move"]) == first
    if role == "patrol":
        assert data["arrived"] is True


def test_R_MARK_ACT_a_rebooted_bot_answers_no_actions_and_marks_no_one(client):
    data = client.post(URL, json=body(bot__rebooted=True)).json()
    assert data["actions"] == [] and data["marked"] == []


def test_a_bot_without_a_shoot_weapon_does_not_shoot(client):
    far = [{"name": "Ada", "distance": 20, "line_of_sight": True}]
    armed = client.post(URL, json=body(characters=far)).json()
    unarmed = client.post(URL, json=body(characters=far, bot__shoot=None)).json()
    assert armed["actions"][1]["action"] == "shoot"
    assert unarmed["actions"][1]["action"] == "walk" and unarmed["actions"][1]["fallback"]


def test_ties_are_listed_and_the_first_is_taken(client):
    two = [{"name": "Ada", "distance": 2, "line_of_sight": True}, {"name": "Bo", "distance": 2}]
    data = client.post(URL, json=body(characters=two)).json()
    assert data["ties"] == ["Ada", "Bo"] and data["actions"][0]["target"] == "Ada"


@pytest.mark.parametrize(("request_body", "loc"), [
    (body(bot__role="boss"), ["body", "bot", "role"]),
    (body(bot__walk=-1), ["body", "bot", "walk"]),
    (body(bot__run=10_000), ["body", "bot", "run"]),
    (body(bot__name=""), ["body", "bot", "name"]),
    (body(bot__name="x" * 81), ["body", "bot", "name"]),
    (body(bot__control_zone="far"), ["body", "bot", "control_zone"]),
    (body(bot__shoot={"ammo": True}), ["body", "bot", "shoot", "range"]),
    (body(bot__special_rules=["ok", ""]), ["body", "bot", "special_rules", 1]),
    (body(characters=[{"name": "Ada", "distance": -0.5}]), ["body", "characters", 0, "distance"]),
    (body(characters=[{"name": "Ada", "distance": 1e6}]), ["body", "characters", 0, "distance"]),
    (body(characters=[{"distance": 1}]), ["body", "characters", 0, "name"]),
    (body(characters=[{"name": "Ada", "distance": 1}] * 2), ["body", "characters"]),
    (body(characters=[{"name": f"C{i}", "distance": 1} for i in range(51)]), ["body", "characters"]),
    (body(characters=[{"name": "Ada", "distance": 1, "los": True}]), ["body", "characters", 0, "los"]),
    (body(directive={"direction": 9}), ["body", "directive", "direction"]),
    (body(bot__role="sentry", directive={"subject": "Vault"}), ["body", "directive", "subject_distance"]),
    (body(bot__role="worker", directive={"object": "Console"}), ["body", "directive", "object_distance"]),
    (body(bot__role="patrol", directive={"waypoint": "B"}), ["body", "directive", "waypoint_distance"]),
    ({"characters": []}, ["body", "bot"]),
    ([1, 2], ["body"]),
], ids=["role", "negative-walk", "huge-run", "empty-name", "long-name", "zone-text", "shoot-without-range",
        "empty-special-rule", "negative-distance", "huge-distance", "nameless", "duplicate-names",
        "too-many-characters", "misspelt-field", "direction-9", "sentry-without-distance",
        "worker-without-distance", "patrol-without-distance", "no-bot", "not-an-object"])
def test_bad_input_answers_422_naming_the_field(client, request_body, loc):
    response = client.post(URL, json=request_body)
    assert response.status_code == 422
    assert loc in [e["loc"] for e in response.json()["detail"]]


@pytest.mark.parametrize("raw", [
    b'{"bot": {"name": "W", "role": "hunter", "walk": NaN, "run": 8}}',
    b'{"bot": {"name": "W", "role": "hunter", "walk": 4, "run": 1e999}}',
    b'{"bot": {"name": "W", "role": "hunter", "walk": 4, "run": 8}, "extra": -Infinity}',
    b'{"bot": ',
    b"",
], ids=["nan", "overflow", "infinity-extra", "truncated", "empty"])
def test_malformed_json_answers_422_never_500(client, raw):
    response = client.post(URL, content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][0] == "body"


def test_the_endpoint_is_documented_with_examples(client):
    spec = client.get("/openapi.json").json()
    operation = spec["paths"][URL]["post"]
    examples = operation["requestBody"]["content"]["application/json"]["examples"]
    assert set(examples) == {"hunter", "sentry", "worker", "patrol"}
    assert "ActivationOut" in operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]


LOST_HUNTER = {"bot": {"name": "W", "role": "hunter", "walk": 4, "run": 8},
               "characters": [{"name": "Ada", "distance": 10, "line_of_sight": False, "base_contact": False}],
               "directive": {}}


def test_R_ROLE_HUNTER_a_rolled_random_direction_is_the_same_for_the_same_request(client):
    """docs/api.md: the rules endpoints are stateless, the same request always gives the same answer."""
    answers = {str(client.post("/api/rules/activation", json=LOST_HUNTER).json()["actions"]) for _ in range(6)}
    assert len(answers) == 1
    assert client.post("/api/rules/activation", json=LOST_HUNTER).json()["actions"][0]["action"] == "random_move"


def test_R_ROLE_HUNTER_a_seed_in_the_request_chooses_the_roll_and_a_given_direction_wins(client):
    directions = {client.post("/api/rules/activation", json={**LOST_HUNTER, "seed": s}).json()["actions"][0]["direction"]
                  for s in range(40)}
    assert directions <= set(range(1, 9)) and len(directions) > 4
    given = {**LOST_HUNTER, "directive": {"direction": 3}, "seed": 5}
    assert client.post("/api/rules/activation", json=given).json()["actions"][0]["direction"] == 3
