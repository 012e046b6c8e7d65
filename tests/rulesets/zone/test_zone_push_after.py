"""Z2 (issue 19): a Character rolls, looks, then decides to push (Z-PUSH-AFTER). The quick
reference: "You can push the roll normally", "As usual, you risk fatigue and the weapon risks being
damaged every time you re-roll." A push comes after the roll, never before it."""

from __future__ import annotations

import pytest

from app.kernel.commands import Refused
from tests.rulesets.zone.zone_kit import game, run

TOUGH = {"name": "Brute", "role": "hunter", "attributes": {"strength": 8}}


def attack(state, **fields):
    body = {"type": "character_attack", "character_id": "c1", "npc_id": "n3", "pool": 4,
            "weapon_damage": 2, **fields}
    return run(state, body)


def test_z_push_after_an_attack_is_never_pushed_unless_asked_and_a_hit_costs_no_fatigue():
    """Z-PUSH-AFTER: the roll stands as rolled; a success is not pushed behind the player's back."""
    state = game(npcs=[TOUGH])
    state, _ = attack(state, faces=[6, 3, 2, 1])
    assert state.bot("n3").damage == 2 and state.character("c1").fatigue == 0
    assert state.character("c1").last_roll is not None  # seen, and may now be pushed


def test_z_push_after_the_push_rerolls_the_entered_dice_and_adds_what_it_brings():
    """"You can push the roll normally": the dice showing neither a success nor a 1 are rolled again;
    the push adds its successes to the attack (nothing already dealt is rewritten)."""
    state = game(npcs=[TOUGH])
    state, _ = attack(state, pool={"base": 2, "skill": 2}, faces=[3, 6, 2, 1])  # one success: 2 damage
    state, entries = run(state, {"type": "push_roll", "character_id": "c1", "faces": [1, 6]})
    brute = state.bot("n3")
    assert brute.damage == 3  # two successes now: 2 + 1 extra, not 2 + 3
    # Z-PUSH-COST: one 1 on the base dice (the first two) after the push: Fight costs Strength;
    # the skill die's 1 costs nothing
    assert state.character("c1").damage == 1 and state.character("c1").fatigue == 0
    assert any(e.rule == "Z-PUSH-AFTER" for e in entries)
    assert state.character("c1").last_roll is None  # pushed once


def test_z_push_after_a_miss_pushed_into_a_hit_and_a_knock_down():
    state = game(npcs=[TOUGH])
    state, _ = attack(state, faces=[2, 3, 4, 5], stunts=["knock_down"])
    assert state.bot("n3").damage == 0 and not state.bot("n3").prone
    state, _ = run(state, {"type": "push_roll", "character_id": "c1", "faces": [6, 6, 2, 2]})
    assert state.bot("n3").prone and state.bot("n3").damage == 2


def test_z_push_after_the_players_dice_as_a_count_of_successes_then_pushed_as_a_count():
    """The player's dice as `successes` (a count) and the 1s among them."""
    state = game(npcs=[TOUGH])
    state, _ = attack(state, successes=0, ones=1)
    assert state.bot("n3").damage == 0
    state, _ = run(state, {"type": "push_roll", "character_id": "c1", "successes": 2, "ones": 2})
    # a typed total is all skill dice (Z-POOL): its 1s cost nothing
    assert state.bot("n3").damage == 3 and state.character("c1").fatigue == 0


def test_z_push_after_the_app_rolls_the_push_when_no_faces_are_given():
    state = game(npcs=[TOUGH])
    state, _ = attack(state, faces=[2, 3, 4, 5])
    state, entries = run(state, {"type": "push_roll", "character_id": "c1"})
    pushed = [e for e in entries if e.dice]
    assert pushed and pushed[0].dice["pushes"] == 1


@pytest.mark.parametrize("why, steps", [
    ("no roll yet", []),
    ("pushed already", [{"type": "push_roll", "character_id": "c1", "faces": [3, 3, 3]}]),
    ("a new round", [{"type": "end_round"}]),
])
def test_z_push_after_a_roll_is_pushed_once_and_only_in_its_round(why, steps):
    state = game(npcs=[TOUGH])
    if why != "no roll yet":
        state, _ = attack(state, faces=[6, 3, 2, 4])
    for step in steps:
        state, _ = run(state, step)
    with pytest.raises(Refused):
        run(state, {"type": "push_roll", "character_id": "c1"})


def test_z_push_after_the_pushed_faces_must_match_the_rerolled_dice():
    state = game(npcs=[TOUGH])
    state, _ = attack(state, faces=[6, 3, 2, 1])
    with pytest.raises(Refused):
        run(state, {"type": "push_roll", "character_id": "c1", "faces": [6]})
    with pytest.raises(Refused):  # more successes than dice
        attack(state, successes=3, ones=2)


def test_an_attack_picks_a_weapon_from_the_characters_sheet_z_shoot():
    """Z-SHOOT, Z-CLOSE: "When you attack someone at a distance you roll for the Shoot skill": a
    picked weapon gives the sheet's Shoot (or Fight) + its bonus, and its damage."""
    state = game(characters=(), npcs=[TOUGH])
    sheet = {"name": "Ada", "fight": 2, "shoot": 3,
             "weapons": [{"name": "Knife", "damage": 1}, {"name": "Rifle", "damage": 2, "ranged": True, "bonus": 1}]}
    state, _ = run(state, {"type": "add_character", "character": sheet})
    cid, nid = state.characters[0].id, state.npcs[0].id
    state, entries = run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 1,
                                 "faces": [6, 2, 2, 2]})  # Shoot 3 + the rifle's 1
    assert state.bot(nid).damage == 2 and "Shoot, 4 dice" in entries[0].text
    knife, _ = run(state, {"type": "end_round"})
    knife, _ = run(knife, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0,
                           "faces": [6, 2]})  # Fight 2: the knife's damage 1
    assert knife.bot(nid).damage == 3
    with pytest.raises(Refused):  # no third weapon on the sheet
        run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 2, "faces": [6]})
    with pytest.raises(Refused):  # neither dice nor a weapon
        run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid})
