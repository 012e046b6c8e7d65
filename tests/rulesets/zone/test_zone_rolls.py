"""Roll, look, push (the Year Zero-style reference): stunts chosen after the roll, full automatic
fire for Characters, a pool that knows its dice, grapple and disarm that hold, dying a day later,
recovering from Broken."""

from __future__ import annotations

import pytest

from app.kernel.commands import Refused
from tests.rulesets.zone.zone_kit import activate, game, run, seen

BRUTE = {"name": "Brute", "role": "hunter", "attributes": {"strength": 8}}
SMG = {"name": "SMG", "ranged": True, "full_auto": True, "bullets": 3, "damage": 1, "reach": "short", "bonus": 1}


def attack(state, **fields):
    body = {"type": "character_attack", "character_id": "c1", "npc_id": "n3", "pool": 4, "weapon_damage": 1}
    return run(state, {**body, **fields})


def with_sheet(sheet: dict, npcs=(BRUTE,)):
    state = game(characters=(), npcs=list(npcs))
    state, _ = run(state, {"type": "add_character", "character": sheet})
    return state, state.characters[0].id, state.npcs[0].id


# --- Z-PUSH-AFTER: "You can push the roll normally" ---------------------------------------------


def test_z_push_after_push_true_never_pushes_a_roll_that_already_hits():
    """Z-PUSH-AFTER: the push is decided after seeing the roll: `push: true` pushes only a roll
    with no success (three 6s stand as rolled)."""
    state = game(npcs=[BRUTE])
    state, entries = attack(state, pool=3, faces=[6, 6, 6], push=True, push_faces=[])
    assert all(e.dice is None or e.dice["pushes"] == 0 for e in entries)
    assert state.bot("n3").damage == 3  # a hit and two extra damage
    state, _ = run(state, {"type": "end_round"})
    state, entries = attack(state, pool=3, faces=[2, 3, 1], push=True, push_faces=[6, 2])
    assert any(e.dice and e.dice["pushes"] == 1 for e in entries) and state.bot("n3").damage == 4


def test_z_push_after_only_before_anyone_else_acts():
    """Z-PUSH-AFTER: only the model that rolled may push, and only before anyone else acts."""
    state = game(npcs=[BRUTE, {"name": "G", "role": "hunter"}])
    state, _ = attack(state, faces=[2, 2, 2, 2])
    assert state.character("c1").last_roll is not None
    state, _ = run(state, {"type": "character_maneuver", "character_id": "c2", "maneuver": "move"})
    with pytest.raises(Refused) as refused:
        run(state, {"type": "push_roll", "character_id": "c1"})
    assert refused.value.rule == "Z-PUSH-AFTER"
    state, _ = run(state, {"type": "end_round"})
    state, _ = attack(state, faces=[2, 2, 2, 2])
    state, _ = activate(state, "n4", seen(("c1", "short", True)))  # an NPC acts: the push is gone
    assert state.character("c1").last_roll is None


def test_z_push_after_the_push_adds_and_never_rewrites_what_was_dealt():
    """Z-PUSH-AFTER: a push keeps every success, so what the first roll dealt stays; the push
    adds its own (`stunt` for the success it bought)."""
    state = game(npcs=[BRUTE])
    state, _ = attack(state, faces=[6, 2, 3, 4], stunts=["fatigue"])
    assert (state.bot("n3").damage, state.bot("n3").fatigue) == (1, 0)
    state, _ = run(state, {"type": "push_roll", "character_id": "c1", "faces": [6, 2, 2], "stunt": "knock_down"})
    assert (state.bot("n3").damage, state.bot("n3").prone) == (1, True)


# --- Z-STUNTS: "one additional point of damage each" … any mix -----------------------------------


def test_z_stunts_one_per_extra_success_any_mix_knock_down_and_disarm_from_one_roll():
    """Z-STUNTS: "You knock or pull a weapon or other object from your opponent", "Your opponent
    falls to the ground or is pushed back", "You inflict one additional point of damage each":
    chosen after the roll, one per extra success, in any mix."""
    state = game(npcs=[BRUTE])
    state, entries = attack(state, faces=[6, 6, 6, 6], stunts=["knock_down", "disarm", "damage"])
    brute = state.bot("n3")
    assert (brute.prone, brute.disarmed, brute.damage) == (True, True, 2)


def test_z_stunts_a_grapple_holds_the_npc_which_does_not_walk_away():
    """Z-GRAPPLE: "You hold the opponent in a grapple": the grappled NPC does not move; its card
    says so and that it may only fight the one holding it."""
    state = game(npcs=[{"name": "G", "role": "hunter", "attributes": {"strength": 5}}])
    state, _ = attack(state, faces=[6, 6, 2, 2], stunts=["grapple"])
    assert state.bot("n3").grappled_by == "c1"
    state, _ = activate(state, "n3", seen(("c1", "arms_length", True), ("c2", "near", True)))
    card = state.decision("n3")
    assert all(a.name != "move" for a in card.actions) and "grapple" in card.note
    assert [(a.name, a.target_id) for a in card.actions] == [("fight", "c1")]
    state, _ = run(state, {"type": "end_grapple", "npc_id": "n3"})
    assert state.bot("n3").grappled_by is None


def test_z_disarm_a_disarmed_npcs_pending_shot_is_cancelled():
    """Z-DISARM: "Your target drops a weapon or another handheld object": its pending shot is
    cancelled; it picks the weapon up with a maneuver next round (Z-PICK-UP)."""
    gunner = {"name": "G", "role": "hunter", "attributes": {"strength": 5}, "shoot": 3,
              "gun": {"name": "Rifle", "damage": 2, "reach": "long", "bullets": 5}}
    state = game(npcs=[gunner])
    state, _ = activate(state, "n3", seen(("c1", "short", True)))
    assert any(a.name == "shoot" and a.status == "pending" for a in state.decision("n3").actions)
    state, entries = attack(state, faces=[6, 6, 2, 2], stunts=["disarm"])
    assert [a.status for a in state.decision("n3").actions if a.name == "shoot"] == ["cancelled"]
    assert any("disarmed" in e.text and e.rule == "Z-OUT" for e in entries)


# --- Z-FULL-AUTO: "Every re-roll costs you one bullet" -------------------------------------------


def test_z_full_auto_a_character_pushes_again_and_again_a_bullet_each_until_none_left():
    """Z-FULL-AUTO: "You can push the roll normally – but it will cost you one extra bullet. You
    can then continue to push the roll, again and again. Every re-roll costs you one bullet."
    """
    state, cid, nid = with_sheet({"name": "Ada", "shoot": 2, "weapons": [SMG]})
    state, _ = run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0,
                           "faces": [2, 3, 4]})
    assert state.character(cid).weapons[0].bullets == 2  # the shot
    state, _ = run(state, {"type": "push_roll", "character_id": cid, "faces": [2, 3, 4]})
    state, _ = run(state, {"type": "push_roll", "character_id": cid, "faces": [2, 3, 4]})
    assert state.character(cid).weapons[0].bullets == 0
    with pytest.raises(Refused):  # no bullet left to push with
        run(state, {"type": "push_roll", "character_id": cid})


def test_z_full_auto_a_push_that_breaks_the_shooter_ends_the_pushing_before_the_hit():
    """Z-FULL-AUTO: "until you run out of bullets or until you collapse": a push whose base 1s
    break the shooter's Agility ends the pushing; the pushed roll still hits."""
    state, cid, nid = with_sheet({"name": "Ada", "attributes": {"agility": 1}, "shoot": 1,
                                  "weapons": [{**SMG, "bullets": 9}]})
    state, _ = run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0,
                           "faces": [3, 2]})  # 1 base (Agility), 1 gear
    state, entries = run(state, {"type": "push_roll", "character_id": cid, "faces": [1, 6]})
    ada = state.character(cid)
    assert ada.broken and ada.last_roll is None and state.bot(nid).damage == 1
    assert ada.fatigue == 1  # Shoot: a pushed base 1 is fatigue (Agility)


def test_z_full_auto_an_npc_stops_pushing_when_it_collapses():
    """Z-FULL-AUTO for NPCs: collapse is checked between pushes."""
    raider = {"name": "R", "role": "hunter", "attributes": {"agility": 1}, "shoot": 1,
              "gun": {"name": "SMG", "damage": 1, "reach": "short", "bullets": 9, "full_auto": True}}
    state = game(npcs=[raider])
    state, _ = activate(state, "n3", seen(("c1", "short", True)))
    aimed = any(a.name == "aim" for a in state.decision("n3").actions)
    faces = [2, 3] if aimed else [2]
    state, entries = run(state, {"type": "npc_attack", "npc_id": "n3", "faces": faces,
                                 "pushes": [[1] + [2] * (len(faces) - 1), [6] * len(faces)]})
    assert state.bot("n3").broken and any("collapses" in e.text for e in entries)
    assert state.bot("n3").gun.bullets == 9 - 2  # the shot and one push


# --- Z-POOL, Z-PUSH-COST, Z-GEAR: the pool knows its dice -----------------------------------------


def test_z_pool_a_pushed_1_on_a_base_die_is_trauma_on_a_gear_die_damages_the_weapon():
    """Z-PUSH-COST, Z-GEAR: "As usual, you risk fatigue and the weapon risks being damaged every
    time you re-roll": Fight's base 1s cost Strength (damage), gear 1s lower the weapon's bonus."""
    machete = {"name": "Machete", "damage": 2, "bonus": 2}
    state, cid, nid = with_sheet({"name": "Ada", "attributes": {"strength": 3}, "fight": 4, "weapons": [machete]})
    # Fight 4 with Strength 3: 3 base + 1 skill, + 2 gear = 6 dice, faces in that order
    state, entries = run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0,
                                 "faces": [2, 2, 3, 4, 5, 5]})
    assert "3 base, 1 skill, 2 gear" in entries[0].text
    state, _ = run(state, {"type": "push_roll", "character_id": cid, "faces": [1, 6, 2, 1, 1, 3]})
    ada = state.character(cid)
    assert ada.damage == 1 and ada.fatigue == 0  # one base 1 (the skill die's 1 costs nothing)
    assert ada.weapons[0].bonus == 1  # one gear 1


def test_z_pool_a_typed_total_is_all_skill_dice():
    """Z-POOL: a sheet that gives only a total still works: all skill dice, no push cost."""
    state = game(npcs=[BRUTE])
    state, _ = attack(state, pool=3, faces=[2, 2, 2])
    state, _ = run(state, {"type": "push_roll", "character_id": "c1", "faces": [1, 1, 1]})
    assert (state.character("c1").damage, state.character("c1").fatigue) == (0, 0)


def test_z_pool_the_base_dice_follow_the_attribute_as_trauma_left_it():
    state, cid, nid = with_sheet({"name": "Ada", "attributes": {"strength": 3}, "fight": 4,
                                  "weapons": [{"name": "Knife", "damage": 1}]})
    hurt = state.character(cid).model_copy(update={"damage": 2})
    state = state.model_copy(update={"characters": [hurt]})
    with pytest.raises(Refused):  # 1 base + 1 skill = 2 dice now: three faces do not fit
        run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0,
                    "faces": [6, 2, 2]})


# --- Z-DIE-LATER, Z-RECOVER-BROKEN ----------------------------------------------------------------


def test_z_die_later_broken_by_damage_while_starving_dies_after_another_day_never_the_same_day():
    """Z-DIE-LATER: "If broken by damage while starving you will die after another day has
    passed, unless you are given grub."""
    state = game(characters=("Ada",), npcs=[{"name": "G", "role": "hunter", "fight": 6}])  # G is n2
    state, _ = run(state, {"type": "pass_day", "reports": [{"character_id": "c1", "ate": False}]})
    assert state.character("c1").starving
    state, _ = activate(state, "n2", seen(("c1", "arms_length", True)))
    state, _ = run(state, {"type": "npc_attack", "npc_id": "n2", "faces": [6, 6, 6, 2, 2, 2]})
    assert state.character("c1").broken_by() == ["damage"]
    state, _ = run(state, {"type": "pass_day", "reports": [{"character_id": "c1", "ate": False}]})
    assert not state.character("c1").dead  # the day it broke
    state, _ = run(state, {"type": "pass_day", "reports": [{"character_id": "c1", "ate": False}]})
    assert state.character("c1").dead


def test_z_die_later_broken_while_dehydrated_dies_after_another_day():
    """Z-DIE-LATER: "If broken by trauma (of any type) while dehydrated, you will die after
    another day has passed."""
    state = game(characters=("Ada",))
    ada = state.character("c1").model_copy(update={"dehydrated": True, "fatigue": 2})
    state = state.model_copy(update={"characters": [ada]})
    state, _ = run(state, {"type": "pass_day", "reports": [{"character_id": "c1", "drank": False}]})
    assert state.character("c1").broken and not state.character("c1").dead
    state, _ = run(state, {"type": "pass_day", "reports": [{"character_id": "c1", "drank": False}]})
    assert state.character("c1").dead


def test_z_recover_broken_one_point_of_recovery_brings_strength_back_to_1():
    """Z-RECOVER-BROKEN: damage past zero is not stored: "When an attribute score hits zero, you
    are broken", and one point of recovery gives one point back."""
    state = game(characters=("Ada",), npcs=[{"name": "G", "role": "hunter", "fight": 8}])  # G is n2
    state, _ = activate(state, "n2", seen(("c1", "arms_length", True)))
    state, _ = run(state, {"type": "npc_attack", "npc_id": "n2", "faces": [6] * 8})
    assert state.character("c1").damage == 3  # not 8: Strength stops at zero
    state, _ = run(state, {"type": "recover", "character_id": "c1", "track": "damage"})
    assert state.character("c1").score("damage") == 1 and not state.character("c1").broken


def test_a_game_saved_before_bullets_were_counted_still_shoots():
    """Z-SHOOT: a Character's gun saved with 0 bullets and no load (bullets were not counted then)
    is taken as "not counted", not as empty; one saved with bullets counts them from there."""
    from tests.rulesets.zone.zone_kit import ZONE

    state = game(characters=(), npcs=[BRUTE])
    saved = state.model_dump(mode="json")
    saved["characters"] = [{"id": "c9", "name": "Old", "shoot": 2, "weapons": [
        {"name": "Rifle", "ranged": True, "damage": 2, "bullets": 0},
        {"name": "Revolver", "ranged": True, "damage": 1, "bullets": 6}]}]
    state = ZONE.load(saved)
    assert [w.bullets for w in state.character("c9").weapons] == [None, 6]
    state, _ = run(state, {"type": "character_attack", "character_id": "c9", "npc_id": "n1", "weapon": 0,
                           "faces": [6, 2]})
    assert state.bot("n1").damage == 2
