"""Phase 2 · Event & NPC Movement: the Event, activation order, and each bot's activation."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import GlitchEffect
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    PATROL,
    SENTRY,
    WORKER,
    game,
    play,
    refused,
    rules,
    run,
    texts,
)


def activate(state, bot_id="hunter", characters=(), **facts):
    return run(state, {"type": "activate_bot", "bot_id": bot_id, "characters": list(characters), **facts})


def seen(character_id="ada", distance=2.0, line_of_sight=True, base_contact=False):
    return {"character_id": character_id, "distance": distance, "line_of_sight": line_of_sight,
            "base_contact": base_contact}


def test_R_MARK_EVENT_record_event_applies_marked_and_danger_and_keeps_its_title():
    state, log = run(game(ADA, BEN, HUNTER, phase=2, danger=3),
                     {"type": "record_event", "title": "Power cut", "danger": -1, "marked": {"ada": 2}})
    assert (state.event, state.danger, state.character("ada").marked) == ("Power cut", 2, 2)
    assert "Power cut" in texts(log)


def test_record_event_refuses_an_unknown_character_and_negative_stacks():
    refused(game(phase=2), {"type": "record_event", "title": "X", "marked": {"nobody": 1}})
    refused(game(phase=2), {"type": "record_event", "title": "X", "marked": {"ada": -1}})


def test_R_ACT_ORDER_the_players_order_leads_and_unlisted_bots_follow_in_roster_order():
    state, _ = run(game(ADA, HUNTER, SENTRY, PATROL, phase=2), {"type": "set_activation_order",
                                                                "bot_ids": ["patrol", "hunter"]})
    assert [b.id for b in state.to_activate()] == ["patrol", "hunter", "sentry"]


@pytest.mark.parametrize("ids", [["hunter", "hunter"], ["ghost"]], ids=["twice", "unknown"])
def test_R_ACT_ORDER_refusals(ids):
    refused(game(phase=2), {"type": "set_activation_order", "bot_ids": ids})


def test_activation_stores_both_actions_for_the_card_and_phase_3():
    state, log = activate(game(phase=2), characters=[seen(distance=2)])
    decision = state.decision("hunter")
    assert [a.slot for a in decision.actions] == [1, 2]
    assert [a.status for a in decision.actions if a.phase == 3] == ["pending"]
    assert all(a.status == "done" for a in decision.actions if a.phase == 2)
    assert state.pending_actions() and state.pending_actions()[0][1].target_id == "ada"
    assert decision.seen[0].character_id == "ada" and "Warden, action 1" in texts(log)


@pytest.mark.parametrize("distance, contact, marked", [(2.0, False, 1), (3.0, False, 1), (3.5, False, 0),
                                                      (9.0, True, 1)],
                         ids=["inside", "on-the-edge", "outside", "base-contact"])
def test_R_MARK_ACT_an_activating_bot_marks_characters_in_its_zone(distance, contact, marked):
    state, log = activate(game(phase=2), characters=[seen(distance=distance, line_of_sight=False,
                                                          base_contact=contact)])
    scans = sum(1 for a in state.decision("hunter").actions if a.action == "scan")
    assert state.character("ada").marked == marked + scans
    assert ("R-MARK-ACT" in rules(log)) is bool(marked)


def test_R_SCAN_a_decided_scan_marks_its_target_at_once():
    """In base contact: Melee first (Phase 3), then slot 2 Scans the same Character (Phase 2)."""
    state, log = activate(game(phase=2), characters=[seen(distance=0, base_contact=True)])
    assert [a.action for a in state.decision("hunter").actions] == ["melee", "scan"]
    assert state.character("ada").marked == 2 and {"R-SCAN", "R-MARK-ACT"} <= rules(log)
    assert state.decision("hunter").marked == {"ada": 2}


def test_a_bot_activates_once_per_turn():
    state, _ = activate(game(phase=2), characters=[seen()])
    assert "already activated" in refused(state, {"type": "activate_bot", "bot_id": "hunter"}).reason


@pytest.mark.parametrize("bot, facts", [(SENTRY, {}), (WORKER, {}), (PATROL, {})], ids=lambda b: getattr(b, "role", ""))
def test_a_role_needs_its_board_fact(bot, facts):
    assert "measure" in refused(game(ADA, bot, phase=2), {"type": "activate_bot", "bot_id": bot.id}).reason


def test_a_destroyed_bot_does_not_activate():
    refused(game(ADA, HUNTER.model_copy(update={"health": 0}), phase=2), {"type": "activate_bot", "bot_id": "hunter"})


def test_activation_refuses_a_character_reported_twice():
    refused(game(phase=2), {"type": "activate_bot", "bot_id": "hunter", "characters": [seen(), seen()]})


def test_R_GLITCH_REBOOT_reboot_takes_no_actions_marks_no_one_and_lasts_to_the_end_of_the_turn():
    """R-GLITCH-REBOOT changed this test: the activation no longer spends the Reboot, the end of
    the bot's turn does (it used to be spent here and the bot could Defend again in Phase 3)."""
    bot = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=1)]})
    state, log = activate(game(ADA, bot, phase=2), characters=[seen(distance=1)])
    assert state.decision("hunter").actions == [] and state.character("ada").marked == 0
    assert state.bot("hunter").rebooted and "rebooted" in texts(log)
    state = play(state, {"type": "next_phase"}, {"type": "next_phase"}, {"type": "end_turn"})
    assert state.bot("hunter").glitches == []


def test_R_GLITCH_full_throttle_is_spent_by_the_activation():
    bot = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="full_throttle", turns_left=2)]})
    state, _ = activate(game(ADA, bot, phase=2), characters=[seen(distance=6)])
    assert state.bot("hunter").glitches[0].turns_left == 1
    assert any(a.action == "run" for a in state.decision("hunter").actions)


def test_R_ACT_MOVE_stand_up_clears_knocked_down():
    state, log = activate(game(ADA, HUNTER.model_copy(update={"knocked_down": True}), phase=2),
                          characters=[seen(distance=6)])
    assert state.decision("hunter").actions[0].action == "stand_up"
    assert not state.bot("hunter").knocked_down and "stands up" in texts(log)


@pytest.mark.parametrize("mode, index, step, expected", [
    ("circuit", 0, 1, (1, 1)), ("circuit", 2, 1, (0, 1)),
    ("route", 0, 1, (1, 1)), ("route", 2, 1, (1, -1)), ("route", 1, -1, (0, -1)), ("route", 0, -1, (1, 1)),
], ids=["circuit-next", "circuit-loops", "route-next", "route-turns-back-at-the-end", "route-back",
        "route-turns-at-the-start"])
def test_R_PATROL_ROUTE_an_arriving_patrol_heads_for_its_next_waypoint(mode, index, step, expected):
    bot = PATROL.model_copy(update={"patrol_mode": mode, "waypoint_index": index, "waypoint_step": step})
    state, log = activate(game(ADA, bot, phase=2), "patrol", [seen(distance=20, line_of_sight=False)],
                          waypoint_distance=2)
    assert (state.bot("patrol").waypoint_index, state.bot("patrol").waypoint_step) == expected
    assert "next waypoint" in texts(log)


def test_R_ROLE_PATROL_a_patrol_short_of_its_waypoint_keeps_it():
    state, _ = activate(game(ADA, PATROL, phase=2), "patrol", [seen(distance=20)], waypoint_distance=30)
    assert state.bot("patrol").waypoint_index == 0


def test_characters_out_of_action_are_not_seen():
    state, _ = activate(game(ADA.model_copy(update={"health": 0}), HUNTER, phase=2), characters=[seen(distance=1)])
    assert state.character("ada").marked == 0


def test_two_characters_with_one_name_keep_their_own_marks():
    twin = BEN.model_copy(update={"name": "Ada"})
    state, _ = activate(game(ADA, twin, HUNTER, phase=2),
                        characters=[seen("ada", distance=9, line_of_sight=False), seen("ben", distance=1)])
    assert (state.character("ada").marked, state.character("ben").marked >= 1) == (0, True)


def test_R_PHASE_LEAVE_leaving_phase_2_names_the_bots_not_activated():
    state, log = run(game(ADA, HUNTER, SENTRY, phase=2), {"type": "next_phase"})
    assert state.phase == 3 and "Not activated this turn: Warden, Guard" in texts(log)


def test_R_GLITCH_the_decision_remembers_the_reboot():
    bot = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=1)]})
    state, _ = activate(game(ADA, bot, phase=2), characters=[seen(distance=1)])
    assert state.decision("hunter").rebooted and state.bot("hunter").rebooted  # R-GLITCH-REBOOT: to the turn's end


def test_R_MARK_CAP_a_character_holds_at_most_1000_marked_stacks():
    from app.rulesets.potham2038.play import add_marked
    from tests.support.turn_games import roster_state

    state = roster_state()
    for _ in range(11):
        state, _ = add_marked(state, state.character("ada"), 100, "Event", "R-MARK-EVENT")
    assert state.character("ada").marked == 1000
