"""The Core roll comparison that melee (combat.py) and shooting (shooting.py) share.

Its own module so that both import it and neither imports the other (no import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.rulesets.potham2038.dice import Roll

Outcome = Literal["damage", "tie", "defended"]


def marked_target_bonus(marked_stacks: int, has_marked_target: bool) -> int:
    """R-MARKED-TARGET: Marked alone gives nothing; Marked Target adds +1 per stack on the target."""
    return marked_stacks if has_marked_target else 0


@dataclass(frozen=True)
class Comparison:
    """The Core roll comparison of one attack (R-CMB-ROLL, R-CMB-DAMAGE)."""

    attack_total: int
    defense_total: int
    outcome: Outcome
    damage: int


def compare(attack: Roll, defense: Roll, attack_bonus: int = 0, defense_bonus: int = 0) -> Comparison:
    """Attack total = Hits (Criticals included) + bonus, likewise Defense. Attack > Defense deals
    the difference, +1 in total if the attacker rolled any Critical (R-CMB-DAMAGE); equal is a tie."""
    attack_total = attack.hits + attack_bonus
    defense_total = defense.hits + defense_bonus
    if attack_total > defense_total:
        damage = attack_total - defense_total + (1 if attack.criticals else 0)
        return Comparison(attack_total, defense_total, "damage", damage)
    if attack_total == defense_total:
        return Comparison(attack_total, defense_total, "tie", 0)
    return Comparison(attack_total, defense_total, "defended", 0)


def damage_words(margin: int, critical: bool) -> str:
    """R-CMB-DAMAGE in words a player can check: "1 + 1 for a Critical = 2 damage", or "2 damage"."""
    if critical:
        return f"{margin} + 1 for a Critical = {margin + 1} damage"
    return f"{margin} damage"
