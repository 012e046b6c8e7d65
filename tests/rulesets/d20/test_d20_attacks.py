"""d20 ruleset: attack lines, odds, criticals, Glitches, range, cover and damage (D20-* ids).

Each test quotes the rule id it checks; `pytest -k D20_CRIT` finds every test of one rule.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from app.rulesets.d20.attack import attack_bonus, damage_attribute, resolve_attack, situation
from app.rulesets.d20.dice import Dice, d20_kept, dice_distribution, parse_dice
from app.rulesets.d20.models import Combatant, HouseRules, Weapon
from app.rulesets.d20.odds import at_least, attack_odds, damage_odds, expected

BLADE = Weapon("Machete", "melee", "1d8", bonus=1)
RAPIER = Weapon("Rapier", "melee", "1d6", finesse=True)
CARBINE = Weapon("Carbine", "ranged", "1d10", bonus=1, short=10, long=30)
HEX = Weapon("Hex", "tech", "2d6", bonus=3, short=6, long=12)
ADA = Combatant("Ada", attributes={"agility": 3, "vigor": 1, "insight": 2},
                skills={"blade_waltz": 2, "arrow_time": 1, "timebender": 4}, pb=2, defense=14)
RAIDER = Combatant("Raider", defense=15)


@pytest.mark.parametrize("weapon, expected_bonus", [
    pytest.param(BLADE, 2 + 1 + 2 + 1, id="D20-ATTACK-MELEE-strength-blade-waltz-vigor-pb-item"),
    pytest.param(RAPIER, 2 + 3 + 2 + 0, id="D20-ATTACK-MELEE-finesse-uses-agility"),
    pytest.param(CARBINE, 1 + 3 + 2 + 1, id="D20-ATTACK-RANGED-arrow-time-agility-pb-item"),
    pytest.param(HEX, 4 + 2 + 2, id="D20-ATTACK-TECH-timebender-insight-pb-no-item"),
])
def test_D20_ATTACK_each_line_adds_skill_attribute_pb_and_item(weapon, expected_bonus):
    assert attack_bonus(ADA, weapon)[0] == expected_bonus


@pytest.mark.parametrize("range_, cover, p_hit, p_crit", [
    pytest.param("short", "none", Fraction(11, 20), Fraction(1, 20), id="D20-ATTACK-ROLL-api-example"),
    pytest.param("long", "none", Fraction(9, 20), Fraction(1, 20), id="D20-RANGE-long-minus-2"),
    pytest.param("short", "light", Fraction(10, 20), Fraction(1, 20), id="D20-COVER-light-plus-1"),
    pytest.param("short", "medium", Fraction(9, 20), Fraction(1, 20), id="D20-COVER-medium-plus-2"),
    pytest.param("short", "heavy", Fraction(7, 20), Fraction(0), id="D20-COVER-heavy-plus-4-no-crit"),
])
def test_D20_ATTACK_ROLL_api_md_exact_values(range_, cover, p_hit, p_crit):
    odds = attack_odds(5, 15, range_, cover)
    assert (odds.p_hit, odds.p_crit, odds.p_glitch) == (p_hit, p_crit, Fraction(1, 20))
    assert float(attack_odds(5, 15).p_hit) == 0.55


def test_D20_RANGE_past_long_is_no_shot():
    odds = attack_odds(30, 5, "beyond")
    assert odds.no_shot and odds.p_hit == odds.p_crit == odds.p_glitch == 0


@pytest.mark.parametrize("bonus, defense, p_hit", [
    pytest.param(-10, 30, Fraction(1, 20), id="D20-CRIT-natural-20-always-hits"),
    pytest.param(40, 10, Fraction(19, 20), id="D20-GLITCH-natural-1-always-misses"),
])
def test_D20_CRIT_D20_GLITCH_naturals_decide_whatever_the_numbers(bonus, defense, p_hit):
    assert attack_odds(bonus, defense).p_hit == p_hit


def test_D20_CRIT_a_natural_20_may_be_read_as_no_automatic_hit():
    house = HouseRules(nat20_always_hits=False)
    assert attack_odds(-10, 30, house=house).p_hit == 0


def test_D20_EDGE_two_d20_keep_the_higher_or_lower():
    assert sum(d20_kept("edge").values()) == sum(d20_kept("hindrance").values()) == 1
    assert attack_odds(5, 15, mode="edge").p_hit > attack_odds(5, 15).p_hit > attack_odds(5, 15, mode="hindrance").p_hit
    assert attack_odds(0, 10, mode="edge").p_crit == Fraction(39, 400)


@pytest.mark.parametrize("text, dice", [
    ("1d8", Dice(1, 8)), ("2d6+1", Dice(2, 6, 1)), (" 1D4 - 1 ", Dice(1, 4, -1)),
])
def test_D20_DAMAGE_weapon_dice_read_as_written(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["d8", "1d7", "0d6", "1d8+x", "", "21d6"])
def test_D20_DAMAGE_bad_dice_are_refused(text):
    with pytest.raises(ValueError):
        parse_dice(text)


def test_D20_DAMAGE_melee_adds_vigor_or_agility_when_finesse():
    assert damage_attribute(BLADE) == "vigor" and damage_attribute(RAPIER) == "agility"
    assert damage_attribute(HEX) is None


def test_D20_CRIT_doubles_the_damage_dice_not_the_attribute():
    odds = attack_odds(100, 1)  # every non-1 hits: p_crit 1/20
    dist = damage_odds(odds, Dice(1, 4), 2)
    assert max(dist) == 2 * 4 + 2  # only a critical reaches 10
    assert dist[10] == Fraction(1, 20) * Fraction(1, 16)
    assert sum(dist.values()) == 1
    assert at_least(dist)[1] == odds.p_hit


def test_D20_DAMAGE_expected_damage_is_exact():
    dist = damage_odds(attack_odds(5, 15), Dice(1, 8), 3)
    plain = Fraction(10, 20) * Fraction(15, 2)  # 1d8+3 averages 7.5
    crit = Fraction(1, 20) * 12  # 2d8+3 averages 12
    assert expected(dist) == plain + crit
    assert dice_distribution(Dice(2, 6), 0)[7] == Fraction(6, 36)


def test_D20_ATTACK_ROLL_a_roll_meeting_def_hits_and_deals_dice_plus_attribute():
    where = situation(ADA, BLADE, RAIDER)
    result = resolve_attack(ADA, BLADE, RAIDER, where, random.Random(1), natural=9)
    assert result.total == 9 + 6 and result.hit and not result.critical
    assert 1 + 1 <= result.damage <= 8 + 1 and result.rule == "D20-DAMAGE"
    miss = resolve_attack(ADA, BLADE, RAIDER, where, random.Random(1), natural=8)
    assert not miss.hit and miss.damage == 0


def test_D20_GLITCH_a_natural_1_is_a_glitch_for_the_attacker():
    result = resolve_attack(ADA, CARBINE, RAIDER, situation(ADA, CARBINE, RAIDER), random.Random(0), natural=1)
    assert result.glitch and not result.hit and result.rule == "D20-GLITCH"


def test_D20_CRIT_no_critical_through_heavy_cover():
    where = situation(ADA, CARBINE, RAIDER, "short", "heavy")
    result = resolve_attack(ADA, CARBINE, RAIDER, where, random.Random(0), natural=20)
    assert result.hit and not result.critical
    open_shot = resolve_attack(ADA, CARBINE, RAIDER, situation(ADA, CARBINE, RAIDER), random.Random(0), natural=20)
    assert open_shot.critical and open_shot.rule == "D20-CRIT"
    assert len(open_shot.damage_faces) == 2  # 1d10 doubled


def test_D20_COVER_melee_ignores_range_and_cover():
    where = situation(ADA, BLADE, RAIDER, "long", "heavy")
    assert (where.range, where.cover) == ("short", "none")


@pytest.mark.parametrize("attacker_conditions, target_conditions, weapon, bonus_change, mode", [
    pytest.param(("blinded",), (), CARBINE, -4, "normal", id="D20-COND-BLINDED-ranged-minus-4"),
    pytest.param(("blinded",), (), BLADE, 0, "hindrance", id="D20-COND-BLINDED-melee-hindrance"),
    pytest.param(("grappled",), (), BLADE, 0, "hindrance", id="D20-COND-GRAPPLED-attack-hindrance"),
    pytest.param(("poisoned",), (), BLADE, -2, "normal", id="D20-COND-POISONED-minus-2"),
    pytest.param((), ("prone",), BLADE, 0, "edge", id="D20-COND-PRONE-melee-attackers-gain-edge"),
    pytest.param((), ("prone",), CARBINE, -2, "normal", id="D20-COND-PRONE-ranged-minus-2"),
    pytest.param(("grappled",), ("prone",), BLADE, 0, "normal", id="D20-EDGE-edge-and-hindrance-cancel"),
])
def test_D20_COND_conditions_bend_the_attack(attacker_conditions, target_conditions, weapon, bonus_change, mode):
    attacker = ADA.with_conditions(*attacker_conditions)
    target = RAIDER.with_conditions(*target_conditions)
    where = situation(attacker, weapon, target)
    assert where.bonus - attack_bonus(ADA, weapon)[0] == bonus_change
    assert where.mode == mode
