"""POST /api/rules/activation after the second reading: the added fields (docs/api.md: add freely,
never rename or drop) — conditional shots (R-ACT-FACTS), empty slots with reasons, a Patrol on
its waypoint asking for the next one (R-ROLE-PATROL)."""

from __future__ import annotations

URL = "/api/rules/activation"


def patrol(directive: dict, characters=()) -> dict:
    return {"bot": {"name": "Beat-4", "role": "patrol", "walk": 4, "run": 8, "shoot": {"range": 12}},
            "characters": list(characters), "directive": directive}


def test_R_ACT_FACTS_a_shot_after_a_move_elsewhere_is_conditional_in_the_json(client):
    data = client.post(URL, json=patrol({"waypoint": "B", "waypoint_distance": 20},
                                        [{"name": "Bo", "distance": 6, "line_of_sight": True}])).json()
    run, shot = data["actions"]
    assert (run["action"], run["conditional"], run["condition"]) == ("run", False, None)
    assert (shot["action"], shot["conditional"], shot["rule"]) == ("shoot", True, "R-ACT-FACTS")
    assert shot["condition"] == "confirm line of sight and range in Phase 3"
    assert data["empty_slots"] == [] and data["needs"] == []


def test_R_ROLE_PATROL_on_its_waypoint_the_answer_names_the_next_and_needs_its_distance(client):
    data = client.post(URL, json=patrol({"waypoint": "B", "waypoint_distance": 0, "next_waypoint": "C"})).json()
    assert data["actions"] == [] and data["arrived"] is True
    assert (data["reached"], data["next_waypoint"], data["needs"]) == (["B"], "C", ["next_waypoint_distance"])
    assert [e["slot"] for e in data["empty_slots"]] == [1, 2]
    again = client.post(URL, json=patrol({"waypoint": "B", "waypoint_distance": 0, "next_waypoint": "C",
                                          "next_waypoint_distance": 5})).json()
    assert [(a["action"], a["target"], a["move"]) for a in again["actions"]] == [("run", "C", 5)]


def test_every_empty_slot_has_its_reason_in_the_json(client):
    sentry = {"bot": {"name": "Gate-1", "role": "sentry", "walk": 4, "run": 8},
              "characters": [], "directive": {"subject": "Vault", "subject_distance": 1}}
    data = client.post(URL, json=sentry).json()
    assert data["actions"] == [] and [e["slot"] for e in data["empty_slots"]] == [1, 2]
    assert all(e["reason"] and e["rule"].startswith("R-") for e in data["empty_slots"])


def test_a_next_waypoint_distance_that_is_not_a_distance_is_a_422_naming_it(client):
    r = client.post(URL, json=patrol({"waypoint": "B", "waypoint_distance": 0, "next_waypoint_distance": -1}))
    assert r.status_code == 422
    assert ["body", "directive", "next_waypoint_distance"] in [e["loc"] for e in r.json()["detail"]]
