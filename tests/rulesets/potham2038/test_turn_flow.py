"""Phase control, end of turn, Danger and corrections (turn.py)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import GlitchEffect
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    PATROL,
    SENTRY,
    game,
    play,
    refused,
    rules,
    run,
    texts,
)


@pytest.mark.parametrize("phase", [1, 2, 3])
def test_next_phase_moves_on_by_one(phase):
    state, entries = run(game(phase=phase), {"type": "next_phase"})
    assert state.phase == phase + 1 and f"Phase {phase + 1}" in texts(entries)


def test_next_phase_from_phase_4_is_refused_in_favour_of_end_turn():
    assert "end_turn" in refused(game(phase=4), {"type": "next_phase"}).reason


@pytest.mark.parametrize("phase, command", [
    (1, {"type": "activate_bot", "bot_id": "hunter"}),
    (3, {"type": "activate_bot", "bot_id": "hunter"}),
    (2, {"type": "character_move", "character_id": "ada", "entries": []}),
    (1, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada"}),
    (2, {"type": "position_check", "bot_id": "hunter", "passed": True}),
    (1, {"type": "end_turn"}),
    (3, {"type": "record_event", "title": "Storm"}),
], ids=lambda v: v["type"] if isinstance(v, dict) else f"phase{v}")
def test_a_command_in_the_wrong_phase_is_refused_naming_its_phase(phase, command):
    reason = refused(game(phase=phase), command).reason
    assert "belongs to Phase" in reason and f"the game is in Phase {phase}" in reason


def test_R_MARK_CLEAR_end_turn_removes_every_marked_stack_and_starts_the_next_turn():
    state = game(ADA.model_copy(update={"marked": 3}), BEN.model_copy(update={"marked": 1}), HUNTER, phase=4)
    state, entries = run(state, {"type": "end_turn"})
    assert [c.marked for c in state.characters] == [0, 0]
    assert (state.turn, state.phase) == (2, 1) and "R-MARK-CLEAR" in rules(entries)


@pytest.mark.parametrize("since, last_gain, turn, cleared", [
    (3, 3, 3, False),  # the invocation turn: never cleared
    (2, 2, 3, True),  # the next turn without new stacks: cleared
    (2, 3, 3, False),  # a new stack this turn keeps it
    (1, 2, 3, True),  # gained last turn, nothing this turn
], ids=["invocation-turn", "next-turn-quiet", "new-stack-this-turn", "quiet-after-a-gain"])
def test_R_DISTRACTED_clears_at_the_end_of_a_later_turn_without_new_stacks(since, last_gain, turn, cleared):
    ada = ADA.model_copy(update={"distracted": 2, "distracted_since": since, "distracted_last_gain": last_gain})
    state, _ = run(game(ada, HUNTER, phase=4, turn=turn), {"type": "end_turn"})
    assert (state.characters[0].distracted == 0) is cleared


def test_end_turn_resets_the_luck_roll_and_the_turn_bookkeeping():
    ada = ADA.model_copy(update={"luck_roll_used": True})
    state = game(ada, HUNTER, phase=4, event="Storm", phase3_melee=True, engaged=["hunter:ada"])
    state, _ = run(state, {"type": "end_turn"})
    assert not state.characters[0].luck_roll_used
    assert (state.event, state.phase3_melee, state.engaged, state.decisions) == (None, False, [], [])


def test_end_turn_drops_spent_glitches_and_keeps_live_ones():
    bot = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=0),
                                                 GlitchEffect(result="full_throttle", turns_left=1)]})
    state, _ = run(game(ADA, bot, phase=4), {"type": "end_turn"})
    assert [g.result for g in state.bots[0].glitches] == ["full_throttle"]


def test_R_END_CHECK_end_turn_is_refused_while_a_position_check_is_unanswered():
    state = game(ADA, SENTRY, PATROL, phase=4)
    assert "Guard" in refused(state, {"type": "end_turn"}).reason
    state = play(state, {"type": "position_check", "bot_id": "sentry", "passed": True},
                 {"type": "position_check", "bot_id": "patrol", "passed": True})
    assert run(state, {"type": "end_turn"})[0].turn == 2


@pytest.mark.parametrize("danger, change, limit, expected, status, excess", [
    (5, 2, 24, 7, "playing", 0),
    (22, 2, 24, 24, "final_turn", 0),
    (23, 2, 24, 24, "failed", 1),
    (1, -3, 24, 0, "playing", 0),
    (9, 1, 10, 10, "final_turn", 0),
    (10, 3, 10, 10, "failed", 3),
], ids=["rises", "reaches-the-limit", "R-DANGER-CAP-over-the-limit-fails", "never-below-zero", "house-limit",
        "R-DANGER-CAP-excess-kept"])
def test_R_DANGER_track(danger, change, limit, expected, status, excess):
    from app.rulesets.potham2038.house_rules import HouseRules

    state = game(phase=2, danger=danger, house=HouseRules(danger_limit=limit))
    state, _ = run(state, {"type": "record_event", "title": "Sirens", "danger": change})
    assert (state.danger, state.status, state.danger_excess) == (expected, status, excess)


def test_R_DANGER_a_final_turn_ends_the_game_at_end_turn():
    state, entries = run(game(phase=4, danger=24, status="final_turn"), {"type": "end_turn"})
    assert state.status == "ended" and "ends" in texts(entries)


@pytest.mark.parametrize("status", ["ended", "failed"])
@pytest.mark.parametrize("command", [{"type": "next_phase"}, {"type": "noise", "character_id": "ada"},
                                     {"type": "adjust", "danger": 1}], ids=lambda c: c["type"])
def test_R_DANGER_no_play_after_the_game_is_over(status, command):
    assert "no more play" in refused(game(status=status), command).reason


def test_roster_edits_stay_allowed_after_the_game_is_over():
    state, _ = run(game(status="ended"), {"type": "add_character", "character": {"name": "Cy"}})
    assert len(state.characters) == 2


@pytest.mark.parametrize("command, check", [
    ({"target_id": "ada", "health": 1}, lambda s: s.character("ada").health == 1),
    ({"target_id": "ada", "marked": 4}, lambda s: s.character("ada").marked == 4),
    ({"target_id": "ada", "distracted": 0}, lambda s: s.character("ada").distracted_since is None),
    ({"target_id": "hunter", "knocked_down": True}, lambda s: s.bot("hunter").knocked_down),
    ({"target_id": "hunter", "out_of_ammo": True, "health": 2},
     lambda s: s.bot("hunter").out_of_ammo and s.bot("hunter").health == 2),
    ({"danger": 24}, lambda s: s.danger == 24 and s.status == "final_turn"),
], ids=["health", "marked", "distracted", "knocked-down", "two-fields", "danger-to-limit"])
def test_adjust_sets_the_given_values_and_logs_a_correction(command, check):
    ada = ADA.model_copy(update={"distracted": 1, "distracted_since": 1})
    state, entries = run(game(ada, HUNTER, phase=3, danger=3), {"type": "adjust", "note": "misread", **command})
    assert check(state) and "Correction" in texts(entries) and "misread" in texts(entries)


@pytest.mark.parametrize("command", [
    {"type": "adjust"},
    {"type": "adjust", "health": 2},
    {"type": "adjust", "target_id": "ada", "knocked_down": True},
    {"type": "adjust", "target_id": "hunter", "marked": 1},
    {"type": "adjust", "target_id": "nobody", "health": 1},
    {"type": "adjust", "danger": 25},
], ids=["nothing", "no-target", "character-knocked-down", "bot-marked", "unknown-model", "over-limit"])
def test_adjust_refuses_what_it_cannot_correct(command):
    refused(game(), command)


def test_a_correction_below_the_limit_lifts_the_final_turn():
    state, _ = run(game(danger=24, status="final_turn"), {"type": "adjust", "danger": 20})
    assert (state.danger, state.status) == (20, "playing")


def test_R_DANGER_FINAL_an_effect_lowering_danger_keeps_the_final_turn():
    state, _ = run(game(phase=2, danger=24, status="final_turn"), {"type": "record_event", "title": "Calm",
                                                                   "danger": -2})
    assert (state.danger, state.status) == (22, "final_turn")
