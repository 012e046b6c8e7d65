"""d20 keeps the books of a round (docs/rules-d20.md § 7): each test quotes its reading's id and
the sentence of the d20 combat reference it reads."""

from __future__ import annotations

from random import Random

import pytest

from app.kernel.commands import EntryRecord, Refused
from app.rulesets.d20 import play_tracker
from app.rulesets.d20.commands import HANDLERS
from app.rulesets.d20.game import D20State

BODIES = {name: (body, fn) for name, body, fn in HANDLERS}
RAIDER = {"name": "Raider", "role": "hunter", "attributes": {"vigor": 2}, "skills": {"blade_waltz": 2},
          "defense": 13, "hp": 9, "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"}]}
ANN = {"name": "Ann", "attributes": {"agility": 3, "vigor": 1}, "skills": {"arrow_time": 2}, "defense": 14,
       "hp": 8, "hit_dice": 3, "weapons": [{"name": "Bow", "kind": "ranged", "damage": "1d8", "short": 10,
                                            "long": 30}, {"name": "Knife", "kind": "melee", "damage": "1d4"}]}
FAR = [{"character_id": "c1", "distance": 9, "line_of_sight": False}]
NEAR = [{"character_id": "c1", "distance": 1, "line_of_sight": True}]


def run(state, name, seed=1, **fields):
    body_type, handler = BODIES[name]
    new, entries = handler(state, body_type.model_validate(fields), Random(seed))
    for entry in entries:
        EntryRecord.model_validate(entry.as_dict())
    return new, entries


def refused(state, name, **fields) -> Refused:
    with pytest.raises(Refused) as caught:
        run(state, name, **fields)
    return caught.value


@pytest.fixture
def table():
    state, _ = run(D20State(), "add_character", character=ANN)  # c1
    state, _ = run(state, "add_npc", npc=RAIDER)  # n2
    return state


@pytest.fixture
def tracked(table):
    """Ann (c1) 15, Raider (n2) 10, Bo (c3) 5."""
    state, _ = run(table, "add_character", character={**ANN, "name": "Bo"})
    state, _ = run(state, "set_initiative", rolls=[{"member_id": "c1", "value": 15},
                                                    {"member_id": "n2", "value": 10},
                                                    {"member_id": "c3", "value": 5}])
    return state


# --- D20-TURN-BUDGET: "Action: Attack, …" "Move: …" "Minor: …" "Reaction (1/round)" ---------------

def test_D20_TURN_BUDGET_a_second_attack_on_the_same_turn_is_refused(tracked):
    """"Action: Attack, Cast/Use Tech (Timebender), Dash, …": one Action a turn, so Ann attacks once."""
    state, _ = run(tracked, "next_turn")
    state, _ = run(state, "attack", attacker_id="c1", target_id="n2", natural=2)
    assert state.character("c1").spent == ["action"]
    error = refused(state, "attack", attacker_id="c1", target_id="n2", natural=19)
    assert error.rule == "D20-TURN-BUDGET" and "already spent its Action" in error.reason
    assert refused(state, "spend", member_id="c1", what="dash").rule == "D20-TURN-BUDGET"


def test_D20_TURN_BUDGET_out_of_its_turn_only_a_reaction_is_left(tracked):
    """"Reaction (1/round): Attack of Opportunity, …": on the Raider's turn Ann's Action waits."""
    state, _ = run(tracked, "next_turn", natural=10)
    state, _ = run(state, "next_turn")  # the Raider's turn
    error = refused(state, "attack", attacker_id="c1", target_id="n2", natural=15)
    assert error.rule == "D20-TURN-BUDGET" and "only a Reaction" in error.reason
    state, _ = run(state, "attack", attacker_id="c1", target_id="n2", natural=15, reaction=True)
    assert state.character("c1").reaction_used and state.character("c1").spent == []
    assert refused(state, "attack", attacker_id="c1", target_id="n2", reaction=True).rule == "D20-REACTION"


def test_D20_TURN_BUDGET_the_parts_come_back_when_the_round_ends(table):
    """One turn a round: what was spent comes back with the next round (without the tracker too)."""
    state, _ = run(table, "attack", attacker_id="c1", target_id="n2", natural=2)
    assert refused(state, "attack", attacker_id="c1", target_id="n2").rule == "D20-TURN-BUDGET"
    state, _ = run(state, "end_round")
    assert state.character("c1").spent == []
    run(state, "attack", attacker_id="c1", target_id="n2", natural=2)


def test_D20_TURN_BUDGET_move_action_and_minor_each_once(table):
    """"Move: As per movement rules." "Minor: Draw/sling weapon, open door, …": each once a turn."""
    state, entries = run(table, "spend", member_id="c1", what="move")
    assert entries[0].rule == "D20-TURN-BUDGET" and state.character("c1").spent == ["move"]
    assert refused(state, "spend", member_id="c1", what="move").rule == "D20-TURN-BUDGET"
    state, _ = run(state, "spend", member_id="c1", what="dash")  # a Dash is the Action
    state, _ = run(state, "spend", member_id="c1", what="draw_sling_weapon")
    assert sorted(state.character("c1").spent) == ["action", "minor", "move"]
    assert refused(state, "spend", member_id="c1", what="open_door").rule == "D20-TURN-BUDGET"
    assert refused(state, "attack", attacker_id="c1", target_id="n2").rule == "D20-TURN-BUDGET"


def test_D20_COND_PRONE_standing_up_spends_the_minor_and_clears_prone(table):
    """"Prone: … stand = Minor.\""""
    assert refused(table, "spend", member_id="c1", what="stand").rule == "D20-COND-PRONE"
    state, _ = run(table, "set_condition", member_id="c1", condition="prone")
    state, entries = run(state, "spend", member_id="c1", what="stand")
    assert "prone" not in state.character("c1").conditions and state.character("c1").spent == ["minor"]


def test_D20_COND_STUNNED_a_stunned_creature_has_no_action_but_keeps_its_reaction(table):
    """"Stunned: lose Action.\""""
    state, _ = run(table, "set_condition", member_id="c1", condition="stunned")
    error = refused(state, "attack", attacker_id="c1", target_id="n2", natural=15)
    assert error.rule == "D20-COND-STUNNED"
    assert refused(state, "spend", member_id="c1", what="dash").rule == "D20-COND-STUNNED"
    run(state, "spend", member_id="c1", what="move")  # it still moves
    run(state, "attack", attacker_id="c1", target_id="n2", natural=15, reaction=True)  # a Reaction is no Action
    state, _ = run(state, "set_condition", member_id="n2", condition="stunned")
    state, _ = run(state, "npc_turn", npc_id="n2", seen=NEAR)
    assert all(s.slot != "action" for s in state.turn_of("n2").steps)


def test_D20_COND_GRAPPLED_a_grappled_character_cannot_spend_a_move(table):
    """"Grappled/Restrained: Speed 0; attack Hindrance.\""""
    state, _ = run(table, "set_condition", member_id="c1", condition="grappled")
    assert refused(state, "spend", member_id="c1", what="move").rule == "D20-COND-GRAPPLED"


def test_D20_TURN_BUDGET_an_npcs_decided_turn_spends_what_its_steps_take(table):
    """The NPC's card is its turn: its one attack resolves its pending step, a second is refused."""
    state, _ = run(table, "npc_turn", npc_id="n2", seen=[{"character_id": "c1", "distance": 3,
                                                          "line_of_sight": True}])
    assert sorted(state.bot("n2").spent) == ["action", "move"]
    state, _ = run(state, "attack", attacker_id="n2", target_id="c1", natural=2)
    assert state.turn_of("n2").steps[1].status == "done"
    assert refused(state, "attack", attacker_id="n2", target_id="c1").rule == "D20-TURN-BUDGET"


def test_D20_TURN_BUDGET_a_medic_spends_its_action_to_stabilise(table):
    """"Stabilize an ally: Medicine DC 12 (Action).\""""
    state, _ = run(table, "add_character", character={**ANN, "name": "Bo"})
    state, _ = run(state, "damage", member_id="c1", amount=20)
    state, entries = run(state, "stabilize", member_id="c1", medicine_total=14, by_id="c3")
    assert state.character("c1").hp == 1 and state.character("c3").spent == ["action"]
    state, _ = run(state, "damage", member_id="c1", amount=5)
    assert refused(state, "stabilize", member_id="c1", medicine_total=14, by_id="c3").rule == "D20-TURN-BUDGET"


# --- D20-OUT: "At Dying 4: Dead." "Unconscious for 1d4 minutes" "Temporal Displacement: skip next turn"

@pytest.mark.parametrize("how", ["dead", "unconscious", "temporal_displacement"])
def test_D20_OUT_the_dead_unconscious_and_displaced_do_nothing_and_cannot_be_attacked(table, how):
    if how == "dead":
        state, _ = run(table, "adjust", member_id="n2", dying=4)
    else:
        state, _ = run(table, "set_condition", member_id="n2", condition=how)
    assert refused(state, "attack", attacker_id="c1", target_id="n2", natural=15).rule == "D20-OUT"
    assert refused(state, "attack", attacker_id="n2", target_id="c1", natural=15).rule == "D20-OUT"
    assert refused(state, "attack", attacker_id="n2", target_id="c1", reaction=True).rule == "D20-OUT"


def test_D20_OUT_a_dying_creature_does_nothing_but_can_be_hit(table):
    """"At 0 HP: fall Dying 1 …": the Dying do nothing; a hit while Dying adds Dying (§ 3)."""
    state, _ = run(table, "damage", member_id="n2", amount=20)
    assert refused(state, "attack", attacker_id="n2", target_id="c1").rule == "D20-OUT"
    state, entries = run(state, "attack", attacker_id="c1", target_id="n2", natural=15, damage=3)
    assert state.bot("n2").dying == 2


def test_D20_OUT_a_pending_attack_is_cancelled_when_its_attacker_drops(table):
    """An NPC dropped between its decision and its roll does not hit: its attack is cancelled."""
    state, _ = run(table, "npc_turn", npc_id="n2", seen=NEAR)
    assert state.turn_of("n2").steps[0].status == "pending"
    state, entries = run(state, "attack", attacker_id="c1", target_id="n2", natural=15, damage=20,
                         reaction=True, weapon="Knife")
    assert entries[-1].rule == "D20-OUT" and "cancelled" in entries[-1].text
    assert state.turn_of("n2").steps[0].status == "skipped"
    assert refused(state, "attack", attacker_id="n2", target_id="c1").rule == "D20-OUT"


def test_D20_OUT_a_pending_attack_on_a_target_that_went_down_is_cancelled(table):
    state, _ = run(table, "npc_turn", npc_id="n2", seen=NEAR)
    state, entries = run(state, "damage", member_id="c1", amount=8, lethal=False)
    assert "unconscious" in state.character("c1").conditions
    assert entries[-1].rule == "D20-OUT" and "Ann is down" in entries[-1].text
    assert state.turn_of("n2").steps[0].status == "skipped"


def test_D20_OUT_the_attack_form_does_not_preset_a_downed_foe(tracked):
    state, _ = run(tracked, "next_turn")
    state, _ = run(state, "attack", attacker_id="c1", target_id="n2", natural=15, damage=20)
    assert state.bot("n2").dying == 1 and state.character("c1").last_target == "n2"
    assert play_tracker.likely_target(state) is None


# --- D20-TRACKER --------------------------------------------------------------------------------

def test_D20_TRACKER_the_acting_creature_dying_on_its_own_save_leaves_everyone_their_turn(tracked):
    """"At Dying 4: Dead.": Ann dies on her own save; the Raider and Bo still act this round."""
    state, _ = run(tracked, "adjust", member_id="c1", hp=0, dying=3)
    state, entries = run(state, "next_turn", natural=1)
    assert state.character("c1").dead and state.acting == "c1" and entries[-1].rule == "D20-DEAD"
    state, _ = run(state, "next_turn")
    assert state.acting == "n2" and state.round == 1
    state, _ = run(state, "npc_turn", npc_id="n2", seen=FAR, direction=1)
    state, _ = run(state, "next_turn")
    assert state.acting == "c3" and state.round == 1
    state, _ = run(state, "next_turn")
    assert state.round == 2 and state.acting == "n2"  # the Dead are skipped


def test_D20_TRACKER_removing_the_acting_creature_takes_no_ones_turn(tracked):
    state, _ = run(tracked, "next_turn")
    state, _ = run(state, "next_turn")
    state, _ = run(state, "remove", member_id="n2")  # the Raider leaves on its own turn
    state, _ = run(state, "next_turn")
    assert state.acting == "c3" and state.round == 1  # Ann does not act twice, Bo keeps his turn
    state, _ = run(state, "next_turn")
    assert (state.round, state.acting) == (2, "c1")


@pytest.mark.parametrize("value, this_round", [(20, False), (12, False), (8, True)])
def test_D20_TRACKER_a_creature_added_mid_round_joins_the_order(tracked, value, this_round):
    """Ann and the Raider have acted (Bo at 5 still to): a newcomer at 20 or 12 has missed its
    count and first acts next round; at 8 it acts this round, before Bo."""
    state, _ = run(tracked, "next_turn")
    state, _ = run(state, "next_turn")
    state, _ = run(state, "npc_turn", npc_id="n2", seen=FAR, direction=1)
    state, entries = run(state, "add_npc", npc={**RAIDER, "name": "Late", "initiative": value})
    assert entries[-1].rule == "D20-TRACKER" and ("has passed" in entries[-1].text) != this_round
    assert [i.value for i in state.initiative] == sorted([15, 10, 5, value], reverse=True)
    state, _ = run(state, "next_turn")
    assert state.acting == ("n4" if this_round else "c3") and state.round == 1


def test_D20_TRACKER_a_second_start_of_the_same_turn_is_refused(table):
    """"On your turn: Vigor Save DC 10 + Wounded.": pressing the turn's start twice is no second save."""
    state, _ = run(table, "damage", member_id="c1", amount=20)
    state, _ = run(state, "start_turn", member_id="c1", natural=5)
    assert state.character("c1").dying == 2
    error = refused(state, "start_turn", member_id="c1", natural=5)
    assert error.rule == "D20-TRACKER" and state.character("c1").dying == 2


def test_D20_TRACKER_a_characters_turn_begins_is_the_trackers_step_for_the_one_due(tracked):
    state, _ = run(tracked, "start_turn", member_id="c1")
    assert state.acting == "c1" and state.began == ["c1"]
    assert refused(state, "start_turn", member_id="c3").rule == "D20-TRACKER"  # not Bo's turn yet
    assert refused(state, "start_turn", member_id="c1").rule == "D20-TRACKER"


def test_D20_TRACKER_end_round_is_refused_while_someone_is_still_to_act(tracked):
    state, _ = run(tracked, "next_turn")
    assert refused(state, "end_round").rule == "D20-TRACKER"


# --- D20-DELAY ----------------------------------------------------------------------------------

def test_D20_DELAY_the_acting_creature_acts_later_without_a_second_start(tracked):
    state, _ = run(tracked, "set_condition", member_id="c1", condition="bleeding")
    state, _ = run(state, "next_turn", bleed=2)
    assert state.character("c1").hp == 6
    state, entries = run(state, "delay", member_id="c1", after_id="c3")
    assert entries[0].rule == "D20-DELAY" and state.acting is None
    assert [i.member_id for i in state.initiative] == ["n2", "c3", "c1"]
    state, _ = run(state, "next_turn")
    state, _ = run(state, "npc_turn", npc_id="n2", seen=FAR, direction=1)
    state, _ = run(state, "next_turn")
    state, entries = run(state, "next_turn", bleed=4)
    assert state.acting == "c1" and state.character("c1").hp == 6  # no second Bleeding
    assert entries[-1].rule == "D20-DELAY"
    state, _ = run(state, "attack", attacker_id="c1", target_id="n2", natural=2)
    assert refused(state, "delay", member_id="c1").rule == "D20-DELAY"


# --- D20-DYING-SAVE: "On your turn: Vigor Save DC 10 + Wounded." "Success: stabilize (HP 1)." ------

def test_D20_DYING_SAVE_next_turn_asks_for_a_dying_characters_die(tracked):
    state, _ = run(tracked, "damage", member_id="c1", amount=20)
    error = refused(state, "next_turn")
    assert error.rule == "D20-DYING-SAVE" and "natural" in error.reason
    entered, entries = run(state, "next_turn", natural=4)
    assert entered.character("c1").dying == 2 and entries[-1].dice["by"] == "entered"
    rolled, entries = run(state, "next_turn", app_rolls=True, seed=3)
    assert next(e for e in entries if e.rule in ("D20-DYING-SAVE", "D20-DEAD")).dice["by"] == "app"


def test_D20_DYING_SAVE_a_character_that_stabilises_does_nothing_else_that_turn(tracked):
    state, _ = run(tracked, "damage", member_id="c1", amount=20)
    state, entries = run(state, "next_turn", natural=18)
    ann = state.character("c1")
    assert (ann.hp, ann.dying) == (1, 0) and sorted(ann.spent) == ["action", "minor", "move"]
    assert "nothing else this turn" in entries[-1].text
    assert refused(state, "attack", attacker_id="c1", target_id="n2").rule == "D20-TURN-BUDGET"
    assert refused(state, "spend", member_id="c1", what="move").rule == "D20-TURN-BUDGET"


def test_D20_COND_BLEEDING_ticks_once_per_turn(table):
    """"Bleeding: lose 1d4 HP/round": a turn begins once a round."""
    state, _ = run(table, "set_condition", member_id="c1", condition="bleeding")
    state, _ = run(state, "start_turn", member_id="c1", bleed=2)
    assert state.character("c1").hp == 6
    refused(state, "start_turn", member_id="c1", bleed=2)
    state, _ = run(state, "end_round")
    state, _ = run(state, "start_turn", member_id="c1", bleed=3)
    assert state.character("c1").hp == 3


# --- D20-DURATION: "Effects specify Saves and Conditions." "Unconscious for 1d4 minutes" ------

def test_D20_DURATION_stunned_for_one_round_costs_the_next_action_then_ends(tracked):
    state, entries = run(tracked, "set_condition", member_id="c1", condition="stunned", rounds=1)
    assert entries[0].rule == "D20-DURATION"
    state, _ = run(state, "next_turn")
    assert refused(state, "attack", attacker_id="c1", target_id="n2").rule == "D20-COND-STUNNED"
    state, entries = run(state, "next_turn")  # Ann's turn ends: so does the Stunned
    assert "stunned" not in state.character("c1").conditions
    assert any(e.rule == "D20-DURATION" and "Ann" in e.text for e in entries)


def test_D20_DURATION_a_knock_out_lasts_its_minutes_in_rounds_then_wakes_at_1_hp(table):
    """"If you drop to 0 via non‑lethal intent, you’re Unconscious for 1d4 minutes, not Dying.\""""
    state, entries = run(table, "damage", member_id="n2", amount=20, lethal=False, seed=7)
    minutes = entries[-1].dice["faces"][0]["face"]
    assert state.bot("n2").timers == {"unconscious": minutes * 10}
    for _ in range(minutes * 10 - 1):
        state, _ = run(state, "npc_turn", npc_id="n2")
        state, _ = run(state, "end_round")
        assert "unconscious" in state.bot("n2").conditions
    state, _ = run(state, "npc_turn", npc_id="n2")
    state, entries = run(state, "end_round")
    raider = state.bot("n2")
    assert "unconscious" not in raider.conditions and raider.hp == 1 and entries[0].rule == "D20-KO"


# --- rests, corrections, ±N --------------------------------------------------------------------

def test_D20_LONG_REST_restores_to_full_hit_dice_too_and_ends_dying_and_unconscious(table):
    """"Long Rest (8 hrs): restore to full, clear Exhausted, reduce Wounded by 1 (min 0).\""""
    state, _ = run(table, "rest", member_id="c1", kind="short", rolled=3)
    state, _ = run(state, "damage", member_id="c1", amount=20)
    assert state.character("c1").hit_dice == 2 and state.character("c1").dying == 1
    state, entries = run(state, "rest", member_id="c1", kind="long")
    ann = state.character("c1")
    assert (ann.hp, ann.hit_dice, ann.dying, ann.wounded) == (8, 3, 0, 0) and entries[0].rule == "D20-LONG-REST"
    state, _ = run(state, "damage", member_id="n2", amount=20, lethal=False)
    state, _ = run(state, "rest", member_id="n2", kind="long")
    assert "unconscious" not in state.bot("n2").conditions and state.bot("n2").timers == {}


def test_D20_LONG_REST_never_heals_the_dead(table):
    state, _ = run(table, "adjust", member_id="c1", dying=4)
    assert refused(state, "rest", member_id="c1", kind="long").rule == "D20-LONG-REST"
    assert refused(state, "heal", member_id="c1", amount=5).rule == "D20-HEAL"


def test_D20_SHORT_REST_is_refused_while_dying_and_ends_a_knock_out(table):
    """"Short Rest (10 min): spend 1 Hit Die …": never leaves "Dying with HP > 0"."""
    state, _ = run(table, "damage", member_id="c1", amount=20)
    assert refused(state, "rest", member_id="c1", kind="short", rolled=5).rule == "D20-SHORT-REST"
    state, _ = run(table, "damage", member_id="c1", amount=20, lethal=False)
    state, _ = run(state, "rest", member_id="c1", kind="short", rolled=5)
    ann = state.character("c1")
    assert "unconscious" not in ann.conditions and ann.hp == 6


def test_D20_DEAD_a_correction_to_dying_4_is_dead(table):
    """"At Dying 4: Dead.\""""
    state, entries = run(table, "adjust", member_id="c1", dying=4)
    assert state.character("c1").dead and entries[-1].rule == "D20-DEAD"
    state, _ = run(state, "adjust", member_id="c1", dying=1)
    assert not state.character("c1").dead and state.character("c1").hp == 0
    state, _ = run(state, "adjust", member_id="c1", hp=3)
    assert state.character("c1").dying == 0  # a creature with HP is not Dying


def test_D20_HEAL_heal_and_damage_by_n(table):
    state, entries = run(table, "damage", member_id="c1", amount=3)
    assert state.character("c1").hp == 5
    state, _ = run(state, "damage", member_id="c1", amount=9)
    assert state.character("c1").dying == 1 and state.character("c1").wounded == 1
    state, entries = run(state, "heal", member_id="c1", amount=4)
    ann = state.character("c1")
    assert (ann.hp, ann.dying) == (4, 0) and entries[0].rule == "D20-HEAL" and "no longer Dying" in entries[0].text
    state, _ = run(state, "heal", member_id="c1", amount=40)
    assert state.character("c1").hp == 8


# --- D20-AOO: "Reaction (1/round): Attack of Opportunity, …" ------------------------------------

def test_D20_AOO_is_made_with_a_melee_weapon_or_unarmed_never_a_bow(table):
    assert refused(table, "attack", attacker_id="c1", target_id="n2", reaction=True, weapon="Bow").rule == "D20-AOO"
    state, entries = run(table, "attack", attacker_id="c1", target_id="n2", reaction=True, natural=15, damage=1)
    assert "Knife" in entries[0].text
    state, _ = run(table, "add_character", character={**ANN, "name": "Archer", "weapons": ANN["weapons"][:1]})
    state, entries = run(state, "attack", attacker_id="c3", target_id="n2", reaction=True, natural=15, damage=1)
    assert "unarmed strike" in entries[0].text


def test_D20_AOO_does_not_resolve_the_npcs_pending_attack(table):
    state, _ = run(table, "npc_turn", npc_id="n2", seen=NEAR)
    state, _ = run(state, "attack", attacker_id="n2", target_id="c1", reaction=True, natural=2)
    assert state.turn_of("n2").steps[0].status == "pending" and state.bot("n2").reaction_used


# --- D20-PATROL-ROUTE: "Patrol: follow assigned waypoints as a Route or Circuit" ----------------

@pytest.mark.parametrize("mode, expected", [("route", "ABCBABC"), ("circuit", "ABCABCA")])
def test_D20_PATROL_ROUTE_a_route_turns_at_its_ends_a_circuit_loops(mode, expected):
    state, _ = run(D20State(), "add_npc", npc={**RAIDER, "role": "patrol", "waypoints": ["A", "B", "C"],
                                               "patrol_mode": mode})
    npc = state.bot("n1")
    visited = []
    for _ in expected:
        visited.append(npc.waypoint())
        assert npc.waypoint(1) == npc.advanced(1).waypoint()
        npc = npc.advanced(1)
    assert "".join(visited) == expected


def test_D20_PATROL_ROUTE_a_patrol_reaching_its_waypoint_heads_back_along_its_route():
    state, _ = run(D20State(), "add_npc", npc={**RAIDER, "role": "patrol", "waypoints": ["A", "B"],
                                               "patrol_mode": "route"})
    for distance, heading in ((2, "B"), (3, "A"), (1, "B")):
        state, _ = run(state, "npc_turn", npc_id="n1", waypoint_distance=distance, next_waypoint_distance=20)
        assert state.bot("n1").waypoint() == heading
        state, _ = run(state, "end_round")


# --- D20-FACTS-KEPT -----------------------------------------------------------------------------

def test_D20_FACTS_KEPT_same_as_last_round_reuses_the_squares_of_an_npc_that_did_not_move(table):
    state, _ = run(table, "npc_turn", npc_id="n2", seen=NEAR)
    assert state.bot("n2").last_facts["seen"][0]["distance"] == 1
    state, _ = run(state, "end_round")
    state, entries = run(state, "npc_turn", npc_id="n2", same_as_last=True)
    step = state.turn_of("n2").steps[0]
    assert (step.action, step.target_id) == ("attack", "c1")


def test_D20_FACTS_KEPT_nothing_is_kept_after_the_npc_moved(table):
    state, _ = run(table, "npc_turn", npc_id="n2", seen=[{"character_id": "c1", "distance": 4,
                                                          "line_of_sight": True}])
    assert state.bot("n2").last_facts is None
    state, _ = run(state, "end_round")
    assert refused(state, "npc_turn", npc_id="n2", same_as_last=True).rule == "D20-FACTS-KEPT"


def test_D20_COND_TEMPORAL_a_skipped_turn_leaves_nothing_to_spend_after_the_return(tracked):
    """"Temporal Displacement: skip next turn; immune for 1 round after return.\""""
    state, _ = run(tracked, "set_condition", member_id="c1", condition="temporal_displacement")
    state, _ = run(state, "next_turn")
    ann = state.character("c1")
    assert "temporal_displacement" not in ann.conditions and "temporal_immune" in ann.conditions
    assert refused(state, "attack", attacker_id="c1", target_id="n2").rule == "D20-TURN-BUDGET"


def test_D20_TRACKER_next_turn_takes_an_unconscious_npcs_empty_turn_on_the_way(tracked):
    """An NPC with nothing to decide (Unconscious) does not hold the tracker up; one that can act does."""
    state, _ = run(tracked, "next_turn")
    state, _ = run(state, "next_turn")  # the Raider's card is open
    assert refused(state, "next_turn").rule == "D20-TRACKER"
    state, _ = run(state, "set_condition", member_id="n2", condition="unconscious")
    state, entries = run(state, "next_turn")
    assert state.acting == "c3" and "n2" in state.began and entries[0].rule == "D20-OUT"


def test_D20_COND_STUNNED_an_npc_stunned_between_its_decision_and_its_roll_does_not_attack(table):
    """"Stunned: lose Action.": the attack its card decided is its Action, cancelled with a log line."""
    state, _ = run(table, "npc_turn", npc_id="n2", seen=NEAR)
    state, entries = run(state, "set_condition", member_id="n2", condition="stunned")
    assert entries[-1].rule == "D20-OUT" and "Stunned" in entries[-1].text
    assert state.turn_of("n2").steps[0].status == "skipped"
    # the cancelled attack was its turn's Action: no other one
    assert refused(state, "attack", attacker_id="n2", target_id="c1").rule == "D20-TURN-BUDGET"


def test_D20_OUT_a_dying_creature_cannot_delay(tracked):
    state, _ = run(tracked, "damage", member_id="c1", amount=20)
    state, _ = run(state, "next_turn", natural=3)
    assert refused(state, "delay", member_id="c1").rule == "D20-OUT"
