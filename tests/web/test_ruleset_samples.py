"""A sample game for every ruleset that has one (issues 19 and 20: "a sample zone game / sample
d20 game from the home page"): the home page offers what the ruleset says (`Ruleset.sample`), and
the game is built by the ruleset's own roster commands, so each model is a step Undo takes back."""

from __future__ import annotations

import pytest

from app import rulesets
from app.rulesets.d20.starters import STARTERS
from app.rulesets.zone.sheets import NPC_SHEETS
from tests.support.html import parse


def start_sample_from_home(client, ruleset_id: str) -> str:
    """Tap that ruleset's button on the home page, as a player would: its form, its name/value."""
    home = parse(client.get("/").text)
    button = home.one("button", name="ruleset", value=ruleset_id)
    form = next(f for f in home.all("form") if button in list(f.walk()))
    r = client.post(form.attrs["action"], data={"ruleset": ruleset_id}, follow_redirects=False)
    assert r.status_code == 303
    assert client.get(r.headers["location"]).status_code == 200  # opened on the game page
    return r.headers["location"].rsplit("/", 1)[1]


def test_the_home_page_offers_a_sample_game_for_each_ruleset_with_one(client):
    home = parse(client.get("/").text)
    offered = [b.attrs["value"] for b in home.all("button", name="ruleset")]
    assert offered == [r.id for r in rulesets.RULESETS.values() if r.sample]
    assert {"potham-2038", "zone", "d20"} <= set(offered)


def test_the_sample_zone_game_has_two_armed_characters_and_one_npc_of_each_role_on_its_sheet(client):
    token = start_sample_from_home(client, "zone")
    state = client.get(f"/api/games/{token}").json()
    assert state["ruleset"] == "zone"
    characters = {c["name"]: c for c in state["characters"]}
    assert list(characters) == ["Ash", "Juno"]
    assert [w["name"] for w in characters["Ash"]["weapons"]] == ["Machete", "Revolver"]
    assert characters["Juno"]["weapons"][0] == {**characters["Juno"]["weapons"][0], "ranged": True, "bullets": 5}
    npcs = {n["role"]: n for n in state["npcs"]}
    assert sorted(npcs) == ["hunter", "patrol", "sentry", "worker"]
    assert npcs["sentry"]["subject"] == "Gate" and npcs["worker"]["object"] == "Scrap pile"
    assert npcs["patrol"]["waypoints"] == ["Ruins", "Well", "Bridge"]
    # each NPC stands on a starting sheet of the NPC form (the Guard's rifle, the Raider's SMG)
    assert npcs["sentry"]["gun"]["name"] == NPC_SHEETS["rifle"][1]["gun"]["name"]
    assert npcs["sentry"]["gun"]["bullets"] == NPC_SHEETS["rifle"][1]["gun"]["bullets"]
    assert npcs["patrol"]["gun"]["full_auto"] is True
    assert npcs["hunter"]["melee"]["name"] == "Scrap spear" and npcs["hunter"]["fight"] == 4


def test_the_sample_d20_game_has_two_characters_and_three_npcs_on_the_ready_stat_blocks(client):
    token = start_sample_from_home(client, "d20")
    state = client.get(f"/api/games/{token}").json()
    assert state["ruleset"] == "d20"
    weapons = {m["name"]: [w["name"] for w in m["weapons"]] for m in state["characters"] + state["npcs"]}
    assert weapons == {"Kara": [w["name"] for w in STARTERS["fighter"][1]["weapons"]],
                       "Osei": [w["name"] for w in STARTERS["medic"][1]["weapons"]],
                       "Brute": ["Machete"], "Gunner": ["Pistol", "Knife"], "Techie": ["Arc Projector", "Knife"]}
    assert [(n["role"], n["subject"], n["object"]) for n in state["npcs"]] == [
        ("hunter", None, None), ("sentry", "Gate", None), ("worker", None, "Generator")]
    assert [(m["hp"], m["defense"]) for m in state["characters"]] == [(16, 15), (12, 13)]


@pytest.mark.parametrize("ruleset_id", ["potham-2038", "zone", "d20"])
def test_every_sample_model_is_its_own_step_and_undo_takes_the_last_one_back(client, ruleset_id):
    token = start_sample_from_home(client, ruleset_id)
    state = client.get(f"/api/games/{token}").json()
    npcs = "bots" if ruleset_id == "potham-2038" else "npcs"
    assert state["seq"] == len(rulesets.get(ruleset_id).sample)  # step 0 creates the game
    before = [n["name"] for n in state[npcs]]
    assert client.post(f"/api/games/{token}/undo", json={}).status_code == 200
    assert [n["name"] for n in client.get(f"/api/games/{token}").json()[npcs]] == before[:-1]


@pytest.mark.parametrize("posted", [{"ruleset": "chess"}, {"ruleset": "x" * 41}])
def test_a_sample_for_a_ruleset_the_app_lacks_is_a_422_naming_ruleset(client, posted):
    r = client.post("/games/sample", data=posted, follow_redirects=False)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "ruleset"]
