"""Phase 4 · End: position checks and Glitches (R-END-CHECK, R-GLITCH)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.house_rules import GlitchRow, HouseRules
from app.rulesets.potham2038.models import GlitchEffect
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    HUNTER,
    PATROL,
    SENTRY,
    WORKER,
    game,
    refused,
    rules,
    run,
    texts,
)


def check(state, bot_id="sentry", passed=False, **fields):
    return run(state, {"type": "position_check", "bot_id": bot_id, "passed": passed, **fields})


def test_R_END_CHECK_a_pass_is_recorded_without_a_glitch():
    state, log = check(game(ADA, SENTRY, phase=4), passed=True)
    assert state.position_checks == {"sentry": True} and "R-GLITCH" not in rules(log)


@pytest.mark.parametrize("roll, check_state", [
    (1, lambda b: b.rebooted and b.glitches[0].turns_left == 1),
    (2, lambda b: b.rebooted),
    (3, lambda b: b.health == 4 and b.max_health == 3),
    (4, lambda b: b.health == 4),
    (5, lambda b: b.full_throttle),
    (6, lambda b: b.full_throttle),
], ids=["R-GLITCH-1-reboot", "R-GLITCH-2-reboot", "R-GLITCH-3-overcharged-over-max", "R-GLITCH-4-overcharged",
        "R-GLITCH-5-full-throttle", "R-GLITCH-6-full-throttle"])
def test_R_END_CHECK_a_failure_gives_one_glitch_from_the_default_table(roll, check_state):
    state, log = check(game(ADA, SENTRY, phase=4), glitch_roll=roll)
    assert check_state(state.bot("sentry")) and "R-GLITCH" in rules(log)
    glitch = next(e for e in log if e.rule == "R-GLITCH")
    assert glitch.dice["by"] == "entered" and glitch.dice["glitch"] == roll


def test_R_GLITCH_the_app_rolls_the_glitch_die_when_none_is_entered():
    _, log = check(game(ADA, SENTRY, phase=4))
    glitch = next(e for e in log if e.rule == "R-GLITCH")
    assert glitch.dice["by"] == "app" and 1 <= glitch.dice["glitch"] <= 6


def test_R_GLITCH_full_throttle_on_a_bot_that_cannot_move_has_no_effect_and_is_not_rerolled():
    state, log = check(game(ADA, SENTRY.model_copy(update={"run": 0, "walk": 0}), phase=4), glitch_roll=5)
    assert state.bot("sentry").glitches == [] and "no effect" in texts(log)


def test_R_GLITCH_the_house_table_decides_and_a_roll_off_the_table_is_no_effect():
    house = HouseRules(glitch_die=8, glitch_table=[GlitchRow(low=1, high=4, result="overcharged", amount=2),
                                                   GlitchRow(low=5, high=6, result="reboot", duration=2)])
    state, _ = check(game(ADA, SENTRY, phase=4, house=house), glitch_roll=5)
    assert state.bot("sentry").glitches == [GlitchEffect(result="reboot", turns_left=2, start_turn=2)]
    state, log = check(game(ADA, SENTRY, phase=4, house=house), glitch_roll=8)
    assert state.bot("sentry") == SENTRY and "No effect" in texts(log)


def test_R_GLITCH_STACK_a_second_glitch_of_a_kind_adds_its_duration():
    bot = SENTRY.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=1)]})
    state, _ = check(game(ADA, bot, phase=4), glitch_roll=1)
    assert state.bot("sentry").glitches == [GlitchEffect(result="reboot", turns_left=2)]


@pytest.mark.parametrize("bot, roll, why", [
    (HUNTER, None, "only Sentries and Patrols"),
    (WORKER, None, "only Sentries and Patrols"),
    (SENTRY.model_copy(update={"exempt": True}), None, "exempt"),
    (PATROL.model_copy(update={"health": 0}), None, "destroyed"),
    (SENTRY, 7, "1 to 6"),
], ids=["hunter", "worker", "exempt", "destroyed", "roll-off-the-die"])
def test_R_END_CHECK_refusals(bot, roll, why):
    command = {"type": "position_check", "bot_id": bot.id, "passed": False}
    if roll:
        command["glitch_roll"] = roll
    assert why in refused(game(ADA, bot, phase=4), command).reason


def test_R_END_CHECK_each_bot_answers_once_per_turn():
    state, _ = check(game(ADA, PATROL, phase=4), "patrol", passed=True)
    assert "already answered" in refused(state, {"type": "position_check", "bot_id": "patrol", "passed": False}).reason
    assert state.checks_due() == []


@pytest.mark.parametrize("told, worked", [
    ({"contact": [], "zone": [], "inches": {"Console": 0}}, {"worker": "Console"}),  # works at once
    ({"contact": [], "zone": [], "inches": {"Console": 3}}, {"worker": "Console"}),  # walks in, works
    ({"contact": [], "zone": [], "inches": {"Console": 30}}, {}),  # still on its way: not in contact
])
def test_R_ROLE_WORKER_the_turn_ends_remembering_which_bot_was_left_working_its_object(told, worked):
    """R-ROLE-WORKER: the Worker Interacts ("activate") only in base contact with its object, so a
    turn that ended with it working Console leaves it there (the page offers it, never assumes it)."""
    state = game(ADA, WORKER, phase=2)
    state, _ = run(state, {"type": "activate_bot", "bot_id": "worker", "answers": told})
    state = state.model_copy(update={"phase": 4})
    state, _ = run(state, {"type": "end_turn"})
    assert state.worked_last_turn == worked and state.decisions == []
