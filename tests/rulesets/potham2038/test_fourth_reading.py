"""The fourth reading of the 2038 rule books (docs/rules.md § 5.6): free Glitch actions that act, the
Black Die on a known melee, what a Character in contact may do, and the smaller readings.

Each test names its rule id and quotes the sentence of the *2038 Quick Reference* (seed 000) or the
*Combat Flowchart* (seed 001) it rests on.
"""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import Bot, DecidedAction, Decision
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    PATROL,
    game,
    hits,
    play,
    refused,
    rules,
    run,
    texts,
)

GUN = HUNTER.model_copy(update={"id": "gun", "name": "Gunner", "role": "sentry", "subject": "Vault"})
BO = BEN.model_copy(update={"id": "bo", "name": "Bo", "health": 4, "max_health": 4, "shoot": {"red": 1}})
KAY = HUNTER.model_copy(update={"id": "kay", "name": "Kay", "health": 2, "max_health": 4})


def glitch(state, bot_id, action, **fields):
    return run(state, {"type": "record_glitch", "bot_id": bot_id, "result": "free_action", "action": action,
                       **fields})


def activate(state, bot_id="hunter", distance=10.0, contact=False, los=True, character="ada", **fields):
    seen = [{"character_id": character, "distance": 0 if contact else distance, "line_of_sight": los,
             "base_contact": contact}]
    return run(state, {"type": "activate_bot", "bot_id": bot_id, "characters": seen, **fields})


def decided(bot_id, *actions):
    return Decision(bot_id=bot_id, turn=1, actions=[
        DecidedAction(slot=i, family=f, action=a, phase=3 if a in ("melee", "shoot") else 2, target_id=t,
                      target=t.title() if t else None, status="pending" if a in ("melee", "shoot") else "done")
        for i, (f, a, t) in enumerate(actions, 1)])


# --- R-GLITCH-FREE-ACTS ---------------------------------------------------------------------------
# Seed 000: "Free Glitch actions can duplicate a normal action." "Free actions spend no normal action
# and do not use up a family."


def test_R_GLITCH_FREE_ACTS_a_free_reload_reloads_at_once_and_the_activation_spends_no_reload():
    """R-GLITCH-FREE-ACTS: a free Reload does what Reload does ("Interact: … Reload"), at once."""
    state = game(ADA, HUNTER.model_copy(update={"out_of_ammo": True}), phase=1)
    state, log = glitch(state, "hunter", "reload")
    assert state.bot("hunter").out_of_ammo is False and "reloads" in texts(log)
    state = play(state, {"type": "next_phase"})
    state, _ = activate(state, distance=10.0)
    actions = [a.action for a in state.decision("hunter").actions]
    assert "reload" not in actions and "shoot" in actions


@pytest.mark.parametrize("phase", [1, 2], ids=["R-GLITCH-FREE-ACTS-phase-1", "R-GLITCH-FREE-ACTS-phase-2"])
def test_R_GLITCH_FREE_ACTS_a_free_stand_up_stands_the_bot_up_and_its_activation_walks(phase):
    """R-GLITCH-FREE-ACTS: a free Stand Up ("Maneuver: Walk, Run, Stand Up") stands it up now, so
    its activation walks and fights as a standing bot, in Phase 1 as in Phase 2."""
    state = game(ADA, HUNTER.model_copy(update={"knocked_down": True}), phase=phase)
    state, log = glitch(state, "hunter", "stand_up")
    assert state.bot("hunter").knocked_down is False and state.free_waiting == []
    if phase == 1:
        state = play(state, {"type": "next_phase"})
    state, _ = activate(state, distance=3.5)
    actions = [a.action for a in state.decision("hunter").actions if not a.free]
    assert actions == ["walk", "melee"]


def test_R_GLITCH_FREE_ACTS_a_free_scan_marks_the_named_character_in_sight_and_zone():
    """R-GLITCH-FREE-ACTS, R-SCAN: "Scan: +1 Marked to a Character in both Line of Sight and the NPC
    Control Zone." The free Scan asks which Character, with both facts."""
    state, log = glitch(game(ADA, HUNTER), "hunter", "scan", character_id="ada", line_of_sight=True, in_zone=True)
    assert state.character("ada").marked == 1 and "R-SCAN" in rules(log)


def engaged_phase3(*extra_commands):
    state = game(ADA, HUNTER, phase=2)
    state, _ = activate(state, contact=True)
    return play(state, {"type": "next_phase"}, *extra_commands)


def test_R_GLITCH_FREE_ACTS_a_free_melee_is_a_second_attack_on_an_opponent_still_in_contact():
    """R-GLITCH-FREE-ACTS: the free Melee duplicates the Melee the pair already fought; it is
    resolved in Phase 3 like the first, the AI-Bot attacking, and Danger rises once per phase."""
    state = engaged_phase3({"type": "record_glitch", "bot_id": "hunter", "result": "free_action",
                            "action": "melee"})
    state, _ = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                           "rolls": {"npc": hits(1), "character": hits(2)}})  # defended: still in contact
    danger = state.danger
    state, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                             "rolls": {"npc": hits(3), "character": hits(1)}})
    assert state.character("ada").health == 3 and "free Glitch Melee" in texts(log)
    assert state.danger == danger and state.pending_actions() == []
    refused(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada"})


def test_R_GLITCH_FREE_ACTS_the_free_melee_bout_is_the_bots_attack_and_shots_wait_for_it():
    """R-GLITCH-FREE-ACTS, R-CMB-ORDER: "AFTER MELEE · ELIGIBLE NPC RANGED ATTACKS": the second bout
    is an unresolved engagement, so an AI-Bot shot waits; naming the Character as attacker is refused."""
    gunner = GUN.model_copy(update={"id": "gun2", "name": "Gunner"})
    state = game(ADA, HUNTER, gunner, phase=2)
    state, _ = activate(state, contact=True)
    state, _ = activate(state, bot_id="gun2", distance=6, subject_distance=1)
    state = play(state, {"type": "next_phase"},
                 {"type": "record_glitch", "bot_id": "hunter", "result": "free_action", "action": "melee"},
                 {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                  "rolls": {"npc": hits(1), "character": hits(2)}})
    shot = {"type": "bot_shoot", "bot_id": "gun2", "character_id": "ada", "line_of_sight": True, "in_range": True}
    assert refused(state, shot).rule == "R-CMB-ORDER"
    assert refused(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                           "attacker": "character"}).rule == "R-GLITCH-FREE-ACTS"
    state, _ = run(state, {"type": "resolve_fallback", "bot_id": "hunter", "slot": 3, "done": False})
    run(state, shot)  # skipped: the shot may go


def test_R_GLITCH_FREE_ACTS_a_free_melee_pushed_apart_leaves_the_pair_settled():
    """R-GLITCH-FREE-ACTS: "an opponent still in contact": pushed back, the pair is no melee."""
    state = engaged_phase3({"type": "record_glitch", "bot_id": "hunter", "result": "free_action",
                            "action": "melee"})
    state, _ = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                           "rolls": {"npc": hits(3), "character": hits(1)}})  # damage and push back
    assert "fought or separated" in refused(state, {"type": "resolve_melee", "bot_id": "hunter",
                                                    "character_id": "ada"}).reason


# --- R-GLITCH-IMPOSSIBLE --------------------------------------------------------------------------
# Seed 000: "An impossible result has no effect and is not rerolled."


@pytest.mark.parametrize("bot, action, fields, phase", [
    (HUNTER.model_copy(update={"shoot_range": None, "shoot": {}}), "shoot", {}, 1),
    (HUNTER.model_copy(update={"out_of_ammo": True}), "shoot", {}, 1),
    (HUNTER, "reload", {}, 1),
    (HUNTER.model_copy(update={"shoot_range": None, "shoot": {}, "out_of_ammo": True}), "reload", {}, 1),
    (HUNTER, "stand_up", {}, 2),
    (HUNTER, "scan", {}, 2),
    (HUNTER, "scan", {"character_id": "ada", "line_of_sight": True, "in_zone": False}, 2),
    (HUNTER.model_copy(update={"walk": 0}), "walk", {}, 2),
], ids=["R-GLITCH-IMPOSSIBLE-shoot-no-weapon", "R-GLITCH-IMPOSSIBLE-shoot-out-of-ammo",
        "R-GLITCH-IMPOSSIBLE-reload-loaded", "R-GLITCH-IMPOSSIBLE-reload-no-weapon",
        "R-GLITCH-IMPOSSIBLE-stand-up-standing", "R-GLITCH-IMPOSSIBLE-scan-nobody-named",
        "R-GLITCH-IMPOSSIBLE-scan-not-in-zone", "R-GLITCH-IMPOSSIBLE-walk-0"])
def test_R_GLITCH_IMPOSSIBLE_a_free_action_the_bot_cannot_take_has_no_effect(bot, action, fields, phase):
    """R-GLITCH-IMPOSSIBLE: logged as no effect, nothing pending or waiting, nothing else changed."""
    before = game(ADA, bot, phase=phase)
    state, log = glitch(before, "hunter", action, **fields)
    assert "no effect" in texts(log) and "nothing is left pending" in texts(log)
    assert state.model_dump() == before.model_dump()


def test_R_GLITCH_IMPOSSIBLE_a_free_melee_with_nobody_in_contact_after_activation():
    """R-GLITCH-IMPOSSIBLE: in Phase 3, a bot in contact with no one cannot take a free Melee."""
    state = game(ADA, HUNTER, phase=2)
    state, _ = activate(state, distance=12)
    state = play(state, {"type": "next_phase"})
    after, log = glitch(state, "hunter", "melee")
    assert "no effect" in texts(log) and after.pending_actions() == state.pending_actions()


def test_R_GLITCH_IMPOSSIBLE_a_rolled_free_shoot_on_the_house_table_for_a_bot_without_a_gun():
    """R-GLITCH-IMPOSSIBLE with the house Glitch table: a rolled free Shoot is judged the same way."""
    table = HouseRules(glitch_table=[{"low": 1, "high": 6, "result": "free_action", "action": "shoot"}])
    state = game(ADA, HUNTER.model_copy(update={"shoot_range": None, "shoot": {}}), phase=3, house=table)
    state, log = run(state, {"type": "record_glitch", "bot_id": "hunter", "roll": 4})
    assert "no effect" in texts(log) and state.free_waiting == [] and state.pending_actions() == []


# --- R-CMB-BLACK-KNOWN ----------------------------------------------------------------------------
# Seed 001: "Roll the Black Die. On Success, attack the intended target; on Blank, attack the eligible
# model in that melee with the highest current Health. Player chooses ties."


def bo_touches_kay(*models):
    state = game(ADA, BO, KAY, *models, phase=1)
    return play(state, {"type": "character_contact", "character_id": "bo", "bot_id": "kay"})


def ada_shoots_kay(state, **fields):
    return run(state, {"type": "character_shoot", "character_id": "ada", "target_id": "kay",
                       "attack": hits(3), "defense": hits(0), **fields})


def test_R_CMB_BLACK_KNOWN_a_blank_at_a_model_known_in_melee_hits_the_healthiest():
    """R-CMB-BLACK-KNOWN: the app knows Bo is in contact with Kay; a Blank on Ada's shot at Kay hits
    Bo (Health 4 > Kay's 2), though the player ticked no melee."""
    state, log = ada_shoots_kay(bo_touches_kay(), black_die="blank")
    assert state.bot("kay").health == 2 and state.character("bo").health == 1
    assert "R-CMB-BLACK-KNOWN" in rules(log) and "R-CMB-TARGET" in rules(log)


def test_R_CMB_BLACK_KNOWN_success_hits_the_intended_target():
    state, _ = ada_shoots_kay(bo_touches_kay(), black_die="success")
    assert state.bot("kay").health == 0 and state.character("bo").health == 4


def test_R_CMB_BLACK_KNOWN_the_intended_target_when_it_has_the_highest_health():
    big = KAY.model_copy(update={"health": 9, "max_health": 9})
    state = play(game(ADA, BO, big, phase=1), {"type": "character_contact", "character_id": "bo", "bot_id": "kay"})
    state, _ = ada_shoots_kay(state, black_die="blank")
    assert state.bot("kay").health == 6 and state.character("bo").health == 4


def test_R_CMB_BLACK_KNOWN_the_app_rolls_the_black_die_when_none_is_entered():
    _, log = ada_shoots_kay(bo_touches_kay())
    assert any(e.rule == "R-CMB-TARGET" and e.dice and e.dice.get("target") for e in log)


def test_R_CMB_BLACK_KNOWN_player_chooses_ties():
    """R-CMB-BLACK-KNOWN: "Player chooses ties": Bo and Kay at Health 4, the player picks Kay."""
    even = KAY.model_copy(update={"health": 4})
    state = play(game(ADA, BO, even, phase=1), {"type": "character_contact", "character_id": "bo", "bot_id": "kay"})
    hit_bo, _ = ada_shoots_kay(state, black_die="blank", tie_choice="bo")
    hit_kay, _ = ada_shoots_kay(state, black_die="blank", tie_choice="kay")
    assert hit_bo.character("bo").health == 1 and hit_bo.bot("kay").health == 4
    assert hit_kay.bot("kay").health == 1 and hit_kay.character("bo").health == 4


def test_R_CMB_BLACK_KNOWN_a_gang_up_is_one_melee():
    """R-CMB-BLACK-KNOWN: "that melee": Bo touches Kay and Kay's ally Rex; Ada shoots Rex, a Blank
    finds the healthiest of Rex, Bo and Kay."""
    rex = HUNTER.model_copy(update={"id": "rex", "name": "Rex", "health": 1})
    state = play(bo_touches_kay(rex), {"type": "character_contact", "character_id": "bo", "bot_id": "rex"})
    state, _ = run(state, {"type": "character_shoot", "character_id": "ada", "target_id": "rex",
                           "black_die": "blank", "attack": hits(3), "defense": hits(0)})
    assert state.character("bo").health == 1 and state.bot("rex").health == 1


def test_R_CMB_BLACK_KNOWN_a_model_out_of_action_is_not_eligible():
    state = bo_touches_kay()
    state = play(state, {"type": "adjust", "target_id": "bo", "health": 0})
    state, _ = ada_shoots_kay(state, black_die="success")
    assert state.bot("kay").health == 0


@pytest.mark.parametrize("face", ["blank", "success"],
                         ids=["R-CMB-BLACK-KNOWN-blank-refused", "R-CMB-BLACK-KNOWN-success-logged"])
def test_R_CMB_BLACK_KNOWN_an_entered_black_die_is_never_silently_ignored(face):
    """R-CMB-BLACK-KNOWN: no melee named nor known: a Blank is refused with the reason, a Success is
    logged as not needed (the shot goes to the intended target either way it is said)."""
    state = game(ADA, BO, KAY, phase=1)
    if face == "blank":
        assert refused(state, {"type": "character_shoot", "character_id": "ada", "target_id": "kay",
                               "black_die": "blank"}).rule == "R-CMB-BLACK-KNOWN"
    else:
        after, log = ada_shoots_kay(state, black_die="success")
        assert "not needed" in texts(log) and after.bot("kay").health == 0


# --- R-CHAR-CONTACT-ENDS, R-DISTRACTED-EXCLUDES, R-DISTRACTED-NEW-CONTACT -------------------------
# Seed 001: "Entering enemy base contact ends its activation except where an explicit rule permits
# otherwise, such as Distracted." Seed 000: "Distracted: in base contact, spend two actions for one
# otherwise legal action that excludes the NPCs in contact. Gain one stack per contacted NPC when
# invoked and another for each new contact while active."


def test_R_CHAR_CONTACT_ENDS_a_shot_after_entering_contact_is_refused_with_the_reason():
    state = bo_touches_kay()
    why = refused(state, {"type": "character_shoot", "character_id": "bo", "target_id": "kay"})
    assert why.rule == "R-CHAR-CONTACT-ENDS" and "ends its activation" in why.reason


def test_R_CHAR_CONTACT_ENDS_a_hack_after_entering_contact_is_refused_too():
    state = bo_touches_kay(GUN)
    hack = {"type": "hack", "character_id": "bo", "pool": {"red": 1}, "opposing": {"red": 1}}
    assert refused(state, hack).rule == "R-CHAR-CONTACT-ENDS"


def test_R_CHAR_CONTACT_ENDS_distracted_buys_one_action_that_excludes_the_npcs_in_contact():
    state = play(bo_touches_kay(GUN), {"type": "invoke_distracted", "character_id": "bo", "bot_ids": ["kay"]})
    at_kay = {"type": "character_shoot", "character_id": "bo", "target_id": "kay"}
    assert refused(state, at_kay).rule == "R-DISTRACTED-EXCLUDES"
    state, log = run(state, {"type": "character_shoot", "character_id": "bo", "target_id": "gun"})
    assert "Distracted action" in texts(log)
    assert refused(state, {"type": "character_shoot", "character_id": "bo", "target_id": "gun"}).rule \
        == "R-CHAR-CONTACT-ENDS"


def test_R_CHAR_CONTACT_ENDS_zone_entries_and_others_actions_stay_open():
    """Zone entries are facts of the move that made the contact; another Character is not touched."""
    state = bo_touches_kay(GUN)
    state, _ = run(state, {"type": "character_move", "character_id": "bo", "entries": ["gun"]})
    state, _ = run(state, {"type": "character_shoot", "character_id": "ada", "target_id": "gun",
                           "attack": hits(1), "defense": hits(1)})
    assert state.character("bo").marked == 2


def test_R_CHAR_CONTACT_ENDS_a_new_turn_opens_a_new_activation():
    state = bo_touches_kay(GUN)
    state = play(state, {"type": "next_phase"}, {"type": "next_phase"}, {"type": "next_phase"},
                 {"type": "position_check", "bot_id": "gun", "passed": True}, {"type": "end_turn"})
    run(state, {"type": "character_shoot", "character_id": "bo", "target_id": "gun"})


def test_R_DISTRACTED_EXCLUDES_the_npcs_named_when_invoking_are_excluded():
    """R-DISTRACTED-EXCLUDES: in contact from an earlier turn (named when invoking), still excluded."""
    state = play(game(ADA, BO, KAY, GUN, phase=1),
                 {"type": "invoke_distracted", "character_id": "bo", "bot_ids": ["kay"]})
    assert refused(state, {"type": "character_shoot", "character_id": "bo",
                           "target_id": "kay"}).rule == "R-DISTRACTED-EXCLUDES"
    run(state, {"type": "character_shoot", "character_id": "bo", "target_id": "gun"})


def test_R_DISTRACTED_NEW_CONTACT_a_recorded_contact_while_distracted_adds_a_stack():
    state = play(game(ADA, BO, KAY, GUN, phase=1),
                 {"type": "invoke_distracted", "character_id": "bo", "bot_ids": ["kay"]})
    state, log = run(state, {"type": "character_contact", "character_id": "bo", "bot_id": "gun"})
    assert state.character("bo").distracted == 2 and "R-DISTRACTED-NEW-CONTACT" in rules(log)
    again, _ = run(state, {"type": "character_contact", "character_id": "bo", "bot_id": "gun"})
    assert again.character("bo").distracted == 2  # the same contact reported twice is not new


def test_R_DISTRACTED_NEW_CONTACT_a_bot_the_app_walks_into_contact_adds_a_stack():
    state = game(ADA, HUNTER, phase=1)
    state = play(state, {"type": "invoke_distracted", "character_id": "ada", "bot_ids": ["hunter"]},
                 {"type": "next_phase"})
    state, log = activate(state, distance=3.5)
    assert [a.action for a in state.decision("hunter").actions] == ["walk", "melee"]
    assert state.character("ada").distracted == 2 and "R-DISTRACTED-NEW-CONTACT" in rules(log)


def test_R_DISTRACTED_NEW_CONTACT_an_existing_contact_adds_none():
    state = game(ADA, HUNTER, phase=1)
    state = play(state, {"type": "invoke_distracted", "character_id": "ada", "bot_ids": ["hunter"]},
                 {"type": "next_phase"})
    state, _ = activate(state, contact=True)
    assert state.character("ada").distracted == 1


def test_R_DISTRACTED_NEW_CONTACT_no_stack_when_not_distracted():
    state = play(game(ADA, HUNTER, phase=2))
    state, _ = activate(state, distance=3.5)
    assert state.character("ada").distracted == 0


# --- R-PATROL-NEXT --------------------------------------------------------------------------------
# Seed 000: "Patrol: follow assigned waypoints as a Route or Circuit"; "If no legal or logical action
# in an unused family remains, a second Maneuver at 50% Walk speed is allowed."


@pytest.mark.parametrize("mode, index, then", [("route", 0, "C"), ("circuit", 1, "A"), ("route", 2, "A")],
                         ids=["R-PATROL-NEXT-route", "R-PATROL-NEXT-circuit-loops", "R-PATROL-NEXT-route-turns-back"])
def test_R_PATROL_NEXT_a_patrol_reaching_the_next_waypoint_walks_on_toward_the_one_after(mode, index, then):
    """R-PATROL-NEXT: standing on its waypoint it heads for the next, reaches it, and the 50% Walk
    goes on toward the one after; the reason never says "its only waypoint"."""
    patrol = PATROL.model_copy(update={"patrol_mode": mode, "waypoint_index": index, "shoot_range": None})
    state, log = activate(game(ADA, patrol, phase=2), bot_id="patrol", distance=20, los=False,
                          waypoint_distance=0, next_waypoint_distance=3)
    actions = state.decision("patrol").actions
    assert [(a.action, a.fallback, a.target) for a in actions][1] == ("walk", True, then)
    assert "only waypoint" not in texts(log) and all("only waypoint" not in e.reason
                                                     for e in state.decision("patrol").empty)


def test_R_PATROL_NEXT_only_waypoint_only_when_it_has_one():
    lone = PATROL.model_copy(update={"waypoints": ["A"], "shoot_range": None})
    state, log = activate(game(ADA, lone, phase=2), bot_id="patrol", distance=20, los=False, waypoint_distance=3)
    assert "its only waypoint" in texts(log) + " ".join(e.reason for e in state.decision("patrol").empty)


# --- R-PHASE-FALLBACK -----------------------------------------------------------------------------
# Seed 000: "NPC movement belongs to Phase 2; eligible melee and NPC Shoot actions resolve in Phase 3."


@pytest.mark.parametrize("action", ["melee", "shoot"],
                         ids=["R-PHASE-FALLBACK-melee", "R-PHASE-FALLBACK-shoot"])
def test_R_PHASE_FALLBACK_a_pending_melee_or_shoot_cannot_be_marked_done_in_phase_2(action):
    state = game(ADA, HUNTER, phase=2, decisions=[decided("hunter", ("maneuver", "walk", None),
                                                          ("attack", action, "ada"))])
    assert refused(state, {"type": "resolve_fallback", "bot_id": "hunter", "slot": 2,
                           "done": True}).rule == "R-PHASE-FALLBACK"
    skipped, _ = run(state, {"type": "resolve_fallback", "bot_id": "hunter", "slot": 2, "done": False})
    assert skipped.pending_actions() == []


def test_R_PHASE_FALLBACK_a_melee_marked_done_in_phase_3_still_raises_danger():
    """R-CMB-DANGER: "If any melee occurs anywhere this phase, increase Danger by 1 once."""
    state = game(ADA, HUNTER, phase=3, decisions=[decided("hunter", ("attack", "melee", "ada"))])
    state, _ = run(state, {"type": "resolve_fallback", "bot_id": "hunter", "slot": 1, "done": True})
    assert state.danger == 1 and state.phase3_melee


# --- R-OUT-OF-ACTION-ZONE -------------------------------------------------------------------------
# Seed 000: "Noise: if any NPC Control Zone contains the Character, add one Marked total and +1
# Danger." "Alarm: add one Marked per containing NPC zone and +1 Danger."


@pytest.mark.parametrize("command, marked, danger", [
    ({"type": "noise", "character_id": "ada", "kind": "noise", "bot_ids": ["gun"]}, 0, 0),
    ({"type": "noise", "character_id": "ada", "kind": "alarm", "bot_ids": ["gun", "hunter"]}, 1, 1),
    ({"type": "character_move", "character_id": "ada", "entries": ["gun", "hunter"]}, 1, 0),
], ids=["R-OUT-OF-ACTION-ZONE-noise", "R-OUT-OF-ACTION-ZONE-alarm", "R-OUT-OF-ACTION-ZONE-move"])
def test_R_OUT_OF_ACTION_ZONE_a_destroyed_bot_has_no_zone(command, marked, danger):
    state = game(ADA, HUNTER, GUN.model_copy(update={"health": 0}), phase=1)
    state, log = run(state, command)
    assert state.character("ada").marked == marked and state.danger == danger
    assert "R-OUT-OF-ACTION-ZONE" in rules(log)


# --- R-DANGER-LIMIT-EDIT --------------------------------------------------------------------------
# Seed 000: "Reaching 24 ends the game after the current turn."


def test_R_DANGER_LIMIT_EDIT_a_limit_lowered_to_the_current_danger_makes_this_the_final_turn():
    state = game(ADA, HUNTER, danger=10)
    state, log = run(state, {"type": "set_house_rules", "house": HouseRules(danger_limit=10).model_dump()})
    assert state.status == "final_turn" and "R-DANGER-LIMIT-EDIT" in rules(log)


def test_R_DANGER_LIMIT_EDIT_a_limit_below_the_current_danger_is_refused_with_the_reason():
    state = game(ADA, HUNTER, danger=10)
    why = refused(state, {"type": "set_house_rules", "house": HouseRules(danger_limit=9).model_dump()})
    assert "Danger is already 10" in why.reason


def test_R_DANGER_LIMIT_EDIT_other_house_edits_leave_the_status_alone():
    state = game(ADA, HUNTER, danger=10)
    state, _ = run(state, {"type": "set_house_rules", "house": HouseRules(danger_limit=24,
                                                                          glitch_die=8).model_dump()})
    assert state.status == "playing"


# --- found in play: no line of sight is an answer -------------------------------------------------


@pytest.mark.parametrize("fields", [{"line_of_sight": False, "in_range": True},
                                    {"line_of_sight": True, "in_range": False}],
                         ids=["no-line-of-sight", "out-of-range"])
def test_no_line_of_sight_is_an_answer_the_shot_is_recorded_as_not_made(fields):
    """Seed 001: "An AI-Bot not in base contact can Shoot a target in Line of Sight"; "Use remaining
    actions in a different family where legal." `bot_shoot` still refuses to roll without both facts;
    `no_shot` records the answer: the Shoot is skipped and the slot may be re-decided."""
    state = game(ADA, HUNTER, phase=3, decisions=[decided("hunter", ("maneuver", "walk", None),
                                                          ("attack", "shoot", "ada"))])
    refused(state, {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", **fields})  # no dice
    state, log = run(state, {"type": "no_shot", "bot_id": "hunter", "character_id": "ada", **fields})
    assert "cannot shoot" in texts(log) and state.character("ada").health == 5
    assert state.pending_actions() == [] and state.decision("hunter").actions[1].status == "skipped"
    state, _ = run(state, {"type": "redecide", "bot_id": "hunter", "slot": 2, "action": "scan",
                           "character_id": "ada", "line_of_sight": True, "in_zone": True})
    assert state.character("ada").marked == 1


def test_no_line_of_sight_is_an_answer_but_shots_still_wait_for_melee():
    state = game(ADA, BEN, HUNTER, GUN, phase=3, decisions=[
        decided("hunter", ("attack", "melee", "ben")), decided("gun", ("attack", "shoot", "ada"))])
    assert refused(state, {"type": "no_shot", "bot_id": "gun", "character_id": "ada", "line_of_sight": False,
                           "in_range": True}).rule == "R-CMB-ORDER"


def test_a_decided_bot_stays_a_bot_in_the_shared_fixtures():
    """The fixtures above mean what the tests say (a guard against a fixture drifting)."""
    assert isinstance(KAY, Bot) and KAY.health == 2 and BO.health == 4 and GUN.role == "sentry"
