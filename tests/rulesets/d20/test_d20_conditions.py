"""d20 ruleset: the round's economy, conditions with their timing, Dying, knock-outs, rests."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.rulesets.d20.conditions import budget, displace, end_turn, stand_up, start_turn, staunch
from app.rulesets.d20.dying import dying_save, long_rest, short_rest, stabilize, take_damage
from app.rulesets.d20.models import Combatant, HouseRules

BO = Combatant("Bo", attributes={"vigor": 2}, hp=8, max_hp=12, speed=6, hit_dice=2)
RNG = random.Random(4)


def test_D20_TURN_a_round_gives_action_move_minor_and_one_reaction():
    turn = budget(BO)
    assert (turn.action, turn.move, turn.minor, turn.reaction, turn.skip) == (True, 6, True, True, False)
    assert not budget(replace(BO, reaction_used=True)).reaction


def test_D20_REACTION_one_a_round_it_does_not_come_back_at_the_start_of_a_turn():
    """"Reaction (1/round)": it comes back once, when the round ends (play_round.end_round), not
    also at the creature's turn (issue 20 D5)."""
    used = replace(BO, reaction_used=True)
    assert start_turn(used, RNG)[0].reaction_used is True


@pytest.mark.parametrize("condition, field, value", [
    pytest.param("stunned", "action", False, id="D20-COND-STUNNED-loses-its-action"),
    pytest.param("grappled", "move", 0, id="D20-COND-GRAPPLED-speed-0"),
    pytest.param("restrained", "move", 0, id="D20-COND-GRAPPLED-restrained-speed-0"),
    pytest.param("prone", "must_stand", True, id="D20-COND-PRONE-stand-is-a-minor"),
    pytest.param("glitched", "minor", False, id="D20-GLITCH-loses-its-minor"),
    pytest.param("temporal_displacement", "skip", True, id="D20-COND-TEMPORAL-skips-the-turn"),
    pytest.param("unconscious", "skip", True, id="D20-KO-unconscious-has-no-turn"),
])
def test_D20_COND_conditions_take_from_the_turn(condition, field, value):
    assert getattr(budget(BO.with_conditions(condition)), field) == value


def test_D20_COND_PRONE_standing_clears_prone():
    assert not stand_up(BO.with_conditions("prone")).has("prone")


def test_D20_COND_BLEEDING_loses_1d4_at_the_start_of_its_turn_and_medicine_12_staunches():
    bleeding = BO.with_conditions("bleeding")
    after, events = start_turn(bleeding, RNG, bleed=3)
    assert after.hp == 5 and events[0][1] == "D20-COND-BLEEDING"
    rolled = start_turn(bleeding, random.Random(9))[0]
    assert 4 <= rolled.hp <= 7
    assert staunch(bleeding, 11) == (bleeding, False)
    assert not staunch(bleeding, 12)[0].has("bleeding")


def test_D20_COND_TEMPORAL_skip_next_turn_then_immune_for_one_round():
    gone, _ = displace(BO)
    assert budget(gone).skip
    back, events = end_turn(gone)
    assert back.has("temporal_immune") and not back.has("temporal_displacement") and events
    still, why = displace(back)
    assert still == back and "immune" in why
    next_turn, _ = start_turn(back, RNG)
    assert not next_turn.has("temporal_immune")
    assert displace(next_turn)[0].has("temporal_displacement")


def test_D20_GLITCH_the_lost_minor_is_spent_with_the_next_turn_not_at_the_end_of_the_round():
    from app.rulesets.d20.conditions import spend_glitch

    glitched = BO.with_conditions("glitched")
    assert end_turn(glitched)[0].has("glitched")  # a Glitch late in the round still costs the next Minor
    spent, events = spend_glitch(glitched)
    assert not spent.has("glitched") and events[0][1] == "D20-GLITCH"
    assert spend_glitch(BO) == (BO, [])


def test_D20_DYING_at_0_hp_dying_1_and_wounded_1():
    down = take_damage(BO, 20)
    assert (down.combatant.hp, down.combatant.dying, down.combatant.wounded) == (0, 1, 1)
    assert down.rule == "D20-DYING" and budget(down.combatant).skip
    again = take_damage(replace(down.combatant, dying=0, hp=3), 5).combatant
    assert again.wounded == 2  # house default: each drop adds Wounded
    assert take_damage(BO, 20, house=HouseRules(wounded_on_drop="set")).combatant.wounded == 1


@pytest.mark.parametrize("natural, wounded, dying, hp", [
    pytest.param(9, 1, 0, 1, id="D20-DYING-SAVE-success-stabilises-at-1-hp"),  # 9+2 vs DC 11
    pytest.param(8, 1, 2, 0, id="D20-DYING-SAVE-failure-adds-dying"),
    pytest.param(10, 3, 2, 0, id="D20-DYING-SAVE-dc-is-10-plus-wounded"),  # 12 vs 13
])
def test_D20_DYING_SAVE_vigor_save_dc_10_plus_wounded(natural, wounded, dying, hp):
    dying_bo = replace(BO, hp=0, dying=1, wounded=wounded)
    after = dying_save(dying_bo, natural).combatant
    assert (after.dying, after.hp) == (dying, hp)


def test_D20_DEAD_at_dying_4():
    near = replace(BO, hp=0, dying=3, wounded=1)
    change = dying_save(near, 2)
    assert change.combatant.dead and change.rule == "D20-DEAD"
    assert budget(change.combatant).skip


def test_D20_DYING_a_hit_while_dying_worsens_it():
    dying_bo = replace(BO, hp=0, dying=1, wounded=1)
    assert take_damage(dying_bo, 3).combatant.dying == 2
    assert take_damage(dying_bo, 3, critical=True).combatant.dying == 3


def test_D20_STABILIZE_medicine_dc_12():
    dying_bo = replace(BO, hp=0, dying=2, wounded=1)
    assert stabilize(dying_bo, 11).combatant.dying == 2
    saved = stabilize(dying_bo, 12).combatant
    assert (saved.dying, saved.hp) == (0, 1)


def test_D20_KO_non_lethal_drop_is_unconscious_not_dying():
    change = take_damage(BO, 30, lethal=False)
    assert change.combatant.has("unconscious") and change.combatant.dying == 0
    assert change.rule == "D20-KO" and "1d4 minutes" in change.text


def test_D20_SHORT_REST_spends_a_hit_die_for_1d8_plus_vigor():
    rested = short_rest(BO, 1).combatant
    assert (rested.hp, rested.hit_dice) == (8 + 1 + 2, 1)
    capped = short_rest(replace(BO, hp=11), 8).combatant
    assert capped.hp == 12
    assert short_rest(replace(BO, hit_dice=0), 8).combatant.hp == 8


def test_D20_LONG_REST_full_hp_clears_exhausted_and_wounded_minus_1():
    tired = replace(BO, hp=2, wounded=2).with_conditions("exhausted")
    rested = long_rest(tired).combatant
    assert (rested.hp, rested.wounded, rested.has("exhausted")) == (12, 1, False)
    assert long_rest(BO).combatant.wounded == 0


def test_D20_COND_CHARMED_a_charm_or_insight_save_meeting_the_dc_resists():
    from app.rulesets.d20.conditions import resists

    assert resists(14, 14) and not resists(13, 14)


def test_D20_COND_DEAFENED_has_no_attack_or_turn_effect_in_the_app_the_gm_says_which_checks():
    from app.rulesets.d20.attack import situation
    from app.rulesets.d20.models import Weapon

    deaf = BO.with_conditions("deafened")
    blade = Weapon("Knife", "melee", "1d4")
    assert situation(deaf, blade, BO) == situation(BO, blade, BO)
    assert budget(deaf) == budget(BO)


@pytest.mark.parametrize("natural, condition, resisted, after", [
    pytest.param(13, "charmed", True, (), id="D20-EFFECT-SAVE-meets-the-dc-resists"),
    pytest.param(12, "charmed", False, ("charmed",), id="D20-EFFECT-SAVE-misses-takes-the-condition"),
    pytest.param(12, None, False, (), id="D20-EFFECT-SAVE-a-condition-the-effect-does-not-name-is-not-applied"),
])
def test_D20_EFFECT_SAVE_a_save_against_an_effect(natural, condition, resisted, after):
    """"Effects specify Saves and Conditions." / "Charmed/Frightened: Charm/Insight Saves to
    resist." An Insight Save: d20 + Insight 2 against DC 15."""
    from app.rulesets.d20.conditions import effect_save

    seer = Combatant("Seer", attributes={"insight": 2})
    c, ok, text = effect_save(seer, "insight", natural, 15, condition)
    assert (ok, c.conditions) == (resisted, after) and "DC 15" in text
    proficient, ok, _ = effect_save(seer, "insight", 11, 15, "frightened", proficient=True)
    assert ok and proficient.conditions == ()  # 11 + 2 + PB 2 = 15
