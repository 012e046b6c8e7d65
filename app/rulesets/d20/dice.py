"""Dice of the d20 combat reference: the d20 itself and damage dice such as `2d6+1`.

Exact distributions are dicts value -> Fraction, built by enumeration (convolution of one die
at a time), never by sampling. Rolling takes an injected `random.Random` (reproducible games).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

D20 = range(1, 21)
DICE_TEXT = re.compile(r"^\s*(\d{1,2})\s*d\s*(\d{1,3})\s*(?:([+-])\s*(\d{1,3}))?\s*$", re.IGNORECASE)
ALLOWED_SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)

Distribution = dict[int, Fraction]


@dataclass(frozen=True, slots=True)
class Dice:
    """`count` dice of `sides` faces plus a flat `bonus` (a weapon's own `+1`)."""

    count: int
    sides: int
    bonus: int = 0

    def __str__(self) -> str:
        flat = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{flat}"

    def doubled(self) -> Dice:
        """D20-CRIT: a critical doubles the damage dice, not the flat bonus."""
        return Dice(self.count * 2, self.sides, self.bonus)


def parse_dice(text: str) -> Dice:
    """'1d8', '2d6+1', '1d4-1' -> Dice; anything else is a ValueError (the edge turns it into a 422)."""
    found = DICE_TEXT.match(text)
    if not found:
        raise ValueError(f"{text!r} is not dice like 1d8 or 2d6+1")
    count, sides = int(found[1]), int(found[2])
    if not 1 <= count <= 20 or sides not in ALLOWED_SIDES:
        raise ValueError(f"{text!r}: 1 to 20 dice of {', '.join(map(str, ALLOWED_SIDES))} sides")
    bonus = int(found[4] or 0) * (-1 if found[3] == "-" else 1)
    return Dice(count, sides, bonus)


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    out: Distribution = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def dice_distribution(dice: Dice, flat: int = 0) -> Distribution:
    """Exact distribution of `dice` + `flat` (the attribute added to damage, D20-DAMAGE): a new
    dict each time, from the convolution made once per dice and flat (a brain weighing its
    weapons asked for the same few dozens of times per decision)."""
    return dict(_distribution(dice, flat))


@lru_cache(maxsize=256)
def _distribution(dice: Dice, flat: int) -> tuple[tuple[int, Fraction], ...]:
    one = {face: Fraction(1, dice.sides) for face in range(1, dice.sides + 1)}
    total: Distribution = {dice.bonus + flat: Fraction(1)}
    for _ in range(dice.count):
        total = convolve(total, one)
    return tuple(total.items())


def d20_kept(mode: str) -> Distribution:
    """The natural d20 that counts: one die, or two keeping the higher (Edge) or the lower
    (Hindrance) — D20-EDGE, a house default for the Core rule the reference leans on."""
    if mode == "edge":
        return {k: Fraction(2 * k - 1, 400) for k in D20}
    if mode == "hindrance":
        return {k: Fraction(41 - 2 * k, 400) for k in D20}
    return {k: Fraction(1, 20) for k in D20}


def roll_d20(rng: random.Random, mode: str = "normal") -> tuple[int, tuple[int, ...]]:
    """(the natural die kept, every die rolled)."""
    if mode == "normal":
        face = rng.randint(1, 20)
        return face, (face,)
    faces = (rng.randint(1, 20), rng.randint(1, 20))
    return (max(faces) if mode == "edge" else min(faces)), faces


def roll_dice(dice: Dice, rng: random.Random) -> tuple[int, tuple[int, ...]]:
    """(the sum with the dice's own bonus, the faces)."""
    faces = tuple(rng.randint(1, dice.sides) for _ in range(dice.count))
    return sum(faces) + dice.bonus, faces
