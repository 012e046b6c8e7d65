"""Zone dice (Z-DICE, Z-PUSH, Z-FULL-AUTO): exact odds against brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.zone.dice import distribution, pool_odds, push, roll


def test_api_example_values_z_dice_z_push():
    """api.md § Rulesets: 5 dice, success on a 6: 1 − (5/6)^5 = 0.598; pushed 1 − (26/36)^5 = 0.804."""
    assert round(pool_odds(5, [6])["p_success"], 3) == 0.598
    assert round(pool_odds(5, [6], 1)["p_success"], 3) == 0.804
    assert pool_odds(5, [6])["p_success"] == pytest.approx(1 - (5 / 6) ** 5)
    assert pool_odds(5, [6], 1)["p_success"] == pytest.approx(1 - (26 / 36) ** 5)


def brute_force(dice: int, success_faces: list[int], pushes: int) -> list[Fraction]:
    """Every face of every die through every push, counted one outcome at a time."""
    keep = set(success_faces) | ({1} - set(success_faces))

    def die_outcomes(left: int) -> list[tuple[bool, Fraction]]:
        out = []
        for face in range(1, 7):
            if face in keep or left == 0:
                out.append((face in success_faces, Fraction(1, 6)))
            else:
                out += [(ok, p / 6) for ok, p in die_outcomes(left - 1)]
        return out

    counts = [Fraction(0)] * (dice + 1)
    for combo in itertools.product(die_outcomes(pushes), repeat=dice):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        counts[sum(ok for ok, _ in combo)] += p
    return counts


@settings(max_examples=40, deadline=None)
@given(dice=st.integers(0, 3), pushes=st.integers(0, 2),
       faces=st.sets(st.integers(1, 6), min_size=1, max_size=3).map(sorted))
def test_closed_form_matches_brute_force_enumeration_z_dice_z_push(dice, pushes, faces):
    assert distribution(dice, faces, pushes) == brute_force(dice, faces, pushes)


def test_successes_at_least_are_tail_sums_and_decrease():
    odds = pool_odds(4, [6], 1)
    tails = [odds["successes_at_least"][str(k)] for k in range(1, 5)]
    assert tails == sorted(tails, reverse=True) and tails[0] == pytest.approx(odds["p_success"])


def test_success_faces_are_a_house_default_z_dice():
    """Z-DICE: a table that counts 5 and 6 doubles the per-die chance."""
    assert pool_odds(1, [5, 6])["p_success"] == pytest.approx(2 / 6)


def test_a_push_rerolls_only_dice_showing_neither_a_success_nor_a_1_z_push():
    pool = roll(4, [6], Random(0), entered=[6, 1, 3, 4])
    pushed = push(pool, Random(0), entered=[6, 2])
    assert pushed.faces == (6, 1, 6, 2) and pushed.successes == 2 and pushed.banes == 1
