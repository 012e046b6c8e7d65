"""The pool knows its dice (Z-POOL): base dice (the attribute), skill dice and gear dice, kept
apart, and what a push costs on each (Z-PUSH-COST, Z-GEAR). Pure.

A sheet gives a skill's pool as a total, "attribute + skill" (Fight with Strength, Shoot with
Agility): the base dice are the attribute as trauma left it (never more than the total), the
skill dice what the total has beyond the attribute's score; a weapon's bonus is gear dice. A pool
typed as a bare number is all skill dice. The faces are always in that order: base, skill, gear.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.kernel.commands import Entry
from app.rulesets.zone.combat import take_trauma
from app.rulesets.zone.dice import PoolRoll, bane_faces
from app.rulesets.zone.models import Person, Weapon

ATTRIBUTE = {"fight": ("strength", "damage"), "shoot": ("agility", "fatigue")}  # Z-POOL, Z-TRAUMA


@dataclass(frozen=True)
class Parts:
    base: int = 0
    skill: int = 0
    gear: int = 0

    @property
    def total(self) -> int:
        return self.base + self.skill + self.gear

    def said(self) -> str:
        kinds = [(self.base, "base"), (self.skill, "skill"), (self.gear, "gear")]
        return ", ".join(f"{n} {k}" for n, k in kinds if n) or "no dice"


def sheet_parts(person: Person, kind: str, total: int, bonus: int) -> Parts:
    """Z-POOL: a sheet's "attribute + skill" total split into base and skill dice, + gear."""
    attribute, track = ATTRIBUTE[kind]
    full = getattr(person.attributes, attribute)
    return Parts(base=min(person.score(track), total), skill=max(0, total - full), gear=bonus)  # type: ignore[arg-type]


def ones(pool: PoolRoll, parts: Parts) -> tuple[int, int]:
    """The 1s showing on the base dice and on the gear dice."""
    banes = bane_faces(list(pool.success_faces))
    faces = pool.faces
    gear = faces[len(faces) - parts.gear:] if parts.gear else ()
    return sum(f in banes for f in faces[:parts.base]), sum(f in banes for f in gear)


def pay(person: Person, kind: str, parts: Parts, pool: PoolRoll, paid: tuple[int, int], weapon: Weapon | None,
        entries: list[Entry]) -> tuple[Person, Weapon | None, tuple[int, int]]:
    """Z-PUSH-COST: after a push, each 1 on a base die is one point of trauma to the attribute
    rolled (Fight: damage, Shoot: fatigue); Z-GEAR: each 1 on a gear die lowers the weapon's bonus
    by one ("the weapon risks being damaged every time you re-roll"), broken at nothing. Pushed
    again (full auto), only the 1s not yet paid for cost. Answers the person, the weapon and the
    1s paid so far."""
    base_ones, gear_ones = ones(pool, parts)
    new_base, new_gear = base_ones - paid[0], gear_ones - paid[1]
    if new_base > 0:
        person, said = take_trauma(person, ATTRIBUTE[kind][1], new_base)  # type: ignore[arg-type]
        entries.extend(Entry(e.text + " (a 1 on a base die after the push)", "Z-PUSH-COST")
                       if e.rule == "Z-TRAUMA"
                       else e for e in said)
    if new_gear > 0:
        weapon, said = worn(weapon, new_gear, person.name)
        entries.append(said)
    return person, weapon, (max(base_ones, paid[0]), max(gear_ones, paid[1]))


def worn(weapon: Weapon | None, points: int, who: str) -> tuple[Weapon | None, Entry]:
    if weapon is None:
        return None, Entry(f"{points} gear {'die shows' if points == 1 else 'dice show'} a 1 after the push: "
                           f"{who}'s gear is damaged (yours to mark).", "Z-GEAR")
    bonus = max(0, weapon.bonus - points)
    broken = weapon.bonus > 0 and bonus == 0
    text = f"{who}'s {weapon.name} is damaged: its bonus {weapon.bonus} → {bonus}"
    text += " — it breaks." if broken else "."
    worn_out = weapon.model_copy(update={"bonus": bonus, "broken": weapon.broken or broken})
    return worn_out, Entry(text, "Z-GEAR")
