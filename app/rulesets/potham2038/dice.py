"""Dice: face tables, pools, rolls (by the app or entered from physical dice) and exact odds.

The Core dice faces are not in the seeds, so they are *house* rules (rules.md § Dice): a game's
`HouseRules.dice_faces` maps a colour to its list of faces, one entry per side. For attack and
Defense dice a face reads as follows (R-CMB-ROLL):
  "hit"       one Hit;
  "critical"  one Hit that is also a Critical ("a Critical face is also a Hit");
  anything else (e.g. "blank", or the Black Die's "success") no Hit.
Randomness only through an injected `random.Random`, so a game's seed reproduces every roll.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from typing import Literal

from app.rulesets.potham2038.house_rules import default_faces

MAX_DICE = 40  # per pool: more is not a real roll and would only make the odds slow

Faces = dict[str, list[str]]
Pool = dict[str, int]

HIT_FACES = frozenset({"hit", "critical"})
CRITICAL_FACES = frozenset({"critical"})


# --- pools ---------------------------------------------------------------------------------

_TERM = re.compile(r"^\s*(\d+)?\s*([^\d\s][\w ]*?)\s*$")


def _faces(faces: Faces | None) -> Faces:
    return default_faces() if faces is None else faces


def validate_pool(pool: Pool, faces: Faces | None = None) -> Pool:
    """The pool without zero counts, or ValueError for an unknown colour or too many dice."""
    table = _faces(faces)
    clean: Pool = {}
    for colour, count in pool.items():
        key = colour.strip().lower()
        if key not in table:
            raise ValueError(f"unknown dice colour {colour!r} (known: {', '.join(sorted(table))})")
        if not isinstance(count, int) or count < 0:
            raise ValueError(f"the number of {key} dice must be a whole number ≥ 0, not {count!r}")
        if count:
            clean[key] = clean.get(key, 0) + count
    total = sum(clean.values())
    if total > MAX_DICE:
        raise ValueError(f"a pool holds at most {MAX_DICE} dice, not {total}")
    return clean


def parse_pool(text: str, faces: Faces | None = None) -> Pool:
    """'3 red + 1 white', '3 Red+1 White', '2 red, 1 white', 'red' (one die), '' -> {}."""
    pool: Pool = {}
    for term in re.split(r"[+,&]|\band\b", text or ""):
        if not term.strip():
            continue
        match = _TERM.match(term)
        if match is None:
            raise ValueError(f"cannot read {term.strip()!r} as dice: write it like '3 red + 1 white'")
        count = int(match.group(1) or 1)
        if count > MAX_DICE:  # refuse before adding up huge numbers
            raise ValueError(f"a pool holds at most {MAX_DICE} dice, not {count}")
        colour = match.group(2).strip().lower()
        pool[colour] = pool.get(colour, 0) + count
    return validate_pool(pool, faces)


def pool_text(pool: Pool) -> str:
    """The reverse of `parse_pool`: {'red': 3, 'white': 1} -> '3 red + 1 white'; {} -> ''."""
    return " + ".join(f"{n} {colour}" for colour, n in pool.items() if n)


def pool_size(pool: Pool) -> int:
    return sum(pool.values())


def add_dice(pool: Pool, colour: str, count: int) -> Pool:
    """A new pool with `count` more dice of `colour` (Distracted, Cover)."""
    if count <= 0:
        return dict(pool)
    return {**pool, colour: pool.get(colour, 0) + count}


# --- rolls ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """One rolled pool. `hits` counts every Hit face INCLUDING Criticals (R-CMB-ROLL).

    `faces` records each die as (colour, face) when the app rolled it; `by` says who rolled:
    "app" or "entered" (read off physical dice).
    """

    hits: int
    criticals: int
    faces: tuple[tuple[str, str], ...] = field(default=())
    by: Literal["app", "entered"] = "entered"

    def __post_init__(self) -> None:
        if self.hits < 0 or self.criticals < 0:
            raise ValueError("hits and criticals must be ≥ 0")
        if self.criticals > self.hits:
            raise ValueError(
                f"criticals ({self.criticals}) cannot exceed hits ({self.hits}): a Critical is also a Hit"
            )

    def as_dict(self) -> dict:
        return {
            "hits": self.hits,
            "criticals": self.criticals,
            "faces": [{"colour": c, "face": f} for c, f in self.faces],
            "by": self.by,
        }


def entered_roll(hits: int, criticals: int = 0) -> Roll:
    """A roll read off physical dice; ValueError if criticals > hits or a count is negative."""
    return Roll(hits=int(hits), criticals=int(criticals), by="entered")


def roll_pool(pool: Pool, rng: random.Random, faces: Faces | None = None) -> Roll:
    """Roll every die of the pool, colours in the face table's order (so '3 red + 1 white' and
    '1 white + 3 red' roll alike from the same seed), and record each face."""
    table = _faces(faces)
    clean = validate_pool(pool, table)
    rolled: list[tuple[str, str]] = []
    for colour in (c for c in table if c in clean):
        rolled.extend((colour, rng.choice(table[colour])) for _ in range(clean[colour]))
    hits = sum(1 for _, f in rolled if f in HIT_FACES)
    criticals = sum(1 for _, f in rolled if f in CRITICAL_FACES)
    return Roll(hits=hits, criticals=criticals, faces=tuple(rolled), by="app")


def roll_black_die(rng: random.Random, faces: Faces | None = None) -> str:
    """One Black Die: 'success' or 'blank' (R-CMB-TARGET, R-CMB-AMMO, R-HACK)."""
    table = _faces(faces)
    if "black" not in table:
        raise ValueError("this game's dice have no Black Die")
    return rng.choice(table["black"])


# --- exact odds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Odds:
    """Exact outcome distribution of one attack.

    p_damage + p_tie + p_defended == 1. A tie in melee means Push Back (R-CMB-TIE); a Shoot
    tie does no damage and is still counted in `p_tie`, so the three always add up.
    `damage_at_least[k]` = P(damage >= k) for k = 1 .. the largest possible damage.
    """

    p_damage: float
    p_tie: float
    p_defended: float
    damage_at_least: dict[int, float]
    expected_damage: float

    def as_dict(self) -> dict:
        return {
            "p_damage": self.p_damage,
            "p_tie": self.p_tie,
            "p_defended": self.p_defended,
            "damage_at_least": {str(k): v for k, v in self.damage_at_least.items()},
            "expected_damage": self.expected_damage,
        }


def _convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _binomial(n: int, p: float) -> list[float]:
    """P(k successes of n) for k = 0..n: the generating function (1 - p + p·x)^n."""
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def hit_distribution(pool: Pool, faces: Faces | None = None) -> tuple[list[float], list[float]]:
    """(P(h hits), P(h hits and no Critical)) for h = 0..dice, by per-colour generating functions.

    P(h hits and at least one Critical) is the difference of the two.
    """
    table = _faces(faces)
    total, no_crit = [1.0], [1.0]
    for colour, n in validate_pool(pool, table).items():
        sides = table[colour]
        p_hit = sum(f in HIT_FACES for f in sides) / len(sides)
        p_plain = sum(f in HIT_FACES and f not in CRITICAL_FACES for f in sides) / len(sides)
        p_blank = 1 - p_hit
        total = _convolve(total, _binomial(n, p_hit))
        # no Critical: each die is Blank (p_blank) or a plain Hit (p_plain), never a Critical
        plain_only = [math.comb(n, k) * p_plain**k * p_blank ** (n - k) for k in range(n + 1)]
        no_crit = _convolve(no_crit, plain_only)
    return total, no_crit


def attack_odds(
    attack_pool: Pool,
    defense_pool: Pool,
    faces: Faces | None = None,
    attack_bonus: int = 0,
    defense_bonus: int = 0,
    melee: bool = True,
) -> Odds:
    """Exact odds of one attack (R-CMB-ROLL, R-CMB-DAMAGE), no sampling.

    Attack total = Hits + attack_bonus, Defense total = Hits + defense_bonus. Attack > Defense:
    damage = the difference, +1 if the attacker rolled any Critical. Equal totals: a tie
    (melee: Push Back; Shoot: no damage, also counted in p_tie).
    """
    atk_total, atk_plain = hit_distribution(attack_pool, faces)
    def_total, _ = hit_distribution(defense_pool, faces)
    # P(defense hits >= d), summed from the top: exactly 0.0 where no such roll can happen
    def_tail = [0.0] * (len(def_total) + 1)
    for d in range(len(def_total) - 1, -1, -1):
        def_tail[d] = def_tail[d + 1] + def_total[d]
    p_tie = p_win = p_lose = 0.0
    damage: dict[int, float] = {}
    for a, p_a in enumerate(atk_total):
        if not p_a:
            continue
        p_crit = max(p_a - atk_plain[a], 0.0)  # float subtraction may dip below 0
        margin_base = a + attack_bonus - defense_bonus  # the margin over 0 defense hits
        for d, p_d in enumerate(def_total):
            margin = margin_base - d
            if margin == 0:
                p_tie += p_a * p_d
            elif margin > 0:
                p_win += p_a * p_d
                damage[margin] = damage.get(margin, 0.0) + atk_plain[a] * p_d
                damage[margin + 1] = damage.get(margin + 1, 0.0) + p_crit * p_d
            else:  # this and every higher defense roll defends
                p_lose += p_a * def_tail[d]
                break
    return _odds(p_win, p_tie, p_lose, damage)


def _sure(p: float, *others: float) -> float:
    """1.0 when every other outcome is impossible (exactly 0.0), else p capped at 1."""
    return min(p, 1.0) if any(others) else 1.0


def _odds(p_win: float, p_tie: float, p_lose: float, damage: dict[int, float]) -> Odds:
    """Impossible is exactly 0.0 and certain exactly 1.0, never float residue such as 1.1e-16
    (it read "<1%"): each outcome is summed from its own terms, so one that cannot
    happen sums nothing; one is certain exactly when the other two cannot happen."""
    p_win, p_tie, p_lose = (_sure(p_win, p_tie, p_lose), _sure(p_tie, p_win, p_lose),
                            _sure(p_lose, p_win, p_tie))
    top = max((k for k, p in damage.items() if p > 0), default=0)
    low = min((k for k, p in damage.items() if p > 0), default=0)
    sure_up_to = 0 if p_tie or p_lose else low  # a certain win deals at least its lowest damage
    at_least: dict[int, float] = {}
    running = 0.0
    for k in range(top, 0, -1):  # P(damage >= k), summed from the top so it never rises with k
        running += damage.get(k, 0.0)
        at_least[k] = 1.0 if k <= sure_up_to else min(running, 1.0)
    return Odds(
        p_damage=p_win,
        p_tie=p_tie,
        p_defended=p_lose,
        damage_at_least=dict(sorted(at_least.items())),
        expected_damage=sum(k * p for k, p in damage.items()),
    )
