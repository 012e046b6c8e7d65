"""The zone game page (issue 12b): roster, a round with NPC decisions, attacks each way, undo, and
the watch page, through the page's own forms (htmx posts) and the JSON API."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.support.html import parse

HX = {"HX-Request": "true"}


def zone_game(client) -> dict:
    return client.post("/api/games", json={"name": "Ruins", "ruleset": "zone", "seed": 7}).json()


def post(client, game, panel, **fields):
    seq = client.get(f"/api/games/{game['edit_token']}").json()["seq"]
    return client.post(f"/g/{game['edit_token']}/zone/{panel}", data={"seen": str(seq), **fields}, headers=HX)


def state(client, game) -> dict:
    return client.get(f"/api/games/{game['view_token']}").json()


def test_a_zone_game_is_played_from_its_page_roster_round_attacks_and_undo(client):
    game = zone_game(client)
    page = parse(client.get(game["edit_url"]).text)
    assert page.by_id("game-ruleset").attrs["data-ruleset"] == "zone" and page.has_id("zone-add-npc")
    assert post(client, game, "roster", type="add_character", **{"character.name": "Ada <b>"}).status_code == 200
    r = post(client, game, "roster", type="add_npc", **{
        "npc.name": "Gnasher", "npc.role": "hunter", "npc.fight": "4", "npc.melee.name": "Scrap spear",
        "npc.melee.damage": "2", "npc.melee.reach": "near"})
    assert r.status_code == 200 and "Gnasher" in r.text and "Ada <b>" not in r.text
    ada, gnasher = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    r = post(client, game, "turn", type="activate_npc", npc_id=gnasher, **{
        "facts.seen.0.character_id": ada, "facts.seen.0.band": "short", "facts.seen.0.line_of_sight": "true"})
    card = parse(r.text).by_id(f"zone-card-{gnasher}")
    assert [li.attrs["data-name"] for li in card.all("li", cls="card-action")] == ["move", "fight"]
    assert "Z-ROLE-HUNTER" in card.text() and parse(r.text).has_id(f"zone-odds-{gnasher}")
    r = post(client, game, "turn", type="npc_attack", npc_id=gnasher)
    assert r.status_code == 200 and "Gnasher attacks Ada" in r.text
    r = post(client, game, "turn", type="character_attack", character_id=ada, npc_id=gnasher, kind="fight",
             pool="6", weapon_damage="2", stunt="damage")
    assert r.status_code == 200 and "Ada &lt;b&gt; attacks Gnasher" in r.text, parse(r.text).by_id("turn-message").text()
    before = state(client, game)["seq"]
    r = client.post(f"/g/{game['edit_token']}/undo", data={"seen": str(before)}, headers=HX)
    assert r.status_code == 200 and state(client, game)["seq"] == before + 1
    assert "taken back" in r.text


def test_a_missing_fact_or_a_bad_field_answers_in_place_never_500(client):
    game = zone_game(client)
    post(client, game, "roster", type="add_npc", **{"npc.name": "Warden", "npc.role": "sentry", "npc.subject": "Gate"})
    warden = state(client, game)["npcs"][0]["id"]
    r = post(client, game, "turn", type="activate_npc", npc_id=warden)
    assert r.status_code == 400 and "Gate" in r.text
    r = post(client, game, "roster", type="add_character", form="add-character", **{"character.attributes.strength": "99"})
    assert r.status_code == 422 and parse(r.text).has_id("roster-message")


def test_the_watch_page_shows_the_zone_game_without_controls(client):
    game = zone_game(client)
    post(client, game, "roster", type="add_npc", **{"npc.name": "Rover", "npc.role": "patrol"})
    page = parse(client.get(game["view_url"]).text)
    assert "Rover" in page.by_id("panel-roster").text() and not page.all("form", method="post")
    panels = client.get(f"{game['view_url']}/panels", params={"names": "status,turn,roster,log"})
    assert panels.status_code == 200 and 'id="panel-status"' in panels.text and "Round 1" in panels.text


def test_zone_odds_api_example_values(client):
    """docs/api.md § Rulesets: {"dice": 5, "push": false} → 0.598; with push 0.804."""
    plain = client.post("/api/rulesets/zone/odds", json={"dice": 5, "push": False}).json()
    pushed = client.post("/api/rulesets/zone/odds", json={"dice": 5, "push": True}).json()
    assert round(plain["p_success"], 3) == 0.598 and round(pushed["p_success"], 3) == 0.804
    assert set(plain["successes_at_least"]) == {"1", "2", "3", "4", "5"}
    bad = client.post("/api/rulesets/zone/odds", json={"dice": -1})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "dice"]


def test_zone_activation_api_answers_actions_with_reasons_rule_ids_and_odds(client):
    body = {"npc": {"name": "Sharp", "role": "hunter", "shoot": 3,
                    "gun": {"name": "Rifle", "damage": 2, "reach": "long", "bullets": 4}},
            "characters": [{"id": "a", "name": "Ada"}, {"id": "b", "name": "Bo"}],
            "facts": {"seen": [{"character_id": "a", "band": "long", "line_of_sight": True},
                               {"character_id": "b", "band": "distant", "line_of_sight": True}]}}
    r = client.post("/api/rulesets/zone/activation", json=body)
    assert r.status_code == 200, r.text
    actions = r.json()["actions"]
    assert [(a["kind"], a["name"], a["target"]) for a in actions] == [("maneuver", "aim", "Ada"), ("action", "shoot", "Ada")]
    assert all(a["reason"] and a["rule"].startswith("Z-") for a in actions)
    assert actions[1]["odds"]["dice"] == 4  # 3 Shoot + 1 for aiming (Z-AIM)
    unknown = client.post("/api/rulesets/zone/activation", json={**body, "characters": []})
    assert unknown.status_code == 422


def send(client, game, items: list[tuple[str, str]]):
    """A form with repeated fields, as a browser sends it."""
    headers = {**HX, "Content-Type": "application/x-www-form-urlencoded"}
    return client.post(f"/g/{game['edit_token']}/zone/turn", content=urlencode(items), headers=headers)


def test_the_house_rules_form_makes_a_5_a_success_and_a_stale_form_is_refused(client):
    """Z-DICE: the success faces are a house default, editable per game on the page."""
    game = zone_game(client)
    form = parse(client.get(game["edit_url"]).text).by_id("zone-house").one("form")
    expect = form.field("expect").attrs["value"]
    fields = [("type", "set_house_rules"), ("expect", expect), ("house.success_faces[]", "5"),
              ("house.success_faces[]", "6"), ("house.npc_push", "never"), ("house.npc_stunt", "fatigue"),
              ("house.zone_band", "short"), ("house.aim_bonus", "2"), ("house.push_fatigue", "false")]
    r = send(client, game, [("seen", "0"), *fields])
    assert r.status_code == 200
    house = state(client, game)["house"]
    assert house["success_faces"] == [5, 6] and house["npc_push"] == "never" and house["zone_band"] == "short"
    client.post("/api/games/" + game["edit_token"] + "/commands", json={"type": "add_character", "character": {"name": "X"}})
    stale = send(client, game, [("seen", "1"), *fields])
    assert stale.status_code == 409  # it was made from the old house rules


def test_cold_and_recovery_from_the_page(client):
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    ada = state(client, game)["characters"][0]["id"]
    assert post(client, game, "turn", type="endure_cold", character_id=ada, failed="true").status_code == 200
    assert state(client, game)["characters"][0]["hypothermic"] is True
    refused = post(client, game, "turn", type="recover", character_id=ada, track="damage", points="1")
    assert refused.status_code == 400 and "hypothermic" in refused.text


def test_entered_dice_for_an_npc_attack_are_typed_as_faces_and_a_wrong_count_is_refused(client):
    """Z-DICE: the player may roll the NPC's dice; a push the NPC makes asks for the re-rolled dice."""
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute", "npc.fight": "3"})
    ada, brute = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="activate_npc", npc_id=brute,
         **{"facts.seen.0.character_id": ada, "facts.seen.0.band": "arms_length"})
    assert post(client, game, "turn", type="npc_attack", npc_id=brute, _faces="6 6").status_code == 400
    asks = post(client, game, "turn", type="npc_attack", npc_id=brute, _faces="2 3 1")
    assert asks.status_code == 400 and "2 dice" in asks.text  # it pushes: the 2 and the 3
    done = post(client, game, "turn", type="npc_attack", npc_id=brute, _faces="6, 6 2")
    assert done.status_code == 200 and state(client, game)["characters"][0]["damage"] == 2


def test_a_played_zone_game_exports_and_imports_step_for_step(client):
    """Exports carry the ruleset; the import validates every zone command and state as recorded."""
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute", "npc.fight": "3"})
    ada, brute = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="activate_npc", npc_id=brute,
         **{"facts.seen.0.character_id": ada, "facts.seen.0.band": "near"})
    post(client, game, "turn", type="npc_attack", npc_id=brute)
    client.post(f"/api/games/{game['edit_token']}/undo", json={})
    exported = client.get(f"/api/games/{game['edit_token']}/export").json()
    assert exported["ruleset"] == "zone" and [s["kind"] for s in exported["steps"]][-2:] == ["npc_attack", "undo"]
    made = client.post("/api/games/import", json=exported)
    assert made.status_code == 201, made.text
    again = client.get(f"/api/games/{made.json()['edit_token']}/export").json()
    stored = ("state", "delta")  # a step carries its state or its delta (issue 11 § 3)
    assert [[s.get(k) for k in stored] for s in again["steps"]] == [[s.get(k) for k in stored] for s in exported["steps"]]
    broken = {**exported, "steps": [*exported["steps"][:-1], {**exported["steps"][-1], "state": {"round": "x"}}]}
    assert client.post("/api/games/import", json=broken).status_code == 422
