"""Issue 9 "Wording" and "Results a player can check": the sentences the engine writes for the
log say what happened in plain words (R-CMB-DAMAGE, R-GLITCH, R-END-CHECK)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.combat import Fighter, damage_words, resolve_melee
from app.rulesets.potham2038.dice import entered_roll as rolled
from app.rulesets.potham2038.shooting import resolve_shoot
from tests.rulesets.potham2038.turn_kit import ADA, PATROL, SENTRY, game, run, texts

WARDEN, ADA_SIDE = Fighter("Warden-2", 60), Fighter("Ada", 45)


@pytest.mark.parametrize(("margin", "critical", "said"), [
    (1, True, "1 + 1 for a Critical = 2 damage"),
    (2, False, "2 damage"),
], ids=["R-CMB-DAMAGE-critical-named", "R-CMB-DAMAGE-plain"])
def test_R_CMB_DAMAGE_damage_words_name_the_critical_bonus(margin, critical, said):
    assert damage_words(margin, critical) == said


def test_R_CMB_DAMAGE_a_shot_says_the_critical_bonus():
    result = resolve_shoot("Warden-2", "Ada", 3, rolled(1, 1), rolled(0))
    assert result.damage == 2
    assert "attack 1 beats defense 0: 1 + 1 for a Critical = 2 damage" in result.reason


def test_R_CMB_DAMAGE_a_shot_without_a_critical_says_just_the_damage():
    result = resolve_shoot("Warden-2", "Ada", 3, rolled(2), rolled(0))
    assert "attack 2 beats defense 0: 2 damage." in result.reason and "Critical" not in result.reason


def test_R_CMB_DAMAGE_a_melee_says_the_critical_bonus():
    result = resolve_melee(WARDEN, ADA_SIDE, rolled(2, 1), rolled(1))
    assert result.damage == 2
    assert "Ada takes 1 + 1 for a Critical = 2 damage" in result.reason


def test_R_CMB_DAMAGE_a_counter_attack_says_the_critical_bonus():
    result = resolve_melee(WARDEN, ADA_SIDE, rolled(3, 1), rolled(1), counter_attack=True)
    assert result.damage == 3
    assert "Ada takes 2 + 1 for a Critical = 3 damage" in result.reason


def check(state, bot_id, passed, **fields):
    return run(state, {"type": "position_check", "bot_id": bot_id, "passed": passed, **fields})


@pytest.mark.parametrize(("passed", "said"), [
    (False, "Pat: no point of its current segment is inside its 3\" zone: check failed"),
    (True, "Pat: a point of its current segment is inside its 3\" zone: check passed."),
], ids=["R-END-CHECK-patrol-failed", "R-END-CHECK-patrol-passed"])
def test_R_END_CHECK_the_patrol_check_reads_in_plain_words(passed, said):
    _, log = check(game(ADA, PATROL, phase=4), "patrol", passed, glitch_roll=5)
    assert said in texts(log) and "is not with" not in texts(log)


def test_R_END_CHECK_the_sentry_check_reads_in_plain_words():
    _, log = check(game(ADA, SENTRY, phase=4), "sentry", False, glitch_roll=5)
    assert "Guard is not within one Walk of its subject: check failed" in texts(log)


@pytest.mark.parametrize(("health", "said"), [
    (1, "Overcharged: Health 1 → 2 (maximum 2)."),
    (2, "Overcharged: Health 2 → 3 (above its maximum of 2, as Overcharged allows)."),
], ids=["R-GLITCH-overcharged-up-to-the-maximum", "R-GLITCH-overcharged-above-the-maximum"])
def test_R_GLITCH_overcharged_says_above_the_maximum_only_when_it_is(health, said):
    bot = SENTRY.model_copy(update={"health": health, "max_health": 2})
    _, log = check(game(ADA, bot, phase=4), "sentry", False, glitch_roll=3)  # 3: Overcharged +1
    assert said in texts(log) and "may exceed" not in texts(log)
