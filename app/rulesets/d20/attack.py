"""One attack of the d20 combat reference: its bonus (D20-ATTACK-MELEE/-RANGED/-TECH), the
situation (range, cover, conditions: D20-RANGE, D20-COVER, D20-COND-*), exact odds, and the roll
resolved against DEF (D20-ATTACK-ROLL, D20-CRIT, D20-GLITCH, D20-DAMAGE).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.rulesets.d20.dice import roll_d20, roll_dice
from app.rulesets.d20.models import Combatant, HouseRules, Weapon
from app.rulesets.d20.odds import HOUSE, AttackOdds, attack_odds, effective, outcome

# The skill and attribute of each attack line (the reference's "Attacks" section).
SKILL_OF = {"melee": "blade_waltz", "ranged": "arrow_time", "tech": "timebender"}
RULE_OF = {"melee": "D20-ATTACK-MELEE", "ranged": "D20-ATTACK-RANGED", "tech": "D20-ATTACK-TECH"}


def attack_attribute(weapon: Weapon) -> str:
    """Melee: Agility if finesse else Vigor; ranged: Agility; tech: Insight."""
    if weapon.kind == "melee":
        return "agility" if weapon.finesse else "vigor"
    return "agility" if weapon.kind == "ranged" else "insight"


def damage_attribute(weapon: Weapon, house: HouseRules = HOUSE) -> str | None:
    """D20-DAMAGE: melee adds Vigor (strength-based) or Agility (finesse); ranged the house
    default (Agility); tech effects add none (their effect says what they do)."""
    if weapon.kind == "melee":
        return attack_attribute(weapon)
    return house.ranged_damage_attribute if weapon.kind == "ranged" else None


def attack_bonus(attacker: Combatant, weapon: Weapon) -> tuple[int, tuple[tuple[str, int], ...]]:
    """d20 + skill + attribute + PB + item (tech: no item), with the parts named for the card."""
    skill, attribute = SKILL_OF[weapon.kind], attack_attribute(weapon)
    parts = [(skill.replace("_", " ").title(), attacker.skill(skill)),
             (attribute.title(), attacker.attribute(attribute)), ("PB", attacker.pb)]
    if weapon.kind != "tech":
        parts.append((weapon.name, weapon.bonus))
    return sum(v for _, v in parts), tuple(parts)


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything that bends one attack: the effective numbers and why (text, rule id)."""

    bonus: int
    defense: int
    range: str
    cover: str
    mode: str  # normal | edge | hindrance
    notes: tuple[tuple[str, str], ...] = field(default=())

    def odds(self, house: HouseRules = HOUSE) -> AttackOdds:
        return attack_odds(self.bonus, self.defense, self.range, self.cover, self.mode, house)


def condition_modifiers(attacker: Combatant, target: Combatant, weapon: Weapon,
                        house: HouseRules) -> tuple[int, int, int, list[tuple[str, str]]]:
    """(bonus change, edges, hindrances, notes) from the common conditions (D20-COND-*)."""
    bonus, edges, hindrances, notes = 0, 0, 0, []
    melee = weapon.kind == "melee"
    if attacker.has("blinded"):
        if melee:
            hindrances += 1
            notes.append((f"{attacker.name} is Blinded: Hindrance", "D20-COND-BLINDED"))
        else:
            bonus -= 4
            notes.append((f"{attacker.name} is Blinded: ranged -4", "D20-COND-BLINDED"))
    if attacker.has("grappled") or attacker.has("restrained"):
        hindrances += 1
        notes.append((f"{attacker.name} is Grappled/Restrained: attack Hindrance", "D20-COND-GRAPPLED"))
    if attacker.has("poisoned") and house.poisoned_attacks:
        bonus -= 2
        notes.append((f"{attacker.name} is Poisoned: -2", "D20-COND-POISONED"))
    if target.has("prone"):
        if melee:
            edges += 1
            notes.append((f"{target.name} is Prone: melee attackers gain Edge", "D20-COND-PRONE"))
        else:
            bonus -= 2
            notes.append((f"{target.name} is Prone: ranged attacks at -2", "D20-COND-PRONE"))
    return bonus, edges, hindrances, notes


def situation(attacker: Combatant, weapon: Weapon, target: Combatant, range_: str = "short",
              cover: str = "none", house: HouseRules = HOUSE) -> Situation:
    """Melee ignores range and cover (they are the reference's Ranged rules); Edge and Hindrance
    cancel one for one (D20-EDGE)."""
    base, _ = attack_bonus(attacker, weapon)
    if weapon.kind == "melee":
        range_, cover = "short", "none"
    change, edges, hindrances, notes = condition_modifiers(attacker, target, weapon, house)
    mode = "edge" if edges > hindrances else "hindrance" if hindrances > edges else "normal"
    if range_ == "long":
        notes.append(("beyond Short to Long: -2", "D20-RANGE"))
    if cover != "none":
        notes.append((f"{cover} cover: DEF +{effective(0, 0, 'short', cover)[1]}"
                      + (", no critical" if cover == "heavy" else ""), "D20-COVER"))
    return Situation(base + change, target.defense, range_, cover, mode, tuple(notes))


@dataclass(frozen=True, slots=True)
class AttackResult:
    natural: int
    faces: tuple[int, ...]
    total: int
    defense: int
    hit: bool
    critical: bool
    glitch: bool
    damage: int
    damage_faces: tuple[int, ...]
    reason: str
    rule: str


def resolve_attack(attacker: Combatant, weapon: Weapon, target: Combatant, where: Situation,
                   rng: random.Random, natural: int | None = None, damage: int | None = None,
                   house: HouseRules = HOUSE) -> AttackResult:
    """Roll (or take the entered natural die and damage) and compare with DEF."""
    if where.range == "beyond":
        return AttackResult(0, (), 0, where.defense, False, False, False, 0, (),
                            f"{target.name} is past {weapon.name}'s Long range: no shot.", "D20-RANGE")
    faces: tuple[int, ...] = (natural,) if natural is not None else ()
    if natural is None:
        natural, faces = roll_d20(rng, where.mode)
    bonus, defense = effective(where.bonus, where.defense, where.range, where.cover)
    hit, critical, glitch = outcome(natural, bonus, defense, where.cover, house)
    total = natural + bonus
    amount, rolled = (damage, ()) if damage is not None else (0, ())
    if hit and damage is None:
        dice = weapon.dice.doubled() if critical else weapon.dice
        amount, rolled = roll_dice(dice, rng)
        amount = max(amount + attacker.attribute(damage_attribute(weapon, house)), house.min_damage)
    reason, rule = describe(attacker, weapon, target, natural, total, defense, hit, critical, glitch, amount)
    return AttackResult(natural, faces, total, defense, hit, critical, glitch, amount if hit else 0,
                        rolled, reason, rule)


def describe(attacker: Combatant, weapon: Weapon, target: Combatant, natural: int, total: int,
             defense: int, hit: bool, critical: bool, glitch: bool, amount: int) -> tuple[str, str]:
    line = f"{attacker.name} rolls {natural} on the d20, {total} in all against DEF {defense}"
    if glitch:
        return (f"{line}: a natural 1 misses and {attacker.name} suffers a Glitch.", "D20-GLITCH")
    if critical:
        return (f"{line}: a natural 20, a critical: double damage dice, {amount} damage to "
                f"{target.name}.", "D20-CRIT")
    if hit:
        return f"{line}: a hit with {weapon.name}, {amount} damage to {target.name}.", "D20-DAMAGE"
    return f"{line}: a miss.", RULE_OF[weapon.kind]
