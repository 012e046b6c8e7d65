"""Z-DICE: pools of six-sided dice, a success on a 6 (house default, editable), and pushing.

Exact odds by closed form (Fractions): every die is independent, so the number of successes is
binomial with a per-die chance that follows from the push rule. Tests check them against
brute-force enumeration of every face.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from random import Random

from app.kernel.commands import Refused

MAX_POOL = 30
MAX_PUSHES = 30  # Z-FULL-AUTO: "again and again", until the bullets run out


def bane_faces(success_faces: list[int]) -> set[int]:
    """Z-PUSH: a 1 stays when the roll is pushed (and costs the roller, Z-PUSH-COST)."""
    return {1} - set(success_faces)


def die_success(success_faces: list[int], pushes: int = 0) -> Fraction:
    """One die's chance to end on a success after `pushes` re-rolls of what was neither a success
    nor a 1 (Z-PUSH; Z-FULL-AUTO pushes again and again)."""
    s = Fraction(len(set(success_faces)), 6)
    rerolled = 1 - s - Fraction(len(bane_faces(success_faces)), 6)
    return s * sum(rerolled**j for j in range(pushes + 1))


def distribution(dice: int, success_faces: list[int], pushes: int = 0) -> list[Fraction]:
    """P(exactly k successes) for k = 0..dice."""
    p = die_success(success_faces, pushes)
    return [comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)]


def pool_odds(dice: int, success_faces: list[int], pushes: int = 0) -> dict:
    """docs/api.md § Rulesets: p_success (at least one success) and successes_at_least {"k": p}."""
    exact = distribution(dice, success_faces, pushes)
    at_least = {str(k): float(sum(exact[k:])) for k in range(1, dice + 1)}
    return {
        "dice": dice,
        "pushes": pushes,
        "p_success": float(sum(exact[1:])),
        "successes_at_least": at_least,
        "expected_successes": float(dice * die_success(success_faces, pushes)),
    }


def policy_distribution(
    dice: int, success_faces: list[int], policy: str, max_pushes: int, again: bool = False
) -> list[Fraction]:
    """P(exactly k successes) for an NPC that pushes by the house policy (Z-PUSH-CHOICE): "never",
    "no_success" (only a roll with no success) or "always" (the first push whatever it shows).
    `again` (Z-FULL-AUTO): it pushes again while it has no success, up to `max_pushes` in all.
    A die ends a roll a success (s), a 1 (o, kept) or another face (r, rolled again)."""
    s = Fraction(len(set(success_faces)), 6)
    o = Fraction(len(bane_faces(success_faces)), 6)
    r = 1 - s - o
    out = [Fraction(0)] * (dice + 1)
    for a, c, p in split(dice, s, o, r):
        if c and max_pushes and (policy == "always" or (policy == "no_success" and a == 0)):
            for k, q in enumerate(_from_nothing(c, max_pushes, s, o, r, again) if a == 0 else
                                  [comb(c, k) * s**k * (1 - s) ** (c - k) for k in range(c + 1)]):
                out[a + k] += p * q
        else:
            out[a] += p
    return out


def split(n: int, s: Fraction, o: Fraction, r: Fraction):
    """(successes, dice to roll again, probability) of n dice rolled once (the 1s are the rest)."""
    for a in range(n + 1):
        for c in range(n - a + 1):
            b = n - a - c
            ways = Fraction(factorial(n), factorial(a) * factorial(b) * factorial(c))
            yield a, c, ways * s**a * o**b * r**c


@lru_cache(maxsize=2048)  # the same cards are drawn at every render of the round
def _from_nothing(
    c: int, left: int, s: Fraction, o: Fraction, r: Fraction, again: bool
) -> tuple[Fraction, ...]:
    """Successes from pushing c dice with none so far; full auto pushes again while none come.
    Push by push: the chance of having m dice still to roll and no success; a push that brings
    successes stops (binomial), one that brings none leaves some dice to roll again (the rest 1s).
    Exact in whole numbers over 6^(c · pushes) (faces counted, no fractions until the end)."""
    sn, on, rn = (int(x * 6) for x in (s, o, r))
    steps = left if again else 1
    out = [0] * (c + 1)  # numerators over 6^(c · steps)
    live = {c: 1}  # numerators over 6^(c · pushes so far)
    for j in range(steps):
        after: dict[int, int] = {}
        later = 6 ** (c * (steps - j - 1))  # brings this push's outcomes to the final denominator
        for m, p in live.items():
            p *= 6 ** (c - m)  # the dice not rolled again, so every outcome is over 6^c
            for k in range(1, m + 1):
                out[k] += p * comb(m, k) * sn**k * (6 - sn) ** (m - k) * later
            for m2 in range(m + 1):
                after[m2] = after.get(m2, 0) + p * comb(m, m2) * on ** (m - m2) * rn**m2
        out[0] += after.pop(0, 0) * later
        live = after
    out[0] += sum(live.values())
    return tuple(Fraction(n, 6 ** (c * steps)) for n in out)


def odds_of(exact: list[Fraction], pushes: int) -> dict:
    """docs/api.md § Rulesets shape from an exact distribution."""
    dice = len(exact) - 1
    return {
        "dice": dice,
        "pushes": pushes,
        "p_success": float(sum(exact[1:])),
        "successes_at_least": {str(k): float(sum(exact[k:])) for k in range(1, dice + 1)},
        "expected_successes": float(sum(k * p for k, p in enumerate(exact))),
    }


@dataclass(frozen=True)
class PoolRoll:
    """A rolled pool: the faces of the first roll and of each push (Z-PUSH)."""

    rolls: tuple[tuple[int, ...], ...]
    success_faces: tuple[int, ...]
    by: str = "app"

    @property
    def faces(self) -> tuple[int, ...]:
        return self.rolls[-1]

    @property
    def successes(self) -> int:
        return sum(1 for f in self.faces if f in self.success_faces)

    @property
    def banes(self) -> int:
        """1s showing after a push (Z-PUSH-COST); none on an unpushed roll."""
        return (
            sum(1 for f in self.faces if f == 1 and f not in self.success_faces) if len(self.rolls) > 1 else 0
        )

    def as_dict(self) -> dict:
        """As a log entry's dice (the shape every ruleset's log stores: commands.DiceRecord): every
        face with the roll it came from ("first", "push 1"…), the successes and a summary."""
        pushes = len(self.rolls) - 1
        said = f"{self.successes} success{'es' if self.successes != 1 else ''}"
        return {
            "by": self.by,
            "faces": [{"roll": "first" if i == 0 else f"push {i}", "face": f}
                      for i, roll in enumerate(self.rolls) for f in roll],
            "successes": self.successes,
            "pushes": pushes,
            "result": said + (f" after {pushes} push{'es' if pushes != 1 else ''}" if pushes else ""),
        }


def roll(dice: int, success_faces: list[int], rng: Random, entered: list[int] | None = None) -> PoolRoll:
    """The pool rolled by the app, or the faces the player entered (as many as the pool's dice)."""
    if entered is not None and len(entered) != dice:
        raise Refused(f"The pool has {dice} dice: enter {dice} faces.", "Z-DICE")
    faces = tuple(entered) if entered is not None else tuple(rng.randint(1, 6) for _ in range(dice))
    return PoolRoll((faces,), tuple(success_faces), "entered" if entered is not None else "app")


def push(pool: PoolRoll, rng: Random, entered: list[int] | None = None) -> PoolRoll:
    """Z-PUSH: every die that shows neither a success nor a 1 is rolled once more (`entered`: the
    new faces of those dice, in order)."""
    keep = set(pool.success_faces) | bane_faces(list(pool.success_faces))
    if entered is not None and len(entered) != rerolled_count(pool):
        raise Refused(f"The push re-rolls {rerolled_count(pool)} dice: enter that many faces.", "Z-PUSH")
    again = iter(entered) if entered is not None else None
    faces = tuple(
        f if f in keep else (next(again) if again is not None else rng.randint(1, 6)) for f in pool.faces
    )
    return PoolRoll((*pool.rolls, faces), pool.success_faces, "entered" if entered is not None else pool.by)


def rerolled_count(pool: PoolRoll) -> int:
    """How many dice a push of this pool rolls again (the faces a player must enter)."""
    keep = set(pool.success_faces) | bane_faces(list(pool.success_faces))
    return sum(1 for f in pool.faces if f not in keep)


def stand_in_faces(success_faces: list[int], successes: int, ones: int, rest: int) -> list[int]:
    """Faces standing for dice told as counts (Z-PUSH-AFTER): a success face, a 1, and a face that
    is neither (the one a push rolls again)."""
    banes = bane_faces(success_faces)
    other = [f for f in range(2, 7) if f not in success_faces]
    if ones and not banes:
        raise Refused("A 1 is a success at this table: count it among the successes.", "Z-DICE")
    if rest and not other:
        raise Refused("Every face but 1 is a success at this table: count each die.", "Z-DICE")
    return [max(success_faces)] * successes + [1] * ones + ([other[0]] * rest if rest else [])


def from_counts(dice: int, success_faces: list[int], successes: int, ones: int) -> PoolRoll:
    """The player's roll told as its successes and its 1s (the faces that matter)."""
    if successes + ones > dice:
        raise Refused(f"{successes} successes and {ones} ones do not fit in {dice} dice.", "Z-DICE")
    faces = stand_in_faces(success_faces, successes, ones, dice - successes - ones)
    return PoolRoll((tuple(faces),), tuple(success_faces), "entered")


def push_counts(pool: PoolRoll, successes: int, ones: int) -> list[int]:
    """The re-rolled dice's faces for a push told as the pool's new totals of successes and 1s."""
    before = pool.successes
    ones_before = sum(1 for f in pool.faces if f in bane_faces(list(pool.success_faces)))
    new_s, new_o, n = successes - before, ones - ones_before, rerolled_count(pool)
    if new_s < 0 or new_o < 0 or new_s + new_o > n:
        raise Refused(
            f"A push keeps the {before} successes and {ones_before} ones and re-rolls {n} dice: "
            f"after it, successes are {before} to {before + n}.", "Z-PUSH")
    return stand_in_faces(list(pool.success_faces), new_s, new_o, n - new_s - new_o)
