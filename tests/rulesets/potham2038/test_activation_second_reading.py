"""Issue 8, the activation side of the second reading: every AI-Bot uses every action it legally
has (R-ACT-SHOOT-ANY, R-ACT-RELOAD), never acts on stale facts (R-ACT-FACTS), a Patrol standing
on its waypoint heads for the next one (R-ROLE-PATROL), and every empty slot says why.

Each scenario is the issue's own; each failed before the second reading."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate
from app.rulesets.potham2038.activation_types import CONFIRM_SHOT
from tests.rulesets.potham2038.turn_kit import ADA, HUNTER, PATROL, SENTRY, WORKER, game, refused, run, texts


def bot(role: str, **kw) -> Activator:
    return Activator(**({"name": "Bolt", "role": role, "walk": 4.0, "run": 8.0} | kw))


def seen(name: str, distance: float, los: bool = True, contact: bool = False) -> Seen:
    return Seen(name, distance, los, contact)


def plays(result) -> list[tuple]:
    return [(a.action, a.target, a.move) for a in result.actions]


# --- R-ACT-SHOOT-ANY -----------------------------------------------------------------------------

def test_R_ACT_SHOOT_ANY_a_sentry_at_its_post_with_nobody_in_its_zone_shoots_rather_than_idling():
    """Issue: a Sentry 1" from its Vault with an 18" gun and Ada 6" away in sight planned nothing."""
    result = activate(bot("sentry", shoot_range=18.0), [seen("Ada", 6.0)], Directive("Vault", 1.0))
    assert plays(result) == [("shoot", "Ada", None)]
    shot = result.actions[0]
    assert (shot.slot, shot.phase, shot.conditional) == (1, 3, False)  # it did not move: facts stand
    assert [e.slot for e in result.empty] == [2] and "leaving its post" in result.empty[0].reason


def test_R_ACT_SHOOT_ANY_a_patrol_shoots_with_its_free_slot_instead_of_the_fallback():
    """Issue: a Patrol (Walk 4, 12" gun) 20" from its waypoint with Bo 6" away in sight Ran, then
    took the 2" fallback instead of shooting."""
    result = activate(bot("patrol", shoot_range=12.0), [seen("Bo", 6.0)],
                      Directive(waypoint="B", waypoint_distance=20.0))
    assert plays(result) == [("run", "B", 8.0), ("shoot", "Bo", None)]
    assert not any(a.fallback for a in result.actions)


def test_R_ACT_SHOOT_ANY_a_worker_shoots_with_its_free_slot_instead_of_the_fallback():
    """Issue: a Worker 10" from its console Ran, then half-Walked, with Ada 5" away in sight."""
    result = activate(bot("worker", shoot_range=12.0), [seen("Ada", 5.0)],
                      Directive(object="Console", object_distance=10.0))
    assert plays(result) == [("run", "Console", 8.0), ("shoot", "Ada", None)]


@pytest.mark.parametrize(("role", "directive"), [
    ("sentry", Directive("Vault", 1.0)),
    ("worker", Directive(object="Console", object_contact=True)),
    ("patrol", Directive(waypoint="B", waypoint_distance=20.0)),
    ("hunter", Directive()),
], ids=["R-ACT-SHOOT-ANY-sentry", "R-ACT-SHOOT-ANY-worker", "R-ACT-SHOOT-ANY-patrol", "R-ACT-SHOOT-ANY-hunter"])
def test_R_ACT_SHOOT_ANY_every_role_shoots_a_character_outside_its_zone(role, directive):
    result = activate(bot(role, shoot_range=18.0), [seen("Ada", 9.0)], directive)
    assert "shoot" in [a.action for a in result.actions]


@pytest.mark.parametrize(("kw", "characters"), [
    ({"shoot_range": 18.0}, [seen("Ada", 19.0)]),  # out of range
    ({"shoot_range": 18.0}, [seen("Ada", 6.0, los=False)]),  # out of sight
    ({"shoot_range": 18.0, "has_ammo": False, "knocked_down": True}, [seen("Ada", 6.0)]),  # stands, reloads
    ({}, [seen("Ada", 6.0)]),  # no ranged weapon
], ids=["out-of-range", "no-line-of-sight", "no-ammo-left-for-a-shot", "no-weapon"])
def test_R_ACT_SHOOT_ANY_still_needs_sight_range_ammo_and_a_weapon(kw, characters):
    result = activate(bot("sentry", **kw), characters, Directive("Vault", 1.0))
    assert "shoot" not in [a.action for a in result.actions]


def test_R_ACT_SHOOT_ANY_the_directive_still_decides_slot_1():
    result = activate(bot("patrol", shoot_range=18.0), [seen("Ada", 6.0)], Directive(waypoint="B", waypoint_distance=3))
    assert result.actions[0].action == "walk" and result.actions[0].rule == "R-ROLE-PATROL"


# --- R-ACT-RELOAD --------------------------------------------------------------------------------

def test_R_ACT_RELOAD_an_out_of_ammo_hunter_reloads_instead_of_the_fallback():
    """Issue: an out-of-ammo Hunter with Ada 20" away Ran, then half-Walked, out of ammo for ever."""
    result = activate(bot("hunter", shoot_range=18.0, has_ammo=False), [seen("Ada", 20.0)], Directive())
    assert plays(result) == [("run", "Ada", 8.0), ("reload", None, None)]
    reload = result.actions[1]
    assert (reload.family, reload.phase, reload.rule, reload.fallback) == ("interact", 2, "R-ACT-RELOAD", False)


def test_R_ACT_RELOAD_with_two_free_slots_it_reloads_first_then_shoots():
    result = activate(bot("sentry", shoot_range=18.0, has_ammo=False), [seen("Ada", 6.0)], Directive("Vault", 1.0))
    assert plays(result) == [("reload", None, None), ("shoot", "Ada", None)]


def test_R_ACT_RELOAD_only_in_an_unused_interact():
    result = activate(bot("worker", shoot_range=18.0, has_ammo=False), [seen("Ada", 2.0)],
                      Directive(object="Console", object_contact=True))
    assert plays(result) == [("activate", "Console", None), ("scan", "Ada", None)]


def test_R_ACT_RELOAD_reload_clears_out_of_ammo_when_the_plan_is_applied_in_phase_2():
    empty = HUNTER.model_copy(update={"out_of_ammo": True})
    state, log = run(game(ADA, empty, phase=2), {"type": "activate_bot", "bot_id": "hunter", "characters": [
        {"character_id": "ada", "distance": 20, "line_of_sight": True}]})
    assert [a.action for a in state.decision("hunter").actions] == ["run", "reload"]
    assert state.decision("hunter").actions[1].status == "done"  # an Interact resolves at once
    assert state.bot("hunter").out_of_ammo is False and "reloads" in texts(log)


# --- R-ACT-FACTS ---------------------------------------------------------------------------------

def test_R_ACT_FACTS_a_shot_after_a_move_toward_something_else_is_conditional():
    """Issue: a Patrol ran 9" toward its waypoint and was told to shoot Vex "3" away" (12 − 9)."""
    result = activate(bot("patrol", walk=4.5, run=9.0, shoot_range=12.0), [seen("Vex", 12.0)],
                      Directive(waypoint="B", waypoint_distance=20.0))
    shot = result.actions[1]
    assert (shot.action, shot.target, shot.conditional, shot.condition) == ("shoot", "Vex", True, CONFIRM_SHOT)
    assert shot.rule == "R-ACT-FACTS" and '12"' in shot.reason and '3"' not in shot.reason
    assert shot.as_dict()["conditional"] is True and shot.as_dict()["condition"] == CONFIRM_SHOT


def test_R_ACT_FACTS_the_moves_own_target_is_measured_anew_so_its_shot_is_not_conditional():
    result = activate(bot("hunter", shoot_range=12.0, control_zone=1.0), [seen("Ada", 20.0)], Directive())
    shot = result.actions[1]
    assert (shot.action, shot.conditional) == ("shoot", False) and '12"' in shot.reason  # 20 − 8, the same model


def test_R_ACT_FACTS_a_known_target_is_preferred_to_a_conditional_one():
    result = activate(bot("hunter", shoot_range=12.0, control_zone=1.0), [seen("Ada", 20.0), seen("Bo", 30.0, los=False),
                                                                          seen("Cy", 11.0, los=False)], Directive())
    assert result.actions[1].target == "Ada" and not result.actions[1].conditional


def test_R_ACT_FACTS_no_scan_of_another_model_after_a_move():
    """A Scan resolves at once: after a Run toward B, Ada (2" away before it) is not Scanned."""
    result = activate(bot("patrol"), [seen("Ada", 2.0)], Directive(waypoint="B", waypoint_distance=20.0))
    assert "scan" not in [a.action for a in result.actions]


def test_R_ACT_FACTS_phase_2_stores_the_condition_for_phase_3():
    state, log = run(game(ADA, PATROL.model_copy(update={"shoot": {"red": 2}, "shoot_range": 12}), phase=2),
                     {"type": "activate_bot", "bot_id": "patrol", "waypoint_distance": 20,
                      "characters": [{"character_id": "ada", "distance": 6, "line_of_sight": True}]})
    shot = state.decision("patrol").actions[1]
    assert (shot.action, shot.status, shot.conditional, shot.condition) == ("shoot", "pending", True, CONFIRM_SHOT)
    assert "(if confirmed)" in texts(log)


# --- R-ROLE-PATROL: standing on its waypoint (item 11) --------------------------------------------

def test_R_ROLE_PATROL_on_its_waypoint_it_asks_the_distance_to_the_next_one_and_decides_nothing():
    result = activate(bot("patrol", shoot_range=12.0), [seen("Ada", 6.0)],
                      Directive(waypoint="B", waypoint_distance=0, next_waypoint="C"))
    assert result.actions == () and result.needs == ("next_waypoint_distance",)
    assert result.reached == ("B",) and result.next_waypoint == "C" and result.arrived
    assert "C" in result.notes[0] and [e.slot for e in result.empty] == [1, 2]


def test_R_ROLE_PATROL_on_its_waypoint_with_the_next_distance_it_heads_for_the_next_one():
    result = activate(bot("patrol"), [], Directive(waypoint="B", waypoint_distance=0, next_waypoint="C",
                                                   next_waypoint_distance=6.0))
    assert plays(result) == [("run", "C", 6.0)] and result.reached == ("B", "C") and result.needs == ()


def test_R_ROLE_PATROL_a_patrol_with_one_waypoint_stays_on_it():
    result = activate(bot("patrol", shoot_range=12.0), [seen("Ada", 6.0)],
                      Directive(waypoint="B", waypoint_distance=0, next_waypoint="B"))
    assert plays(result) == [("shoot", "Ada", None)] and result.needs == ()


def test_R_ROLE_PATROL_in_the_game_the_next_waypoints_distance_is_asked_then_used():
    state = game(ADA, PATROL, phase=2)  # Route A B C, heading to A
    facts = {"type": "activate_bot", "bot_id": "patrol", "waypoint_distance": 0,
             "characters": [{"character_id": "ada", "distance": 20}]}
    why = refused(state, facts)
    assert "B" in why.reason and why.rule == "R-ROLE-PATROL"
    state, log = run(state, facts | {"next_waypoint_distance": 12})
    assert [(a.action, a.target) for a in state.decision("patrol").actions] == [("run", "B"), ("walk", "B")]
    assert state.bot("patrol").waypoint_index == 1 and "reaches A; next waypoint: B" in texts(log)


# --- every empty slot says why (item 15) ----------------------------------------------------------

@pytest.mark.parametrize(("role", "kw", "characters", "directive", "expected"), [
    ("sentry", {}, [], Directive("Vault", 1.0), 2),
    ("hunter", {}, [seen("Ada", 0, contact=True, los=False)], Directive(), 1),
    ("worker", {"walk": 0.0, "run": 0.0}, [], Directive(object="Console", object_distance=5), 2),
    ("patrol", {}, [], Directive(waypoint="B", waypoint_distance=3), 1),
    ("hunter", {"rebooted": True}, [], Directive(), 2),
], ids=["sentry-holds", "melee-only", "cannot-move", "patrol-reaches", "rebooted"])
def test_every_empty_slot_says_why(role, kw, characters, directive, expected):
    result = activate(bot(role, **kw), characters, directive)
    assert [e.slot for e in result.empty] == list(range(3 - expected, 3))
    assert all(e.reason.endswith(".") and e.rule.startswith("R-") for e in result.empty)
    assert result.as_dict()["empty_slots"] == [e.as_dict() for e in result.empty]


def test_every_empty_slot_is_on_the_stored_decision():
    state, _ = run(game(ADA, SENTRY, WORKER, phase=2), {"type": "activate_bot", "bot_id": "sentry",
                                                        "subject_distance": 1, "characters": []})
    decision = state.decision("sentry")
    assert decision.actions == [] and [e.slot for e in decision.empty] == [1, 2]
    assert "holds its post" in decision.note and "Slot" not in decision.note
