"""Melee and Shoot (seed 001, rules.md § Combat): R-CMB-*, R-MARKED-TARGET, R-DISTRACTED."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rulesets.potham2038.combat import (
    Fighter,
    attack_pool_against,
    compare,
    marked_target_bonus,
    resolve_melee,
    who_attacks,
)
from app.rulesets.potham2038.dice import entered_roll as rolled
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.shooting import defense_pool_with_cover, out_of_ammo, resolve_shoot, shoot_target

WARDEN, ADA = Fighter("Warden-2", 60), Fighter("Ada", 45)


# --- R-CMB-WHO ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("npc", "character", "decided_by", "side"),
    [
        (60, 45, None, "npc"),
        (45, 60, None, "character"),
        (50, 50, None, "npc"),
        (60, 45, "character", "character"),
        (45, 60, "npc", "npc"),
    ],
    ids=[
        "R-CMB-WHO-more-points-npc-attacks",
        "R-CMB-WHO-more-points-character-attacks",
        "R-CMB-WHO-equal-points-the-npc-attacks",
        "R-CMB-WHO-a-special-rule-comes-first-character",
        "R-CMB-WHO-a-special-rule-comes-first-npc",
    ],
)
def test_who_attacks(npc, character, decided_by, side):
    who, reason = who_attacks(npc, character, decided_by)
    assert who == side
    assert reason.endswith(".") and ("Special Rule" in reason) == (decided_by is not None)


def test_R_CMB_WHO_an_unknown_decider_is_refused():
    with pytest.raises(ValueError):
        who_attacks(1, 2, "referee")  # type: ignore[arg-type]


# --- R-CMB-ROLL, R-CMB-DAMAGE ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defense", "bonus", "totals", "outcome", "damage"),
    [
        ((3, 0), (1, 0), 0, (3, 1), "damage", 2),
        ((3, 2), (1, 0), 0, (3, 1), "damage", 3),
        ((3, 1), (1, 1), 0, (3, 1), "damage", 3),
        ((2, 1), (2, 0), 0, (2, 2), "tie", 0),
        ((1, 1), (2, 0), 0, (1, 2), "defended", 0),
        ((1, 0), (2, 0), 1, (2, 2), "tie", 0),
        ((1, 0), (2, 0), 3, (4, 2), "damage", 2),
        ((0, 0), (0, 0), 0, (0, 0), "tie", 0),
    ],
    ids=[
        "R-CMB-DAMAGE-the-difference",
        "R-CMB-DAMAGE-any-number-of-criticals-add-one-in-total",
        "R-CMB-DAMAGE-defender-criticals-add-nothing",
        "R-CMB-ROLL-equal-totals-tie-even-with-a-critical",
        "R-CMB-DAMAGE-a-failed-attack-does-no-damage",
        "R-CMB-ROLL-bonus-counts-in-the-attack-total",
        "R-MARKED-TARGET-bonus-adds-to-the-difference",
        "R-CMB-ROLL-nothing-against-nothing",
    ],
)
def test_compare(attack, defense, bonus, totals, outcome, damage):
    result = compare(rolled(*attack), rolled(*defense), attack_bonus=bonus)
    assert (result.attack_total, result.defense_total) == totals
    assert (result.outcome, result.damage) == (outcome, damage)


@given(a=st.integers(0, 30), ac=st.integers(0, 30), d=st.integers(0, 30), bonus=st.integers(-5, 5))
def test_R_CMB_DAMAGE_damage_is_positive_exactly_when_attack_exceeds_defense(a, ac, d, bonus):
    result = compare(rolled(a, min(a, ac)), rolled(d, 0), attack_bonus=bonus)
    assert (result.damage > 0) == (a + bonus > d)
    assert result.damage in (0, a + bonus - d, a + bonus - d + 1)


# --- melee ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("npc", "character", "npc_roll", "char_roll", "expected"),
    [
        (WARDEN, ADA, (2, 0), (1, 0), ("npc", "damage", 1, "Ada", None, "R-CMB-DAMAGE")),
        (WARDEN, ADA, (2, 0), (2, 0), ("npc", "tie", 0, None, "Ada", "R-CMB-TIE")),
        (WARDEN, ADA, (1, 0), (2, 0), ("npc", "defended", 0, None, None, "R-CMB-DAMAGE")),
        (Fighter("Bolt-1", 30), ADA, (1, 0), (3, 1), ("character", "damage", 3, "Bolt-1", None, "R-CMB-DAMAGE")),
        (Fighter("Bolt-1", 30), ADA, (2, 0), (2, 0), ("character", "tie", 0, None, "Bolt-1", "R-CMB-TIE")),
    ],
    ids=[
        "R-CMB-DAMAGE-the-npc-hits-the-character",
        "R-CMB-TIE-a-melee-tie-pushes-the-defender-back",
        "R-CMB-DAMAGE-the-character-defends",
        "R-CMB-WHO-the-character-attacks-and-rolls-melee",
        "R-CMB-TIE-the-npc-defending-is-pushed-back",
    ],
)
def test_resolve_melee(npc, character, npc_roll, char_roll, expected):
    result = resolve_melee(npc, character, rolled(*npc_roll), rolled(*char_roll))
    got = (result.attacker, result.outcome, result.damage, result.damage_to, result.push_back, result.rule)
    assert got == expected
    assert result.reason.count(".") >= 1 and npc.name in result.reason


def test_R_CMB_DANGER_every_melee_triggers_danger_whatever_the_outcome():
    for npc_hits, char_hits in [(2, 1), (1, 1), (0, 3)]:
        assert resolve_melee(WARDEN, ADA, rolled(npc_hits), rolled(char_hits)).danger_trigger


def test_R_CMB_WHO_a_special_rule_lets_the_lower_point_character_attack():
    result = resolve_melee(WARDEN, ADA, rolled(0), rolled(2), attacker="character")
    assert (result.attacker, result.damage_to, result.damage) == ("character", "Warden-2", 2)


@pytest.mark.parametrize(
    ("marked", "has_rule", "outcome", "total"),
    [(2, True, "damage", 3), (2, False, "defended", 1), (0, True, "defended", 1), (1, True, "tie", 2)],
    ids=[
        "R-MARKED-TARGET-plus-one-per-stack",
        "R-MARKED-TARGET-marked-alone-gives-nothing",
        "R-MARKED-TARGET-no-stacks-no-bonus",
        "R-MARKED-TARGET-one-stack-makes-a-tie",
    ],
)
def test_marked_target_in_melee(marked, has_rule, outcome, total):
    result = resolve_melee(WARDEN, ADA, rolled(1), rolled(2), marked=marked, marked_target=has_rule)
    assert (result.outcome, result.attack_total) == (outcome, total)


def test_R_MARKED_TARGET_does_not_help_a_defending_npc():
    result = resolve_melee(Fighter("Bolt-1", 30), ADA, rolled(1), rolled(2), marked=3, marked_target=True)
    assert (result.attacker, result.outcome, result.damage) == ("character", "damage", 1)
    assert marked_target_bonus(3, False) == 0 and marked_target_bonus(3, True) == 3


@pytest.mark.parametrize(
    ("npc", "character", "npc_roll", "char_roll", "expected"),
    [
        (WARDEN, ADA, (3, 0), (1, 0), ("damage", 2, "Ada", None)),
        (WARDEN, ADA, (1, 0), (3, 1), ("damage", 3, "Warden-2", None)),
        (WARDEN, ADA, (2, 1), (2, 0), ("tie", 0, None, "Ada")),
        (Fighter("Bolt-1", 40), Fighter("Ada", 40), (2, 0), (2, 0), ("tie", 0, None, "Ada")),
        (Fighter("Bolt-1", 30), Fighter("Ada", 30), (1, 0), (1, 1), ("tie", 0, None, "Ada")),
    ],
    ids=[
        "R-CMB-TIE-counter-attack-the-npc-wins-and-deals-the-difference",
        "R-CMB-TIE-counter-attack-the-character-wins-critical-adds-one",
        "R-CMB-TIE-counter-attack-tie-pushes-the-lower-point-model",
        "R-CMB-TIE-counter-attack-tie-on-equal-points-pushes-the-character",
        "R-CMB-TIE-counter-attack-tie-equal-points-again",
    ],
)
def test_counter_attack(npc, character, npc_roll, char_roll, expected):
    result = resolve_melee(npc, character, rolled(*npc_roll), rolled(*char_roll), counter_attack=True)
    assert (result.outcome, result.damage, result.damage_to, result.push_back) == expected
    assert result.counter_attack and result.danger_trigger and result.attacker == "npc"


def test_R_CMB_TIE_counter_attack_tie_pushes_the_npc_when_it_has_fewer_points():
    result = resolve_melee(Fighter("Bolt-1", 30), ADA, rolled(2), rolled(2), attacker="npc", counter_attack=True)
    assert result.push_back == "Bolt-1"


def test_R_CMB_TIE_marked_target_counts_in_a_counter_attack():
    result = resolve_melee(WARDEN, ADA, rolled(1), rolled(2), counter_attack=True, marked=1, marked_target=True)
    assert (result.attack_total, result.outcome, result.push_back) == (2, "tie", "Ada")


def test_R_CMB_TIE_only_a_character_under_attack_can_counter_attack():
    with pytest.raises(ValueError, match="counter-attack"):
        resolve_melee(Fighter("Bolt-1", 30), ADA, rolled(1), rolled(2), counter_attack=True)


@pytest.mark.parametrize(
    ("pool", "stacks", "expected"),
    [
        ({"red": 3}, 0, {"red": 3}),
        ({"red": 3}, 2, {"red": 3, "white": 2}),
        ({"white": 1}, 1, {"white": 2}),
        ({}, 1, {"white": 1}),
    ],
    ids=["R-DISTRACTED-no-stacks", "R-DISTRACTED-one-white-per-stack", "R-DISTRACTED-adds-to-white", "R-DISTRACTED-empty"],
)
def test_distracted_adds_white_dice_to_each_incoming_attack(pool, stacks, expected):
    before = dict(pool)
    assert attack_pool_against(pool, stacks) == expected
    assert pool == before  # the given pool is not changed


# --- shooting -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("melee_with", "die", "chosen", "expected"),
    [
        ([], None, None, ("Ada", [])),
        ([("Bolt-1", 5)], "success", None, ("Ada", [])),
        ([("Bolt-1", 5)], "blank", None, ("Bolt-1", [])),
        ([("Bolt-1", 2)], "blank", None, ("Ada", [])),
        ([("Bolt-1", 3)], "blank", None, ("Ada", ["Ada", "Bolt-1"])),
        ([("Bolt-1", 4), ("Cog", 4)], "blank", None, ("Bolt-1", ["Bolt-1", "Cog"])),
        ([("Bolt-1", 4), ("Cog", 4)], "blank", "Cog", ("Cog", ["Bolt-1", "Cog"])),
    ],
    ids=[
        "R-CMB-TARGET-not-in-melee-no-die",
        "R-CMB-TARGET-success-hits-the-intended-target",
        "R-CMB-TARGET-blank-hits-the-highest-health",
        "R-CMB-TARGET-blank-the-intended-target-counts",
        "R-CMB-TARGET-tie-lists-names-first-is-the-default",
        "R-CMB-TARGET-tie-among-others",
        "R-CMB-TARGET-the-player-chooses-among-ties",
    ],
)
def test_shoot_target(melee_with, die, chosen, expected):
    assert shoot_target("Ada", 3, melee_with, die, chosen) == expected


@pytest.mark.parametrize(("die", "chosen"), [(None, None), ("six", None), ("blank", "Ada")])
def test_R_CMB_TARGET_a_missing_die_or_a_choice_outside_the_ties_is_refused(die, chosen):
    with pytest.raises(ValueError):
        shoot_target("Ada", 3, [("Bolt-1", 5), ("Cog", 5)], die, chosen)


@pytest.mark.parametrize(
    ("cover", "house", "expected"),
    [
        ("none", HouseRules(), {"white": 2}),
        ("light", HouseRules(), {"white": 3}),
        ("heavy", HouseRules(), {"white": 4}),
        ("heavy", HouseRules(cover_dice={"light": 1, "heavy": 3}, cover_colour="red"), {"white": 2, "red": 3}),
    ],
    ids=["R-CMB-SHOOT-no-cover", "R-CMB-SHOOT-light-one-die", "R-CMB-SHOOT-heavy-two-dice", "R-CMB-SHOOT-house-edits"],
)
def test_cover_adds_dice_to_the_defense_pool(cover, house, expected):
    assert defense_pool_with_cover({"white": 2}, cover, house) == expected


@pytest.mark.parametrize(
    ("attack", "defense", "melee_with", "die", "expected"),
    [
        ((2, 1), (1, 0), [("Bolt-1", 5)], "blank", ("Bolt-1", "damage", 2, True, "R-CMB-TARGET")),
        ((2, 0), (1, 0), [], None, ("Ada", "damage", 1, False, "R-CMB-DAMAGE")),
        ((2, 1), (2, 0), [], None, ("Ada", "defended", 0, True, "R-CMB-DAMAGE")),
        ((1, 1), (3, 0), [], None, ("Ada", "defended", 0, True, "R-CMB-DAMAGE")),
        ((1, 0), (3, 0), [("Bolt-1", 5)], "success", ("Ada", "defended", 0, False, "R-CMB-DAMAGE")),
    ],
    ids=[
        "R-CMB-TARGET-api-example",
        "R-CMB-DAMAGE-a-plain-hit",
        "R-CMB-AMMO-a-shoot-tie-does-no-damage-but-the-critical-checks-ammo",
        "R-CMB-AMMO-check-even-when-the-attack-failed",
        "R-CMB-TARGET-success-keeps-the-target",
    ],
)
def test_resolve_shoot(attack, defense, melee_with, die, expected):
    result = resolve_shoot("Warden-2", "Ada", 3, rolled(*attack), rolled(*defense), melee_with=melee_with, black_die=die)
    got = (result.actual_target, result.outcome, result.damage, result.out_of_ammo_check, result.rule)
    assert got == expected


def test_R_MARKED_TARGET_counts_the_stacks_on_the_actual_target_only():
    marked = {"Ada": 3, "Bolt-1": 0}
    kw = dict(melee_with=[("Bolt-1", 5)], marked=marked, marked_target=True)
    onto_ada = resolve_shoot("Warden-2", "Ada", 3, rolled(1), rolled(2), black_die="success", **kw)
    onto_bolt = resolve_shoot("Warden-2", "Ada", 3, rolled(1), rolled(2), black_die="blank", **kw)
    assert (onto_ada.attack_total, onto_ada.damage) == (4, 2)
    assert (onto_bolt.attack_total, onto_bolt.outcome) == (1, "defended")


@pytest.mark.parametrize(("die", "empty"), [("blank", True), ("success", False)])
def test_R_CMB_AMMO_house_a_blank_black_die_means_out_of_ammo(die, empty):
    assert out_of_ammo(die) is empty


def test_R_CMB_AMMO_a_check_needs_a_black_die_face():
    with pytest.raises(ValueError):
        out_of_ammo("hit")


def test_shooting_can_also_be_imported_from_combat():
    from app.rulesets.potham2038 import combat

    assert combat.resolve_shoot is resolve_shoot
    with pytest.raises(AttributeError):
        combat.no_such_thing  # noqa: B018


@pytest.mark.parametrize(
    "result",
    [
        resolve_melee(WARDEN, ADA, rolled(2), rolled(1)),
        resolve_melee(WARDEN, ADA, rolled(1), rolled(1), attacker="character"),
        resolve_melee(WARDEN, ADA, rolled(2), rolled(2), counter_attack=True),
        resolve_melee(WARDEN, ADA, rolled(1), rolled(3, 1), counter_attack=True),
        resolve_shoot("Warden-2", "Ada", 3, rolled(2, 1), rolled(1), melee_with=[("Bolt-1", 3)], black_die="blank"),
        resolve_shoot("Warden-2", "Ada", 3, rolled(1), rolled(2), melee_with=[("Bolt-1", 3)], black_die="success"),
    ],
)
def test_every_reason_is_one_plain_sentence_naming_the_models(result):
    assert result.reason.endswith(".") and ". " not in result.reason
    assert "Warden-2" in result.reason and result.rule.startswith("R-")
