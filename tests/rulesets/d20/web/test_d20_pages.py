"""The d20 game page (issue 12): roster, a round with NPC decisions, attacks each way, undo, the
watch page, through the page's own forms (htmx posts) and the JSON API."""

from __future__ import annotations

import pytest

from tests.support.html import parse

HX = {"HX-Request": "true"}
RAIDER = {"npc.name": "Raider", "npc.role": "hunter", "npc.defense": "13", "npc.hp": "9",
          "npc.attributes.vigor": "2", "npc.skills.blade_waltz": "2", "npc.weapons.0.name": "Machete",
          "npc.weapons.0.kind": "melee", "npc.weapons.0.damage": "1d8"}
ADA = {"character.name": "Ada <b>", "character.defense": "14", "character.hp": "8", "character.attributes.agility": "3",
       "character.skills.arrow_time": "2", "character.weapons.0.name": "Bow", "character.weapons.0.kind": "ranged",
       "character.weapons.0.damage": "1d8", "character.weapons.0.short": "10", "character.weapons.0.long": "30"}


def d20_game(client) -> dict:
    return client.post("/api/games", json={"name": "Arena", "ruleset": "d20", "seed": 7}).json()


def post(client, game, panel, **fields):
    seq = client.get(f"/api/games/{game['edit_token']}").json()["seq"]
    return client.post(f"/g/{game['edit_token']}/d20/{panel}", data={"seen": str(seq), **fields}, headers=HX)


def state(client, game) -> dict:
    return client.get(f"/api/games/{game['view_token']}").json()


def test_D20_TURN_a_d20_game_is_played_from_its_page_roster_round_attacks_each_way_and_undo(client):
    game = d20_game(client)
    page = parse(client.get(game["edit_url"]).text)
    assert page.by_id("game-ruleset").attrs["data-ruleset"] == "d20" and page.has_id("d20-add-npc")
    assert post(client, game, "roster", type="add_character", form="add-character", **ADA).status_code == 200
    r = post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    assert r.status_code == 200 and "Raider" in r.text and "Ada <b>" not in r.text and "Ada &lt;b&gt;" in r.text
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    r = post(client, game, "turn", type="npc_turn", npc_id=raider, **{
        "seen.0.character_id": ada, "seen.0.distance": "4", "seen.0.line_of_sight": "true", "seen.0.cover": "none"})
    assert r.status_code == 200, parse(r.text).by_id("turn-message").text()
    card = parse(r.text).by_id(f"d20-card-{raider}")
    steps = [(li.attrs["data-slot"], li.attrs["data-action"]) for li in card.all("li", cls="card-action")
             if "data-action" in li.attrs]
    assert steps == [("move", "move"), ("action", "attack"), ("reaction", "ready")]
    assert "D20-ROLE-HUNTER" in card.text() and "hit 65%" in card.text()
    r = post(client, game, "turn", type="attack", form=f"attack-{raider}", attacker_id=raider, target_id=ada,
             weapon="Machete", range="short", cover="none", natural="15", damage="3")
    assert r.status_code == 200 and "Raider rolls 15" in r.text
    assert state(client, game)["characters"][0]["hp"] == 5
    r = post(client, game, "turn", type="attack", form="attack", attacker_id=ada, target_id=raider, range="long",
             cover="light", natural="20", lethal="true", reaction="false")
    assert r.status_code == 200 and "critical" in r.text and "D20-CRIT" in r.text
    before = state(client, game)["seq"]
    r = client.post(f"/g/{game['edit_token']}/undo", data={"seen": str(before)}, headers=HX)
    assert r.status_code == 200 and state(client, game)["seq"] == before + 1 and "taken back" in r.text
    assert state(client, game)["npcs"][0]["hp"] == 9
    r = post(client, game, "turn", type="end_round")
    assert r.status_code == 200 and state(client, game)["round"] == 2 and state(client, game)["turns"] == []


def test_a_bad_field_or_an_illegal_command_answers_in_place_never_500(client):
    game = d20_game(client)
    r = post(client, game, "roster", type="add_npc", form="add-npc", **{**RAIDER, "npc.weapons.0.damage": "lots"})
    assert r.status_code == 422 and parse(r.text).has_id("roster-message")
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    raider = state(client, game)["npcs"][0]["id"]
    assert post(client, game, "turn", type="npc_turn", npc_id=raider, direction="3").status_code == 200
    again = post(client, game, "turn", type="npc_turn", npc_id=raider)
    assert again.status_code == 400 and "already taken its turn" in again.text


def test_the_watch_page_shows_the_d20_game_without_controls(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_npc", form="add-npc", **{**RAIDER, "npc.role": "patrol", "npc.waypoints.0": "A"})
    page = parse(client.get(game["view_url"]).text)
    assert "Raider" in page.by_id("panel-roster").text() and not page.all("form", method="post")
    panels = client.get(f"{game['view_url']}/panels", params={"names": "status,turn,roster,log"})
    assert panels.status_code == 200 and 'id="panel-status"' in panels.text and "Round 1" in panels.text


def test_d20_is_listed_and_its_rules_page_explains_its_ids(client):
    listed = client.get("/api/rulesets").json()
    assert "d20" in [r["id"] for r in listed]
    page = client.get("/rules/d20")
    assert page.status_code == 200 and 'id="D20-CRIT"' in page.text


def test_a_played_d20_game_exports_and_imports_with_its_state_and_log(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="npc_turn", npc_id=raider,
         **{"seen.0.character_id": ada, "seen.0.distance": "2", "seen.0.line_of_sight": "true"})
    post(client, game, "turn", type="attack", attacker_id=raider, target_id=ada, natural="20")
    exported = client.get(f"/api/games/{game['edit_token']}/export").json()
    again = client.post("/api/games/import", json=exported)
    assert again.status_code in (200, 201), again.text
    copy = state(client, again.json())
    original = state(client, game)
    for key in ("ruleset", "seq", "round", "characters", "npcs", "turns"):
        assert copy[key] == original[key], key


def test_D20_ATTACK_ROLL_the_attack_form_shows_the_exact_odds_before_the_roll(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    page = parse(client.get(game["edit_url"]).text)
    assert page.by_id("da-odds").attrs["hx-get"].endswith("/d20/odds")
    # the answer fills the trigger, never replaces it (issue 20 D2: the form's outerHTML was inherited)
    assert page.by_id("da-odds").attrs["hx-swap"] == "innerHTML"
    assert page.by_id("da-odds").attrs["hx-sync"] == "this:replace"  # the latest change wins, none dropped
    url = f"/g/{game['edit_token']}/d20/odds"
    r = client.get(url, params={"attacker_id": ada, "target_id": raider, "range": "long", "cover": "light"})
    assert r.status_code == 200 and "+7 vs DEF 13 (light cover), Long -2" in r.text  # Arrow Time 2 + Agility 3 + PB 2
    assert "hit 60%" in r.text  # +5 at Long against DEF 14 in light cover: 9 or more on the d20
    beyond = client.get(url, params={"attacker_id": ada, "target_id": raider, "range": "beyond"})
    assert "no shot" in beyond.text
    assert client.get(url, params={"attacker_id": "nobody"}).status_code == 200
    assert client.get(url, params={"range": "far"}).status_code == 422
    assert client.get(f"/v/{game['view_token']}/d20/odds").status_code == 404


def test_the_d20_form_route_answers_404_for_a_game_of_another_ruleset_and_the_odds_no_odds(client):
    other = client.post("/api/games", json={"name": "Night shift"}).json()
    odds = client.get(f"/g/{other['edit_token']}/d20/odds", params={"attacker_id": "c1", "target_id": "b1"})
    assert odds.status_code == 200 and 'id="d20-attack-odds"' not in odds.text
    r = client.post(f"/g/{other['edit_token']}/d20/turn", data={"seen": "0", "type": "end_round"}, headers=HX)
    assert r.status_code == 404 and client.get(f"/api/games/{other['view_token']}").json()["seq"] == 0


def test_D20_CRIT_house_rules_are_edited_from_the_page(client):
    game = d20_game(client)
    page = parse(client.get(game["edit_url"]).text)
    assert page.has_id("d20-house") and "checked" in page.by_id("dh-nat20_always_hits").attrs
    fields = {"house.nat20_always_hits": "false", "house.nat1_always_misses": "false",
              "house.poisoned_attacks": "false", "house.dying_save_uses_pb": "false",
              "house.ranged_damage_attribute": "none", "house.wounded_on_drop": "set", "house.min_damage": "0",
              "house.damage_while_dying": "1", "house.reach": "1", "house.parry_defense": "3"}
    r = post(client, game, "roster", type="set_house_rules", form="add-house", **fields)
    assert r.status_code == 200, r.text[:400]
    house = state(client, game)["house"]
    assert house["nat20_always_hits"] is False and house["parry_defense"] == 3 and house["wounded_on_drop"] == "set"
    bad = post(client, game, "roster", type="set_house_rules", form="add-house", **{**fields, "house.reach": "0"})
    assert bad.status_code == 422 and parse(bad.text).has_id("roster-message")


def test_D20_STABILIZE_a_dropped_character_is_stabilised_staunched_rested_and_corrected_from_the_page(client):
    """Issue 20 D4: Stabilize (Medicine DC 12), Staunch, rests and HP corrections had no page control."""
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="attack", form="attack", attacker_id=raider, target_id=ada, natural="15",
         damage="30")
    page = parse(client.get(game["edit_url"]).text)
    assert "open" in page.by_id("d20-heal").attrs  # someone is Dying: the healing forms are open
    for control in ("dh-stab-total", "dh-staunch-total", "dh-rest-kind", "dh-adj-hp"):
        assert page.has_id(control), control
    short = post(client, game, "turn", type="stabilize", form="stabilize", member_id=ada, medicine_total="11")
    assert short.status_code == 200 and state(client, game)["characters"][0]["dying"] == 1
    r = post(client, game, "turn", type="stabilize", form="stabilize", member_id=ada, medicine_total="12")
    assert r.status_code == 200 and (state(client, game)["characters"][0]["hp"], state(client, game)["characters"][0]["dying"]) == (1, 0)
    post(client, game, "turn", type="set_condition", form="condition", member_id=ada, condition="bleeding", present="true")
    r = post(client, game, "turn", type="staunch", form="staunch", member_id=ada, medicine_total="14")
    assert r.status_code == 200 and "bleeding" not in state(client, game)["characters"][0]["conditions"]
    r = post(client, game, "turn", type="rest", form="rest", member_id=ada, kind="short", rolled="5")
    assert r.status_code == 200 and state(client, game)["characters"][0]["hp"] == 1 + 5  # 1d8 + Vigor 0
    r = post(client, game, "turn", type="adjust", form="adjust", member_id=ada, hp="7", dying="", wounded="",
             note="a potion <i>")
    assert r.status_code == 200 and state(client, game)["characters"][0]["hp"] == 7
    assert "a potion &lt;i&gt;" in r.text and "a potion <i>" not in r.text
    bad = post(client, game, "turn", type="stabilize", form="stabilize", member_id=ada, medicine_total="lots")
    assert bad.status_code == 422 and "medicine_total" in bad.text


def test_D20_FACTS_the_sentry_form_asks_the_squares_to_its_subject_and_never_prefills_0(client):
    """Issue 20 D6: the form prefilled 0 and the turn took a missing distance as 0."""
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **{**RAIDER, "npc.role": "sentry",
                                                                      "npc.subject": "Gate"})
    warden = state(client, game)["npcs"][0]["id"]
    field = parse(client.get(game["edit_url"]).text).by_id(f"f-{warden}-goal")
    assert field.attrs.get("value") in (None, "") and "required" in field.attrs
    r = post(client, game, "turn", type="npc_turn", form=f"npc-turn-{warden}", npc_id=warden, subject_distance="")
    assert r.status_code == 400 and "subject_distance" in r.text and state(client, game)["turns"] == []


def test_D20_INTERCEPT_the_attack_form_has_the_intercept_reaction(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    assert parse(client.get(game["edit_url"]).text).has_id("da-intercept")
    r = post(client, game, "turn", type="attack", form="attack", attacker_id=ada, target_id=raider, natural="3",
             intercept="true")
    assert r.status_code == 200 and state(client, game)["npcs"][0]["reaction_used"]


def test_D20_ATTACK_ROLL_the_attack_form_picks_the_weapon_from_each_attackers_own(client):
    """Issue 20: the weapon was a free-text field; now a select grouped by attacker."""
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    select = parse(client.get(game["edit_url"]).text).by_id("da-weapon")
    assert select.tag == "select"
    groups = {g.attrs["label"]: [o.attrs["value"] for o in g.all("option")] for g in select.all("optgroup")}
    assert groups == {"Ada <b>": ["Bow", "unarmed strike"], "Raider": ["Machete", "unarmed strike"]}


def test_a_roster_from_ready_sheets_and_duplicates_through_the_page(client):
    game = d20_game(client)
    r = post(client, game, "roster", type="add_character", form="add-quick", **{
        "character.name": "Doc", "character.starter": "medic"})
    assert r.status_code == 200 and "Doc" in r.text
    r = post(client, game, "roster", type="add_npc", form="add-quick", **{
        "npc.name": "Gun", "npc.starter": "gunner", "npc.role": "sentry", "npc.subject": "Gate",
        "npc.object": "", "npc.waypoints.0": "", "npc.waypoints.1": ""})
    assert r.status_code == 200 and "Pistol" in r.text
    gun = state(client, game)["npcs"][0]["id"]
    assert parse(r.text).has_id(f"d20-duplicate-{gun}")
    r = post(client, game, "roster", type="duplicate", form="add-duplicate", member_id=gun)
    assert r.status_code == 200 and [n["name"] for n in state(client, game)["npcs"]] == ["Gun", "Gun 2"]
    assert state(client, game)["characters"][0]["skills"]["medicine"] == 4
    bad = post(client, game, "roster", type="add_npc", form="add-quick", **{"npc.name": "X", "npc.starter": "dragon"})
    assert bad.status_code == 422 and parse(bad.text).has_id("roster-message")


def test_D20_EFFECT_SAVE_an_npc_saves_against_a_characters_effect_from_the_page(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    raider = state(client, game)["npcs"][0]["id"]
    assert parse(client.get(game["edit_url"]).text).has_id("dv-dc")
    r = post(client, game, "turn", type="save", form="save", member_id=raider, attribute="charm", dc="14",
             condition="frightened", natural="9", proficient="false")
    assert r.status_code == 200 and "misses DC 14" in r.text
    assert state(client, game)["npcs"][0]["conditions"] == ["frightened"]
    bad = post(client, game, "turn", type="save", form="save", member_id=raider, attribute="luck", dc="14")
    assert bad.status_code == 422 and "attribute" in bad.text


def test_D20_INITIATIVE_the_tracker_on_the_page_orders_turns_and_opens_the_acting_npcs_card(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    post(client, game, "roster", type="add_npc", form="add-npc", **{**RAIDER, "npc.name": "Second"})
    ada, raider, second = (m["id"] for m in [*state(client, game)["characters"], *state(client, game)["npcs"]])
    page = parse(client.get(game["edit_url"]).text)
    assert "open" in page.by_id("d20-initiative").attrs and page.has_id(f"di-{ada}")
    r = post(client, game, "turn", type="set_initiative", form="initiative", **{
        "rolls.0.member_id": ada, "rolls.0.value": "9", "rolls.1.member_id": raider, "rolls.1.value": "4",
        "rolls.2.member_id": second, "rolls.2.value": "15"})
    assert r.status_code == 200
    assert [li.attrs["data-member"] for li in parse(r.text).by_id("d20-order").all("li")] == [second, ada, raider]
    for acting in (second, ada, raider):
        r = post(client, game, "turn", type="next_turn", form="next-turn")
        assert r.status_code == 200 and state(client, game)["acting"] == acting
        form = parse(r.text).by_id("d20-attack")  # up on a Character's turn only, set to its likely foe
        assert ("open" in form.attrs) == (acting == ada)
        if acting == ada:
            assert f'<option value="{raider}" selected>' in r.text  # no history: the first NPC up
        if acting == second:  # an NPC's turn is taken before the tracker moves on (D20-TRACKER)
            refused = post(client, game, "turn", type="next_turn", form="next-turn")
            assert refused.status_code == 400 and "turn is not taken yet" in refused.text
            assert post(client, game, "turn", type="npc_turn", form=f"npc-turn-{second}",
                        npc_id=second).status_code == 200
    page = parse(r.text)
    assert "open" in page.by_id(f"d20-activate-{raider}").attrs  # its turn: its card comes up
    assert not page.has_id(f"d20-activate-{second}")  # its turn is taken: no card to decide
    bad = post(client, game, "turn", type="set_initiative", form="initiative", **{
        "rolls.0.member_id": ada, "rolls.0.value": "lots"})
    assert bad.status_code == 422


@pytest.mark.parametrize("command, names", [
    pytest.param({"type": "attack", "attacker_id": "n1", "target_id": "c1"}, ["Raider", "Ada"], id="npc-attacks"),
    pytest.param({"type": "attack", "attacker_id": "c1", "target_id": "n1"}, ["Ada", "Raider"], id="pc-attacks"),
])
def test_a_log_step_names_the_attacker_before_the_target(command, names):
    """The log's header of an attack reads "attacker, target", whoever attacks (issue 20)."""
    from app.store.tables import Step
    from app.web.view import step_who

    state = {"characters": [{"id": "c1", "name": "Ada"}], "npcs": [{"id": "n1", "name": "Raider"}]}
    assert step_who(Step(game_id=1, seq=1, command=command), state) == names


def test_D20_TEMP_HP_granted_from_the_healing_form_and_shown_on_the_status(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    ada = state(client, game)["characters"][0]["id"]
    assert parse(client.get(game["edit_url"]).text).has_id("d20-temp-hp-form")
    r = post(client, game, "turn", type="temp_hp", form="temp-hp", member_id=ada, amount="6", exact="false")
    assert r.status_code == 200 and state(client, game)["characters"][0]["temp_hp"] == 6
    assert "HP 8/8 +6" in parse(client.get(game["edit_url"]).text).by_id(f"ds-{ada}-hp").text()
    r = post(client, game, "turn", type="temp_hp", form="temp-hp", member_id=ada, amount="2", exact="false")
    assert state(client, game)["characters"][0]["temp_hp"] == 6 and "the higher stays" in r.text
    bad = post(client, game, "turn", type="temp_hp", form="temp-hp", member_id=ada, amount="lots")
    assert bad.status_code == 422 and "amount" in bad.text
