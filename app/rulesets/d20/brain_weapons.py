"""D20-BRAIN-WEAPON: an NPC compares what its weapons offer from where it stands and from where
its Move can take it, and takes the attack with the highest expected damage (an
archer walked next to its target and punched it at 45% for 1.25 instead of shooting at 75%
for 5.85).

Expected damage is exact (odds.damage_odds over the kept d20 and every damage die). When the
player gave no DEF for the target, the weapons are compared over every DEF from 10 to 20 alike:
a ranking only, never shown as the odds of the attack (those wait for the DEF, D20-FACTS).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from app.rulesets.d20.attack import damage_attribute, situation
from app.rulesets.d20.brain_types import Facts
from app.rulesets.d20.models import UNARMED, Combatant, Weapon
from app.rulesets.d20.odds import damage_odds, expected

if TYPE_CHECKING:
    from app.rulesets.d20.brain_plan import Plan

UNKNOWN_DEF = range(10, 21)  # a ranking over DEFs alike, not a guess of this target's DEF


@dataclass(frozen=True, slots=True)
class Option:
    """One way to attack a Character this turn: the weapon, its range band, the squares to Move
    first and the exact expected damage."""

    weapon: Weapon
    band: str  # short | long
    move: int
    worth: Fraction
    melee: bool


def worth(plan: Plan, weapon: Weapon, c: Facts, band: str) -> Fraction:
    """The exact expected damage of one attack (D20-ATTACK-ROLL, D20-DAMAGE, D20-CRIT; Prone and
    cover bend it as they bend the attack)."""
    stats, house = plan.npc.stats, plan.house
    flat = stats.attribute(damage_attribute(weapon, house))
    defenses = [c.defense] if c.defense is not None else list(UNKNOWN_DEF)
    total = Fraction(0)
    for defense in defenses:
        target = Combatant(c.name, defense=defense, conditions=("prone",) if c.prone else ())
        odds = situation(stats, weapon, target, band, c.cover, house).odds(house)
        total += expected(damage_odds(odds, weapon.dice, flat, house))
    return total / len(defenses)


def at_hand(plan: Plan, weapon: Weapon) -> bool:
    """In hand, or drawn with a Minor still free (D20-MINOR-DRAW)."""
    return plan.in_hand in (None, weapon.name) or plan.minor_free


def melee_weapon(plan: Plan) -> Weapon:
    """The best melee weapon at hand against nobody in particular: the first one listed, else an
    unarmed strike (models.UNARMED)."""
    return next((w for w in plan.npc.stats.weapons if w.kind == "melee" and at_hand(plan, w)), UNARMED)


def shot_options(plan: Plan, c: Facts, can_move: bool) -> list[Option]:
    """Each ranged or tech weapon at hand, at Short or Long: from here, or after the Move that
    brings `c` into that band without ending next to it (the NPC keeps its distance)."""
    if not c.line_of_sight:
        return []
    away, reach, left = plan.now(c), plan.house.reach, plan.move_left if can_move else 0
    found = []
    for w in plan.npc.stats.weapons:
        if w.kind == "melee" or not at_hand(plan, w):
            continue
        for band, limit in (("short", w.short), ("long", w.long)):
            step = max(away - limit, 0)
            if step <= left and (step == 0 or away - step > reach):
                found.append(Option(w, band, step, worth(plan, w, c, band), False))
    return found


def melee_option(plan: Plan, c: Facts, can_move: bool) -> Option | None:
    """Its melee weapon, after the Move that brings it next to `c` (None: out of reach)."""
    step = max(plan.now(c) - plan.house.reach, 0)
    if step > (plan.move_left if can_move else 0):
        return None
    weapon = melee_weapon(plan)
    return Option(weapon, "short", step, worth(plan, weapon, c, "short"), True)


def best(plan: Plan, c: Facts, can_move: bool = True) -> Option | None:
    """The attack with the highest expected damage; equal ones: the shorter Move, then the shot
    (it keeps its distance)."""
    found = shot_options(plan, c, can_move)
    close = melee_option(plan, c, can_move)
    if close is not None:
        found.append(close)
    return max(found, key=lambda o: (o.worth, -o.move, not o.melee), default=None)


def said(o: Option) -> str:
    band = "" if o.melee else (" at Short range" if o.band == "short" else " at Long range (-2)")
    return f"its {o.weapon.name}{band} (expected damage {float(o.worth):.2f})"
