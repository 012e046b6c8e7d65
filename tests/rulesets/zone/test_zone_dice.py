"""Zone dice (Z-DICE, Z-PUSH, Z-FULL-AUTO): exact odds against brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.zone.dice import distribution, policy_distribution, pool_odds, push, roll


def test_api_example_values_z_dice_z_push():
    """docs/api.md § Rulesets: 5 dice, success on a 6: 1 − (5/6)^5 = 0.598; pushed 1 − (26/36)^5 = 0.804."""
    assert round(pool_odds(5, [6])["p_success"], 3) == 0.598
    assert round(pool_odds(5, [6], 1)["p_success"], 3) == 0.804
    assert pool_odds(5, [6])["p_success"] == pytest.approx(1 - (5 / 6) ** 5)
    assert pool_odds(5, [6], 1)["p_success"] == pytest.approx(1 - (26 / 36) ** 5)


def brute_force(dice: int, success_faces: list[int], pushes: int) -> list[Fraction]:
    """Every face of every die through every push, counted one outcome at a time. A die's
    outcome after d re-rolls has probability 1/6^(d+1), counted as the whole number
    6^(pushes-d) out of 6^(pushes+1) (whole numbers: Fractions made the 3-dice, 2-push case,
    a million outcomes, take over a minute); one division at the end."""
    keep = set(success_faces) | ({1} - set(success_faces))

    def die_outcomes(left: int) -> list[tuple[bool, int]]:
        out = []
        for face in range(1, 7):
            if face in keep or left == 0:
                out.append((face in success_faces, 6 ** left))
            else:
                out += die_outcomes(left - 1)
        return out

    counts = [0] * (dice + 1)
    for combo in itertools.product(die_outcomes(pushes), repeat=dice):
        weight = 1
        for _, w in combo:
            weight *= w
        counts[sum(ok for ok, _ in combo)] += weight
    return [Fraction(c, 6 ** ((pushes + 1) * dice)) for c in counts]


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


def brute_force_policy(dice: int, faces: list[int], policy: str, max_pushes: int, again: bool) -> list[Fraction]:
    """Every face of every die, through every push the NPC makes (Z-PUSH-CHOICE, Z-FULL-AUTO):
    the first push by the house policy, further ones (full auto) while it has no success."""
    keep = set(faces) | ({1} - set(faces))
    out = [0] * (dice + 1)  # outcomes counted over 6^(dice · (1 + max_pushes)) equally likely ones

    def go(pool: tuple[int, ...], weight: int, times: int) -> None:
        successes = sum(f in faces for f in pool)
        again_now = [i for i, f in enumerate(pool) if f not in keep]
        first = times == 0 and (policy == "always" or (policy == "no_success" and successes == 0))
        more = times > 0 and again and policy != "never" and successes == 0
        if not again_now or times >= max_pushes or not (first or more):
            out[successes] += weight
            return
        share = weight // 6 ** len(again_now)
        rolled = list(pool)
        for new in itertools.product(range(1, 7), repeat=len(again_now)):
            for i, face in zip(again_now, new, strict=True):
                rolled[i] = face
            go(tuple(rolled), share, times + 1)

    for pool in itertools.product(range(1, 7), repeat=dice):
        go(pool, 6 ** (dice * max_pushes), 0)
    return [Fraction(n, 6 ** (dice * (1 + max_pushes))) for n in out]


@settings(max_examples=30, deadline=None)
@given(dice=st.integers(0, 3), policy=st.sampled_from(["never", "no_success", "always"]),
       max_pushes=st.integers(0, 3), again=st.booleans(),
       faces=st.sets(st.integers(1, 6), min_size=1, max_size=2).map(sorted))
def test_npc_odds_under_the_push_policy_match_brute_force_z_push_choice_z_full_auto(
        dice, policy, max_pushes, again, faces):
    """Z-PUSH-CHOICE (Z5): the card's odds follow the house policy exactly, a full auto NPC pushing
    again and again while it has no success (Z-FULL-AUTO, Z7). Enumeration kept small: up to 3
    dice pushed once, or 2 dice pushed up to three times."""
    pushes = min(max_pushes, 3 if dice <= 2 else 1) if again else min(max_pushes, 1)
    assert policy_distribution(dice, faces, policy, pushes, again) == brute_force_policy(
        dice, faces, policy, pushes, again)


def test_four_dice_pushed_only_without_a_success_have_the_issues_true_odds_z_push_choice():
    """Z5: 4 dice, push only a roll with no success: 2+ successes 17.5 %, 3+ 2.0 % (not 31 % / 7 %)."""
    exact = policy_distribution(4, [6], "no_success", 1)
    assert brute_force_policy(4, [6], "no_success", 1, False) == exact
    assert round(float(sum(exact[2:])), 3) == 0.175 and round(float(sum(exact[3:])), 3) == 0.020
    assert policy_distribution(4, [6], "always", 1) == distribution(4, [6], 1)  # unconditional: the old form
