"""Rulings of the second reading, Phase 3 / combat / Glitch / Event / house side (issue 8).

Each test names the rule id it checks (R-CMB-ORDER, R-CMB-PUSH, R-CMB-COUNTER, R-GLITCH-REBOOT,
R-GLITCH-ANY, R-EVENT-ONE, R-HACK-TECH, R-SHOOT-COVER, R-CMB-SHOOT-ACTION, R-DISTRACTED) and
failed on the code before the ruling."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.house_checks import game_checks
from app.rulesets.potham2038.house_rules import GlitchRow, HouseRules
from app.rulesets.potham2038.models import Decision, GlitchEffect
from tests.rulesets.potham2038.test_turn_phase3 import decided
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    SENTRY,
    game,
    hits,
    play,
    refused,
    rules,
    run,
    texts,
)

GUNNER = SENTRY.model_copy(update={"shoot": {"red": 2}, "shoot_range": 18})  # a Sentry with an 18" gun


def shoot(state, bot="hunter", character="ada", **fields):
    return run(state, {"type": "bot_shoot", "bot_id": bot, "character_id": character, "line_of_sight": True,
                       "in_range": True, **fields})


def melee(state, bot="hunter", character="ada", **fields):
    return run(state, {"type": "resolve_melee", "bot_id": bot, "character_id": character, **fields})


def phase3(*models, decisions=(), **fields):
    return game(*(models or (ADA, HUNTER)), phase=3, decisions=list(decisions), **fields)


def defense_dice(log) -> int:
    return sum(1 for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "defense")


# --- item 2: a Shoot from a bot whose actions are unused (R-CMB-SHOOT-ACTION) ------------------


def test_R_CMB_SHOOT_ACTION_a_sentry_that_planned_no_actions_shoots_with_an_unused_slot():
    state = phase3(ADA, GUNNER, decisions=[Decision(bot_id="sentry", turn=1)])
    state, _ = shoot(state, bot="sentry", rolls={"attack": hits(2), "defense": hits(0)})
    assert state.character("ada").health == 3
    assert [(a.slot, a.action, a.status) for a in state.decision("sentry").actions] == [(1, "shoot", "done")]
    assert "no unused Attack" in refused(state, {"type": "bot_shoot", "bot_id": "sentry", "character_id": "ada",
                                                 "line_of_sight": True, "in_range": True}).reason


def test_R_CMB_SHOOT_ACTION_a_bot_that_only_moved_shoots_with_its_free_second_slot():
    state = phase3(ADA, GUNNER, decisions=[decided("sentry", ("maneuver", "walk", None))])
    state, _ = shoot(state, bot="sentry")
    assert [(a.slot, a.action) for a in state.decision("sentry").actions] == [(1, "walk"), (2, "shoot")]


# --- items 4 and 5: AI-Bot shots after every melee (R-CMB-ORDER) ------------------------------


def two_fights():
    """The Hunter decided a melee on Ada; the Sentry a Shoot at Ben."""
    return phase3(ADA, BEN, HUNTER, GUNNER, decisions=[
        decided("hunter", ("maneuver", "walk", None), ("attack", "melee", "ada")),
        decided("sentry", ("scan", "scan", "ben"), ("attack", "shoot", "ben"))])


def test_R_CMB_ORDER_ai_bot_shots_wait_until_every_melee_is_resolved():
    state = two_fights()
    reason = refused(state, {"type": "bot_shoot", "bot_id": "sentry", "character_id": "ben",
                             "line_of_sight": True, "in_range": True})
    assert "after melee" in reason.reason and reason.rule == "R-CMB-ORDER" and "Warden ⚔ Ada" in reason.reason
    state, _ = melee(state, rolls={"npc": hits(1), "character": hits(1)})
    state, _ = shoot(state, bot="sentry", character="ben")
    assert state.pending_actions() == []


def test_R_CMB_ORDER_a_separation_keeps_the_bots_attack_so_it_may_become_a_shoot():
    state = phase3(ADA, HUNTER, decisions=[decided("hunter", ("maneuver", "walk", None), ("attack", "melee", "ada"))])
    state, log = melee(state, in_contact=False)
    assert "may become a Shoot" in texts(log) and "R-CMB-ORDER" in rules(log)
    state, _ = shoot(state, rolls={"attack": hits(1), "defense": hits(0)})
    assert state.decision("hunter").actions[1].action == "shoot" and state.character("ada").health == 4


def test_R_CMB_ORDER_the_result_does_not_depend_on_click_order():
    """Shoot first (refused, nothing changes), then separate and shoot: the same game as
    separating first. Before the ruling the early Shoot went through and the separation after it
    found nothing to separate, while separating first made the Shoot impossible."""
    start = phase3(decisions=[decided("hunter", ("maneuver", "walk", None), ("attack", "melee", "ada"))])
    separate = {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada", "in_contact": False}
    fire = {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True,
            "in_range": True, "rolls": {"attack": hits(2), "defense": hits(1)}}
    separated_first = play(start, separate, fire)
    refused(start, fire)
    assert play(start, separate, fire) == separated_first
    assert separated_first.character("ada").health == 4


def test_R_CMB_ORDER_a_melee_on_a_character_already_out_of_action_holds_no_shot_back():
    state = two_fights()
    state = state.model_copy(update={"characters": [ADA.model_copy(update={"health": 0}), BEN]})
    state, _ = shoot(state, bot="sentry", character="ben")
    assert state.decision("sentry").actions[1].status == "done"


# --- item 10: damage AND Push Back (R-CMB-PUSH) ---------------------------------------------


@pytest.mark.parametrize("push, pushed", [(True, True), (False, False)], ids=["R-CMB-PUSH-on", "R-CMB-PUSH-off"])
def test_R_CMB_PUSH_a_winning_melee_attack_damages_and_pushes_the_loser_back(push, pushed):
    state = phase3(house=HouseRules(push_on_damage=push))
    state, log = melee(state, rolls={"npc": hits(3), "character": hits(1)})
    assert state.character("ada").health == 3
    assert ("Push back: move Ada" in texts(log)) is pushed and ("R-CMB-PUSH" in rules(log)) is pushed


def test_R_CMB_PUSH_is_on_by_default():
    assert HouseRules().push_on_damage is True


# --- item 16: the counter-attack comparison is a house setting (R-CMB-COUNTER) ------------------


@pytest.mark.parametrize("rule, hunter_health", [("higher_wins", 2), ("melee_as_defense", 4)],
                         ids=["R-CMB-COUNTER-higher-wins-default", "R-CMB-COUNTER-melee-as-defense"])
def test_R_CMB_COUNTER_the_counter_attack_comparison_follows_the_house_setting(rule, hunter_health):
    state = phase3(house=HouseRules(counter_attack_rule=rule))
    state, log = melee(state, counter_attack=True, rolls={"npc": hits(1), "character": hits(3)})
    assert state.bot("hunter").health == hunter_health and state.character("ada").health == 5


# --- item 8: Reboot until the end of the bot's next turn (R-GLITCH-REBOOT) -----------------------


def end_turn_skipping_phase_2(state):
    """Phases 1 to 4 without activating anyone, then the next turn."""
    return play(state, {"type": "next_phase"}, {"type": "next_phase"}, {"type": "next_phase"},
                {"type": "end_turn"})


@pytest.mark.parametrize("duration, free_in_turn", [(1, 3), (2, 4)],
                         ids=["R-GLITCH-REBOOT-default-one-turn", "R-GLITCH-REBOOT-house-two-turns"])
def test_R_GLITCH_REBOOT_lasts_until_the_end_of_the_bots_next_turn_whether_or_not_it_activated(duration,
                                                                                               free_in_turn):
    house = HouseRules(glitch_table=[GlitchRow(low=1, high=6, result="reboot", duration=duration)])
    state, _ = run(game(ADA, HUNTER, phase=4, house=house),
                   {"type": "record_glitch", "bot_id": "hunter", "roll": 1, "source": "a failed check"})
    state, _ = run(state, {"type": "end_turn"})
    while state.turn < free_in_turn:
        assert state.bot("hunter").rebooted, state.turn  # never activated: it must still wear off
        state = end_turn_skipping_phase_2(state)
    assert not state.bot("hunter").rebooted


def test_R_GLITCH_REBOOT_a_glitch_before_the_bots_activation_costs_this_turn():
    state, log = run(game(ADA, HUNTER, phase=2), {"type": "record_glitch", "bot_id": "hunter",
                                                  "result": "reboot", "source": "Event: Power surge"})
    assert "until the end of this turn" in texts(log)
    state = play(state, {"type": "next_phase"}, {"type": "next_phase"}, {"type": "end_turn"})
    assert not state.bot("hunter").rebooted


def test_R_GLITCH_REBOOT_a_rebooted_bot_rolls_no_defense_in_any_phase_of_its_turn():
    state, _ = run(game(ADA, HUNTER, phase=3), {"type": "record_glitch", "bot_id": "hunter", "result": "reboot"})
    state, log = melee(state, attacker="character", rolls={"character": hits(2), "npc": hits(5)})
    assert state.bot("hunter").health == 2 and "rolls no Defense" in texts(log)


# --- item 7: a Glitch from any source, free-action rows (R-GLITCH-ANY) ---------------------------


@pytest.mark.parametrize("phase", [1, 2, 3, 4])
def test_R_GLITCH_ANY_the_player_records_a_glitch_for_any_bot_in_any_phase(phase):
    state, log = run(game(ADA, HUNTER, phase=phase), {"type": "record_glitch", "bot_id": "hunter", "roll": 3,
                                                      "source": "hack"})
    assert state.bot("hunter").health == 5 and "R-GLITCH-ANY" in rules(log) and "(hack)" in texts(log)


def test_R_GLITCH_ANY_the_glitch_table_takes_a_free_action_row():
    house = HouseRules(glitch_table=[GlitchRow(low=1, high=6, result="free_action", action="shoot")])
    assert game_checks(house, game()) == {}
    bad = HouseRules(glitch_table=[GlitchRow(low=1, high=6, result="free_action")])
    assert "glitch_table.0.action" in game_checks(bad, game())


def test_R_GLITCH_ANY_a_free_shoot_spends_no_slot_and_may_duplicate_the_normal_one():
    house = HouseRules(glitch_table=[GlitchRow(low=1, high=6, result="free_action", action="shoot")])
    state = phase3(ADA, HUNTER, house=house,
                   decisions=[decided("hunter", ("maneuver", "walk", None), ("attack", "shoot", "ada"))])
    state, log = run(state, {"type": "record_glitch", "bot_id": "hunter", "roll": 4})
    assert [a.free for a in state.decision("hunter").actions] == [False, False, True]
    state = play(state, *[{"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True,
                           "in_range": True, "rolls": {"attack": hits(1), "defense": hits(0)}}] * 2)
    assert state.character("ada").health == 3 and state.pending_actions() == []


def test_R_GLITCH_ANY_a_reboot_blocks_a_free_glitch_action():
    rebooted = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=1)]})
    state, log = run(phase3(ADA, rebooted, decisions=[Decision(bot_id="hunter", turn=1, rebooted=True)]),
                     {"type": "record_glitch", "bot_id": "hunter", "result": "free_action", "action": "melee"})
    assert state.decision("hunter").actions == [] and "Reboot stops even free actions" in texts(log)


def test_R_GLITCH_ANY_a_rebooted_bot_cannot_shoot_its_pending_shot():
    state = phase3(decisions=[decided("hunter", ("maneuver", "walk", None), ("attack", "shoot", "ada"))])
    state, _ = run(state, {"type": "record_glitch", "bot_id": "hunter", "result": "reboot", "source": "hack"})
    assert "rebooted" in refused(state, {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada",
                                         "line_of_sight": True, "in_range": True}).reason


# --- item 12: one Event per turn (R-EVENT-ONE), TECH SUPPORT and DIAGNOSTICS (R-HACK-TECH) -------


def test_R_EVENT_ONE_a_second_event_is_refused_unless_drawn_by_an_effect():
    state, _ = run(game(phase=2), {"type": "record_event", "title": "Storm", "danger": 1})
    second = {"type": "record_event", "title": "Blackout", "danger": 1}
    assert refused(state, second).rule == "R-EVENT-ONE"
    state, log = run(state, {**second, "by_effect": True})
    assert state.danger == 2 and "Drawn by an effect" in texts(log)


@pytest.mark.parametrize("help_, bot_id, ok", [("tech_support", None, True), ("tech_support", "hunter", False),
                                               ("diagnostics", "hunter", True), ("diagnostics", None, False)],
                         ids=["R-HACK-TECH-tech-support-not-against-an-npc", "R-HACK-TECH-tech-support-refused-vs-npc",
                              "R-HACK-TECH-diagnostics-vs-npc", "R-HACK-TECH-diagnostics-refused-without-npc"])
def test_R_HACK_TECH_each_piece_of_equipment_helps_on_its_own_attempts(help_, bot_id, ok):
    command = {"type": "hack", "character_id": "ada", "stat": "Hacking", "opposing": {"red": 1}, "help": help_,
               "bot_id": bot_id}
    if ok:
        _, log = run(game(), command)
        assert "R-HACK-HELP" in rules(log)
    else:
        assert refused(game(), command).rule == "R-HACK-TECH"


# --- item 13: Distracted's colour is a house setting, checked against the new table ---------------


def test_R_DISTRACTED_the_dice_colour_follows_the_house_setting():
    faces = {**HouseRules().dice_faces, "green": ["hit"] * 6}
    state = phase3(ADA.model_copy(update={"distracted": 2}), HUNTER,
                   house=HouseRules(dice_faces=faces, distracted_colour="green"))
    _, log = melee(state, rolls={"character": hits(0)})
    assert sum(1 for e in log if e.dice for f in e.dice["faces"] if f["colour"] == "green") == 2


def test_R_DISTRACTED_house_checks_read_the_new_table_not_the_old_one():
    red_and_green = {"red": ["hit"], "green": ["hit"], "black": ["success", "blank"]}
    roster = game(ADA.model_copy(update={"defense": {"red": 1}, "shoot": {}, "melee": {"red": 1},
                                         "mission_stats": {}}), HUNTER.model_copy(update={"defense": {"red": 1}}))
    new = HouseRules(dice_faces=red_and_green, cover_colour="green", hack_help_colour="green",
                     distracted_colour="green")
    assert game_checks(new, roster) == {}
    without_white = HouseRules(dice_faces=red_and_green, cover_colour="green", hack_help_colour="green")
    assert "dice_faces.white" in game_checks(without_white, roster)  # Distracted still rolls White


# --- item 14: Cover per shot, and the re-decision in Phase 3 (R-SHOOT-COVER) ----------------------


@pytest.mark.parametrize("cover, dice", [(None, 2 + 1), ("heavy", 2 + 2), ("none", 2)],
                         ids=["R-SHOOT-COVER-roster-default", "R-SHOOT-COVER-heavy-now", "R-SHOOT-COVER-left-cover"])
def test_R_SHOOT_COVER_cover_is_asked_per_shot_with_the_roster_cover_as_default(cover, dice):
    state = phase3(ADA.model_copy(update={"cover": "light"}), HUNTER,
                   decisions=[decided("hunter", ("maneuver", "walk", None), ("attack", "shoot", "ada"))])
    _, log = shoot(state, **({} if cover is None else {"cover": cover}))
    assert defense_dice(log) == dice


SHOT_AFTER_A_WALK = [decided("hunter", ("maneuver", "walk", None), ("attack", "shoot", "ada"))]


def test_R_ACT_FALLBACK_a_shoot_that_became_impossible_becomes_a_scan():
    """Seed 001: "Use remaining actions in a different family where legal"."""
    state, log = run(phase3(decisions=SHOT_AFTER_A_WALK), {
        "type": "redecide", "bot_id": "hunter", "slot": 2, "action": "scan", "character_id": "ada",
        "line_of_sight": True, "in_zone": True})
    assert state.character("ada").marked == 1 and state.pending_actions() == []
    assert state.decision("hunter").actions[1].action == "scan" and "R-SCAN" in rules(log)


@pytest.mark.parametrize("command, why", [
    ({"action": "scan", "character_id": "ada", "line_of_sight": True, "in_zone": False}, "zone"),
    ({"action": "reload"}, "not out of ammo"),
    ({"action": "scan", "character_id": "ada", "line_of_sight": True, "in_zone": True, "slot": 1}, "already done"),
], ids=["R-SCAN-needs-zone", "reload-needs-an-empty-weapon", "a-done-action-stays"])
def test_R_ACT_FALLBACK_a_re_decision_must_be_legal(command, why):
    body = {"type": "redecide", "bot_id": "hunter", "slot": 2, **command}
    assert why in refused(phase3(decisions=SHOT_AFTER_A_WALK), body).reason


def test_R_ACT_FALLBACK_a_scan_already_used_leaves_reload_but_never_a_phase_3_walk():
    """R-PHASE-MOVE (third reading), seed 001: "Movement and combat still belong to their
    respective phases"."""
    decisions = [decided("hunter", ("scan", "scan", "ada"), ("attack", "shoot", "ada"))]
    state = phase3(ADA, HUNTER.model_copy(update={"out_of_ammo": True}), decisions=decisions)
    assert "one per family" in refused(state, {"type": "redecide", "bot_id": "hunter", "slot": 2, "action": "scan",
                                               "character_id": "ada", "line_of_sight": True, "in_zone": True}).reason
    reloaded, _ = run(state, {"type": "redecide", "bot_id": "hunter", "slot": 2, "action": "reload"})
    assert not reloaded.bot("hunter").out_of_ammo
    no_walk = refused(state, {"type": "redecide", "bot_id": "hunter", "slot": 2, "action": "fallback"})
    assert no_walk.rule == "R-PHASE-MOVE" and "No movement in Phase 3" in no_walk.reason
