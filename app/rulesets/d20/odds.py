"""Exact odds of one attack before it is rolled (D20-ATTACK-ROLL, D20-RANGE, D20-COVER, D20-CRIT,
D20-GLITCH, D20-EDGE) and the exact distribution of its damage (D20-DAMAGE).

Enumerated over the kept natural d20 (20 faces; 2d20 keep-high or keep-low as 20 weights out
of 400), so every answer is a Fraction; docs/api.md's example: +5 vs DEF 15 at Short, no cover ->
p_hit 11/20, p_crit 1/20, p_glitch 1/20.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.rulesets.d20.dice import D20, Dice, d20_kept, dice_distribution
from app.rulesets.d20.models import COVERS, HouseRules

LONG_RANGE_PENALTY = -2  # D20-RANGE: beyond Short to Long
HOUSE = HouseRules()


@dataclass(frozen=True, slots=True)
class AttackOdds:
    p_hit: Fraction
    p_crit: Fraction
    p_glitch: Fraction
    bonus: int  # the attack bonus with range applied
    defense: int  # DEF with cover applied
    no_shot: bool = False

    @property
    def p_miss(self) -> Fraction:
        return 1 - self.p_hit


def effective(bonus: int, defense: int, range_: str, cover: str) -> tuple[int, int]:
    """(bonus, DEF) once range (Long -2, D20-RANGE) and cover (+1/+2/+4 DEF, D20-COVER) apply."""
    return bonus + (LONG_RANGE_PENALTY if range_ == "long" else 0), defense + COVERS[cover]


def outcome(natural: int, bonus: int, defense: int, cover: str,
            house: HouseRules = HOUSE) -> tuple[bool, bool, bool]:
    """(hit, critical, glitch) for one kept natural die, bonus and DEF already effective.

    D20-CRIT: a natural 20 always hits (house default, docs/api.md) and is a critical, except through
    heavy cover; D20-GLITCH: a natural 1 always misses and is a Glitch for the attacker."""
    if natural == 20 and house.nat20_always_hits:
        hit = True
    elif natural == 1 and house.nat1_always_misses:
        hit = False
    else:
        hit = natural + bonus >= defense  # D20-ATTACK-ROLL: meet or beat DEF
    return hit, hit and natural == 20 and cover != "heavy", natural == 1


def attack_odds(bonus: int, defense: int, range_: str = "short", cover: str = "none",
                mode: str = "normal", house: HouseRules = HOUSE) -> AttackOdds:
    """Exact p_hit, p_crit, p_glitch. Past Long there is no shot: every probability is 0."""
    if range_ == "beyond":
        return AttackOdds(Fraction(0), Fraction(0), Fraction(0), bonus, defense + COVERS[cover], True)
    bonus, defense = effective(bonus, defense, range_, cover)
    weights = d20_kept(mode)
    p_hit = p_crit = p_glitch = Fraction(0)
    for natural in D20:
        hit, crit, glitch = outcome(natural, bonus, defense, cover, house)
        p = weights[natural]
        p_hit += p if hit else 0
        p_crit += p if crit else 0
        p_glitch += p if glitch else 0
    return AttackOdds(p_hit, p_crit, p_glitch, bonus, defense)


def damage_on_hit(dice: Dice, flat: int, critical: bool, house: HouseRules = HOUSE) -> dict[int, Fraction]:
    """D20-DAMAGE: weapon dice + attribute, at least `house.min_damage`; D20-CRIT doubles the dice."""
    rolled = dice_distribution(dice.doubled() if critical else dice, flat)
    out: dict[int, Fraction] = {}
    for value, p in rolled.items():
        kept = max(value, house.min_damage)
        out[kept] = out.get(kept, Fraction(0)) + p
    return out


def damage_odds(odds: AttackOdds, dice: Dice, flat: int, house: HouseRules = HOUSE) -> dict[int, Fraction]:
    """The whole attack's damage distribution: 0 on a miss, normal on a plain hit, doubled dice on
    a critical. Sums to 1."""
    out: dict[int, Fraction] = {0: odds.p_miss} if odds.p_miss else {}
    for critical, weight in ((False, odds.p_hit - odds.p_crit), (True, odds.p_crit)):
        if not weight:
            continue
        for value, p in damage_on_hit(dice, flat, critical, house).items():
            out[value] = out.get(value, Fraction(0)) + weight * p
    return out


def at_least(distribution: dict[int, Fraction]) -> dict[int, Fraction]:
    """{n: P(damage >= n)} for every n ≥ 1 that can happen."""
    top = max(distribution, default=0)
    return {n: sum((p for v, p in distribution.items() if v >= n), Fraction(0)) for n in range(1, top + 1)}


def expected(distribution: dict[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in distribution.items()), Fraction(0))
