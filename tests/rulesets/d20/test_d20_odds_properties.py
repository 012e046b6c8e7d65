"""d20 ruleset: exact odds against brute-force enumeration of every die (D20-ATTACK-ROLL,
D20-CRIT, D20-GLITCH, D20-RANGE, D20-COVER, D20-EDGE, D20-DAMAGE), by hypothesis."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.d20.dice import Dice
from app.rulesets.d20.models import COVERS, HouseRules
from app.rulesets.d20.odds import attack_odds, damage_odds
from tests.support.examples import examples

MODES = st.sampled_from(["normal", "edge", "hindrance"])


def rolls(mode):
    """Every way the d20(s) can land, each equally likely, as the natural die kept."""
    if mode == "normal":
        return [n for n in range(1, 21)]
    pairs = itertools.product(range(1, 21), repeat=2)
    return [max(p) if mode == "edge" else min(p) for p in pairs]


def brute_force(bonus, defense, range_, cover, mode, house):
    kept = rolls(mode)
    hits = crits = glitches = 0
    target = defense + COVERS[cover]
    total_bonus = bonus - (2 if range_ == "long" else 0)
    for n in kept:
        if range_ == "beyond":
            continue
        hit = (n == 20 and house.nat20_always_hits) or (
            not (n == 1 and house.nat1_always_misses) and n + total_bonus >= target)
        hits += hit
        crits += hit and n == 20 and cover != "heavy"
        glitches += n == 1
    return tuple(Fraction(x, len(kept)) for x in (hits, crits, glitches))


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(-10, 25), st.integers(1, 35), st.sampled_from(["short", "long", "beyond"]),
       st.sampled_from(list(COVERS)), MODES, st.booleans(), st.booleans())
def test_D20_ATTACK_ROLL_odds_equal_brute_force_enumeration(bonus, defense, range_, cover, mode, n20, n1):
    house = HouseRules(nat20_always_hits=n20, nat1_always_misses=n1)
    odds = attack_odds(bonus, defense, range_, cover, mode, house)
    assert (odds.p_hit, odds.p_crit, odds.p_glitch) == brute_force(bonus, defense, range_, cover, mode, house)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(-5, 15), st.integers(5, 25), st.sampled_from(list(COVERS)),
       st.integers(1, 3), st.sampled_from([4, 6, 8]), st.integers(-3, 4))
def test_D20_DAMAGE_distribution_equals_brute_force_over_every_die(bonus, defense, cover, count, sides, flat):
    house = HouseRules()
    odds = attack_odds(bonus, defense, "short", cover)
    dist = damage_odds(odds, Dice(count, sides), flat, house)
    expected: dict[int, Fraction] = {}
    for n in range(1, 21):
        hit = n == 20 or (n != 1 and n + bonus >= defense + COVERS[cover])
        crit = hit and n == 20 and cover != "heavy"
        dice = count * (2 if crit else 1)
        faces = list(itertools.product(range(1, sides + 1), repeat=dice)) if hit else [()]
        landed_on: dict[int, int] = {}  # every landing counted whole, one division per value (Fractions were slow)
        for landed in faces:
            value = max(sum(landed) + flat, house.min_damage) if hit else 0
            landed_on[value] = landed_on.get(value, 0) + 1
        for value, times in landed_on.items():
            expected[value] = expected.get(value, Fraction(0)) + Fraction(times, 20 * len(faces))
    assert dist == {v: p for v, p in expected.items() if p}
    assert sum(dist.values()) == 1
