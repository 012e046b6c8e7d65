"""The JSON contract of design/api.md, checked black-box: every request and answer field named
there, the defaults, the enums, the example requests, and 422s that name the field.

Written from docs/api.md and the seeds, not from the code: where a test quotes a rule id, the rule
is docs/design-rules.md's (or docs/rules.md's for the readings the product adds).
"""

from __future__ import annotations

import math

import pytest

ACTIVATION = "/api/rules/activation"
MELEE = "/api/rules/melee"
SHOOT = "/api/rules/shoot"
NOISE = "/api/rules/noise"
ODDS = "/api/rules/odds"

# The example requests of docs/api.md, verbatim.
API_ACTIVATION = {
    "bot": {
        "name": "Warden-2", "role": "hunter",
        "walk": 4, "run": 8, "control_zone": 3,
        "points": 60, "health": 4,
        "shoot": {"range": 18, "ammo": True},
        "knocked_down": False, "rebooted": False, "full_throttle": False,
        "special_rules": ["marked_target"],
    },
    "characters": [{"name": "Ada", "distance": 2.5, "line_of_sight": True, "base_contact": False}],
    "directive": {},
}
API_MELEE = {
    "npc": {"name": "Warden-2", "points": 60, "health": 4, "special_rules": []},
    "character": {"name": "Ada", "points": 45, "health": 3, "marked": 0, "distracted": 0},
    "attacker": None,
    "counter_attack": False,
    "rolls": {"npc": {"hits": 2, "criticals": 0}, "character": {"hits": 1, "criticals": 0}},
}
API_SHOOT = {
    "shooter": {"name": "Warden-2", "side": "npc", "special_rules": []},
    "target": {"name": "Ada", "health": 3, "marked": 1, "distracted": 0},
    "melee_with": [{"name": "Bolt-1", "health": 5}],
    "black_die": "blank",
    "rolls": {"attack": {"hits": 2, "criticals": 1}, "defense": {"hits": 1, "criticals": 0}},
}
API_NOISE = {"kind": "noise", "zones_containing": 2}
API_ODDS = {"attack": {"pool": {"red": 3}, "bonus": 0}, "defense": {"pool": {"white": 2}, "bonus": 0},
            "melee": True}

FAMILIES = {"maneuver", "scan", "interact", "attack"}
ACTIONS = {"walk", "run", "stand_up", "random_move", "scan", "open_close", "activate", "search", "reload",
           "melee", "shoot", "smash", "start_fire"}
ACTION_FIELDS = {"slot", "family", "action", "phase", "target", "move", "fallback", "reason", "rule"}


def bot(**fields) -> dict:
    """A minimal Hunter: only the fields docs/api.md does not default."""
    return {"name": "Warden-2", "role": "hunter", "walk": 4, "run": 8, **fields}


def activation(client, characters=(), directive=None, **bot_fields) -> dict:
    body = {"bot": bot(**bot_fields), "characters": list(characters), "directive": directive or {}}
    r = client.post(ACTIVATION, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def ada(distance: float, los: bool = True, contact: bool = False, name: str = "Ada") -> dict:
    return {"name": name, "distance": distance, "line_of_sight": los, "base_contact": contact}


def locs(response) -> list[tuple]:
    assert response.status_code == 422, response.text
    return [tuple(str(part) for part in error["loc"]) for error in response.json()["detail"]]


def named(response, *path: str) -> bool:
    """The 422 names the field: some error's loc ends with `path`."""
    return any(loc[-len(path):] == path for loc in locs(response))


# --- the example requests answer 200 with the documented fields -------------------------------


def test_the_activation_example_answers_with_every_documented_field(client):
    data = client.post(ACTIVATION, json=API_ACTIVATION).json()
    assert {"bot", "marked", "actions", "ties"} <= set(data)
    assert data["bot"] == "Warden-2"
    assert data["marked"] == [{"character": "Ada", "stacks": 1, "rule": "R-MARK-ACT"}]
    assert data["ties"] == []
    for action in data["actions"]:
        assert ACTION_FIELDS <= set(action)
        assert action["family"] in FAMILIES and action["action"] in ACTIONS
        assert isinstance(action["reason"], str) and action["reason"]
    first, second = data["actions"]
    assert (first["slot"], first["family"], first["action"], first["phase"]) == (1, "maneuver", "walk", 2)
    assert (first["target"], first["move"], first["fallback"], first["rule"]) == ("Ada", 2.5, False,
                                                                                 "R-ROLE-HUNTER")
    assert (second["slot"], second["family"], second["action"], second["phase"]) == (2, "attack", "melee", 3)
    assert (second["target"], second["move"], second["fallback"]) == ("Ada", None, False)


def test_the_melee_example_answers_as_api_md_shows(client):
    data = client.post(MELEE, json=API_MELEE).json()
    expected = {"attacker": "npc", "attack_total": 2, "defense_total": 1, "outcome": "damage", "damage": 1,
                "damage_to": "Ada", "push_back": None, "danger_trigger": True, "rule": "R-CMB-DAMAGE"}
    assert {k: data[k] for k in expected} == expected
    assert isinstance(data["reason"], str) and data["reason"]


def test_the_shoot_example_answers_as_api_md_shows(client):
    data = client.post(SHOOT, json=API_SHOOT).json()
    expected = {"actual_target": "Bolt-1", "ties": [], "attack_total": 2, "defense_total": 1,
                "outcome": "damage", "damage": 2, "out_of_ammo_check": True, "rule": "R-CMB-TARGET"}
    assert {k: data[k] for k in expected} == expected
    assert isinstance(data["reason"], str) and data["reason"]


def test_the_noise_example_answers_as_api_md_shows(client):
    data = client.post(NOISE, json=API_NOISE).json()
    assert {k: data[k] for k in ("marked", "danger", "rule")} == {"marked": 1, "danger": 1, "rule": "R-NOISE"}


def test_the_odds_example_answers_with_every_documented_field(client):
    data = client.post(ODDS, json=API_ODDS).json()
    assert {"p_damage", "p_tie", "p_defended", "damage_at_least", "expected_damage"} <= set(data)
    assert math.isclose(data["p_damage"] + data["p_tie"] + data["p_defended"], 1.0, abs_tol=1e-9)
    assert math.isclose(data["damage_at_least"]["1"], data["p_damage"], abs_tol=1e-9)


# --- activation: defaults ------------------------------------------------------------------


@pytest.mark.parametrize("distance, marked", [(3, True), (3.0001, False), (2.99, True)],
                         ids=["R-ZONE-default-3-exactly-3-is-inside", "R-ZONE-default-3-just-past-is-outside",
                              "R-ZONE-default-3-inside"])
def test_R_ZONE_control_zone_defaults_to_3_inches(client, distance, marked):
    data = activation(client, [ada(distance, los=False)])
    assert bool(data["marked"]) is marked


def test_shoot_omitted_or_null_means_no_ranged_weapon(client):
    for extra in ({}, {"shoot": None}):
        data = activation(client, [ada(10)], **extra)
        assert "shoot" not in [a["action"] for a in data["actions"]]
    armed = activation(client, [ada(10)], shoot={"range": 18})
    assert "shoot" in [a["action"] for a in armed["actions"]]


def test_the_three_flags_default_to_false(client):
    data = activation(client, [ada(2.5)])
    assert data["actions"] and data["marked"]  # not rebooted
    assert data["actions"][0]["action"] == "walk"  # neither knocked down nor at Full Throttle


def test_special_rules_default_to_none(client):
    body = {"bot": bot(), "characters": [ada(2)], "directive": {}}
    assert client.post(ACTIVATION, json=body).status_code == 200


def test_directive_may_be_omitted_for_a_hunter(client):
    r = client.post(ACTIVATION, json={"bot": bot(), "characters": [ada(2)]})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("role, directive", [
    ("sentry", {"subject": "Vault", "subject_distance": 6}),
    ("worker", {"object": "Console", "object_distance": 3, "object_contact": False}),
    ("patrol", {"waypoint": "B", "waypoint_distance": 7}),
    ("hunter", {}),
    ("hunter", {"direction": 3}),
], ids=["sentry", "worker", "patrol", "hunter", "hunter-direction"])
def test_each_role_accepts_its_documented_directive(client, role, directive):
    data = activation(client, [ada(9, los=False)], directive=directive, role=role)
    for action in data["actions"]:
        assert action["family"] in FAMILIES and action["action"] in ACTIONS
        assert action["phase"] in (2, 3)
        assert (action["move"] is None) == (action["family"] != "maneuver" or action["action"] == "stand_up")


# --- activation: rules through the endpoint -------------------------------------------------


def test_R_GLITCH_a_rebooted_bot_answers_no_actions_and_marks_no_one(client):
    data = activation(client, [ada(0, contact=True), ada(1, name="Bo")], rebooted=True, shoot={"range": 18})
    assert data["actions"] == [] and data["marked"] == []


def test_R_ZONE_base_contact_is_inside_every_zone(client):
    data = activation(client, [ada(50, los=False, contact=True)], control_zone=0)
    assert data["marked"] == [{"character": "Ada", "stacks": 1, "rule": "R-MARK-ACT"}]
    assert data["actions"][0]["action"] == "melee"


def test_R_ZONE_a_special_rule_zone_replaces_the_default(client):
    assert activation(client, [ada(5, los=False)], control_zone=6)["marked"]
    assert not activation(client, [ada(2, los=False)], control_zone=1)["marked"]


def test_R_ROLE_HUNTER_equal_distances_list_the_ties(client):
    data = activation(client, [ada(2), ada(2, name="Bo"), ada(2.5, name="Cy")])
    assert set(data["ties"]) == {"Ada", "Bo"}
    assert data["actions"][0]["target"] in ("Ada", "Bo")


def test_R_ROLE_HUNTER_a_character_in_zone_without_los_beats_a_visible_one_outside(client):
    data = activation(client, [ada(6, los=True, name="Bo"), ada(3, los=False)])
    assert data["actions"][0]["target"] == "Ada"


def test_R_ROLE_HUNTER_random_move_when_nobody_qualifies(client):
    data = activation(client, [ada(9, los=False)], directive={"direction": 5})
    first = data["actions"][0]
    assert (first["family"], first["action"], first["move"], first["target"]) == ("maneuver", "random_move",
                                                                                  4, None)


@pytest.mark.parametrize("character, shoot", [
    (ada(10, los=False), {"range": 18}),
    (ada(10), {"range": 18, "ammo": False}),
    (ada(10), None),
    (ada(30), {"range": 18}),
    (ada(0, contact=True), {"range": 18}),
], ids=["R-CMB-SHOOT-no-los", "R-CMB-SHOOT-no-ammo", "R-CMB-SHOOT-no-ranged-weapon",
        "R-CMB-SHOOT-out-of-range", "R-CMB-SHOOT-in-base-contact"])
def test_R_CMB_SHOOT_never_without_weapon_ammo_los_range_or_in_contact(client, character, shoot):
    data = activation(client, [character], shoot=shoot, walk=0, run=0)
    actions = [a["action"] for a in data["actions"]]
    # R-ACT-RELOAD: an empty weapon may shoot only after a Reload (an Interact) earlier in the turn
    assert "shoot" not in actions or "reload" in actions[:actions.index("shoot")]


def test_R_ACT_RELOAD_an_empty_weapon_is_reloaded_then_shoots_in_the_same_activation(client):
    data = activation(client, [ada(10)], shoot={"range": 18, "ammo": False}, walk=0, run=0)
    assert [(a["family"], a["action"]) for a in data["actions"]] == [("interact", "reload"), ("attack", "shoot")]


def test_R_CMB_SHOOT_a_sentry_at_its_post_shoots_a_visible_intruder(client):
    data = activation(client, [ada(2.5)], role="sentry", shoot={"range": 18},
                      directive={"subject": "Vault", "subject_distance": 3})
    assert [a["action"] for a in data["actions"]][0] == "shoot"


@pytest.mark.parametrize("character", [ada(2.5, los=False), ada(3.5)],
                         ids=["R-SCAN-in-zone-no-los", "R-SCAN-in-los-outside-zone"])
def test_R_SCAN_never_on_a_character_outside_zone_or_line_of_sight(client, character):
    data = activation(client, [character], role="sentry", directive={"subject": "Vault", "subject_distance": 0})
    assert "scan" not in [a["action"] for a in data["actions"]]


def test_R_ACT_MOVE_a_knocked_down_bot_stands_up_first(client):
    data = activation(client, [ada(2.5)], knocked_down=True)
    first = data["actions"][0]
    assert (first["family"], first["action"], first["phase"]) == ("maneuver", "stand_up", 2)


def test_R_GLITCH_full_throttle_forces_run_movement(client):
    data = activation(client, [ada(20)], full_throttle=True)
    assert data["actions"][0]["action"] == "run" and data["actions"][0]["move"] == 8
    random_move = activation(client, [], full_throttle=True, directive={"direction": 2})
    assert random_move["actions"][0]["move"] == 8


def test_R_ACT_FALLBACK_is_a_flagged_walk_at_half_walk(client):
    data = activation(client, [ada(20)])  # no weapon; still out of its zone after the Run
    assert [a["action"] for a in data["actions"]] == ["run", "walk"]
    second = data["actions"][1]
    assert (second["slot"], second["family"], second["move"], second["fallback"]) == (2, "maneuver", 2, True)
    assert data["actions"][0]["fallback"] is False


def test_R_ACT_TWO_slot_2_uses_another_family_unless_it_is_the_fallback(client):
    for characters in ([ada(2.5)], [ada(20)], [ada(10)], [], [ada(0, contact=True)]):
        data = activation(client, characters, shoot={"range": 18})
        if len(data["actions"]) == 2:
            a, b = data["actions"]
            assert a["family"] != b["family"] or b["fallback"]


# --- activation: 422 naming the field ------------------------------------------------------


@pytest.mark.parametrize("body, path", [
    ({"bot": bot(role="guard"), "characters": []}, ("bot", "role")),
    ({"bot": {"name": "W", "role": "hunter", "run": 8}, "characters": []}, ("bot", "walk")),
    ({"bot": bot(walk=-1), "characters": []}, ("bot", "walk")),
    ({"bot": bot(control_zone=-1), "characters": []}, ("bot", "control_zone")),
    ({"bot": bot(), "characters": [ada(-1)]}, ("characters", "0", "distance")),
    ({"bot": bot(), "characters": [{"name": "Ada"}]}, ("characters", "0", "distance")),
    ({"bot": bot(), "characters": [{**ada(1), "line_of_sight": "maybe"}]}, ("characters", "0", "line_of_sight")),
    ({"bot": bot(), "characters": [], "directive": {"direction": 9}}, ("directive", "direction")),
    ({"bot": bot(role="sentry"), "characters": [], "directive": {"subject": "Vault"}},
     ("directive", "subject_distance")),
    ({"bot": bot(shoot={"range": -3}), "characters": []}, ("bot", "shoot", "range")),
], ids=["role-enum", "walk-missing", "walk-negative", "zone-negative", "distance-negative", "distance-missing",
        "los-not-bool", "direction-1-to-8", "sentry-needs-subject-distance", "range-negative"])
def test_bad_activation_input_is_a_422_naming_the_field(client, body, path):
    assert named(client.post(ACTIVATION, json=body), *path)


# --- melee ---------------------------------------------------------------------------------


def melee(client, npc_hits=2, char_hits=1, npc_crit=0, char_crit=0, **fields) -> dict:
    body = {**API_MELEE, "rolls": {"npc": {"hits": npc_hits, "criticals": npc_crit},
                                   "character": {"hits": char_hits, "criticals": char_crit}}}
    for key, value in fields.items():
        if key in ("npc", "character"):
            body[key] = {**body[key], **value}
        else:
            body[key] = value
    r = client.post(MELEE, json=body)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("npc_points, char_points, attacker", [(60, 45, "npc"), (40, 45, "character"),
                                                                (45, 45, "npc")],
                         ids=["R-CMB-WHO-more-points-attacks", "R-CMB-WHO-character-with-more-points",
                              "R-CMB-WHO-tie-the-npc-attacks"])
def test_R_CMB_WHO_higher_points_attack_and_the_npc_wins_ties(client, npc_points, char_points, attacker):
    data = melee(client, npc={"points": npc_points}, character={"points": char_points})
    assert data["attacker"] == attacker


def test_R_CMB_WHO_a_special_rule_decides_first(client):
    assert melee(client, attacker="character")["attacker"] == "character"


@pytest.mark.parametrize("npc_hits, npc_crit, char_hits, outcome, damage", [
    (3, 0, 1, "damage", 2),
    (3, 1, 1, "damage", 3),
    (3, 3, 1, "damage", 3),
    (2, 2, 2, "tie", 0),
    (1, 1, 2, "defended", 0),
], ids=["R-CMB-DAMAGE-the-difference", "R-CMB-DAMAGE-a-critical-adds-one", "R-CMB-DAMAGE-three-criticals-add-one",
        "R-CMB-TIE-no-damage", "R-CMB-DAMAGE-a-failed-attack-with-criticals-does-nothing"])
def test_R_CMB_DAMAGE_outcome_and_damage(client, npc_hits, npc_crit, char_hits, outcome, damage):
    data = melee(client, npc_hits=npc_hits, npc_crit=npc_crit, char_hits=char_hits)
    assert (data["outcome"], data["damage"]) == (outcome, damage)


def test_R_CMB_DAMAGE_defender_criticals_add_nothing(client):
    data = melee(client, npc_hits=3, char_hits=1, char_crit=1)
    assert data["damage"] == 2


def test_R_CMB_TIE_a_melee_tie_pushes_the_defender_back(client):
    data = melee(client, npc_hits=1, char_hits=1)
    assert (data["outcome"], data["damage"], data["push_back"], data["damage_to"]) == ("tie", 0, "Ada", None)
    data = melee(client, npc_hits=1, char_hits=1, attacker="character")
    assert data["push_back"] == "Warden-2"


@pytest.mark.parametrize("npc_points, char_points, pushed", [(60, 45, "Ada"), (40, 40, "Ada"),
                                                             (30, 20, "Ada")],
                         ids=["R-CMB-TIE-counter-lower-point-character", "R-CMB-TIE-counter-equal-points-character",
                              "R-CMB-TIE-counter-lower-point-character-again"])
def test_R_CMB_TIE_counter_attack_tie_pushes_the_lower_point_model(client, npc_points, char_points, pushed):
    data = melee(client, npc_hits=2, char_hits=2, counter_attack=True,
                 npc={"points": npc_points}, character={"points": char_points})
    assert (data["outcome"], data["damage"], data["push_back"]) == ("tie", 0, pushed)


def test_R_CMB_TIE_counter_attack_tie_pushes_a_lower_point_npc(client):
    data = melee(client, npc_hits=2, char_hits=2, counter_attack=True, attacker="npc",
                 npc={"points": 30}, character={"points": 45})
    assert data["push_back"] == "Warden-2"


def test_R_CMB_TIE_a_counter_attack_that_wins_hurts_the_npc(client):
    data = melee(client, npc_hits=1, char_hits=3, char_crit=1, counter_attack=True)
    assert (data["outcome"], data["damage"], data["damage_to"]) == ("damage", 3, "Warden-2")


@pytest.mark.parametrize("npc_hits, char_hits", [(3, 0), (1, 1), (0, 3)])
def test_R_CMB_DANGER_every_melee_is_a_danger_trigger(client, npc_hits, char_hits):
    assert melee(client, npc_hits=npc_hits, char_hits=char_hits)["danger_trigger"] is True


def test_R_MARKED_TARGET_adds_one_per_stack_only_with_the_special_rule(client):
    plain = melee(client, npc_hits=1, char_hits=1, character={"marked": 2})
    assert (plain["attack_total"], plain["outcome"]) == (1, "tie")
    marked = melee(client, npc_hits=1, char_hits=1, character={"marked": 2},
                   npc={"special_rules": ["Marked Target"]})
    assert (marked["attack_total"], marked["outcome"], marked["damage"]) == (3, "damage", 2)


def test_melee_without_rolls_rolls_the_given_pools(client):
    body = {**API_MELEE, "rolls": None, "npc": {**API_MELEE["npc"], "pool": {"red": 3}},
            "character": {**API_MELEE["character"], "pool": {"white": 2}}}
    r = client.post(MELEE, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] in ("damage", "tie", "defended")
    assert client.post(MELEE, json=body).json() == r.json()  # stateless: same request, same answer


@pytest.mark.parametrize("change, path", [
    ({"attacker": "both"}, ("attacker",)),
    ({"rolls": {"npc": {"hits": 1, "criticals": 2}, "character": {"hits": 0}}}, ("npc",)),
    ({"rolls": {"npc": {"hits": -1}, "character": {"hits": 0}}}, ("npc", "hits")),
    ({"character": {"name": "Ada", "points": -5}}, ("character", "points")),
    ({"npc": {"points": 60}}, ("npc", "name")),
], ids=["attacker-enum", "criticals-over-hits", "hits-negative", "points-negative", "name-missing"])
def test_bad_melee_input_is_a_422_naming_the_field(client, change, path):
    r = client.post(MELEE, json={**API_MELEE, **change})
    assert named(r, *path) or any(path[0] in loc for loc in locs(r))


# --- shoot ---------------------------------------------------------------------------------


def shoot(client, **fields) -> dict:
    r = client.post(SHOOT, json={**API_SHOOT, **fields})
    assert r.status_code == 200, r.text
    return r.json()


def test_R_CMB_TARGET_success_hits_the_intended_target(client):
    data = shoot(client, black_die="success")
    assert data["actual_target"] == "Ada"


def test_R_CMB_TARGET_blank_goes_to_the_highest_health_including_the_intended_target(client):
    data = shoot(client, target={"name": "Ada", "health": 6}, melee_with=[{"name": "Bolt-1", "health": 5}])
    assert data["actual_target"] == "Ada" and data["ties"] == []


def test_R_CMB_TARGET_ties_are_listed_for_the_player(client):
    data = shoot(client, target={"name": "Ada", "health": 5},
                 melee_with=[{"name": "Bolt-1", "health": 5}, {"name": "Cog", "health": 2}])
    assert set(data["ties"]) == {"Ada", "Bolt-1"} and data["actual_target"] in data["ties"]


def test_R_CMB_TARGET_not_in_melee_needs_no_black_die(client):
    data = shoot(client, melee_with=[], black_die=None)
    assert data["actual_target"] == "Ada"


@pytest.mark.parametrize("attack, defense, outcome, damage, ammo", [
    ({"hits": 1, "criticals": 1}, {"hits": 2}, "defended", 0, True),
    ({"hits": 2, "criticals": 0}, {"hits": 1}, "damage", 1, False),
    ({"hits": 2, "criticals": 2}, {"hits": 2}, "defended", 0, True),
    ({"hits": 4, "criticals": 2}, {"hits": 1, "criticals": 1}, "damage", 4, True),
], ids=["R-CMB-AMMO-check-even-when-the-attack-failed", "R-CMB-AMMO-no-critical-no-check",
        "R-CMB-AMMO-a-shoot-tie-does-no-damage", "R-CMB-DAMAGE-criticals-add-one-in-total"])
def test_R_CMB_AMMO_out_of_ammo_check_after_any_attacking_critical(client, attack, defense, outcome, damage, ammo):
    data = shoot(client, melee_with=[], rolls={"attack": attack, "defense": defense})
    assert (data["outcome"], data["damage"], data["out_of_ammo_check"]) == (outcome, damage, ammo)


def test_R_MARKED_TARGET_counts_for_a_shooting_npc_with_the_rule(client):
    rolls = {"attack": {"hits": 1}, "defense": {"hits": 1}}
    plain = shoot(client, melee_with=[], rolls=rolls)
    assert plain["outcome"] == "defended"
    rule = shoot(client, melee_with=[], rolls=rolls,
                 shooter={"name": "Warden-2", "side": "npc", "special_rules": ["Marked Target"]})
    assert (rule["attack_total"], rule["outcome"], rule["damage"]) == (2, "damage", 1)


@pytest.mark.parametrize("change, path", [
    ({"black_die": "maybe"}, ("black_die",)),
    ({"shooter": {"name": "W", "side": "robot"}}, ("shooter", "side")),
    ({"target": {"name": "Ada", "health": -1}}, ("target", "health")),
    ({"melee_with": [{"name": "Bolt-1", "health": "lots"}]}, ("melee_with", "0", "health")),
], ids=["black-die-enum", "side-enum", "health-negative", "melee-with-health"])
def test_bad_shoot_input_is_a_422_naming_the_field(client, change, path):
    assert named(client.post(SHOOT, json={**API_SHOOT, **change}), *path)


# --- noise and alarm -----------------------------------------------------------------------


@pytest.mark.parametrize("kind, zones, marked, danger", [
    ("noise", 0, 0, 0), ("noise", 1, 1, 1), ("noise", 2, 1, 1), ("noise", 5, 1, 1),
    ("alarm", 0, 0, 1), ("alarm", 1, 1, 1), ("alarm", 2, 2, 1), ("alarm", 5, 5, 1),
], ids=["R-NOISE-no-zone", "R-NOISE-one-zone", "R-NOISE-two-zones-one-marked-total", "R-NOISE-five-zones",
        "R-ALARM-no-zone-still-danger", "R-ALARM-one-zone", "R-ALARM-two-zones-two-marked",
        "R-ALARM-five-zones"])
def test_R_NOISE_R_ALARM_marked_and_danger(client, kind, zones, marked, danger):
    data = client.post(NOISE, json={"kind": kind, "zones_containing": zones}).json()
    assert (data["marked"], data["danger"], data["rule"]) == (marked, danger, f"R-{kind.upper()}")


@pytest.mark.parametrize("body, path", [
    ({"kind": "shout", "zones_containing": 1}, ("kind",)),
    ({"kind": "noise", "zones_containing": -1}, ("zones_containing",)),
    ({"kind": "noise"}, ("zones_containing",)),
    ({"zones_containing": 1}, ("kind",)),
])
def test_bad_noise_input_is_a_422_naming_the_field(client, body, path):
    assert named(client.post(NOISE, json=body), *path)


# --- odds ----------------------------------------------------------------------------------


@pytest.mark.parametrize("attack, defense, melee", [
    ({"red": 3}, {"white": 2}, True), ({"red": 1}, {}, True), ({"white": 5, "red": 5}, {"red": 6}, False),
    ({}, {"white": 2}, True),
])
def test_odds_sum_to_one_and_are_consistent(client, attack, defense, melee):
    body = {"attack": {"pool": attack}, "defense": {"pool": defense}, "melee": melee}
    data = client.post(ODDS, json=body).json()
    assert math.isclose(data["p_damage"] + data["p_tie"] + data["p_defended"], 1.0, abs_tol=1e-9)
    at_least = [data["damage_at_least"][k] for k in sorted(data["damage_at_least"], key=int)]
    assert all(a >= b - 1e-12 for a, b in zip(at_least, at_least[1:], strict=False))
    assert math.isclose(data["expected_damage"], sum(at_least), abs_tol=1e-9)


def test_odds_with_no_attack_dice_never_damage(client):
    data = client.post(ODDS, json={"attack": {"pool": {}}, "defense": {"pool": {"white": 1}}}).json()
    assert data["p_damage"] == 0 and data["expected_damage"] == 0


@pytest.mark.parametrize("body, path", [
    ({"attack": {"pool": {"purple": 2}}}, ("attack",)),
    ({"attack": {"pool": {"red": -1}}}, ("attack", "pool", "red")),
    ({"defense": {"pool": {"red": 1}}}, ("attack",)),
], ids=["unknown-colour", "negative-count", "attack-missing"])
def test_bad_odds_input_is_a_422_naming_the_field(client, body, path):
    r = client.post(ODDS, json=body)
    assert named(r, *path) or any(path[0] in loc for loc in locs(r))


@pytest.mark.parametrize("url", [ACTIVATION, MELEE, SHOOT, NOISE, ODDS])
@pytest.mark.parametrize("body", [[], "x", 3, None, {"bot": []}, {"kind": None}])
def test_no_body_is_a_500(client, url, body):
    r = client.post(url, json=body)
    assert r.status_code == 422 and isinstance(r.json()["detail"], list)
