"""Phase 2 activation: Marked, two actions, families, phases, moves, the fallback (R-MARK-ACT, R-ACT-*).

The four roles have their own file (test_activation_roles.py); the properties live in
test_activation_properties.py.
"""

from __future__ import annotations

import random

import pytest

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate, activator_from_bot
from app.rulesets.potham2038.models import Bot, GlitchEffect


def bot(role: str = "hunter", **kw) -> Activator:
    fields = {"name": "Warden-2", "role": role, "walk": 4.0, "run": 8.0} | kw
    return Activator(**fields)


def seen(name: str, distance: float, los: bool = True, contact: bool = False) -> Seen:
    return Seen(name, distance, los, contact)


def plays(activation) -> list[tuple]:
    return [(a.action, a.target, a.move) for a in activation.actions]


# --- R-MARK-ACT -------------------------------------------------------------------------------

@pytest.mark.parametrize(("character", "zone", "marked"), [
    (seen("Ada", 2.5), 3.0, True),
    (seen("Ada", 3.0), 3.0, True),  # R-ZONE: ≤ the zone size is inside
    (seen("Ada", 3.1), 3.0, False),
    (seen("Ada", 5.0, los=False, contact=True), 3.0, True),  # base contact is inside every zone
    (seen("Ada", 5.0), 6.0, True),  # a Special Rule's wider zone
    (seen("Ada", 2.0, los=False), 3.0, True),  # line of sight does not matter
], ids=["2.5-in-3", "edge-counts", "3.1-outside", "base-contact", "wide-zone", "no-los"])
def test_R_MARK_ACT_marks_every_character_inside_the_zone_once(character, zone, marked):
    result = activate(bot(control_zone=zone), [character], Directive(direction=1))
    assert [(m.character, m.stacks, m.rule) for m in result.marked] == (
        [("Ada", 1, "R-MARK-ACT")] if marked else [])


def test_R_MARK_ACT_marks_several_characters_one_stack_each():
    result = activate(bot(), [seen("Ada", 1), seen("Bo", 2.9, los=False), seen("Cy", 7)], Directive())
    assert [(m.character, m.stacks) for m in result.marked] == [("Ada", 1), ("Bo", 1)]


@pytest.mark.parametrize("role", ["hunter", "sentry", "worker", "patrol"])
def test_R_MARK_ACT_a_rebooted_bot_marks_no_one_and_takes_no_actions(role):
    directive = Directive(subject="Vault", subject_distance=9, object="Console", object_distance=2,
                          waypoint="B", waypoint_distance=3)
    result = activate(bot(role, rebooted=True, shoot_range=18.0), [seen("Ada", 0, contact=True)], directive)
    assert result.marked == () and result.actions == ()
    assert "rebooted" in result.notes[0]


# --- R-ACT-MOVE, R-ACT-PHASE, R-ACT-TWO ------------------------------------------------------

@pytest.mark.parametrize(("distance", "expected"), [
    (2.5, ("walk", 2.5)),
    (4.0, ("walk", 4.0)),  # a Walk that exactly reaches is a Walk
    (5.0, ("run", 5.0)),  # stops at base contact, not at the full Run
    (12.0, ("run", 8.0)),
], ids=["walk-reaches", "walk-exactly", "run-to-contact", "run-capped"])
def test_R_ACT_MOVE_walks_when_a_walk_reaches_else_runs(distance, expected):
    first = activate(bot(), [seen("Ada", distance)], Directive()).actions[0]
    assert (first.action, first.move) == expected
    assert first.family == "maneuver" and first.phase == 2


def test_R_ACT_MOVE_a_knocked_down_bot_stands_up_first():
    result = activate(bot(knocked_down=True), [seen("Ada", 0.0, contact=True)], Directive())
    assert plays(result) == [("stand_up", None, None), ("melee", "Ada", None)]
    assert result.actions[0].rule == "R-ACT-MOVE"


@pytest.mark.parametrize(("character", "shoot_range", "action", "phase"), [
    (seen("Ada", 2.5), None, "melee", 3),
    (seen("Ada", 12.0), 18.0, "shoot", 3),
    (seen("Ada", 10.0), None, "scan", 2),  # runs 8", Ada now 2" away: inside the zone
], ids=["melee-phase-3", "shoot-phase-3", "scan-phase-2"])
def test_R_ACT_PHASE_movement_phase_2_melee_and_shoot_phase_3_scan_at_once(character, shoot_range, action, phase):
    result = activate(bot(shoot_range=shoot_range), [character], Directive())
    assert result.actions[0].phase == 2
    assert (result.actions[1].action, result.actions[1].phase) == (action, phase)


def test_R_ACT_TWO_the_api_example_walks_into_contact_then_melees():
    result = activate(bot(control_zone=3, points=60, health=4, shoot_range=18.0), [seen("Ada", 2.5)], Directive())
    data = result.as_dict()
    assert data["bot"] == "Warden-2"
    assert data["marked"] == [{"character": "Ada", "stacks": 1, "rule": "R-MARK-ACT"}]
    first, second = data["actions"]
    assert {k: first[k] for k in ("slot", "family", "action", "phase", "target", "move", "fallback", "rule")} == {
        "slot": 1, "family": "maneuver", "action": "walk", "phase": 2, "target": "Ada", "move": 2.5,
        "fallback": False, "rule": "R-ROLE-HUNTER"}
    assert {k: second[k] for k in ("slot", "family", "action", "phase", "target", "move", "fallback", "rule")} == {
        "slot": 2, "family": "attack", "action": "melee", "phase": 3, "target": "Ada", "move": None,
        "fallback": False, "rule": "R-ACT-TWO"}
    assert data["ties"] == []
    assert first["reason"].startswith("Ada is the closest Character inside Warden-2's 3\" zone")


# --- R-ACT-FALLBACK ---------------------------------------------------------------------------

@pytest.mark.parametrize(("distance", "zone", "move"), [
    (20.0, 3.0, 2.0),  # runs 8", still 12" away: half a Walk on toward Ada
    (9.5, 1.0, 1.5),  # runs 8", 1.5" left: the fallback stops at base contact
], ids=["half-walk", "capped-at-contact"])
def test_R_ACT_FALLBACK_after_a_move_with_nothing_else_is_a_flagged_half_walk(distance, zone, move):
    result = activate(bot(control_zone=zone), [seen("Ada", distance)], Directive())
    second = result.actions[1]
    assert (second.family, second.action, second.move, second.fallback, second.rule) == (
        "maneuver", "walk", move, True, "R-ACT-FALLBACK")


def test_R_ACT_FALLBACK_is_not_taken_to_walk_out_of_a_melee():
    result = activate(bot(), [seen("Ada", 0.0, los=False, contact=True)], Directive())
    assert plays(result) == [("melee", "Ada", None)]
    assert "Slot 2 stays empty" in result.notes[0]


# --- R-GLITCH: Full Throttle -------------------------------------------------------------------

@pytest.mark.parametrize(("role", "directive", "characters", "first"), [
    ("hunter", Directive(), [seen("Ada", 2.5)], ("run", "Ada", 2.5)),  # a base stops even a full Run
    ("hunter", Directive(direction=5), [], ("random_move", None, 8.0)),
    ("patrol", Directive(waypoint="B", waypoint_distance=3), [], ("run", "B", 8.0)),  # runs on past B
    ("worker", Directive(object="Console", object_distance=3), [], ("run", "Console", 3.0)),
    ("sentry", Directive(subject="Vault", subject_distance=6), [], ("run", "Vault", 6.0)),
], ids=["hunter-contact", "random", "patrol-past-waypoint", "worker-object", "sentry-return"])
def test_R_GLITCH_full_throttle_makes_every_move_a_complete_run(role, directive, characters, first):
    result = activate(bot(role, full_throttle=True), characters, directive)
    assert plays(result)[0] == first


def test_R_GLITCH_full_throttle_fallback_is_a_complete_run_too():
    result = activate(bot(full_throttle=True, control_zone=1), [seen("Ada", 30.0)], Directive())
    assert plays(result) == [("run", "Ada", 8.0), ("run", "Ada", 8.0)]
    assert result.actions[1].fallback


# --- R-CMB-SHOOT -------------------------------------------------------------------------------

@pytest.mark.parametrize(("kw", "character", "shoots"), [
    ({"shoot_range": 18.0}, seen("Ada", 20.0), True),  # 12" left after the Run: in range
    ({"shoot_range": 10.0}, seen("Ada", 20.0), False),  # 12" left: out of range
    ({"shoot_range": 18.0, "has_ammo": False}, seen("Ada", 20.0), False),
    ({}, seen("Ada", 20.0), False),  # no ranged weapon
], ids=["in-range", "out-of-range", "out-of-ammo", "no-weapon"])
def test_R_CMB_SHOOT_needs_weapon_ammo_line_of_sight_and_range(kw, character, shoots):
    result = activate(bot(control_zone=1, **kw), [character], Directive())
    assert (result.actions[1].action == "shoot") is shoots


def test_R_CMB_SHOOT_a_bot_in_base_contact_never_shoots():
    result = activate(bot("worker", shoot_range=18.0), [seen("Ada", 0, contact=True), seen("Bo", 2)],
                      Directive(object="Console", object_contact=True))
    assert plays(result) == [("activate", "Console", None), ("melee", "Ada", None)]


# --- activator_from_bot --------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "expected"), [
    ({"shoot": {"red": 2}, "shoot_range": 18}, {"shoot_range": 18, "has_ammo": True}),
    ({"shoot": {}, "shoot_range": 18}, {"shoot_range": None}),  # no Shoot pool: no ranged weapon
    ({"shoot": {"red": 2}}, {"shoot_range": None}),  # no range: no ranged weapon
    ({"shoot": {"red": 2}, "shoot_range": 12, "out_of_ammo": True}, {"has_ammo": False}),
    ({"glitches": [GlitchEffect(result="reboot", turns_left=1)]}, {"rebooted": True}),
    ({"glitches": [GlitchEffect(result="full_throttle", turns_left=1)]}, {"full_throttle": True}),
    ({"knocked_down": True, "control_zone": 5, "special_rules": ["Marked Target"]},
     {"knocked_down": True, "control_zone": 5, "special_rules": ("Marked Target",)}),
], ids=["armed", "no-pool", "no-range", "out-of-ammo", "reboot", "full-throttle", "flags"])
def test_an_activator_is_built_from_a_roster_bot(fields, expected):
    built = activator_from_bot(Bot(id="b1", name="Warden-2", role="hunter", **fields))
    assert {k: getattr(built, k) for k in expected} == expected
    assert (built.name, built.role, built.walk, built.run) == ("Warden-2", "hunter", 4, 8)


def test_the_random_direction_comes_from_the_injected_rng():
    rolls = {activate(bot(), [], Directive(), random.Random(seed)).actions[0].direction for seed in range(40)}
    assert rolls <= set(range(1, 9)) and len(rolls) > 3
    again = [activate(bot(), [], Directive(), random.Random(7)).actions[0].direction for _ in range(2)]
    assert again[0] == again[1]
