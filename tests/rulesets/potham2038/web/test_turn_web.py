"""A short turn played through the JSON games API: the turn engine behind /commands."""

from __future__ import annotations


def start(client):
    game = client.post("/api/games", json={"name": "Night shift", "seed": 7}).json()
    token = game["edit_token"]

    def send(command, **params):
        return client.post(f"/api/games/{token}/commands", json=command, params=params)

    send({"type": "add_character", "character": {"name": "Ada", "points": 45, "health": 6, "max_health": 6,
                                                 "melee": {"red": 2}, "defense": {"white": 2}}})
    send({"type": "add_bot", "bot": {"name": "Warden", "role": "hunter", "points": 60,
                                     "melee": {"red": 3}, "defense": {"white": 2}}})
    send({"type": "add_bot", "bot": {"name": "Guard", "role": "sentry", "subject": "Vault"}})
    state = client.get(f"/api/games/{token}").json()
    return token, send, state["characters"][0]["id"], [b["id"] for b in state["bots"]]


def test_a_short_turn_through_the_commands_endpoint(client):
    token, send, ada, (warden, guard) = start(client)
    assert send({"type": "character_move", "character_id": ada, "entries": [warden]}).status_code == 200
    assert send({"type": "noise", "character_id": ada, "kind": "noise", "bot_ids": [warden]}).status_code == 200
    send({"type": "next_phase"})
    send({"type": "record_event", "title": "Sirens", "danger": 1})
    r = send({"type": "activate_bot", "bot_id": warden,
              "characters": [{"character_id": ada, "distance": 0, "line_of_sight": True, "base_contact": True}]})
    assert r.status_code == 200, r.text
    decision = r.json()["state"]["decisions"][0]
    assert [a["action"] for a in decision["actions"]] == ["melee", "scan"]
    r = send({"type": "activate_bot", "bot_id": guard,
              "characters": [{"character_id": ada, "distance": 9}], "subject_distance": 1})
    assert r.status_code == 200, r.text
    send({"type": "next_phase"})
    r = send({"type": "resolve_melee", "bot_id": warden, "character_id": ada,
              "rolls": {"npc": {"hits": 3, "criticals": 0}, "character": {"hits": 1, "criticals": 0}}})
    assert r.status_code == 200, r.text
    assert any(e["rule"] == "R-CMB-DANGER" for e in r.json()["entries"])
    send({"type": "next_phase"})
    assert send({"type": "end_turn"}).status_code == 400  # the Sentry's position check first
    send({"type": "position_check", "bot_id": guard, "passed": False, "glitch_roll": 1})
    r = send({"type": "end_turn"})
    assert r.status_code == 200, r.text
    data = client.get(f"/api/games/{token}").json()
    assert (data["turn"], data["phase"], data["danger"]) == (2, 1, 3)  # Noise, Event, melee
    assert data["characters"][0]["marked"] == 0 and data["characters"][0]["health"] == 4
    assert data["bots"][1]["glitches"] == [{"result": "reboot", "turns_left": 1, "start_turn": 2}]


def test_a_stale_second_device_activating_the_same_bot_gets_409(client):
    token, send, ada, (warden, _) = start(client)
    seen = send({"type": "next_phase"}).json()["seq"]
    activate = {"type": "activate_bot", "bot_id": warden, "characters": [{"character_id": ada, "distance": 5}]}
    assert send(activate, seen=seen).status_code == 200
    r = send(activate, seen=seen)
    assert r.status_code == 409 and "already activated" in r.json()["detail"]


def test_a_play_command_in_the_wrong_phase_is_400_with_the_reason(client):
    _, send, _, (warden, _) = start(client)
    r = send({"type": "activate_bot", "bot_id": warden})
    assert r.status_code == 400 and "Phase 2" in r.json()["detail"]


def test_a_bad_play_body_is_422_naming_the_field(client):
    _, send, ada, _ = start(client)
    r = send({"type": "noise", "character_id": ada, "kind": "shout"})
    assert r.status_code == 422 and ["body", "kind"] in [e["loc"] for e in r.json()["detail"]]
    r = send({"type": "character_shoot", "character_id": ada, "target_id": "x",
              "attack": {"hits": 1, "criticals": 2}})
    assert r.status_code == 422
