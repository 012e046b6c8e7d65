"""Issue 19 on the zone page and API: the exact odds under the push policy (Z5, Z7), a Character's
roll pushed after it is seen (Z2), a full auto NPC's entered pushes (Z7), a gun's bullets (Z4)."""

from __future__ import annotations

import pytest

from tests.rulesets.zone.web.test_zone_pages import post, state, zone_game
from tests.support.html import parse

ADA = [{"id": "a", "name": "Ada"}]


def activation(client, npc: dict, band: str) -> dict:
    body = {"npc": npc, "characters": ADA, "facts": {"seen": [{"character_id": "a", "band": band}]}}
    answer = client.post("/api/rulesets/zone/activation", json=body)
    assert answer.status_code == 200, answer.text
    return next(a for a in answer.json()["actions"] if "odds" in a)["odds"]


def test_the_cards_odds_follow_the_default_push_only_without_a_success_z_push_choice(client):
    """Z5: 4 dice, the NPC pushes only a roll with no success: 2+ 17.5 %, 3+ 2.0 % (not 31 % / 7 %)."""
    odds = activation(client, {"name": "Brute", "fight": 4}, "arms_length")
    assert odds["dice"] == 4 and odds["policy"] == "no_success"
    assert odds["successes_at_least"]["2"] == pytest.approx(0.17470, abs=5e-5)
    assert odds["successes_at_least"]["3"] == pytest.approx(0.02032, abs=5e-5)
    assert odds["p_success"] == pytest.approx(1 - (26 / 36) ** 4)  # a hit: the same either way


@pytest.mark.parametrize("bullets, pushes", [(1, 0), (2, 1), (4, 3)])
def test_full_auto_odds_push_once_per_bullet_left_after_the_shot_z_full_auto(client, bullets, pushes):
    """Z7, Z-FULL-AUTO: "You can push the roll normally – but it will cost you one extra bullet":
    with its last bullet a full auto gun cannot push at all."""
    gun = {"name": "SMG", "damage": 2, "reach": "short", "bullets": bullets, "full_auto": True}
    odds = activation(client, {"name": "Gunner", "shoot": 3, "gun": gun}, "short")
    assert odds["pushes"] == pushes
    if pushes == 0:
        assert odds["p_success"] == pytest.approx(1 - (5 / 6) ** odds["dice"])


def test_a_full_auto_npc_with_entered_dice_pushes_again_from_the_form_z_full_auto(client):
    """Z7: entered dice take every push, "/" between them ("again and again")."""
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    post(client, game, "roster", type="add_npc", **{
        "npc.name": "Gunner", "npc.shoot": "2", "npc.gun.name": "SMG", "npc.gun.damage": "2",
        "npc.gun.reach": "short", "npc.gun.bullets": "4", "npc.gun.full_auto": "true"})
    ada, gunner = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    post(client, game, "turn", type="activate_npc", npc_id=gunner,
         **{"facts.seen.0.character_id": ada, "facts.seen.0.band": "short"})
    page = parse(client.get(game["edit_url"]).text)
    assert page.has_id(f"pushes-{gunner}")
    faces = " ".join(["2"] * (2 + 1))  # Shoot 2, aimed +1
    done = post(client, game, "turn", type="npc_attack", npc_id=gunner, _faces=faces, _pushes="2 3 4 / 2 6 4")
    assert done.status_code == 200, parse(done.text).by_id("turn-news").text()
    after = state(client, game)
    assert after["npcs"][0]["gun"]["bullets"] == 1 and after["characters"][0]["damage"] == 2


def test_a_character_rolls_sees_the_roll_then_pushes_it_with_its_own_button_z_push_after(client):
    """Z2: no "push" before the roll; the roll is shown, then a Push button with its cost."""
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute", "npc.attributes.strength": "8"})
    ada, brute = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    form = parse(client.get(game["edit_url"]).text).by_id("zone-character-attack")
    assert 'name="push"' not in str(form.attrs) and "push the roll" not in form.text()
    r = post(client, game, "turn", type="character_attack", character_id=ada, npc_id=brute, pool="4",
             weapon_damage="2", _faces="6 3 2 1")
    assert r.status_code == 200 and state(client, game)["npcs"][0]["damage"] == 2
    push = parse(r.text).by_id(f"zone-push-{ada}")
    assert "2 dice" in push.text()
    r = post(client, game, "turn", type="push_roll", character_id=ada, _faces="6 1")
    assert r.status_code == 200 and "pushes the roll" in r.text
    after = state(client, game)
    # Z-POOL: dice typed as one number are skill dice, whose 1s cost nothing after a push
    assert after["npcs"][0]["damage"] == 3 and after["characters"][0]["fatigue"] == 0
    assert not parse(r.text).has_id(f"zone-push-{ada}")  # pushed once


def test_a_characters_dice_told_as_a_count_of_successes_from_the_form(client):
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute", "npc.attributes.strength": "8"})
    ada, brute = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    r = post(client, game, "turn", type="character_attack", character_id=ada, npc_id=brute, pool="5",
             weapon_damage="1", successes="3")
    assert r.status_code == 200 and state(client, game)["npcs"][0]["damage"] == 3


def test_a_gun_with_its_bullets_left_blank_is_refused_next_to_the_bullets_field(client):
    """Z4: a gun would start empty and never fire without a word: 422 naming `bullets`."""
    game = zone_game(client)
    r = post(client, game, "roster", type="add_npc", form="add-npc", **{
        "npc.name": "Gunner", "npc.shoot": "2", "npc.gun.name": "Rifle", "npc.gun.damage": "2",
        "npc.gun.reach": "long"})
    assert r.status_code == 422 and parse(r.text).has_id("zn-gun-bullets-error")
    api = client.post(f"/api/games/{game['edit_token']}/commands", json={
        "type": "add_npc", "npc": {"name": "G", "gun": {"name": "Rifle", "reach": "long"}}})
    assert api.status_code == 422 and any(e["loc"][-1] == "bullets" for e in api.json()["detail"])


def test_same_as_last_round_is_one_tap_on_the_page_z_bands_kept(client):
    """Z-BANDS-KEPT: round 2 offers the bands of round 1 (its move applied) as one button."""
    game = zone_game(client)
    post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute"})
    ada, brute = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    assert not parse(client.get(game["edit_url"]).text).has_id(f"zone-same-{brute}")  # round 1: asked
    post(client, game, "turn", type="activate_npc", npc_id=brute,
         **{"facts.seen.0.character_id": ada, "facts.seen.0.band": "near"})
    r = post(client, game, "turn", type="end_round")
    same = parse(r.text).by_id(f"zone-same-{brute}")
    assert "Ada" in same.parent.text() and "Arm's Length" in same.parent.text()
    r = post(client, game, "turn", type="activate_npc", npc_id=brute, same_as_last="true")
    card = parse(r.text).by_id(f"zone-card-{brute}")
    assert [li.attrs["data-name"] for li in card.all("li", cls="card-action")] == ["fight"]


def test_a_starting_sheet_fills_what_the_player_left_at_its_default(client):
    """Issue 19: starting sheets for NPC roles; a field the player typed wins over the sheet."""
    game = zone_game(client)
    r = post(client, game, "roster", type="add_npc", _sheet="rifle", **{
        "npc.name": "Warden", "npc.role": "sentry", "npc.subject": "Gate", "npc.fight": "3", "npc.shoot": "0",
        "npc.gun.bullets": "4"})
    assert r.status_code == 200, r.text
    warden = state(client, game)["npcs"][0]
    assert (warden["shoot"], warden["gun"]["name"], warden["gun"]["reach"]) == (3, "Rifle", "long")
    assert warden["gun"]["bullets"] == 4 and warden["fight"] == 3


def test_the_add_form_just_used_stays_open_for_the_next_one(client):
    """Issue 19 (setup cost): a roster is built in a row; the form does not close after each add."""
    game = zone_game(client)
    r = post(client, game, "roster", type="add_character", **{"character.name": "Ada"})
    page = parse(r.text)
    assert "open" in page.by_id("zone-add-character").attrs and "open" not in page.by_id("zone-add-npc").attrs


def test_the_top_bar_says_the_game_is_played_under_zone(client):
    """Issue 19: the page says which ruleset it is."""
    game = zone_game(client)
    bar = parse(client.get(game["edit_url"]).text).by_id("topbar-ruleset")
    assert bar.attrs["data-ruleset"] == "zone" and "Zone" in bar.text()


def test_the_broken_target_house_rule_is_switched_from_the_page_z_broken_target(client):
    game = zone_game(client)
    page = parse(client.get(game["edit_url"]).text)
    assert page.has_id("zh-broken")
    house = client.get(f"/api/games/{game['view_token']}").json()["house"]
    fields = {f"house.{k}": str(v).lower() if isinstance(v, bool) else str(v)
              for k, v in house.items() if not isinstance(v, list)}
    fields["house.broken_targets"] = "attack"
    r = post(client, game, "turn", type="set_house_rules", **fields, **{"house.success_faces[]": "6"})
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{game['view_token']}").json()["house"]["broken_targets"] == "attack"


def test_the_odds_api_answers_under_a_push_policy_z_push_choice(client):
    plain = client.post("/api/rulesets/zone/odds", json={"dice": 4, "push": True}).json()
    policy = client.post("/api/rulesets/zone/odds", json={"dice": 4, "push": True, "policy": "no_success"}).json()
    assert plain["successes_at_least"]["2"] == pytest.approx(0.30936, abs=5e-5)
    assert policy["successes_at_least"]["2"] == pytest.approx(0.17470, abs=5e-5)
    assert policy["p_success"] == pytest.approx(plain["p_success"])
    assert client.post("/api/rulesets/zone/odds", json={"dice": 4, "policy": "sometimes"}).status_code == 422


def test_a_character_with_a_weapon_on_the_sheet_attacks_by_picking_it(client):
    """Issue 19: an attack picks the weapon instead of retyping the pool and damage each time."""
    game = zone_game(client)
    r = post(client, game, "roster", type="add_character", **{
        "character.name": "Ada", "character.shoot": "3", "character.weapons.0.name": "Rifle",
        "character.weapons.0.damage": "2", "character.weapons.0.reach": "long",
        "character.weapons.0.ranged": "true"})
    assert r.status_code == 200 and "Rifle" in r.text
    post(client, game, "roster", type="add_npc", **{"npc.name": "Brute", "npc.attributes.strength": "8"})
    ada, brute = state(client, game)["characters"][0]["id"], state(client, game)["npcs"][0]["id"]
    weapon = parse(client.get(game["edit_url"]).text).by_id("ca-weapon")
    assert "Rifle" in weapon.text() and "Shoot 3 dice" in weapon.text()
    r = post(client, game, "turn", type="character_attack", character_id=ada, npc_id=brute, kind="fight",
             pool="4", weapon_damage="1", _weapon=f"{ada}:0", _faces="6 6 2")
    assert r.status_code == 200, parse(r.text).by_id("turn-news").text()
    assert "Shoot, 3 dice" in r.text and state(client, game)["npcs"][0]["damage"] == 3  # 2 + 1 extra
