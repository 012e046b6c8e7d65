"""Exact attack odds (R-CMB-ROLL, R-CMB-DAMAGE, R-CMB-TIE) against brute-force enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.potham2038.dice import attack_odds
from app.rulesets.potham2038.house_rules import default_faces
from app.rulesets.potham2038.web.odds import shoot_odds
from app.web.view import percent
from tests.support.turn_games import GLITCH_REBOOT, roster_state, with_bot


def enumerate_side(pool, faces):
    """Every way the pool can land, face by face: Counter of (hits, any critical) -> ways."""
    dice = [faces[colour] for colour, n in pool.items() for _ in range(n)]
    outcomes = Counter()
    for landed in itertools.product(*dice):
        hits = sum(f in ("hit", "critical") for f in landed)
        outcomes[(hits, "critical" in landed)] += 1
    total = 1
    for sides in dice:
        total *= len(sides)
    return {k: Fraction(v, total) for k, v in outcomes.items()}


def brute_force(attack, defense, faces, attack_bonus=0, defense_bonus=0):
    p_damage = p_tie = Fraction(0)
    damage = Counter()
    for (a, crit), p_a in enumerate_side(attack, faces).items():
        for (d, _), p_d in enumerate_side(defense, faces).items():
            margin = (a + attack_bonus) - (d + defense_bonus)
            if margin == 0:
                p_tie += p_a * p_d
            elif margin > 0:
                p_damage += p_a * p_d
                damage[margin + (1 if crit else 0)] += p_a * p_d
    return p_damage, p_tie, damage


small_pool = st.dictionaries(st.sampled_from(["white", "red"]), st.integers(0, 2), max_size=2).filter(
    lambda p: sum(p.values()) <= 4
)


@settings(max_examples=60, deadline=None)
@given(attack=small_pool, defense=small_pool, a_bonus=st.integers(-2, 3), d_bonus=st.integers(-2, 3))
def test_R_CMB_DAMAGE_odds_equal_brute_force_enumeration_of_every_face(attack, defense, a_bonus, d_bonus):
    faces = default_faces()
    odds = attack_odds(attack, defense, faces, a_bonus, d_bonus)
    p_damage, p_tie, damage = brute_force(attack, defense, faces, a_bonus, d_bonus)
    assert odds.p_damage == pytest.approx(float(p_damage), abs=1e-12)
    assert odds.p_tie == pytest.approx(float(p_tie), abs=1e-12)
    assert odds.expected_damage == pytest.approx(float(sum(k * p for k, p in damage.items())), abs=1e-12)
    for k in range(1, max(damage, default=0) + 1):
        at_least = sum(p for dmg, p in damage.items() if dmg >= k)
        assert odds.damage_at_least[k] == pytest.approx(float(at_least), abs=1e-12)


def test_four_dice_a_side_with_custom_faces_match_brute_force():
    faces = {"green": ["hit", "critical", "blank", "blank"], "red": default_faces()["red"]}
    attack, defense = {"green": 2, "red": 2}, {"green": 3, "red": 1}
    odds = attack_odds(attack, defense, faces)
    p_damage, p_tie, _ = brute_force(attack, defense, faces)
    assert (odds.p_damage, odds.p_tie) == (pytest.approx(float(p_damage)), pytest.approx(float(p_tie)))


big_pool = st.dictionaries(st.sampled_from(["white", "red", "black"]), st.integers(0, 20), max_size=3).filter(
    lambda p: sum(p.values()) <= 40
)


@settings(max_examples=80, deadline=None)
@given(attack=big_pool, defense=big_pool, bonus=st.integers(-5, 5), melee=st.booleans())
def test_the_three_outcomes_always_add_up_to_one(attack, defense, bonus, melee):
    odds = attack_odds(attack, defense, attack_bonus=bonus, melee=melee)
    assert odds.p_damage + odds.p_tie + odds.p_defended == pytest.approx(1.0, abs=1e-9)
    assert all(0 <= p <= 1 for p in (odds.p_damage, odds.p_tie, odds.p_defended))
    chances = list(odds.damage_at_least.values())
    assert chances == sorted(chances, reverse=True)  # P(damage >= k) never rises with k
    if chances:
        assert chances[0] == pytest.approx(odds.p_damage, abs=1e-9)


@pytest.mark.parametrize(
    ("attack", "defense", "bonus", "p_damage", "p_tie", "at_least", "expected"),
    [
        # one Red die against nothing: 2 Blank (tie 0-0), 3 Hit (1 damage), 1 Critical (1 + 1)
        ({"red": 1}, {}, 0, Fraction(4, 6), Fraction(2, 6), {1: Fraction(4, 6), 2: Fraction(1, 6)}, Fraction(5, 6)),
        # Marked Target +2 with no dice: always 2 damage, never a Critical
        ({}, {}, 2, 1, 0, {1: 1, 2: 1}, 2),
        # nothing against nothing: a tie
        ({}, {}, 0, 0, 1, {}, 0),
        # one White die with an attack bonus of -1: at best a tie, never damage
        ({"white": 1}, {}, -1, 0, Fraction(3, 6), {}, 0),
    ],
    ids=["R-CMB-DAMAGE-critical-adds-one", "R-MARKED-TARGET-bonus", "R-CMB-TIE-nothing", "negative-bonus"],
)
def test_known_odds(attack, defense, bonus, p_damage, p_tie, at_least, expected):
    odds = attack_odds(attack, defense, attack_bonus=bonus)
    assert odds.p_damage == pytest.approx(float(p_damage))
    assert odds.p_tie == pytest.approx(float(p_tie))
    assert odds.damage_at_least == pytest.approx({k: float(v) for k, v in at_least.items()})
    assert odds.expected_damage == pytest.approx(float(expected))


def test_a_shoot_tie_is_still_counted_in_p_tie():
    melee, shoot = attack_odds({"red": 2}, {"white": 2}), attack_odds({"red": 2}, {"white": 2}, melee=False)
    assert melee == shoot and shoot.p_tie > 0


def test_odds_refuse_unknown_colours_and_huge_pools():
    with pytest.raises(ValueError, match="unknown dice colour"):
        attack_odds({"blue": 1}, {})
    with pytest.raises(ValueError, match="at most 40"):
        attack_odds({"red": 41}, {})


def test_equal_pools_win_as_often_as_they_lose():
    odds = attack_odds({"red": 10, "white": 10}, {"red": 10, "white": 10})
    assert odds.p_damage == pytest.approx(odds.p_defended, abs=1e-9)  # a Critical changes damage, not who wins
    assert max(odds.damage_at_least) == 21  # 20 more hits than 0, plus a Critical


def exactly(p: Fraction) -> str:
    return "impossible" if p == 0 else "certain" if p == 1 else "possible"


@settings(max_examples=80, deadline=None)
@given(attack=small_pool, defense=small_pool, a_bonus=st.integers(-2, 3), d_bonus=st.integers(-2, 3))
def test_an_impossible_outcome_is_exactly_0_and_a_certain_one_exactly_1_as_brute_force_says(
    attack, defense, a_bonus, d_bonus
):
    """Issue 18: float residue (1.1e-16) read "<1%" / ">99%"; the README promises exact odds."""
    faces = default_faces()
    odds = attack_odds(attack, defense, faces, a_bonus, d_bonus)
    p_damage, p_tie, damage = brute_force(attack, defense, faces, a_bonus, d_bonus)
    pairs = [(odds.p_damage, p_damage), (odds.p_tie, p_tie), (odds.p_defended, 1 - p_damage - p_tie)]
    pairs += [(odds.damage_at_least[k], sum(p for dmg, p in damage.items() if dmg >= k)) for k in odds.damage_at_least]
    for computed, exact in pairs:
        assert exactly(Fraction(computed)) == exactly(exact), (computed, exact)


@pytest.mark.parametrize(
    ("attack", "defense", "bonus", "outcome", "shown"),
    [
        # no hits against no Defense is a tie, so defended cannot happen (it was 2.8e-17: "<1%")
        ({"red": 2}, {}, 0, "p_defended", "0%"),
        # +3 against two White dice always wins (it was 0.9999999999999999: ">99%", defended "<1%")
        ({"red": 1}, {"white": 2}, 3, "p_damage", "100%"),
        ({"red": 1}, {"white": 2}, 3, "p_defended", "0%"),
        # a real chance far below any rounding: 40 White dice all Blank, (1/2)^40 = 9.1e-13, a tie
        ({"white": 40}, {}, 0, "p_tie", "<1%"),
        ({"white": 40}, {}, 0, "p_damage", ">99%"),
    ],
    ids=["impossible-defended", "certain-damage", "impossible-defended-2", "tiny-tie", "nearly-certain"],
)
def test_the_odds_read_0_and_100_percent_only_when_exact_and_a_tiny_real_chance_reads_under_1(
    attack, defense, bonus, outcome, shown
):
    assert percent(getattr(attack_odds(attack, defense, attack_bonus=bonus), outcome)) == shown


def test_a_certain_win_is_certain_to_deal_its_lowest_damage():
    odds = attack_odds({"red": 1}, {"white": 2}, attack_bonus=3)  # 1 to 5 damage, never less than 1
    assert odds.damage_at_least[1] == 1.0 and 0 < odds.damage_at_least[2] < 1


def test_R_GLITCH_REBOOT_against_a_rebooted_bot_the_panel_reads_defended_0_percent_not_under_1():
    """No Defense roll (R-GLITCH-REBOOT): 2 Red against nothing can tie (no hits) but never be
    defended, so the bars and the odds line read 0%, as the exact odds are."""
    state = with_bot(roster_state(), "sent", glitches=[GLITCH_REBOOT])
    odds = shoot_odds(state, state.character("ada"), state.bot("sent"))
    assert (odds["defended"], odds["tie"], odds["damage"]) == ("0%", "11%", "89%")
    assert odds["bars"][0] == {"label": "0", "what": "defended", "p": "0%", "height": 0.0}
