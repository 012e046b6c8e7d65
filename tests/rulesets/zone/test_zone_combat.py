"""Zone attacks, stunts, pushing, trauma and the daily conditions (Z-STUNTS, Z-PUSH-*, Z-FULL-AUTO,
Z-TRAUMA, Z-BROKEN, Z-COND-*, Z-RECOVER)."""

from __future__ import annotations

import pytest

from app.kernel.commands import Refused
from app.rulesets.zone.combat import stunts
from app.rulesets.zone.models import Weapon
from tests.rulesets.zone.zone_kit import RIFLE, activate, game, run, seen


@pytest.mark.parametrize("choice, damage, fatigue, effect", [
    ("damage", 4, 0, None), ("fatigue", 2, 2, None), ("disarm", 3, 0, "disarm"), ("knock_down", 3, 0, "knock_down")])
def test_z_stunts_each_success_beyond_the_first_buys_the_chosen_stunt(choice, damage, fatigue, effect):
    """Z-STUNTS, Z-STUNT-CHOICE: 3 successes with a damage-2 weapon."""
    hit = stunts(3, Weapon(damage=2), choice, close=True)
    assert (hit.damage, hit.fatigue, hit.effect) == (damage, fatigue, effect)


def test_z_stunts_a_grapple_is_close_combat_only_and_a_miss_buys_nothing():
    assert stunts(2, Weapon(damage=1), "grapple", close=False).damage == 2
    assert stunts(2, Weapon(damage=1), "grapple", close=True).effect == "grapple"
    assert stunts(0, Weapon(damage=3), "damage", close=True).damage == 0


def shooter(house=None, gun=None):
    state = game(npcs=[{"name": "Sharp", "role": "hunter", "shoot": 2, "gun": gun or RIFLE}])
    if house:
        state = state.model_copy(update={"house": state.house.model_copy(update=house)})
    state, _ = activate(state, "n3", seen(("c1", "long", True)))
    return state


def test_z_stunt_choice_the_npc_buys_extra_damage_by_default_and_z_trauma_lowers_strength():
    state = shooter()
    state, entries = run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [6, 6, 2]})
    ada = state.character("c1")
    assert ada.damage == 3 and ada.score("damage") == 0  # Rifle 2 + 1 extra success
    assert any(e.rule == "Z-BROKEN-STRENGTH" for e in entries)  # Z-BROKEN: Strength at zero


def test_z_push_choice_an_npc_with_no_success_pushes_and_entered_dice_are_asked_for():
    state = shooter()
    with pytest.raises(Refused) as refused:
        run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [1, 3, 4]})
    assert refused.value.rule == "Z-PUSH-CHOICE" and "2 dice" in refused.value.reason
    after, entries = run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [1, 3, 4], "pushes": [[6, 2]]})
    assert after.character("c1").damage == 2
    assert after.bot("n3").fatigue == 1  # Z-PUSH-COST: the 1 after the push


def test_z_push_choice_never_is_a_house_rule():
    state = shooter(house={"npc_push": "never"})
    after, _ = run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [1, 3, 4]})
    assert after.character("c1").damage == 0 and after.bot("n3").gun.bullets == 4


def test_z_full_auto_each_reroll_costs_a_bullet_and_it_pushes_again_and_again():
    state = shooter(gun={**RIFLE, "full_auto": True, "bullets": 4})
    after, entries = run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [2, 3, 4],
                                 "pushes": [[2, 3, 4], [2, 6, 4]]})
    assert after.bot("n3").gun.bullets == 1  # the shot, then two re-rolls
    assert after.character("c1").damage == 2 and any(e.rule == "Z-FULL-AUTO" for e in entries)


def test_z_dice_success_faces_are_a_house_default():
    state = shooter(house={"success_faces": [5, 6]})
    after, _ = run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [5, 2, 2]})
    assert after.character("c1").damage == 2


def test_a_character_attack_knocks_an_npc_down_and_z_prone_it_gets_up_first():
    state = game(npcs=[{"name": "G", "role": "hunter", "attributes": {"strength": 5}}])
    state, _ = run(state, {"type": "character_attack", "character_id": "c1", "npc_id": "n3", "pool": 3,
                           "faces": [6, 6, 1], "stunt": "knock_down"})
    assert state.bot("n3").prone and state.bot("n3").damage == 1
    state, _ = activate(state, "n3", seen(("c1", "arms_length", True)))
    assert [a.name for a in state.decision("n3").actions] == ["get_up", "fight"]


def day(state, **report):
    return run(state, {"type": "pass_day", "reports": [{"character_id": "c1", **report}]})


def test_z_cond_starving_a_day_without_grub_then_one_damage_a_day_then_death_when_broken():
    state = game(characters=("Ada",))
    state, _ = day(state, ate=False)
    assert state.character("c1").starving and state.character("c1").damage == 0
    state, _ = day(state, ate=False)
    assert state.character("c1").damage == 1
    with pytest.raises(Refused):  # cannot restore Strength while starving
        run(state, {"type": "recover", "character_id": "c1", "track": "damage"})
    state = state.model_copy(update={"characters": [state.character("c1").model_copy(update={"damage": 3})]})
    state, _ = day(state, ate=False)  # Z-DIE-LATER: broken today, so not dead today
    assert not state.character("c1").dead
    state, _ = day(state, ate=False)  # "you will die after another day has passed"
    assert state.character("c1").dead


def test_z_cond_dehydrated_the_first_day_without_water_already_costs_a_damage_and_a_fatigue():
    """Z-COND-DEHYDRATED (Z8): "You suffer one point of damage and one point of fatigue per day
    without water" — every such day, the first one too (no "more", unlike grub and sleep)."""
    state = game(characters=("Ada",))
    state, _ = day(state, drank=False)
    ada = state.character("c1")
    assert ada.dehydrated and (ada.damage, ada.fatigue) == (1, 1)


def test_z_cond_dehydrated_one_damage_and_one_fatigue_per_day_and_no_recovery_at_all():
    state = game(characters=("Ada",))
    state, _ = day(state, drank=False)
    state, _ = day(state, drank=False)
    ada = state.character("c1")
    assert ada.dehydrated and (ada.damage, ada.fatigue) == (2, 2)
    with pytest.raises(Refused):
        run(state, {"type": "recover", "character_id": "c1", "track": "doubt"})
    state, _ = day(state, drank=True)
    assert not state.character("c1").dehydrated


def test_z_cond_sleepless_one_more_confusion_and_no_restoring_wits():
    state = game(characters=("Ada",))
    state, _ = day(state, slept=False)
    state, _ = day(state, slept=False)
    assert state.character("c1").confusion == 1
    with pytest.raises(Refused):
        run(state, {"type": "recover", "character_id": "c1", "track": "confusion"})
    state, _ = run(state, {"type": "recover", "character_id": "c1", "track": "damage"})  # Z-RECOVER: others fine


def test_z_cond_hypothermic_a_failed_endure_is_one_damage_and_one_confusion_at_once():
    state = game(characters=("Ada",))
    state, _ = run(state, {"type": "endure_cold", "character_id": "c1", "failed": True})
    ada = state.character("c1")
    assert ada.hypothermic and (ada.damage, ada.confusion) == (1, 1)
    with pytest.raises(Refused):
        run(state, {"type": "recover", "character_id": "c1", "track": "damage"})
    state, _ = run(state, {"type": "warm_up", "character_id": "c1"})
    assert not state.character("c1").hypothermic
    state, _ = run(state, {"type": "recover", "character_id": "c1", "track": "damage"})
    assert state.character("c1").damage == 0


def test_z_round_end_round_lets_every_npc_act_again():
    state = shooter()
    state, entries = run(state, {"type": "end_round"})
    assert state.round == 2 and state.decisions == [] and "unresolved" in entries[0].text


def test_z_cond_hypothermic_broken_by_damage_dies_the_next_time_called_upon_to_roll():
    """"If broken by damage when hypothermic, you die the next time you are called upon to roll."""
    state = game(characters=("Ada",))
    state, _ = run(state, {"type": "endure_cold", "character_id": "c1", "failed": True})
    state = state.model_copy(update={"characters": [state.character("c1").model_copy(update={"damage": 3})]})
    state, _ = run(state, {"type": "endure_cold", "character_id": "c1", "failed": False})
    assert state.character("c1").dead
