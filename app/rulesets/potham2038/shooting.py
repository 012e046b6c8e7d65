"""Shoot actions by an AI-Bot or a Character (seed 001, rules.md § Combat).

The flow, as seed 001 orders it: determine the actual target (Black Die when shooting into a
melee), build the Defense pool with Cover, compare the rolls, then check Out of Ammo after any
attacking Critical even if the attack failed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from app.rulesets.potham2038.core_roll import compare, damage_words, marked_target_bonus
from app.rulesets.potham2038.dice import Pool, Roll, add_dice
from app.rulesets.potham2038.house_rules import HouseRules


def shoot_target(
    intended: str,
    intended_health: int,
    melee_with: Sequence[tuple[str, int]],
    black_die: str | None,
    chosen: str | None = None,
) -> tuple[str, list[str]]:
    """R-CMB-TARGET: (actual target, names tied for highest Health, empty when no choice).

    Not in melee: the intended target, no die needed. Success: the intended target. Blank: the
    model in that melee with the highest current Health, the intended target included; on a
    tie the player chooses (`chosen`, one of the tied names), until told otherwise the first
    listed (the intended target first, then `melee_with` in order).
    """
    if not melee_with:
        return intended, []
    if black_die not in ("success", "blank"):
        raise ValueError("shooting into a melee needs the Black Die: 'success' or 'blank'")
    if black_die == "success":
        return intended, []
    candidates = [(intended, intended_health), *melee_with]
    top = max(health for _, health in candidates)
    tied = [name for name, health in candidates if health == top]
    if len(tied) == 1:
        return tied[0], []
    if chosen is not None and chosen not in tied:
        raise ValueError(f"{chosen!r} is not among the models tied for highest Health: {', '.join(tied)}")
    return chosen or tied[0], tied


def defense_pool_with_cover(pool: Pool, cover: str, house: HouseRules | None = None) -> Pool:
    """R-CMB-SHOOT (house): Cover adds dice to the Defense pool, default +1 light, +2 heavy,
    of the colour `house.cover_colour`."""
    house = house or HouseRules()
    return add_dice(pool, house.cover_colour, house.cover_dice.get(cover, 0))


def out_of_ammo(black_die: str) -> bool:
    """R-CMB-AMMO (house): the Out of Ammo check is a Black Die; Blank = out of ammo."""
    if black_die not in ("success", "blank"):
        raise ValueError("the Out of Ammo check needs the Black Die: 'success' or 'blank'")
    return black_die == "blank"


@dataclass(frozen=True)
class ShootResult:
    actual_target: str
    ties: list[str]
    attack_total: int
    defense_total: int
    outcome: str  # "damage" | "defended": a Shoot tie does no damage
    damage: int
    out_of_ammo_check: bool  # R-CMB-AMMO: any attacking Critical, even when the attack failed
    reason: str
    rule: str
    attack_bonus: int = 0
    redirected: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


def resolve_shoot(
    shooter: str,
    intended: str,
    intended_health: int,
    attack: Roll,
    defense: Roll,
    *,
    melee_with: Sequence[tuple[str, int]] = (),
    black_die: str | None = None,
    marked: Mapping[str, int] | None = None,
    marked_target: bool = False,
    chosen: str | None = None,
) -> ShootResult:
    """One Shoot. `defense` is the actual target's roll (decide it first with `shoot_target`).

    `marked`: Marked stacks by model name; they count only for an AI-Bot shooter with Marked
    Target, and only those on the actual target (R-MARKED-TARGET). Cover and Distracted dice
    belong in the pools before rolling (`defense_pool_with_cover`, `attack_pool_against`).
    """
    actual, ties = shoot_target(intended, intended_health, melee_with, black_die, chosen)
    bonus = marked_target_bonus((marked or {}).get(actual, 0), marked_target)
    result = compare(attack, defense, attack_bonus=bonus)
    damage = result.damage if result.outcome == "damage" else 0
    outcome = "damage" if damage else "defended"
    ammo = attack.criticals > 0
    redirected = actual != intended
    said = damage_words(result.attack_total - result.defense_total, ammo) if damage else ""  # R-CMB-DAMAGE
    totals = (result.attack_total, result.defense_total)
    return ShootResult(
        actual_target=actual, ties=ties, attack_total=totals[0], defense_total=totals[1],
        outcome=outcome, damage=damage, out_of_ammo_check=ammo,
        reason=_shoot_reason(shooter, intended, actual, ties, black_die, totals, said, ammo),
        rule="R-CMB-TARGET" if redirected else "R-CMB-DAMAGE", attack_bonus=bonus, redirected=redirected,
    )


def _shoot_reason(
    shooter: str,
    intended: str,
    actual: str,
    ties: list[str],
    black_die: str | None,
    totals: tuple[int, int],
    damage: str,
    ammo: bool,
) -> str:
    """One sentence: where the shot went, how the rolls compared, and the ammo check."""
    attack, defense = totals
    if actual != intended or ties:
        choice = (
            f"; tied with {', '.join(t for t in ties if t != actual)}, the player chooses" if ties else ""
        )
        opening = f"The Black Die shows Blank, so {shooter}'s shot goes to {actual} (highest Health{choice})"
    elif black_die == "success":
        opening = f"The Black Die shows Success, so {shooter} shoots {intended} as intended"
    else:
        opening = f"{shooter} shoots {actual}"
    if damage:
        verdict = f"attack {attack} beats defense {defense}: {damage}"
    elif attack == defense:
        verdict = f"attack {attack} ties defense {defense}, and a Shoot tie does no damage"
    else:
        verdict = f"attack {attack} against defense {defense}, no damage"
    ending = "; a Critical was rolled, so check Out of Ammo." if ammo else "."
    return f"{opening}: {verdict}{ending}"
