"""The books of a round on the zone page (the Year Zero-style reference: "Take one action and one
maneuver, or two maneuvers"): the turn order, the page offering only what each turn still allows,
refused dice kept with their message beside the field, roster entries edited, the top bar."""

from __future__ import annotations

import json

from tests.rulesets.zone.web.test_zone_pages import post, state, zone_game
from tests.support.html import parse

MACHETE = {"character.weapons.0.name": "Machete", "character.weapons.0.damage": "2",
           "character.weapons.0.bonus": "1"}


def table(client):
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Kira", "character.fight": "4"})
    post(client, game, "roster", type="add_character", **{"character.name": "Oskar", "character.shoot": "5",
                                                          **MACHETE})
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute", "npc.attributes.strength": "8"})
    s = state(client, game)
    return game, [c["id"] for c in s["characters"]], s["npcs"][0]["id"]


def test_z_initiative_a_fight_starts_from_the_page_and_next_turn_is_one_tap(client):
    """Z-INITIATIVE: the player enters Kira's card, leaves Oskar's blank (the app draws it and the
    NPCs'); the order is shown lowest first; one tap to the next."""
    game, (kira, oskar), brute = table(client)
    r = post(client, game, "turn", type="start_fight", form="start-fight", **{
        "draws.0.member_id": kira, "draws.0.card": "9", "draws.1.member_id": oskar, "draws.1.card": ""})
    assert r.status_code == 200, r.text
    order = state(client, game)["turn_order"]
    assert {p["member_id"]: p["value"] for p in order["places"]}[kira] == 9 and len(order["places"]) == 3
    page = parse(r.text)
    assert page.has_id("zone-next-turn") and page.by_id(f"zone-order-{order['acting']}").attrs.get("aria-current")
    assert not page.has_id("zone-end-round")  # the round ends by Next turn, never losing a turn
    r = post(client, game, "turn", type="next_turn")
    assert state(client, game)["turn_order"]["acting"] == order["places"][1]["member_id"]


def test_z_turn_the_attack_form_offers_only_characters_with_an_action_left(client):
    """Z-TURN: "one action and one maneuver, or two maneuvers": once Kira has attacked, the attack
    form no longer offers her; the maneuver form still does, saying what is left."""
    game, (kira, oskar), brute = table(client)
    r = post(client, game, "turn", type="character_attack", character_id=kira, npc_id=brute, pool="2",
             _faces="2 2")
    page = parse(r.text)
    who = page.by_id("ca-who").text()
    assert "Kira" not in who and "Oskar" in who
    assert "Kira (a maneuver left)" in page.by_id("cm-who").text()
    status = parse(client.get(game["edit_url"]).text).by_id(f"zs-{kira}-turn").text()
    assert "a maneuver left" in status


def test_z_out_a_broken_npc_is_no_target_and_not_offered_a_round(client):
    """Z-OUT: "When an attribute score hits zero, you are broken"."""
    game, (kira, oskar), brute = table(client)
    post(client, game, "roster", type="add_npc", **{"npc.name": "Weak", "npc.attributes.strength": "1"})
    weak = state(client, game)["npcs"][1]["id"]
    r = post(client, game, "turn", type="character_attack", character_id=kira, npc_id=weak, pool="2",
             _faces="6 2")
    page = parse(r.text)
    assert "Weak" not in page.by_id("ca-target").text() and not page.has_id(f"zone-activate-{weak}")
    assert "out of the fight" in parse(client.get(game["edit_url"]).text).by_id(f"zs-{weak}-broken").text()


def test_a_refused_dice_entry_keeps_what_was_typed_and_its_fold_open_with_the_message(client):
    """Found in play: a wrong count of faces comes back in place, typed faces kept, the fold open,
    the message beside the field."""
    game, (kira, oskar), brute = table(client)
    r = post(client, game, "turn", type="character_attack", form="character-attack", character_id=kira,
             npc_id=brute, **{"pool.skill": "4"}, _faces="6 6 1")
    assert r.status_code == 400
    page = parse(r.text)
    assert "open" in page.by_id("zone-character-attack").attrs
    assert page.by_id("ca-faces").attrs["value"] == "6 6 1" and "4 faces" in page.by_id("ca-faces-error").text()
    post(client, game, "turn", type="activate_npc", npc_id=brute, **{
        "facts.seen.0.character_id": kira, "facts.seen.0.band": "arms_length"})
    r = post(client, game, "turn", type="npc_attack", form=f"attack-{brute}", npc_id=brute, _faces="6")
    assert r.status_code == 400
    page = parse(r.text)
    assert "open" in page.by_id(f"zone-dice-{brute}").attrs and page.by_id(f"faces-{brute}").attrs["value"] == "6"
    assert page.has_id(f"faces-{brute}-error")


def test_a_weapon_pick_fills_the_fields_the_player_sees(client):
    """Found in play: "Weapon (from the sheet)" carries the Character, the skill, the base, skill
    and gear dice and the damage it fills (zone.js), so what is on screen is what is rolled."""
    game, (kira, oskar), brute = table(client)
    page = parse(client.get(game["edit_url"]).text)
    option = next(o for o in page.by_id("ca-weapon").all("option") if o.attrs.get("value") == f"{oskar}:0")
    fills = json.loads(option.attrs["data-fields"])
    assert fills == {"ca-who": oskar, "ca-kind": "fight", "ca-base": "0", "ca-skill": "0", "ca-gear": "1",
                     "ca-damage": "2"}
    sheet = next(o for o in page.by_id("zn-sheet").all("option") if o.attrs.get("value") == "rifle")
    assert json.loads(sheet.attrs["data-fields"])["zn-gun-bullets"] == "6"
    # the same fields posted roll as shown: Oskar, Fight, 1 gear die
    r = post(client, game, "turn", type="character_attack", _weapon=f"{oskar}:0", character_id=oskar, kind="fight",
             npc_id=brute, **{"pool.base": "0", "pool.skill": "0", "pool.gear": "1"}, weapon_damage="2", _faces="6")
    assert r.status_code == 200 and state(client, game)["npcs"][0]["damage"] == 2


def test_roster_entries_are_edited_keeping_trauma_and_a_stale_edit_is_refused(client):
    game, (kira, oskar), brute = table(client)
    post(client, game, "turn", type="character_attack", character_id=oskar, npc_id=brute, pool="1", _faces="6")
    page = parse(client.get(game["edit_url"]).text)
    form = page.by_id(f"zone-edit-{brute}")
    expect = form.one("input", name="expect").attrs["value"]
    fields = {"npc.name": "Big Brute", "npc.role": "sentry", "npc.subject": "Gate", "npc.fight": "5",
              "npc.attributes.strength": "8", "npc.patrol_mode": "route"}
    r = post(client, game, "roster", type="edit_npc", id=brute, form=f"edit-{brute}", expect=expect, **fields)
    assert r.status_code == 200, r.text
    npc = state(client, game)["npcs"][0]
    assert (npc["name"], npc["role"], npc["fight"], npc["damage"]) == ("Big Brute", "sentry", 5, 1)
    r = post(client, game, "roster", type="edit_npc", id=brute, form=f"edit-{brute}", expect=expect,
             **{**fields, "npc.name": "Other"})
    assert r.status_code == 409 and state(client, game)["npcs"][0]["name"] == "Big Brute"


def test_the_top_bar_names_the_ruleset(client):
    game = zone_game(client)
    page = parse(client.get(game["edit_url"]).text)
    assert page.one("a", cls="brand").text().strip() == "Zone (d6 pools, range bands)"
