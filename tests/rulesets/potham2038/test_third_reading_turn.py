"""The third reading beyond engagements: free Glitch actions wait for their phase (R-PHASE-MOVE),
a Patrol arriving at its waypoint (R-PATROL-ARRIVE), and the audit's smaller rulings.

Seed 000 is the 2038 Quick Reference, seed 001 the 2038 Complete Combat Flowchart.
"""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.activation import Activator, Directive, activate
from app.rulesets.potham2038.combat import Fighter, resolve_melee
from app.rulesets.potham2038.dice import Roll
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import Decision, GameState
from tests.rulesets.potham2038.turn_kit import ADA, HUNTER, PATROL, hits, run, texts


def roll(n: int) -> Roll:
    return Roll(hits=n, criticals=0, by="entered")


# --- R-PHASE-MOVE: free Glitch actions --------------------------------------------------------------

@pytest.mark.parametrize("phase", [1, 4])
def test_R_PHASE_MOVE_a_free_glitch_shoot_waits_for_phase_3_and_is_resolved_there_with_dice(phase):
    """R-PHASE-MOVE; seed 001: "Movement and combat still belong to their respective phases"."""
    state = GameState(characters=[ADA], bots=[HUNTER], phase=phase)
    state, log = run(state, {"type": "record_glitch", "bot_id": "hunter", "result": "free_action",
                             "action": "shoot"})
    assert "takes it now" not in texts(log) and "Phase 3" in texts(log)
    assert state.free_waiting == ["hunter:shoot"] and state.character("ada").health == ADA.health
    if phase == 4:
        state, _ = run(state, {"type": "end_turn"})
    state = state.model_copy(update={"phase": 2})
    state, log = run(state, {"type": "activate_bot", "bot_id": "hunter", "characters": [
        {"character_id": "ada", "distance": 30, "line_of_sight": False}]})
    free = [a for a in state.decision("hunter").actions if a.free]
    assert [(a.action, a.status, a.phase) for a in free] == [("shoot", "pending", 3)] and not state.free_waiting
    state = state.model_copy(update={"phase": 3})
    state, log = run(state, {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True,
                             "in_range": True, "rolls": {"attack": hits(2), "defense": hits(0)}})
    assert state.character("ada").health == ADA.health - 2  # resolved with dice, in Phase 3


@pytest.mark.parametrize("phase", [1, 3, 4])
def test_R_PHASE_MOVE_a_free_glitch_move_waits_for_phase_2(phase):
    state = GameState(characters=[ADA], bots=[HUNTER], phase=phase)
    state, log = run(state, {"type": "record_glitch", "bot_id": "hunter", "result": "free_action",
                             "action": "walk"})
    assert "takes it now" not in texts(log) and "Phase 2" in texts(log) and state.free_waiting == ["hunter:walk"]


def test_R_PHASE_MOVE_a_free_glitch_move_in_phase_2_is_taken_now():
    state = GameState(characters=[ADA], bots=[HUNTER], phase=2)
    state, log = run(state, {"type": "record_glitch", "bot_id": "hunter", "result": "free_action",
                             "action": "walk"})
    assert "takes it now" in texts(log) and state.free_waiting == []


def test_R_PHASE_MOVE_a_rebooted_activation_loses_its_waiting_free_actions():
    """Seed 000: "Reboot: stops even free actions"."""
    state = GameState(characters=[ADA], bots=[HUNTER], phase=2, free_waiting=["hunter:shoot"])
    state, _ = run(state, {"type": "record_glitch", "bot_id": "hunter", "result": "reboot"})
    state, log = run(state, {"type": "activate_bot", "bot_id": "hunter", "characters": []})
    assert state.decision("hunter").actions == [] and not state.free_waiting and "lost" in texts(log)


# --- R-PATROL-ARRIVE and next_waypoint -------------------------------------------------------------

def test_R_PATROL_ARRIVE_a_patrol_reaching_its_waypoint_walks_50_percent_on_toward_the_next():
    """R-PATROL-ARRIVE; seed 000: "If no legal or logical action in an unused family remains, a
    second Maneuver at 50% Walk speed is allowed"."""
    result = activate(Activator(name="Pat", role="patrol", walk=4, run=8), [],
                      Directive(waypoint="A", waypoint_distance=3, next_waypoint="B"))
    assert [(a.action, a.target, a.move, a.fallback) for a in result.actions] == [
        ("walk", "A", 3.0, False), ("walk", "B", 2.0, True)]
    assert result.reached == ("A",) and result.next_waypoint == "B"


def test_R_PATROL_ARRIVE_the_walk_on_stops_at_the_next_waypoint_when_its_distance_is_known():
    result = activate(Activator(name="Pat", role="patrol", walk=4, run=8), [],
                      Directive(waypoint="A", waypoint_distance=3, next_waypoint="B", next_waypoint_distance=1))
    assert result.actions[1].move == 1.0


def test_R_PATROL_ARRIVE_a_patrol_with_someone_to_shoot_shoots_instead():
    from app.rulesets.potham2038.activation import Seen

    result = activate(Activator(name="Pat", role="patrol", walk=4, run=8, shoot_range=12), [Seen("Ada", 6, True)],
                      Directive(waypoint="A", waypoint_distance=3, next_waypoint="B"))
    assert result.actions[1].action == "shoot"


def test_next_waypoint_names_where_the_patrol_heads_not_the_one_it_reached():
    state = GameState(characters=[ADA], bots=[PATROL], phase=2)
    state, log = run(state, {"type": "activate_bot", "bot_id": "patrol", "waypoint_distance": 3})
    assert state.bot("patrol").waypoint_index == 1 and "next waypoint: B" in texts(log)
    on_a = activate(Activator(name="Pat", role="patrol", walk=4, run=8), [],
                    Directive(waypoint="A", waypoint_distance=0, next_waypoint="B", next_waypoint_distance=2))
    assert on_a.reached == ("A", "B") and on_a.next_waypoint != "B"  # B reached too: not where it heads


# --- Walk 0, Run > 0 --------------------------------------------------------------------------------

def test_a_hunter_with_walk_0_and_run_above_0_makes_its_random_move():
    result = activate(Activator(name="Crawler", role="hunter", walk=0, run=6), [], Directive(direction=3))
    move = result.actions[0]
    assert (move.action, move.move, move.direction) == ("random_move", 6.0, 3)


# --- melee_as_defense counter-attack tie -----------------------------------------------------------

@pytest.mark.parametrize("npc_points, pushed", [(30, "Warden"), (60, "Ada"), (45, "Ada")],
                         ids=["npc-lower", "character-lower", "points-tie-the-character"])
def test_R_CMB_COUNTER_a_melee_as_defense_counter_attack_tie_pushes_the_lower_point_model(npc_points, pushed):
    """Seed 001: "if both sides attacked, push the lower-point model, or the player Character when
    points tie"."""
    result = resolve_melee(Fighter("Warden", npc_points), Fighter("Ada", 45), roll(2), roll(2), attacker="npc",
                           counter_attack=True, counter_rule="melee_as_defense")
    assert (result.outcome, result.push_back, result.damage) == ("tie", pushed, 0)


def test_R_CMB_COUNTER_through_the_engine_the_house_melee_as_defense_tie_pushes_the_lower_point_model():
    state = GameState(characters=[ADA], bots=[HUNTER.model_copy(update={"points": 30})], phase=3,
                      house=HouseRules(counter_attack_rule="melee_as_defense"),
                      decisions=[Decision(bot_id="hunter", turn=1)])
    state, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                             "attacker": "npc", "counter_attack": True,
                             "rolls": {"npc": hits(1), "character": hits(1)}})
    assert "Warden (the lower-point model) is pushed back" in texts(log)
