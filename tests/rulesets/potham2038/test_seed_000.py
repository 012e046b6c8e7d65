"""Seed 000 (2038 Quick Reference), sentence by sentence, black-box through the public doors:
`activation.activate` (one AI-Bot's Phase 2 decision), `marked.noise`, and the turn commands
(`engine.apply`). Each test names the rule id of docs/design-rules.md (or docs/rules.md) it checks;
docs/rules.md § "Seed 000, sentence by sentence" maps every sentence to these tests.
"""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate
from app.rulesets.potham2038.marked import noise
from app.rulesets.potham2038.models import Bot, Character, GlitchEffect
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    PATROL,
    SENTRY,
    WORKER,
    game,
    hits,
    play,
    refused,
    rules,
    run,
)

WARDEN = Activator(name="Warden", role="hunter", walk=4, run=8)


def decide(characters=(), role="hunter", directive=None, **bot):
    fields = {"name": "Warden", "role": role, "walk": 4, "run": 8, **bot}
    return activate(Activator(**fields), list(characters), directive or Directive())


def actions(result) -> list[str]:
    return [a.action for a in result.actions]


def see(name="Ada", distance=5.0, los=True, contact=False) -> Seen:
    return Seen(name, distance, los, contact)


def activate_bot(state, bot_id="hunter", *characters, **facts):
    seen = [{"character_id": c, "distance": d, "line_of_sight": los, "base_contact": d == 0}
            for c, d, los in characters]
    return run(state, {"type": "activate_bot", "bot_id": bot_id, "characters": seen, **facts})


# --- Four phases: Phase 1 ------------------------------------------------------------------


@pytest.mark.parametrize("entries, marked", [([], 0), (["hunter"], 1), (["hunter", "hunter"], 2),
                                             (["hunter", "sentry", "hunter"], 3)],
                         ids=["R-MARK-MOVE-no-entry", "R-MARK-MOVE-one-entry", "R-MARK-MOVE-re-entry-counts-again",
                              "R-MARK-MOVE-each-npc-each-entry"])
def test_R_MARK_MOVE_each_npc_entering_the_moving_characters_zone_adds_one_marked(entries, marked):
    state, _ = run(game(ADA, HUNTER, SENTRY), {"type": "character_move", "character_id": "ada", "entries": entries})
    assert state.character("ada").marked == marked


def test_R_MARK_MOVE_npcs_do_not_activate_from_the_trigger():
    state, _ = run(game(ADA, HUNTER), {"type": "character_move", "character_id": "ada", "entries": ["hunter"]})
    assert state.decisions == [] and state.to_activate() == [state.bot("hunter")]


@pytest.mark.parametrize("phase", [1, 2, 3, 4], ids=[f"R-NOISE-as-it-occurs-phase-{p}" for p in (1, 2, 3, 4)])
def test_R_NOISE_noise_and_alarm_resolve_as_they_occur_in_any_phase(phase):
    state, _ = run(game(ADA, HUNTER, phase=phase),
                   {"type": "noise", "character_id": "ada", "kind": "alarm", "bot_ids": ["hunter"]})
    assert (state.character("ada").marked, state.danger) == (1, 1)


# --- Phase 2 -------------------------------------------------------------------------------


def test_R_ACT_ORDER_the_player_chooses_the_activation_order():
    state = play(game(ADA, HUNTER, SENTRY, phase=2),
                 {"type": "set_activation_order", "bot_ids": ["sentry", "hunter"]})
    assert [b.id for b in state.to_activate()] == ["sentry", "hunter"]
    state, _ = activate_bot(state, "hunter", ("ada", 9, False))  # a plan, not a gate
    assert [d.bot_id for d in state.decisions] == ["hunter"]


def test_R_ACT_PHASE_npc_movement_belongs_to_phase_2():
    for phase in (1, 3, 4):
        refused(game(ADA, HUNTER, phase=phase),
                {"type": "activate_bot", "bot_id": "hunter", "characters": []})


def test_R_MARK_EVENT_the_event_is_applied_when_drawn():
    state, _ = run(game(ADA, HUNTER, phase=2),
                   {"type": "record_event", "title": "Blackout", "danger": 2, "marked": {"ada": 1}})
    assert (state.event, state.danger, state.character("ada").marked) == ("Blackout", 2, 1)


# --- Phase 3 -------------------------------------------------------------------------------


def test_R_CONTACT_MELEE_an_ai_bot_in_base_contact_prioritizes_melee():
    result = decide([see(distance=0, contact=True), see("Bo", 6)], shoot_range=18)
    assert result.actions[0].action == "melee" and "shoot" not in actions(result)


def test_R_CMB_SHOOT_an_ai_bot_not_in_contact_can_shoot_a_target_in_line_of_sight():
    result = decide([see(distance=2.5)], role="sentry", shoot_range=18,
                    directive=Directive(subject="Vault", subject_distance=3))
    assert "shoot" in actions(result)
    blind = decide([see(distance=2.5, los=False)], role="sentry", shoot_range=18,
                   directive=Directive(subject="Vault", subject_distance=3))
    assert "shoot" not in actions(blind)


# --- Phase 4 -------------------------------------------------------------------------------


def test_R_END_CHECK_a_failed_position_check_gives_one_immediate_glitch():
    state, log = run(game(ADA, SENTRY, phase=4),
                     {"type": "position_check", "bot_id": "sentry", "passed": False, "glitch_roll": 1})
    assert [e.rule for e in log].count("R-GLITCH") == 1 and state.bot("sentry").rebooted


def test_R_END_CHECK_each_failed_check_resolves_its_own_glitch():
    state = game(ADA, SENTRY, PATROL, phase=4)
    state, first = run(state, {"type": "position_check", "bot_id": "sentry", "passed": False, "glitch_roll": 5})
    state, second = run(state, {"type": "position_check", "bot_id": "patrol", "passed": False, "glitch_roll": 1})
    assert state.bot("sentry").full_throttle and state.bot("patrol").rebooted
    assert [e.rule for e in first + second].count("R-GLITCH") == 2


def test_R_MARK_CLEAR_all_marked_stacks_are_removed_at_the_end_of_phase_4():
    state = game(ADA.model_copy(update={"marked": 4}), BEN.model_copy(update={"marked": 1}), HUNTER, phase=4)
    state, log = run(state, {"type": "end_turn"})
    assert [c.marked for c in state.characters] == [0, 0] and "R-MARK-CLEAR" in rules(log)


def test_R_MARK_CLEAR_marked_stays_through_phases_1_to_3():
    state = play(game(ADA.model_copy(update={"marked": 2}), HUNTER), {"type": "next_phase"},
                 {"type": "next_phase"}, {"type": "next_phase"})
    assert state.phase == 4 and state.character("ada").marked == 2


# --- NPC actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("characters, shoot_range", [
    ([see(distance=2.5)], None), ([see(distance=10)], 18), ([see(distance=20)], None), ([], None),
    ([see(distance=0, contact=True)], 18), ([see(distance=6, los=False)], 18),
])
def test_R_ACT_TWO_two_actions_slot_2_in_another_family_or_the_flagged_fallback(characters, shoot_range):
    result = decide(characters, shoot_range=shoot_range)
    assert 1 <= len(result.actions) <= 2 and [a.slot for a in result.actions] == list(range(1, len(result.actions) + 1))
    if len(result.actions) == 2:
        first, second = result.actions
        assert first.family != second.family or (second.fallback and second.family == "maneuver")


def test_R_ACT_FALLBACK_a_second_maneuver_at_50_percent_walk_flagged():
    result = decide([see(distance=20)])  # no weapon; out of zone after a Run, so no Scan either
    first, second = result.actions
    assert (first.action, first.move) == ("run", 8)
    assert (second.family, second.action, second.move, second.fallback, second.rule) == (
        "maneuver", "walk", 2, True, "R-ACT-FALLBACK")


@pytest.mark.parametrize("action, family", [
    ("walk", "maneuver"), ("run", "maneuver"), ("stand_up", "maneuver"), ("scan", "scan"),
    ("activate", "interact"), ("melee", "attack"), ("shoot", "attack"),
], ids=[f"R-ACT-TWO-{a}-is-{f}" for a, f in [("walk", "maneuver"), ("run", "maneuver"), ("stand_up", "maneuver"),
                                              ("scan", "scan"), ("activate", "interact"), ("melee", "attack"),
                                              ("shoot", "attack")]])
def test_R_ACT_TWO_each_action_belongs_to_its_family(action, family):
    from app.rulesets.potham2038.activation_types import FAMILY_OF

    assert FAMILY_OF[action] == family


@pytest.mark.parametrize("distance, gait, move", [(3.9, "walk", 3.9), (4, "walk", 4), (6, "run", 6),
                                                  (20, "run", 8)],
                         ids=["R-ACT-MOVE-walk-when-a-walk-reaches", "R-ACT-MOVE-exactly-a-walk",
                              "R-ACT-MOVE-run-when-it-does-not", "R-ACT-MOVE-run-at-most-run"])
def test_R_ACT_MOVE_walk_when_a_walk_reaches_else_run(distance, gait, move):
    result = decide([see(distance=distance)], control_zone=0)
    assert (result.actions[0].action, result.actions[0].move) == (gait, move)


def test_R_ACT_MOVE_a_knocked_down_bot_stands_up_first():
    for characters in ([see(distance=0, contact=True)], [see(distance=2)], []):
        result = decide(characters, knocked_down=True)
        assert result.actions[0].action == "stand_up"


def test_R_ACT_MOVE_standing_up_clears_knocked_down_in_the_game():
    state, _ = activate_bot(game(ADA, HUNTER.model_copy(update={"knocked_down": True}), phase=2), "hunter",
                            ("ada", 2, True))
    assert state.bot("hunter").knocked_down is False


# --- Scan ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seen, scanned", [
    (see(distance=3), True), (see(distance=3.01), False), (see(distance=2, los=False), False),
    (see(distance=9, contact=True), True),
], ids=["R-SCAN-in-zone-and-los", "R-SCAN-outside-zone", "R-SCAN-no-los", "R-SCAN-base-contact-is-in-zone"])
def test_R_SCAN_only_a_character_in_both_line_of_sight_and_zone(seen, scanned):
    result = decide([seen], role="sentry", directive=Directive(subject="Vault", subject_distance=0), walk=0, run=0)
    assert ("scan" in actions(result)) is scanned


def test_R_SCAN_gives_plus_one_marked_in_the_game():
    post = SENTRY.model_copy(update={"walk": 2, "run": 4})  # a charge would leave its post (R-SENTRY-INTRUDER)
    state, _ = activate_bot(game(ADA, post, phase=2), "sentry", ("ada", 2.5, True), subject_distance=1)
    decision = state.decision("sentry")
    assert "scan" in [a.action for a in decision.actions]
    assert state.character("ada").marked == 2  # R-MARK-ACT + R-SCAN


# --- Interact ------------------------------------------------------------------------------


@pytest.mark.parametrize("distance, contact, expected", [
    (3, False, ["walk", "activate"]), (0, True, ["activate"]), (7, False, ["run", "activate"]),
], ids=["R-ROLE-WORKER-walk-then-interact", "R-ROLE-WORKER-in-contact-interacts",
        "R-WORKER-RUN-run-then-interact"])
def test_R_ROLE_WORKER_maneuver_then_interact_in_one_turn(distance, contact, expected):
    result = decide([], role="worker", directive=Directive(object="Console", object_distance=distance,
                                                          object_contact=contact))
    assert actions(result)[:len(expected)] == expected
    assert result.actions[-1 if len(expected) > 1 else 0].family in ("interact", "maneuver")


# --- Roles ---------------------------------------------------------------------------------


def test_R_ROLE_HUNTER_closest_in_zone_first_even_without_line_of_sight():
    result = decide([see("Bo", 3.5), see("Ada", 2.9, los=False)])
    assert result.actions[0].target == "Ada"


def test_R_ROLE_HUNTER_otherwise_the_closest_visible_character():
    result = decide([see("Bo", 9), see("Ada", 6), see("Cy", 5, los=False)])
    assert result.actions[0].target == "Ada"


def test_R_ROLE_HUNTER_ties_are_listed_for_the_player():
    assert set(decide([see("Bo", 2), see("Ada", 2)]).ties) == {"Ada", "Bo"}
    assert set(decide([see("Bo", 7), see("Ada", 7), see("Cy", 8)]).ties) == {"Ada", "Bo"}
    assert decide([see("Bo", 2), see("Ada", 2.5)]).ties == ()


def test_R_ROLE_HUNTER_moves_randomly_when_neither_qualifies():
    result = decide([see("Ada", 9, los=False)])
    assert result.actions[0].action == "random_move" and result.actions[0].move == 4


def test_R_ROLE_SENTRY_returns_toward_its_subject_when_more_than_one_walk_away():
    result = decide([], role="sentry", directive=Directive(subject="Vault", subject_distance=10))
    assert result.actions[0].family == "maneuver" and result.actions[0].target == "Vault"


def test_R_ROLE_SENTRY_phase_4_check_only_for_sentries_and_patrols_not_exempt():
    state = game(ADA, SENTRY, PATROL, WORKER, HUNTER, SENTRY.model_copy(update={"id": "s2", "exempt": True}),
                 phase=4)
    assert {b.id for b in state.checks_due()} == {"sentry", "patrol"}
    refused(state, {"type": "position_check", "bot_id": "s2", "passed": False})
    refused(state, {"type": "position_check", "bot_id": "worker", "passed": False})


def test_R_ROLE_PATROL_moves_toward_its_waypoint():
    result = decide([], role="patrol", directive=Directive(waypoint="B", waypoint_distance=7))
    assert (result.actions[0].action, result.actions[0].target, result.actions[0].move) == ("run", "B", 7)
    assert result.arrived


# --- Marked and Distracted -----------------------------------------------------------------


@pytest.mark.parametrize("distance, contact, marked", [(3, False, 1), (3.001, False, 0), (0, True, 1),
                                                       (12, True, 1)],
                         ids=["R-MARK-ACT-zone-edge-inside", "R-MARK-ACT-past-the-edge", "R-MARK-ACT-base-contact",
                              "R-MARK-ACT-base-contact-whatever-the-distance"])
def test_R_MARK_ACT_each_npcs_initial_activation_marks_characters_in_its_zone(distance, contact, marked):
    result = decide([see(distance=distance, los=False, contact=contact)])
    assert sum(m.stacks for m in result.marked) == marked


def test_R_MARK_ACT_only_once_per_bot_per_turn():
    state, _ = activate_bot(game(ADA, HUNTER, phase=2), "hunter", ("ada", 6, False))
    refused(state, {"type": "activate_bot", "bot_id": "hunter", "characters": []})


def test_R_MARKED_TARGET_marked_itself_grants_no_attack_bonus():
    state = game(ADA.model_copy(update={"marked": 3}), HUNTER, phase=3)
    state = state.model_copy(update={"decisions": []})
    state, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                             "rolls": {"npc": hits(1), "character": hits(1)}})
    melee = next(e for e in log if e.dice)
    assert melee.dice["attack_total"] == 1 and melee.dice["outcome"] == "tie"


def test_R_MARKED_TARGET_adds_one_attack_per_stack_with_the_special_rule():
    bot = HUNTER.model_copy(update={"special_rules": ["Marked Target"]})
    state = game(ADA.model_copy(update={"marked": 3}), bot, phase=3)
    state, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                             "rolls": {"npc": hits(1), "character": hits(1)}})
    melee = next(e for e in log if e.dice)
    assert (melee.dice["attack_total"], melee.dice["damage"]) == (4, 3)


def _distracted(state, *bots):
    return run(state, {"type": "invoke_distracted", "character_id": "ada", "bot_ids": list(bots)})[0]


def _end(state):
    return play(state.model_copy(update={"phase": 4}), {"type": "end_turn"})


def test_R_DISTRACTED_one_stack_per_contacted_npc_when_invoked():
    state = _distracted(game(ADA, HUNTER, SENTRY), "hunter", "sentry")
    assert state.character("ada").distracted == 2


def test_R_DISTRACTED_never_cleared_in_the_invocation_turn_cleared_after_the_next_quiet_turn():
    state = _distracted(game(ADA, HUNTER, SENTRY.model_copy(update={"exempt": True})), "hunter")
    state = _end(state)  # end of the invocation turn: kept
    assert state.character("ada").distracted == 1
    state = _end(state)  # end of the next turn, no new stacks: cleared
    assert state.character("ada").distracted == 0


def test_R_DISTRACTED_a_new_contact_adds_a_stack_and_keeps_it_another_turn():
    state = _distracted(game(ADA, HUNTER, SENTRY.model_copy(update={"exempt": True})), "hunter")
    state = _end(state)
    state, _ = run(state, {"type": "distracted_contact", "character_id": "ada", "bot_id": "sentry"})
    assert state.character("ada").distracted == 2
    state = _end(state)  # a stack was gained this turn: kept
    assert state.character("ada").distracted == 2
    state = _end(state)
    assert state.character("ada").distracted == 0


@pytest.mark.parametrize("stacks", [0, 1, 3], ids=[f"R-DISTRACTED-{n}-stacks-{n}-white-dice" for n in (0, 1, 3)])
def test_R_DISTRACTED_each_incoming_attack_adds_one_white_die_per_stack(stacks):
    bot = HUNTER.model_copy(update={"melee": {"red": 3}})
    state = game(ADA.model_copy(update={"distracted": stacks, "distracted_since": 1}), bot, phase=3)
    _, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                         "rolls": {"character": hits(0)}})
    faces = next(e for e in log if e.dice).dice["faces"]
    npc = [f for f in faces if f["roll"] == "npc"]
    assert len(npc) == 3 + stacks and sum(f["colour"] == "white" for f in npc) == stacks


def test_R_DISTRACTED_a_characters_own_attack_gets_no_white_dice():
    bot = HUNTER.model_copy(update={"points": 10, "defense": {"red": 1}})
    state = game(ADA.model_copy(update={"distracted": 2, "distracted_since": 1}), bot, phase=3)
    _, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                         "rolls": {"character": hits(1)}})
    npc = [f for f in next(e for e in log if e.dice).dice["faces"] if f["roll"] == "npc"]
    assert [f["colour"] for f in npc] == ["red"]


# --- Noise, Alarm, Glitches ----------------------------------------------------------------


@pytest.mark.parametrize("kind, zones, marked, danger", [
    ("noise", 0, 0, 0), ("noise", 1, 1, 1), ("noise", 3, 1, 1),
    ("alarm", 0, 0, 1), ("alarm", 1, 1, 1), ("alarm", 3, 3, 1),
], ids=["R-NOISE-outside-every-zone", "R-NOISE-one-zone", "R-NOISE-three-zones-one-total",
        "R-ALARM-outside-every-zone", "R-ALARM-one-zone", "R-ALARM-three-zones-three"])
def test_R_NOISE_R_ALARM_marked_and_danger(kind, zones, marked, danger):
    effect = noise(kind, zones)
    assert (effect.marked, effect.danger) == (marked, danger)
    bots = [HUNTER.model_copy(update={"id": f"b{i}"}) for i in range(3)]
    state, _ = run(game(ADA, *bots), {"type": "noise", "character_id": "ada", "kind": kind,
                                      "bot_ids": [f"b{i}" for i in range(zones)]})
    assert (state.character("ada").marked, state.danger) == (marked, danger)


def test_R_NOISE_a_zone_named_twice_counts_once():
    state, _ = run(game(ADA, HUNTER), {"type": "noise", "character_id": "ada", "kind": "alarm",
                                       "bot_ids": ["hunter", "hunter"]})
    assert state.character("ada").marked == 1


def test_R_NOISE_noise_does_not_direct_npc_movement():
    state, _ = run(game(ADA, HUNTER, phase=2), {"type": "noise", "character_id": "ada", "kind": "alarm",
                                                "bot_ids": ["hunter"]})
    assert state.decisions == [] and state.bot("hunter") == HUNTER


def test_R_GLITCH_an_impossible_result_has_no_effect_and_is_not_rerolled():
    frozen = SENTRY.model_copy(update={"walk": 0, "run": 0})
    state, log = run(game(ADA, frozen, phase=4), {"type": "position_check", "bot_id": "sentry", "passed": False,
                                                 "glitch_roll": 5})
    assert state.bot("sentry") == frozen and [e.rule for e in log].count("R-GLITCH") == 1


def test_R_GLITCH_reboot_stops_even_free_actions_and_marks_no_one():
    rebooted = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=1)]})
    state, _ = activate_bot(game(ADA, rebooted, phase=2), "hunter", ("ada", 0, True))
    decision = state.decision("hunter")
    assert decision.actions == [] and decision.rebooted and state.character("ada").marked == 0
    assert decide([see(distance=0, contact=True)], rebooted=True).actions == ()
    state = state.model_copy(update={"phase": 3})  # R-CMB-WHO: it never attacks; the Character does
    refused(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada", "attacker": "npc"})
    _, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada"})
    assert log[0].text.startswith("Ada attacks")


def test_R_GLITCH_overcharged_can_exceed_the_maximum_health():
    bot = SENTRY.model_copy(update={"health": 3, "max_health": 3})
    state, _ = run(game(ADA, bot, phase=4), {"type": "position_check", "bot_id": "sentry", "passed": False,
                                            "glitch_roll": 3})
    assert (state.bot("sentry").health, state.bot("sentry").max_health) == (4, 3)


def test_R_GLITCH_full_throttle_forces_complete_run_movement():
    result = decide([see(distance=20)], full_throttle=True)
    assert (result.actions[0].action, result.actions[0].move) == ("run", 8)
    assert all(a.action in ("run", "random_move") for a in decide([], full_throttle=True).actions)
    assert decide([], full_throttle=True).actions[0].move == 8


# --- Danger --------------------------------------------------------------------------------


def test_R_DANGER_reaching_24_ends_the_game_after_the_current_turn():
    state, _ = run(game(ADA, HUNTER, danger=23), {"type": "noise", "character_id": "ada", "kind": "alarm",
                                                 "bot_ids": []})
    assert (state.danger, state.status) == (24, "final_turn")
    state, _ = run(state, {"type": "character_move", "character_id": "ada", "entries": []})  # play goes on
    state = _end(state)
    assert state.status == "ended"


def test_R_DANGER_above_24_is_immediate_failure():
    state, _ = run(game(ADA, HUNTER, danger=24, status="final_turn"),
                   {"type": "noise", "character_id": "ada", "kind": "alarm", "bot_ids": []})
    assert state.status == "failed"
    refused(state, {"type": "character_move", "character_id": "ada", "entries": []})


def test_R_DANGER_an_effect_jumping_past_24_fails_at_once():
    state, _ = run(game(ADA, HUNTER, danger=22, phase=2), {"type": "record_event", "title": "Riot", "danger": 3})
    assert state.status == "failed"


def test_R_DANGER_never_goes_below_zero():
    state, _ = run(game(ADA, HUNTER, danger=1, phase=2), {"type": "record_event", "title": "Calm", "danger": -5})
    assert state.danger == 0 and state.status == "playing"


# --- Control Zones -------------------------------------------------------------------------


@pytest.mark.parametrize("zone, distance, inside", [(3, 3, True), (3, 3.5, False), (6, 5.5, True), (1, 1.5, False)],
                         ids=["R-ZONE-3-default-edge", "R-ZONE-3-outside", "R-ZONE-special-rule-6", "R-ZONE-special-rule-1"])
def test_R_ZONE_ai_bot_zone_is_3_inches_unless_a_special_rule_changes_it(zone, distance, inside):
    result = decide([see(distance=distance, los=False)], control_zone=zone)
    assert bool(result.marked) is inside


def test_R_ZONE_default_zones_are_3_for_bots_and_2_for_characters():
    from app.rulesets.potham2038.house_rules import HouseRules

    assert (HouseRules().bot_zone, HouseRules().character_zone) == (3, 2)
    assert Bot(id="b", name="B", role="hunter").control_zone == 3
    assert WARDEN.control_zone == 3


# --- Mission-defined hacking ---------------------------------------------------------------


NIX = Bot(id="nix", name="Nix", role="hunter", defense={"white": 1}, special_rules=["OUT OF WARRANTY"])


def hack(state, **body):
    return run(state, {"type": "hack", "character_id": "ada", "opposing": {"white": 1},
                       "rolls": {"opposing": hits(0)}, **body})


def test_R_HACK_there_is_no_generic_hacking_action_the_mission_names_the_stat():
    refused(game(ADA, HUNTER), {"type": "hack", "character_id": "ada", "opposing": {"white": 1}})


@pytest.mark.parametrize("help_, bot_id, extra", [("diagnostics", "hunter", 1), ("tech_support", None, 1),
                                                  ("diagnostics", "nix", 0), ("tech_support", "nix", 0)],
                         ids=["R-HACK-diagnostics-helps-against-an-npc", "R-HACK-tech-support-helps",
                              "R-HACK-out-of-warranty-negates-diagnostics", "R-HACK-out-of-warranty-negates-tech-support"])
def test_R_HACK_out_of_warranty_negates_the_equipment_without_cancelling(help_, bot_id, extra):
    # R-HACK-TECH: TECH SUPPORT on an NPC subject only when the stat opposed is not the NPC's
    npc_stat = False if help_ == "tech_support" and bot_id else None
    state, log = hack(game(ADA, HUNTER, NIX), stat="Hacking", help=help_, bot_id=bot_id, npc_stat=npc_stat)
    attempt = next(e for e in log if e.rule == "R-HACK-ROLL")
    faces = [f for f in attempt.dice["faces"] if f["roll"] == "attempt"]
    assert len(faces) == 2 + extra  # Ada's Hacking is 2 Red; the attempt is rolled either way


def test_R_HACK_luck_roll_once_per_turn_only_with_no_dice_in_the_stat():
    luck = {"type": "luck_roll", "character_id": "ada", "stat": "Stealth", "black_die": "success"}
    refused(game(ADA, HUNTER), {**luck, "stat": "Hacking"})  # Ada has dice in Hacking
    state, _ = run(game(ADA, HUNTER), luck)
    refused(state, luck)  # once per turn
    state = _end(state)
    state, _ = run(state, luck)  # a new turn, a new Luck Roll
    assert state.character("ada").luck_roll_used


def test_R_HACK_no_dice_in_the_stat_sends_the_player_to_the_luck_roll():
    error = refused(game(ADA, HUNTER), {"type": "hack", "character_id": "ada", "stat": "Stealth",
                                        "opposing": {"white": 1}})
    assert "Luck Roll" in error.reason


def test_characters_and_bots_of_the_kit_are_what_these_tests_assume():
    assert isinstance(ADA, Character) and ADA.mission_stats["Hacking"] == {"red": 2}


@pytest.mark.parametrize("role, directive", [
    ("hunter", Directive()), ("sentry", Directive(subject="Vault", subject_distance=1)),
    ("worker", Directive(object="Console", object_distance=5)), ("patrol", Directive(waypoint="B", waypoint_distance=5)),
], ids=["R-ROLE-HUNTER-ties", "R-SENTRY-INTRUDER-ties", "R-WORKER-SLOT2-ties", "R-PATROL-SLOT2-ties"])
def test_R_ROLE_equal_distances_are_the_players_choice_so_every_role_lists_the_ties(role, directive):
    in_contact = decide([see("Ada", 0, contact=True), see("Bo", 0, contact=True)], role=role, directive=directive)
    assert in_contact.actions[0].action == "melee" and set(in_contact.ties) == {"Ada", "Bo"}


def test_R_PATROL_SLOT2_a_scan_between_equal_distances_lists_the_ties():
    # No waypoint distance, so it does not move (R-ACT-UNKNOWN) and its facts stand (R-ACT-FACTS).
    result = decide([see("Ada", 2), see("Bo", 2)], role="patrol", directive=Directive(waypoint="B"))
    assert "scan" in actions(result) and set(result.ties) == {"Ada", "Bo"}


def test_R_GLITCH_R_DANGER_core_gaps_are_house_rules_the_player_edits_per_game():
    house = {"glitch_die": 4, "glitch_table": [{"low": 1, "high": 4, "result": "overcharged", "amount": 2}],
             "danger_limit": 10, "cover_dice": {"light": 2, "heavy": 3}}
    state, _ = run(game(ADA, SENTRY), {"type": "set_house_rules", "house": house})
    assert (state.house.glitch_die, state.house.danger_limit, state.house.cover_dice["light"]) == (4, 10, 2)
    state, _ = run(state.model_copy(update={"phase": 4}),
                   {"type": "position_check", "bot_id": "sentry", "passed": False, "glitch_roll": 4})
    assert state.bot("sentry").health == SENTRY.health + 2
