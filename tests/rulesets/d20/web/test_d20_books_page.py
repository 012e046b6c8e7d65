"""The d20 page keeps the books (docs/rules-d20.md § 7): it offers only what is left of a turn
(D20-TURN-BUDGET), asks a Dying Character's save die or lets the app roll it at the player's word
(D20-DYING-SAVE), keeps a refused die entry with its fold open and the message beside the field,
brings the step's result into view, never presets a downed foe (D20-OUT), offers "same as last
round" for an NPC that did not move (D20-FACTS-KEPT) and names its ruleset in the top bar."""

from __future__ import annotations

from tests.rulesets.d20.web.test_d20_pages import ADA, RAIDER, d20_game, post, state
from tests.support.html import parse


def tracked(client) -> tuple[dict, str, str]:
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character",
         **{**ADA, "character.name": "Ada", "character.weapons.1.name": "Knife", "character.weapons.1.kind": "melee",
            "character.weapons.1.damage": "1d4"})
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="set_initiative", form="initiative", **{
        "rolls.0.member_id": ada, "rolls.0.value": "15", "rolls.1.member_id": raider, "rolls.1.value": "5"})
    return game, ada, raider


def test_D20_TURN_BUDGET_the_page_offers_only_what_is_left_of_the_turn(client):
    game, ada, raider = tracked(client)
    r = post(client, game, "turn", type="next_turn", form="next-turn")
    page = parse(r.text)
    assert page.by_id("d20-left-action").attrs["data-left"] == "yes" and page.has_id("d20-spend-dash")
    r = post(client, game, "turn", type="attack", form="attack", attacker_id=ada, target_id=raider, natural="2")
    page = parse(r.text)
    assert page.by_id("d20-left-action").attrs["data-left"] == "no"
    assert not page.has_id("d20-spend-dash") and page.has_id("d20-spend-move")  # the Move is still there
    assert "Attack of Opportunity" in page.by_id("d20-attack").one("summary").text()  # only a Reaction left
    again = post(client, game, "turn", type="attack", form="attack", attacker_id=ada, target_id=raider, natural="19")
    assert again.status_code == 400 and "already spent its Action" in again.text
    r = post(client, game, "turn", type="spend", form="spend", member_id=ada, what="move")
    assert r.status_code == 200 and not parse(r.text).has_id("d20-spend-move")


def test_D20_DYING_SAVE_next_turn_asks_the_dying_characters_die_and_keeps_a_refused_entry(client):
    game, ada, raider = tracked(client)
    post(client, game, "turn", type="damage", form="heal-damage", member_id=ada, amount="20", lethal="true")
    page = parse(client.get(game["edit_url"]).text)
    assert page.has_id("d20-next-save") and page.has_id("d20-next-turn-app")
    r = post(client, game, "turn", type="next_turn", form="next-turn")  # no die: asked, not rolled
    assert r.status_code == 400 and state(client, game)["acting"] is None
    assert "Vigor Save d20" in parse(r.text).by_id("d20-next-save-error").text()
    r = post(client, game, "turn", type="next_turn", form="next-turn", natural="25")  # a d20 has no 25
    field = parse(r.text).by_id("d20-next-save")
    assert r.status_code == 422 and field.attrs["value"] == "25" and field.attrs["aria-invalid"] == "true"
    assert parse(r.text).has_id("d20-next-save-error")
    r = post(client, game, "turn", type="next_turn", form="next-turn", app_rolls="true")
    assert r.status_code == 200 and state(client, game)["acting"] == ada
    assert "D20-DYING-SAVE" in parse(r.text).by_id("d20-result").text()  # the step's result, marked for view


def test_a_refused_die_entry_keeps_what_was_typed_with_its_fold_open(client):
    game, ada, raider = tracked(client)
    post(client, game, "turn", type="next_turn", form="next-turn")
    r = post(client, game, "turn", type="attack", form="attack", attacker_id=ada, target_id=raider, natural="0")
    page = parse(r.text)
    assert r.status_code == 422 and "open" in page.by_id("d20-attack").attrs
    assert page.by_id("da-nat").attrs["value"] == "0" and page.has_id("da-nat-error")


def test_D20_OUT_the_attack_form_does_not_preset_a_downed_foe_nor_offer_the_dead(client):
    game, ada, raider = tracked(client)
    post(client, game, "turn", type="next_turn", form="next-turn")
    r = post(client, game, "turn", type="attack", form="attack", attacker_id=ada, target_id=raider, natural="15",
             damage="30", lethal="false")
    target = parse(r.text).by_id("da-target")
    assert "unconscious" in state(client, game)["npcs"][0]["conditions"]
    values = [o.attrs["value"] for o in target.all("option")]
    assert raider not in values and values[0] == ""  # the Unconscious cannot be attacked
    assert "selected" in target.all("option")[0].attrs  # nobody preset: the player chooses


def test_D20_FACTS_KEPT_same_as_last_round_for_an_npc_that_did_not_move(client):
    game = d20_game(client)
    post(client, game, "roster", type="add_character", form="add-character", **ADA)
    post(client, game, "roster", type="add_npc", form="add-npc", **RAIDER)
    ada, raider = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="npc_turn", form=f"npc-turn-{raider}", npc_id=raider, **{
        "seen.0.character_id": ada, "seen.0.distance": "1", "seen.0.line_of_sight": "true"})
    post(client, game, "turn", type="attack", form=f"attack-{raider}", attacker_id=raider, target_id=ada, natural="2")
    r = post(client, game, "turn", type="end_round", form="end-round")
    assert parse(r.text).has_id(f"d20-same-{raider}")
    r = post(client, game, "turn", type="npc_turn", form=f"same-{raider}", npc_id=raider, same_as_last="true")
    assert r.status_code == 200 and state(client, game)["turns"][0]["steps"][0]["target_id"] == ada


def test_the_top_bar_names_the_games_ruleset(client):
    game = d20_game(client)
    brand = parse(client.get(game["edit_url"]).text).one("a", cls="brand")
    assert "d20" in brand.text() and "Potham" not in brand.text()
