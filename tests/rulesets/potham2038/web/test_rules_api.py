"""The rules API (docs/api.md § POST /api/rules/...): contract fields, seeded rolls, bad input is 422."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.web.rules_examples import (
    MELEE_EXAMPLES,
    NOISE_EXAMPLES,
    ODDS_EXAMPLES,
    SHOOT_EXAMPLES,
)

MELEE = MELEE_EXAMPLES["entered"]["value"]
SHOOT = SHOOT_EXAMPLES["into_melee"]["value"]
ODDS = ODDS_EXAMPLES["melee"]["value"]

MELEE_FIELDS = {"attacker", "attack_total", "defense_total", "outcome", "damage", "damage_to", "push_back",
                "danger_trigger", "reason", "rule"}
SHOOT_FIELDS = {"actual_target", "ties", "attack_total", "defense_total", "outcome", "damage",
                "out_of_ammo_check", "reason", "rule"}


def post(client, path, body, status=200):
    response = client.post(f"/api/rules/{path}", json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_R_CMB_DAMAGE_melee_answers_the_api_md_example(client):
    answer = post(client, "melee", MELEE)
    assert MELEE_FIELDS <= answer.keys()
    assert {k: answer[k] for k in MELEE_FIELDS - {"reason"}} == {
        "attacker": "npc", "attack_total": 2, "defense_total": 1, "outcome": "damage", "damage": 1,
        "damage_to": "Ada", "push_back": None, "danger_trigger": True, "rule": "R-CMB-DAMAGE"}
    assert answer["rolls"]["npc"]["by"] == "entered"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"rolls": {"npc": {"hits": 1}, "character": {"hits": 1}}}, ("tie", 0, None, "Ada", "R-CMB-TIE")),
        ({"attacker": "character"}, ("defended", 0, None, None, "R-CMB-DAMAGE")),  # Ada's 1 against 2
        ({"character": {"name": "Ada", "points": 45, "marked": 2},
          "npc": {"name": "Warden-2", "points": 60, "special_rules": ["marked_target"]},
          "rolls": {"npc": {"hits": 1}, "character": {"hits": 2}}}, ("damage", 1, "Ada", None, "R-CMB-DAMAGE")),
        ({"counter_attack": True, "rolls": {"npc": {"hits": 1}, "character": {"hits": 3, "criticals": 1}}},
         ("damage", 3, "Warden-2", None, "R-CMB-DAMAGE")),
        ({"counter_attack": True, "rolls": {"npc": {"hits": 2}, "character": {"hits": 2}}},
         ("tie", 0, None, "Ada", "R-CMB-TIE")),
    ],
    ids=["R-CMB-TIE-push-back", "R-CMB-WHO-special-rule", "R-MARKED-TARGET", "R-CMB-TIE-counter-attack-win",
         "R-CMB-TIE-counter-attack-tie"],
)
def test_melee_variants(client, change, expected):
    answer = post(client, "melee", {**MELEE, **change})
    assert answer["attacker"] == change.get("attacker", "npc")
    assert (answer["outcome"], answer["damage"], answer["damage_to"], answer["push_back"], answer["rule"]) == expected


def test_melee_without_rolls_rolls_the_pools_and_says_what_it_rolled(client):
    body = MELEE_EXAMPLES["rolled"]["value"]
    answer = post(client, "melee", body)
    npc_faces = answer["rolls"]["npc"]["faces"]
    # R-DISTRACTED: Ada's one stack adds one White die to the 3 Red the AI-Bot attacks with
    assert sorted(f["colour"] for f in npc_faces) == ["red", "red", "red", "white"]
    assert len(answer["rolls"]["character"]["faces"]) == 3  # Ada defends with 3 White
    assert answer["rolls"]["npc"]["by"] == "app" and answer["seed"] == 2038
    assert answer == post(client, "melee", body)  # stateless: the same request, the same answer


def test_the_seed_decides_the_dice(client):
    body = {"npc": {"name": "W", "pool": {"red": 20}}, "character": {"name": "A", "pool": {"white": 20}}}
    answers = {str(post(client, "melee", {**body, "seed": s})["rolls"]) for s in range(4)}
    assert len(answers) > 1
    unseeded = post(client, "melee", body)
    assert unseeded == post(client, "melee", body) and isinstance(unseeded["seed"], int)


def test_R_CMB_SHOOT_shoot_answers_the_api_md_example(client):
    answer = post(client, "shoot", SHOOT)
    assert SHOOT_FIELDS <= answer.keys()
    assert {k: answer[k] for k in SHOOT_FIELDS - {"reason"}} == {
        "actual_target": "Bolt-1", "ties": [], "attack_total": 2, "defense_total": 1, "outcome": "damage",
        "damage": 2, "out_of_ammo_check": True, "rule": "R-CMB-TARGET"}
    assert answer["ammo_die"] in ("success", "blank") and answer["out_of_ammo"] == (answer["ammo_die"] == "blank")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"black_die": "success"}, ("Ada", [], "damage", 2)),
        ({"melee_with": [{"name": "Bolt-1", "health": 3}]}, ("Ada", ["Ada", "Bolt-1"], "damage", 2)),
        ({"melee_with": [{"name": "Bolt-1", "health": 3}], "chosen_target": "Bolt-1"},
         ("Bolt-1", ["Ada", "Bolt-1"], "damage", 2)),
        ({"rolls": {"attack": {"hits": 1, "criticals": 1}, "defense": {"hits": 1}}}, ("Bolt-1", [], "defended", 0)),
        ({"shooter": {"name": "Warden-2", "special_rules": ["Marked Target"]}, "black_die": "success"},
         ("Ada", [], "damage", 3)),
    ],
    ids=["R-CMB-TARGET-success", "R-CMB-TARGET-ties", "R-CMB-TARGET-player-chooses", "R-CMB-AMMO-shoot-tie",
         "R-MARKED-TARGET-shoot"],
)
def test_shoot_variants(client, change, expected):
    answer = post(client, "shoot", {**SHOOT, **change})
    assert (answer["actual_target"], answer["ties"], answer["outcome"], answer["damage"]) == expected
    assert answer["out_of_ammo_check"] is True  # every variant's attack rolled a Critical


def test_R_CMB_SHOOT_the_app_rolls_cover_dice_into_the_defense(client):
    body = SHOOT_EXAMPLES["rolled"]["value"]
    answer = post(client, "shoot", body)
    assert len(answer["rolls"]["defense"]["faces"]) == 4  # 2 White + 2 for heavy Cover
    assert len(answer["rolls"]["attack"]["faces"]) == 3
    assert answer["black_die"] is None  # not in melee: no Black Die
    assert answer == post(client, "shoot", body)


def test_R_CMB_TARGET_the_app_rolls_the_black_die_when_none_is_given(client):
    body = {**SHOOT, "black_die": None}
    dice = {post(client, "shoot", {**body, "seed": s})["black_die"] for s in range(12)}
    assert dice == {"success", "blank"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [({"kind": "noise", "zones_containing": 2}, {"marked": 1, "danger": 1, "rule": "R-NOISE"}),
     ({"kind": "noise", "zones_containing": 0}, {"marked": 0, "danger": 0, "rule": "R-NOISE"}),
     ({"kind": "alarm", "zones_containing": 2}, {"marked": 2, "danger": 1, "rule": "R-ALARM"})],
    ids=["R-NOISE-in-zones", "R-NOISE-no-zone", "R-ALARM"],
)
def test_noise(client, body, expected):
    answer = post(client, "noise", body)
    assert {k: answer[k] for k in expected} == expected


def test_odds_answers_the_api_md_fields_exactly(client):
    answer = post(client, "odds", ODDS)
    assert {"p_damage", "p_tie", "p_defended", "damage_at_least", "expected_damage"} <= answer.keys()
    assert answer["p_damage"] + answer["p_tie"] + answer["p_defended"] == pytest.approx(1)
    assert answer["damage_at_least"]["1"] == pytest.approx(answer["p_damage"])
    assert list(answer["damage_at_least"]) == ["1", "2", "3", "4"]  # 3 Red: at most 3 more hits, +1


def test_odds_can_use_a_games_own_faces(client):
    faces = {"gold": ["hit"], "white": ["blank"]}
    answer = post(client, "odds", {"attack": {"pool": {"gold": 2}}, "defense": {"pool": {"white": 3}}, "faces": faces})
    assert (answer["p_damage"], answer["damage_at_least"]) == (1.0, {"1": 1.0, "2": 1.0})


@pytest.mark.parametrize("example", [*NOISE_EXAMPLES.values(), *ODDS_EXAMPLES.values()])
def test_every_documented_example_is_answered(client, example):
    path = "noise" if "kind" in example["value"] else "odds"
    post(client, path, example["value"])


def test_the_examples_are_in_the_openapi_docs(client):
    schema = client.get("/openapi.json").json()
    for path in ("melee", "shoot", "noise", "odds"):
        body = schema["paths"][f"/api/rules/{path}"]["post"]["requestBody"]["content"]["application/json"]
        assert body["examples"], path


# --- bad input: 422 naming the field, never 500 ---------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("odds", {"attack": {"pool": {"red": 1000000}}}, ["body", "attack", "pool", "red"]),
        ("odds", {"attack": {"pool": {"red": 30, "white": 11}}}, ["body", "attack", "pool"]),
        ("odds", {"attack": {"pool": {"blue": 1}}}, ["body", "attack"]),
        ("odds", {"attack": {"pool": {"red": -1}}}, ["body", "attack", "pool", "red"]),
        ("odds", {"attack": {"pool": {"red": 1}, "bonus": 1000}}, ["body", "attack", "bonus"]),
        ("odds", {"defense": {"pool": {}}}, ["body", "attack"]),
        ("melee", {**MELEE, "rolls": {"npc": {"hits": 1, "criticals": 2}}}, ["body", "rolls", "npc"]),
        ("melee", {**MELEE, "rolls": {"npc": {"hits": -1}}}, ["body", "rolls", "npc", "hits"]),
        ("melee", {**MELEE, "rolls": {"npc": {"hits": 1, "criticls": 1}}}, ["body", "rolls", "npc", "criticls"]),
        ("melee", {**MELEE, "attacker": "referee"}, ["body", "attacker"]),
        ("melee", {**MELEE, "rolls": None}, ["body", "npc", "melee"]),
        ("melee", {**MELEE, "character": {"name": "Warden-2"}}, ["body"]),
        ("melee", {**MELEE, "character": {"name": "  "}}, ["body", "character", "name"]),
        ("melee", {**MELEE, "npc": {"name": "W", "pool": {"red": 1}}, "character": {"name": "A", "points": 99},
                   "counter_attack": True}, ["body", "counter_attack"]),
        ("melee", {"npc": {"name": "W", "points": 9, "melee": {"red": 40}}, "character": {"name": "A", "distracted": 3,
                   "defense": {"white": 1}}}, ["body", "npc", "melee"]),
        ("melee", {**MELEE, "seed": -1}, ["body", "seed"]),
        ("shoot", {**SHOOT, "black_die": "six"}, ["body", "black_die"]),
        ("shoot", {**SHOOT, "melee_with": [{"name": "Bolt-1", "health": 3}], "chosen_target": "Cog"},
         ["body", "chosen_target"]),
        ("shoot", {**SHOOT, "melee_with": [{"name": "Ada", "health": 5}]}, ["body"]),
        ("shoot", {**SHOOT, "rolls": {"attack": {"hits": 2}}}, ["body", "melee_with", 0, "pool"]),
        ("shoot", {**SHOOT, "rolls": None}, ["body", "shooter", "pool"]),
        ("shoot", {**SHOOT, "melee_with": [{"name": f"B{i}"} for i in range(21)]}, ["body", "melee_with"]),
        ("shoot", {**SHOOT, "target": {"name": "Ada", "cover": "wall"}}, ["body", "target", "cover"]),
        ("noise", {"kind": "shout", "zones_containing": 1}, ["body", "kind"]),
        ("noise", {"kind": "noise", "zones_containing": -1}, ["body", "zones_containing"]),
        ("noise", {"kind": "noise"}, ["body", "zones_containing"]),
    ],
)
def test_bad_input_is_a_422_naming_the_field(client, path, body, loc):
    response = client.post(f"/api/rules/{path}", json=body)
    assert response.status_code == 422, response.text
    assert loc in [e["loc"] for e in response.json()["detail"]]


@pytest.mark.parametrize("path", ["melee", "shoot", "noise", "odds"])
@pytest.mark.parametrize("body", [None, [], "x", {"a": 1}, {"attack": 1, "npc": 2, "shooter": 3, "kind": 4}])
def test_nonsense_bodies_are_422_never_500(client, path, body):
    assert client.post(f"/api/rules/{path}", json=body).status_code == 422


def test_a_custom_face_table_without_white_refuses_cover_dice_cleanly(client):
    body = {"faces": {"red": ["hit", "blank"]}, "shooter": {"name": "W", "pool": {"red": 2}},
            "target": {"name": "A", "cover": "light", "pool": {"red": 1}}}
    response = client.post("/api/rules/shoot", json=body)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "target", "pool"]
