"""Damage, Dying and Wounded, stabilising, knock-outs and rests (D20-DYING, D20-DYING-SAVE,
D20-DEAD, D20-STABILIZE, D20-KO, D20-SHORT-REST, D20-LONG-REST).

"At 0 HP: fall Dying 1 and Wounded 1"; on its turn a Dying creature makes a Vigor Save against
DC 10 + Wounded: success stabilises it at 1 HP, failure adds Dying +1, and Dying 4 is Dead. A
drop to 0 by non-lethal intent leaves it Unconscious for 1d4 minutes instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.rulesets.d20.models import Combatant, HouseRules

DEAD_AT = 4
STABILIZE_DC = 12  # Medicine DC 12 (an Action)
HOUSE = HouseRules()


@dataclass(frozen=True, slots=True)
class Change:
    """What happened to a creature, in words, with the rule."""

    combatant: Combatant
    text: str
    rule: str


def take_damage(c: Combatant, amount: int, critical: bool = False, lethal: bool = True,
                house: HouseRules = HOUSE) -> Change:
    """HP down by `amount`; at 0 a lethal drop is Dying 1 and Wounded +1 (D20-DYING), a
    non-lethal one Unconscious (D20-KO). A hit on the Dying adds Dying (house default)."""
    if c.dead or amount <= 0:
        return Change(c, f"{c.name} takes no damage.", "D20-DAMAGE")
    if c.temp_hp > 0:  # D20-TEMP-HP: temporary HP go first, the rest goes on as usual
        soaked = min(c.temp_hp, amount)
        c, amount = replace(c, temp_hp=c.temp_hp - soaked), amount - soaked
        said = f"{c.name}'s temporary HP take {soaked} ({c.temp_hp} left)"
        if amount == 0:
            return Change(c, f"{said}.", "D20-TEMP-HP")
        rest = take_damage(c, amount, critical, lethal, house)
        return Change(rest.combatant, f"{said}; {rest.text}", rest.rule)
    if c.dying > 0:
        return worsen(c, house.damage_while_dying * (2 if critical else 1),
                      f"{c.name} is hit while Dying")
    hp = max(c.hp - amount, 0)
    if hp > 0:
        return Change(replace(c, hp=hp), f"{c.name} takes {amount} damage ({hp} HP left).", "D20-DAMAGE")
    if not lethal:
        down = replace(c, hp=0).with_conditions("unconscious")
        return Change(down, f"{c.name} drops to 0 HP by non-lethal intent: Unconscious for 1d4 "
                      "minutes, not Dying.", "D20-KO")
    return Change(fall(c, house), f"{c.name} drops to 0 HP: Dying 1 and Wounded "
                  f"{fall(c, house).wounded}.", "D20-DYING")


def fall(c: Combatant, house: HouseRules = HOUSE) -> Combatant:
    wounded = c.wounded + 1 if house.wounded_on_drop == "add" else max(c.wounded, 1)
    return replace(c, hp=0, dying=1, wounded=wounded)


def worsen(c: Combatant, steps: int, why: str) -> Change:
    dying = c.dying + steps
    if dying >= DEAD_AT:
        return Change(replace(c, dying=DEAD_AT, dead=True), f"{why}: Dying {DEAD_AT}, Dead.", "D20-DEAD")
    return Change(replace(c, dying=dying), f"{why}: Dying {dying}.", "D20-DYING-SAVE")


def save_dc(c: Combatant) -> int:
    return 10 + c.wounded


def save_bonus(c: Combatant, house: HouseRules = HOUSE) -> int:
    return c.attribute("vigor") + (c.pb if house.dying_save_uses_pb else 0)


def dying_save(c: Combatant, natural: int, house: HouseRules = HOUSE) -> Change:
    """D20-DYING-SAVE, on the Dying creature's turn: d20 + Vigor against DC 10 + Wounded."""
    if c.dying <= 0 or c.dead:
        return Change(c, f"{c.name} is not Dying: no save.", "D20-DYING-SAVE")
    total, dc = natural + save_bonus(c, house), save_dc(c)
    if total >= dc:
        return Change(replace(c, dying=0, hp=1), f"{c.name}'s Vigor Save {total} meets DC {dc}: "
                      "stabilised at 1 HP.", "D20-DYING-SAVE")
    return worsen(c, 1, f"{c.name}'s Vigor Save {total} misses DC {dc}")


def stabilize(c: Combatant, medicine_total: int) -> Change:
    """D20-STABILIZE: an ally's Medicine DC 12 (an Action) stabilises the Dying at 1 HP."""
    if c.dying <= 0 or c.dead:
        return Change(c, f"{c.name} is not Dying.", "D20-STABILIZE")
    if medicine_total >= STABILIZE_DC:
        return Change(replace(c, dying=0, hp=1), f"Medicine {medicine_total} meets DC 12: {c.name} "
                      "is stabilised at 1 HP.", "D20-STABILIZE")
    return Change(c, f"Medicine {medicine_total} misses DC 12: {c.name} is still Dying.", "D20-STABILIZE")


def short_rest(c: Combatant, rolled: int) -> Change:
    """D20-SHORT-REST: spend 1 Hit Die to heal 1d8 (or the class die, entered as `rolled`) + Vigor.
    Its 10 minutes outlast a knock-out's 1d4: the creature is awake after it (D20-KO)."""
    woke = c.has("unconscious")
    c = c.with_conditions(removed=("unconscious",))
    if c.hit_dice <= 0:
        c = replace(c, hp=max(c.hp, 1)) if woke else c
        return Change(c, f"{c.name} has no Hit Die left to spend.", "D20-SHORT-REST")
    healed = max(rolled + c.attribute("vigor"), 0)
    hp = max(min(c.hp + healed, c.max_hp), 1 if woke else 0)
    return Change(replace(c, hp=hp, hit_dice=c.hit_dice - 1),
                  f"{c.name} spends a Hit Die and heals {hp - c.hp} ({hp} HP).", "D20-SHORT-REST")


def long_rest(c: Combatant, max_hit_dice: int | None = None) -> Change:
    """D20-LONG-REST: "restore to full": full HP and every Hit Die back (no longer Dying or
    Unconscious), Exhausted cleared, Wounded -1 (min 0). The Dead are not rested (the caller)."""
    dice = c.hit_dice if max_hit_dice is None else max(max_hit_dice, c.hit_dice)
    rested = replace(c, hp=c.max_hp, wounded=max(c.wounded - 1, 0), temp_hp=0,  # D20-TEMP-HP: they end
                     dying=0, hit_dice=dice)
    rested = rested.with_conditions(removed=("exhausted", "unconscious"))
    return Change(rested, f"{c.name} rests: {c.max_hp} HP, {dice} Hit Dice, Wounded {rested.wounded}.",
                  "D20-LONG-REST")
