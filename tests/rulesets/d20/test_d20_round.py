"""d20 ruleset: the round as commands on a game state — an NPC's turn stored with its pending
attack, attacks each way with entered or rolled dice, Dying on the turn, the end of the round."""

from __future__ import annotations

from random import Random

import pytest

from app.kernel.commands import EntryRecord, Refused
from app.rulesets.d20 import play_npc, play_roster, play_round, play_tracker  # noqa: F401  (registers the commands)
from app.rulesets.d20.commands import HANDLERS
from app.rulesets.d20.game import D20State
from app.rulesets.d20.play_round import attack_preview

BODIES = {name: (body, fn) for name, body, fn in HANDLERS}
RAIDER = {"name": "Raider", "role": "hunter", "attributes": {"vigor": 2}, "skills": {"blade_waltz": 2},
          "defense": 13, "hp": 9, "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"}]}
ADA = {"name": "Ada", "attributes": {"agility": 3}, "skills": {"arrow_time": 2}, "defense": 14, "hp": 8,
       "weapons": [{"name": "Bow", "kind": "ranged", "damage": "1d8", "short": 10, "long": 30}]}


def run(state, name, seed=1, **fields):
    body_type, handler = BODIES[name]
    new, entries = handler(state, body_type.model_validate(fields), Random(seed))
    for entry in entries:
        EntryRecord.model_validate(entry.as_dict())  # the shell stores and imports every entry
    return new, entries


@pytest.fixture
def table():
    state, _ = run(D20State(), "add_character", character=ADA)
    state, _ = run(state, "add_npc", npc=RAIDER)
    return state


def test_D20_TURN_an_npc_turn_is_stored_with_its_attack_pending(table):
    state, entries = run(table, "npc_turn", npc_id="n2",
                         seen=[{"character_id": "c1", "distance": 4, "line_of_sight": True}])
    turn = state.turn_of("n2")
    assert [(s.slot, s.action, s.status) for s in turn.steps] == [
        ("move", "move", "done"), ("action", "attack", "pending"), ("reaction", "ready", "done")]
    assert turn.steps[1].target_id == "c1" and turn.steps[1].odds["p_hit"] == pytest.approx(13 / 20)  # 2 + 2 + 2 vs DEF 14: 8 or more
    assert [e.rule for e in entries] == ["D20-ROLE-HUNTER", "D20-ACTION-PRIORITY", "D20-AOO"]
    with pytest.raises(Refused):
        run(state, "npc_turn", npc_id="n2")


def test_D20_ATTACK_MELEE_the_npcs_attack_hits_and_the_card_is_done(table):
    state, _ = run(table, "npc_turn", npc_id="n2", seen=[{"character_id": "c1", "distance": 2, "line_of_sight": True}])
    state, entries = run(state, "attack", attacker_id="n2", target_id="c1", natural=12, damage=5)
    assert state.character("c1").hp == 3 and entries[0].rule == "D20-DAMAGE"
    assert entries[0].dice["by"] == "entered" and entries[0].dice["natural"] == 12
    assert state.turn_of("n2").steps[1].status == "done"


def test_D20_ATTACK_RANGED_a_characters_shot_with_the_app_rolling(table):
    state, entries = run(table, "attack", seed=5, attacker_id="c1", target_id="n2", range="long", cover="light")
    natural = entries[0].dice["natural"]
    total = natural + 2 + 3 + 2 - 2
    hit = natural == 20 or (natural != 1 and total >= 13 + 1)
    assert (state.bot("n2").hp < 9) == hit


def test_D20_CRIT_a_natural_20_rolls_double_damage_dice(table):
    state, entries = run(table, "attack", attacker_id="c1", target_id="n2", natural=20)
    assert entries[0].rule == "D20-CRIT" and len(entries[0].dice["faces"]) == 1 + 2


def test_D20_GLITCH_a_natural_1_costs_the_attacker_its_next_minor(table):
    state, entries = run(table, "attack", attacker_id="c1", target_id="n2", natural=1)
    assert "glitched" in state.character("c1").conditions and entries[0].rule == "D20-GLITCH"
    state, _ = run(state, "end_round")
    assert "glitched" in state.character("c1").conditions and state.round == 2  # its next turn's Minor
    state, entries = run(state, "start_turn", member_id="c1")
    assert "glitched" not in state.character("c1").conditions and entries[-1].rule == "D20-GLITCH"


def test_D20_GLITCH_an_npc_that_glitched_decides_its_next_turn_without_a_minor(table):
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Gunner", "wielding": "Machete", "weapons": [
        RAIDER["weapons"][0], {"name": "Rifle", "kind": "ranged", "damage": "1d10", "short": 10, "long": 30}]})
    state, _ = run(state, "attack", attacker_id="n3", target_id="c1", natural=1)
    state, _ = run(state, "end_round")
    state, _ = run(state, "npc_turn", npc_id="n3", seen=[{"character_id": "c1", "distance": 9, "line_of_sight": True}])
    turn = state.turn_of("n3")
    assert all(s.slot != "minor" for s in turn.steps)  # no Minor to draw the Rifle
    assert next(u for u in turn.unused if u.slot == "minor").rule == "D20-GLITCH"
    assert "glitched" not in state.bot("n3").conditions


def test_D20_AOO_a_reaction_attack_spends_the_reaction_once_a_round(table):
    state, _ = run(table, "attack", attacker_id="n2", target_id="c1", natural=2, reaction=True)
    assert state.bot("n2").reaction_used
    with pytest.raises(Refused):
        run(state, "attack", attacker_id="n2", target_id="c1", reaction=True)
    state, _ = run(state, "end_round")
    assert not state.bot("n2").reaction_used


def test_D20_DYING_a_drop_to_0_then_the_save_on_its_turn(table):
    state, entries = run(table, "attack", attacker_id="c1", target_id="n2", natural=15, damage=20)
    raider = state.bot("n2")
    assert (raider.hp, raider.dying, raider.wounded) == (0, 1, 1) and entries[-1].rule == "D20-DYING"
    state, entries = run(state, "npc_turn", npc_id="n2", natural=3)
    assert state.bot("n2").dying == 2 and entries[0].rule == "D20-DYING-SAVE"
    assert state.turn_of("n2").steps == []


def test_D20_KO_a_non_lethal_blow_knocks_out(table):
    state, entries = run(table, "attack", attacker_id="c1", target_id="n2", natural=15, damage=20, lethal=False)
    assert "unconscious" in state.bot("n2").conditions and [e.rule for e in entries[-2:]] == ["D20-KO", "D20-DURATION"]


def test_D20_COND_BLEEDING_a_bleeding_npc_can_fall_dying_at_the_start_of_its_turn(table):
    state, _ = run(table, "adjust", member_id="n2", hp=2)
    state, _ = run(state, "set_condition", member_id="n2", condition="bleeding")
    state, entries = run(state, "npc_turn", npc_id="n2", bleed=3)
    assert state.bot("n2").dying == 1 and [e.rule for e in entries][:2] == ["D20-COND-BLEEDING", "D20-DYING"]


def test_D20_STABILIZE_and_D20_SHORT_REST_as_commands(table):
    state, _ = run(table, "attack", attacker_id="n2", target_id="c1", natural=15, damage=30)
    state, _ = run(state, "stabilize", member_id="c1", medicine_total=12)
    assert (state.character("c1").hp, state.character("c1").dying) == (1, 0)
    state, _ = run(state, "rest", member_id="c1", kind="short", rolled=4)
    assert state.character("c1").hp == 5


def test_D20_FACTS_a_character_out_of_action_is_no_target(table):
    state, _ = run(table, "adjust", member_id="c1", dying=2, hp=0)
    state, _ = run(state, "npc_turn", npc_id="n2", direction=4,
                   seen=[{"character_id": "c1", "distance": 2, "line_of_sight": True}])
    assert state.turn_of("n2").steps[0].action == "random_move"


def test_the_roster_refuses_a_second_model_with_the_same_name(table):
    with pytest.raises(Refused):
        run(table, "add_character", character={**ADA})


def test_D20_ROLE_PATROL_advances_its_waypoint_when_reached(table):
    state, _ = run(table, "add_npc", npc={"name": "Beat", "role": "patrol", "waypoints": ["A", "B"]})
    state, _ = run(state, "npc_turn", npc_id="n3", waypoint_distance=5)
    assert state.bot("n3").next_waypoint == 1


def test_D20_PARRY_the_target_spends_its_reaction_for_plus_2_def_against_melee(table):
    state, entries = run(table, "attack", attacker_id="n2", target_id="c1", natural=9, parried=True)
    assert "against DEF 16" in entries[0].text and state.character("c1").reaction_used
    with pytest.raises(Refused):
        run(state, "attack", attacker_id="n2", target_id="c1", parried=True)
    with pytest.raises(Refused):
        run(table, "attack", attacker_id="c1", target_id="n2", weapon="Bow", parried=True)


def test_D20_BRAIN_REACTION_an_npc_with_parry_parries_a_melee_attack_by_itself(table):
    state, _ = run(table, "add_character", character={**ADA, "name": "Bo", "weapons": [
        {"name": "Club", "kind": "melee", "damage": "1d6"}]})
    state, _ = run(state, "add_npc", npc={**RAIDER, "name": "Guard", "features": ["parry"]})
    state, entries = run(state, "attack", attacker_id="c3", target_id="n4", natural=10)
    assert entries[0].rule == "D20-PARRY" and "against DEF 15" in entries[1].text
    assert state.bot("n4").reaction_used
    state, _ = run(state, "end_round")  # Bo's Action is spent this round (D20-TURN-BUDGET)
    _, plain = run(state, "attack", attacker_id="c3", target_id="n2", natural=10)
    assert "against DEF 13" in plain[0].text and not any(e.rule == "D20-PARRY" for e in plain)


def test_D20_COND_TEMPORAL_a_displaced_npc_skips_its_turn_returns_and_is_immune_for_one_round(table):
    state, _ = run(table, "set_condition", member_id="n2", condition="temporal_displacement")
    state, entries = run(state, "npc_turn", npc_id="n2", seen=[{"character_id": "c1", "distance": 1, "line_of_sight": True}])
    assert state.turn_of("n2").steps == [] and entries[-1].rule == "D20-COND-TEMPORAL"
    assert state.bot("n2").conditions == ["temporal_immune"]
    state, entries = run(state, "set_condition", member_id="n2", condition="temporal_displacement")
    assert state.bot("n2").conditions == ["temporal_immune"] and "immune" in entries[0].text
    state, _ = run(state, "end_round")
    state, _ = run(state, "npc_turn", npc_id="n2", seen=[{"character_id": "c1", "distance": 1, "line_of_sight": True}])
    assert state.bot("n2").conditions == [] and state.turn_of("n2").steps[0].action == "attack"


SEEN_ADA_FAR = [{"character_id": "c1", "distance": 9, "line_of_sight": False}]


def test_D20_COND_PRONE_an_npc_that_stands_with_its_minor_is_no_longer_prone(table):
    """"Prone: melee attackers gain Edge; ranged vs you at -2; stand = Minor." (issue 20 D1: the card
    said it stood, the state kept Prone, attackers kept Edge and it stood again every round)."""
    state, _ = run(table, "set_condition", member_id="n2", condition="prone")
    assert attack_preview(state, "c1", "n2", "unarmed strike", "short", "none")["mode"] == "edge"
    state, _ = run(state, "npc_turn", npc_id="n2", seen=SEEN_ADA_FAR, direction=2)
    assert state.turn_of("n2").steps[0].action == "stand"
    assert "prone" not in state.bot("n2").conditions
    assert attack_preview(state, "c1", "n2", "unarmed strike", "short", "none")["mode"] == "normal"
    state, _ = run(state, "end_round")
    state, _ = run(state, "npc_turn", npc_id="n2", seen=SEEN_ADA_FAR, direction=2)
    assert all(s.action != "stand" for s in state.turn_of("n2").steps)


def test_D20_REACTION_a_parry_before_its_turn_is_not_back_for_a_second_parry_that_round(table):
    """"Reaction (1/round): ... Parry ..." (issue 20 D5: the Reaction came back with the NPC's turn)."""
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Guard", "features": ["parry"]})
    state, _ = run(state, "attack", attacker_id="n2", target_id="n3", natural=10, parried=True)
    state, _ = run(state, "npc_turn", npc_id="n3", seen=SEEN_ADA_FAR, direction=1)
    assert state.bot("n3").reaction_used
    with pytest.raises(Refused):
        run(state, "attack", attacker_id="n2", target_id="n3", natural=10, parried=True)
    state, _ = run(state, "end_round")
    assert not state.bot("n3").reaction_used


def test_D20_FACTS_a_sentry_turn_without_the_squares_to_its_subject_is_refused_naming_the_field(table):
    """A fact never given is never assumed (issue 20 D6: it was taken as 0)."""
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Warden", "role": "sentry", "subject": "Gate"})
    with pytest.raises(Refused) as refused:
        run(state, "npc_turn", npc_id="n3", seen=SEEN_ADA_FAR)
    assert "subject_distance" in refused.value.reason and "Gate" in refused.value.reason
    state, _ = run(state, "npc_turn", npc_id="n3", seen=SEEN_ADA_FAR, subject_distance=0)
    assert state.turn_of("n3") is not None


def test_D20_ROLE_PATROL_on_its_waypoint_without_the_next_squares_keeps_its_turn_and_is_asked(table):
    """Issue 20 D7: the turn was stored empty and the Patrol lost it."""
    state, _ = run(table, "add_npc", npc={"name": "Beat", "role": "patrol", "waypoints": ["A", "B"]})
    with pytest.raises(Refused) as refused:
        run(state, "npc_turn", npc_id="n3", waypoint_distance=0)
    assert "next_waypoint_distance" in refused.value.reason and "B" in refused.value.reason
    state, _ = run(state, "npc_turn", npc_id="n3", waypoint_distance=0, next_waypoint_distance=20)
    assert state.turn_of("n3").steps[0].action == "move" and state.bot("n3").next_waypoint == 1


def test_D20_MINOR_DRAW_a_drawn_weapon_stays_in_hand_for_the_next_turn(table):
    """"Minor: Draw/sling weapon ..." (issue 20 D8: the NPC drew the same weapon every turn)."""
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Slinger", "wielding": "Machete", "weapons": [
        RAIDER["weapons"][0], {"name": "Rifle", "kind": "ranged", "damage": "1d10", "short": 10, "long": 30}],
        "attributes": {"agility": 3}, "skills": {"arrow_time": 3}})
    seen = [{"character_id": "c1", "distance": 6, "line_of_sight": True}]
    state, _ = run(state, "npc_turn", npc_id="n3", seen=seen)
    assert [s.action for s in state.turn_of("n3").steps][:2] == ["draw", "attack"]
    assert state.bot("n3").wielding == "Rifle"
    state, _ = run(state, "end_round")
    state, _ = run(state, "npc_turn", npc_id="n3", seen=seen)
    assert [s.action for s in state.turn_of("n3").steps][0] == "attack"


def test_D20_DYING_SAVE_an_npc_that_makes_its_save_takes_no_other_action_that_turn(table):
    """"On your turn: Vigor Save DC 10 + Wounded." / "Success: stabilize (HP 1)." (issue 20 D9: the
    stabilised NPC then acted the same turn)."""
    state, _ = run(table, "attack", attacker_id="c1", target_id="n2", natural=15, damage=20)
    state, entries = run(state, "npc_turn", npc_id="n2", natural=19,
                         seen=[{"character_id": "c1", "distance": 1, "line_of_sight": True}])
    assert (state.bot("n2").hp, state.bot("n2").dying) == (1, 0) and entries[0].rule == "D20-DYING-SAVE"
    turn = state.turn_of("n2")
    assert turn.steps == [] and {u.rule for u in turn.unused} == {"D20-DYING-SAVE"}


def test_D20_INTERCEPT_spends_the_interceptors_reaction_and_a_second_is_refused(table):
    """"Reaction (1/round): ... Intercept ..." (issue 20 D10: Intercept spent no Reaction)."""
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Guard", "features": ["intercept", "parry"]})
    state, entries = run(state, "attack", attacker_id="c1", target_id="n3", weapon="Bow", natural=12,
                         intercept=True)
    assert state.bot("n3").reaction_used and entries[0].rule == "D20-INTERCEPT"
    with pytest.raises(Refused):
        run(state, "attack", attacker_id="c1", target_id="n3", weapon="Bow", natural=12, intercept=True)
    _, melee = run(state, "attack", attacker_id="n2", target_id="n3", natural=12)  # no Reaction left to Parry
    assert not any(e.rule == "D20-PARRY" for e in melee)


def test_a_ready_sheet_fills_only_what_the_player_did_not_give():
    """Issue 20: five stat blocks cost 56 inputs; a ready sheet (starters.py) fills the rest."""
    state, _ = run(D20State(), "add_npc", npc={"name": "Gun", "starter": "gunner", "role": "sentry",
                                                 "subject": "Gate", "hp": 20})
    gun = state.npcs[0]
    assert (gun.hp, gun.max_hp, gun.defense, gun.role, gun.subject) == (20, 20, 13, "sentry", "Gate")
    assert [w.name for w in gun.weapons] == ["Pistol", "Knife"] and gun.skills["arrow_time"] == 2
    state, _ = run(state, "add_character", character={"name": "Doc", "starter": "medic"})
    assert state.characters[0].skills["medicine"] == 4 and state.characters[0].id == "c2"


def test_the_ready_sheets_are_the_ones_the_command_accepts():
    from typing import get_args

    from app.rulesets.d20.commands import Starter
    from app.rulesets.d20.starters import STARTERS
    assert set(get_args(Starter)) == set(STARTERS)
    for key in STARTERS:  # every ready sheet is a valid stat block
        run(D20State(), "add_npc", npc={"name": "X", "starter": key})


def test_duplicate_adds_a_fresh_numbered_copy_of_the_stat_block(table):
    state, _ = run(table, "attack", attacker_id="c1", target_id="n2", natural=15, damage=20)
    state, _ = run(state, "set_condition", member_id="n2", condition="prone")
    state, entries = run(state, "duplicate", member_id="n2")
    copy = state.npcs[-1]
    assert (copy.name, copy.id, copy.role, copy.weapons) == ("Raider 2", "n3", "hunter", state.npcs[0].weapons)
    assert (copy.hp, copy.dying, copy.wounded, copy.conditions) == (9, 0, 0, [])
    state, _ = run(state, "duplicate", member_id="n3")
    assert state.npcs[-1].name == "Raider 3"
    body, handler = BODIES["duplicate"]
    state, _ = handler(state, body(member_id="c1", name="Ada's twin"), Random(1))
    assert state.characters[-1].name == "Ada's twin"
    with pytest.raises(Refused):
        handler(state, body(member_id="c1", name="Raider"), Random(1))


def test_D20_EFFECT_SAVE_an_npcs_save_against_a_characters_effect_rolls_and_applies_the_condition(table):
    state, entries = run(table, "save", member_id="n2", attribute="vigor", dc=20, natural=5, condition="stunned")
    assert "stunned" in state.bot("n2").conditions and entries[0].rule == "D20-EFFECT-SAVE"
    assert entries[0].dice["natural"] == 5 and entries[0].dice["by"] == "entered"
    state, entries = run(table, "save", seed=3, member_id="n2", attribute="vigor", dc=2, condition="prone")
    # rolled by the app: any d20 + Vigor 2 meets DC 2 (a Save has no natural-1 rule in the reference)
    assert state.bot("n2").conditions == [] and entries[0].dice["by"] == "app" and "resists" in entries[0].text


def test_D20_INITIATIVE_the_tracker_orders_the_turns_and_starts_each_characters_turn_by_itself(table):
    """Issue 20: the initiative tracker. House default d20 + Agility (the reference gives none)."""
    state, _ = run(table, "add_character", character={**ADA, "name": "Bo", "attributes": {"agility": 1}})
    state, entries = run(state, "set_initiative", rolls=[{"member_id": "n2", "value": 18},
                                                         {"member_id": "c1", "value": 12}])
    assert entries[0].rule == "D20-INITIATIVE"
    bo = next(i.value for i in state.initiative if i.member_id == "c3")
    values = [i.value for i in state.initiative]
    assert values == sorted(values, reverse=True) and sorted(values) == sorted([18, 12, bo])
    assert 2 <= bo <= 21 and f"d20 {bo - 1} +1" in entries[0].text  # d20 + Agility 1, rolled
    state, _ = run(state, "attack", attacker_id="n2", target_id="c1", natural=15, damage=30)  # Ada drops
    order = [i.member_id for i in state.initiative]
    seen = []
    for _ in order:
        state, entries = run(state, "next_turn", natural=20)
        seen.append(state.acting)
        if state.bot(state.acting):  # an NPC's turn is taken before the tracker moves on (D20-TRACKER)
            state, _ = run(state, "npc_turn", npc_id=state.acting, seen=SEEN_ADA_FAR, direction=3)
        if state.acting == "c1":  # a Dying Character's turn begins with its Vigor Save, by itself
            assert any(e.rule == "D20-DYING-SAVE" for e in entries) and state.character("c1").dying == 0
    assert seen == order and state.round == 1
    state, entries = run(state, "next_turn")  # past the last: the round ends, the first acts again
    assert state.round == 2 and state.acting == order[0] and entries[0].rule == "D20-TURN"


def test_D20_INITIATIVE_next_turn_needs_an_order_and_a_removed_creature_leaves_it(table):
    with pytest.raises(Refused):
        run(table, "next_turn")
    state, _ = run(table, "set_initiative", rolls=[{"member_id": "n2", "value": 18}, {"member_id": "c1", "value": 2}])
    state, _ = run(state, "next_turn")
    state, _ = run(state, "remove", member_id="n2")
    assert [i.member_id for i in state.initiative] == ["c1"] and state.acting is None
    with pytest.raises(Refused):
        run(state, "set_initiative", rolls=[{"member_id": "x9", "value": 3}])


def test_D20_INITIATIVE_deciding_the_next_npcs_turn_moves_the_tracker_to_it(table):
    state, _ = run(table, "set_initiative", rolls=[{"member_id": "n2", "value": 18}, {"member_id": "c1", "value": 2}])
    state, _ = run(state, "npc_turn", npc_id="n2", seen=SEEN_ADA_FAR, direction=3)
    assert state.acting == "n2"
    state, entries = run(state, "next_turn")
    assert state.acting == "c1" and "Ada's turn" in entries[0].text


def test_D20_INITIATIVE_the_attack_form_offers_the_acting_character_the_foe_it_attacked_last(table):
    """Issue 20: on a Character's turn the attack form is set to its likely foe: the one it
    attacked last while that one stands, else the NPC that attacked a Character this round,
    else the first NPC still up; nothing for an NPC's turn."""
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Second"})  # n3
    state, _ = run(state, "set_initiative", rolls=[{"member_id": "c1", "value": 20},
                                                    {"member_id": "n2", "value": 5},
                                                    {"member_id": "n3", "value": 4}])
    assert play_tracker.likely_target(state) is None  # nobody acting yet
    state, _ = run(state, "next_turn", natural=15)
    assert play_tracker.likely_target(state) == "n2"  # no history: the first NPC still up
    state, _ = run(state, "attack", attacker_id="c1", target_id="n3", natural=2)
    assert state.character("c1").last_target == "n3"
    assert play_tracker.likely_target(state) == "n3"  # the foe it attacked last
    state, _ = run(state, "remove", member_id="n3")
    assert play_tracker.likely_target(state) == "n2"  # that one is gone: not offered
    state, _ = run(state, "next_turn")  # the Raider's turn: an NPC's, no offer
    assert play_tracker.likely_target(state) is None


@pytest.mark.parametrize("had, grant, exact, kept", [
    pytest.param(0, 5, False, 5, id="a-first-grant"),
    pytest.param(5, 3, False, 5, id="a-lower-grant-does-not-add-up"),
    pytest.param(3, 7, False, 7, id="a-higher-grant-replaces"),
    pytest.param(5, 2, True, 2, id="a-correction-sets-it"),
])
def test_D20_TEMP_HP_grants_do_not_add_up_the_higher_stays(table, had, grant, exact, kept):
    state, _ = run(table, "temp_hp", member_id="c1", amount=had, exact=True)
    state, entries = run(state, "temp_hp", member_id="c1", amount=grant, exact=exact)
    assert state.character("c1").temp_hp == kept and entries[0].rule == "D20-TEMP-HP"
    assert state.character("c1").hp == 8  # temporary HP are not HP


@pytest.mark.parametrize("temp, damage, hp, left, dying", [
    pytest.param(5, 3, 8, 2, 0, id="all-soaked"),
    pytest.param(3, 5, 6, 0, 0, id="the-rest-goes-to-hp"),
    pytest.param(2, 10, 0, 0, 1, id="through-them-to-dying"),
])
def test_D20_TEMP_HP_an_attack_takes_temporary_hp_before_hp(table, temp, damage, hp, left, dying):
    state, _ = run(table, "temp_hp", member_id="c1", amount=temp)
    state, entries = run(state, "attack", attacker_id="n2", target_id="c1", weapon="Machete", natural=19,
                         damage=damage)
    ada = state.character("c1")
    assert (ada.hp, ada.temp_hp, ada.dying) == (hp, left, dying)
    assert any("temporary HP take" in e.text for e in entries)


def test_D20_TEMP_HP_a_long_rest_ends_them_and_the_dead_get_none(table):
    state, _ = run(table, "temp_hp", member_id="c1", amount=4)
    state, _ = run(state, "rest", member_id="c1", kind="long")
    assert state.character("c1").temp_hp == 0
    with pytest.raises(Refused):
        run(state.replace_member(state.character("c1").model_copy(update={"dead": True})), "temp_hp",
            member_id="c1", amount=4)


@pytest.mark.parametrize("given, kept", [
    pytest.param(0, 0, id="at-its-post-it-stays-so-the-squares-hold"),
    pytest.param(20, None, id="it-moves-back-so-they-are-no-longer-known"),
])
def test_D20_FACTS_a_sentrys_squares_to_its_subject_are_kept_only_while_it_has_not_moved(table, given, kept):
    """Issue 20: the next turn's form offers last turn's squares only when that turn moved it
    nowhere; the engine itself never takes them for a turn that does not give them."""
    state, _ = run(table, "add_npc", npc={**RAIDER, "name": "Warden", "role": "sentry", "subject": "Gate"})
    state, _ = run(state, "npc_turn", npc_id="n3", seen=[], subject_distance=given)
    moved = any((s.squares or 0) > 0 for s in state.turn_of("n3").steps)
    assert moved == (kept is None) and state.bot("n3").post_distance == kept
    state, _ = run(state, "end_round")
    with pytest.raises(Refused):
        run(state, "npc_turn", npc_id="n3", seen=[])
