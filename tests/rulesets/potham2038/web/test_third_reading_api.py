"""The JSON side of the third reading of Phase 3: the stateless rules API and the game commands."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.web.rules_examples import MELEE_EXAMPLES, SHOOT_EXAMPLES

MELEE = MELEE_EXAMPLES["rolled"]["value"]
SHOOT = SHOOT_EXAMPLES["into_melee"]["value"]


def white_dice(answer: dict, side: str) -> int:
    return sum(1 for f in answer["rolls"][side]["faces"] if f["colour"] == "white")


@pytest.mark.parametrize("colour, whites", [(None, 2), ("white", 2), ("red", 0)],
                         ids=["default-white", "white", "red"])
def test_R_DISTRACTED_the_stateless_melee_takes_the_distracted_colour(client, colour, whites):
    """Seed 000 (the 2038 Quick Reference): "Each incoming attack adds one White die per stack"."""
    body = {**MELEE, "character": {**MELEE["character"], "distracted": 2}, "seed": 4}
    body |= {"distracted_colour": colour} if colour else {}
    answer = client.post("/api/rules/melee", json=body).json()
    assert answer["attacker"] == "npc" and white_dice(answer, "npc") == whites


def test_R_DISTRACTED_the_stateless_shoot_takes_the_distracted_colour(client):
    body = {**SHOOT, "target": {**SHOOT["target"], "distracted": 3}, "melee_with": [], "black_die": None,
            "rolls": None, "shooter": {**SHOOT["shooter"], "pool": {"red": 1}},
            "distracted_colour": "red", "seed": 1}
    body["target"]["pool"] = {"white": 1}
    answer = client.post("/api/rules/shoot", json=body).json()
    assert len(answer["rolls"]["attack"]["faces"]) == 4
    assert all(f["colour"] == "red" for f in answer["rolls"]["attack"]["faces"])


@pytest.mark.parametrize("path, body", [("melee", MELEE), ("shoot", SHOOT)])
def test_an_unknown_distracted_colour_is_a_422_naming_the_field(client, path, body):
    response = client.post(f"/api/rules/{path}", json={**body, "distracted_colour": "mauve"})
    assert response.status_code == 422
    assert ["body", "distracted_colour"] in [e["loc"] for e in response.json()["detail"]]


def test_R_CMB_WHO_the_stateless_melee_never_lets_a_rebooted_bot_attack(client):
    """R-CMB-WHO: a rebooted bot never attacks and rolls no Defense: the Character attacks."""
    body = {**MELEE, "npc": {**MELEE["npc"], "rebooted": True}, "seed": 3}
    answer = client.post("/api/rules/melee", json=body).json()
    assert answer["attacker"] == "character" and answer["defense_total"] == 0
    assert "rebooted" in answer["reason"] and "Special Rule" not in answer["reason"]
    refused = client.post("/api/rules/melee", json={**body, "attacker": "npc"})
    assert refused.status_code == 422 and ["body", "attacker"] in [e["loc"] for e in refused.json()["detail"]]


@pytest.mark.parametrize("role, leftover", [("hunter", {"subject": "Vault"}), ("sentry", {"object": "Console"}),
                                            ("worker", {"waypoints": ["A"]})])
def test_R_ROSTER_ASSIGN_a_role_assignment_left_over_from_another_role_is_refused_as_json(client, role,
                                                                                         leftover):
    token = client.post("/api/games", json={"name": "Night"}).json()["edit_token"]
    own = {"sentry": {"subject": "Vault"}, "worker": {"object": "Console"}}.get(role, {})
    bot = {"name": "W", "role": role, **own, **leftover}
    response = client.post(f"/api/games/{token}/commands", json={"type": "add_bot", "bot": bot})
    assert response.status_code == 422
    field = next(iter(leftover))
    assert ["body", "bot", field] in [e["loc"] for e in response.json()["detail"]]
    assert client.get(f"/api/games/{token}").json()["bots"] == []


def test_R_CMB_GANGUP_the_json_api_answers_phase_3s_agenda_in_resolution_order(client):
    """Engagements first, decided or not, with who attacks; then the shots, blocked until they settle."""
    token = client.post("/api/games", json={"name": "Night"}).json()["edit_token"]
    send = f"/api/games/{token}/commands"

    def command(body):
        response = client.post(send, json=body)
        assert response.status_code == 200, response.text
        return response.json()

    ids = {}
    for name, points in (("Ada", 45), ("Ben", 30)):
        state = command({"type": "add_character", "character": {"name": name, "points": points}})["state"]
        ids[name] = state["characters"][-1]["id"]
    state = command({"type": "add_bot", "bot": {"name": "Warden", "role": "hunter", "points": 60,
                                                "melee": {"red": 2}}})["state"]
    hunter = state["bots"][-1]["id"]
    command({"type": "next_phase"})
    contact = [{"character_id": i, "distance": 0, "base_contact": True} for i in ids.values()]
    command({"type": "activate_bot", "bot_id": hunter, "characters": contact, "tie_choice": ids["Ben"]})
    command({"type": "next_phase"})
    agenda = client.get(f"/api/games/{token}/phase3").json()["items"]
    engagements = [(i["character_id"], i["decided"], i["attacker"], i["choices"]) for i in agenda
                   if i["kind"] == "engagement"]
    assert engagements == [(ids["Ben"], True, "npc", ["npc", "character"]),
                           (ids["Ada"], False, "character", ["character"])]
