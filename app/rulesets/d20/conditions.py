"""The common conditions with their timing (D20-COND-*) and the round's action economy they
bend (D20-TURN): Action, Move, Minor and one Reaction per round.

Timing the reference leaves open is a house default (docs/rules-d20.md § Core rules): Bleeding
ticks at the start of the bleeder's turn; Temporal Displacement skips the next turn and leaves
the creature immune until the start of the turn after (one round after its return).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from app.rulesets.d20.dice import Dice, roll_dice
from app.rulesets.d20.models import Combatant, HouseRules

BLEED = Dice(1, 4)
STAUNCH_DC = 12  # D20-COND-BLEEDING: Medicine DC 12
HOUSE = HouseRules()


@dataclass(frozen=True, slots=True)
class Budget:
    """What a creature may spend this turn, and why anything is missing (text, rule)."""

    action: bool = True
    move: int = 6  # squares; 0: no Move
    minor: bool = True
    reaction: bool = True
    must_stand: bool = False  # Prone: standing costs the Minor (D20-COND-PRONE)
    skip: bool = False
    why: tuple[tuple[str, str], ...] = ()


def budget(c: Combatant) -> Budget:
    """D20-TURN: Action, Move, Minor, one Reaction (1/round), less what conditions take."""
    why: list[tuple[str, str]] = []
    if c.out_of_action:
        state = "Dead" if c.dead else "Dying" if c.dying else "Unconscious"
        return Budget(False, 0, False, False, skip=True,
                      why=((f"{c.name} is {state}: no turn", "D20-DYING"),))
    if c.has("temporal_displacement"):
        return Budget(False, 0, False, False, skip=True,
                      why=((f"{c.name} is Temporally Displaced: it skips this turn", "D20-COND-TEMPORAL"),))
    action, move, minor = "action" not in c.spent, c.speed, "minor" not in c.spent
    if "move" in c.spent:
        move = 0
    for part in ("action", "move", "minor"):
        if part in c.spent:
            why.append((f"{c.name} has spent its {part.title()} this turn", "D20-TURN-BUDGET"))
    if c.has("stunned"):
        action = False
        why.append((f"{c.name} is Stunned: it loses its Action", "D20-COND-STUNNED"))
    if c.has("grappled") or c.has("restrained"):
        move = 0
        why.append((f"{c.name} is Grappled/Restrained: Speed 0", "D20-COND-GRAPPLED"))
    if c.has("glitched"):
        minor = False
        why.append((f"{c.name} Glitched: it loses its Minor", "D20-GLITCH"))
    return Budget(action, move, minor, not c.reaction_used, must_stand=c.has("prone"), why=tuple(why))


def start_turn(c: Combatant, rng: random.Random, bleed: int | None = None,
               house: HouseRules = HOUSE) -> tuple[Combatant, list[tuple[str, str]]]:
    """The start of `c`'s turn: Temporal immunity ends, and Bleeding takes 1d4 (rolled or entered
    as `bleed`). Dying saves are dying.dying_save. The Reaction does not come back here: "Reaction
    (1/round)" comes back once, when the round ends (D20-REACTION: a Parry spent
    before the creature's turn came back with it and was spent again the same round)."""
    events: list[tuple[str, str]] = []
    if c.has("temporal_immune"):
        c = c.with_conditions(removed=("temporal_immune",))
        events.append((f"{c.name}'s immunity to Temporal Displacement ends", "D20-COND-TEMPORAL"))
    if c.has("bleeding") and house.bleeding_timing == "start" and not c.dead:
        lost = bleed if bleed is not None else roll_dice(BLEED, rng)[0]
        c = replace(c, hp=max(c.hp - lost, 0))
        events.append((f"{c.name} is Bleeding: loses {lost} HP", "D20-COND-BLEEDING"))
    return c, events


def end_turn(c: Combatant) -> tuple[Combatant, list[tuple[str, str]]]:
    """A skipped (displaced) turn ends with the return and one round of immunity."""
    events: list[tuple[str, str]] = []
    if c.has("temporal_displacement"):
        c = c.with_conditions("temporal_immune", removed=("temporal_displacement",))
        events.append((f"{c.name} returns and is immune to Temporal Displacement for 1 round",
                       "D20-COND-TEMPORAL"))
    return c, events


def spend_glitch(c: Combatant) -> tuple[Combatant, list[tuple[str, str]]]:
    """D20-GLITCH (house default "lose Minor"): the turn after the Glitch has no Minor; once that
    turn is under way the Glitch is spent, whenever in the round the natural 1 came."""
    if not c.has("glitched"):
        return c, []
    return c.with_conditions(removed=("glitched",)), [(f"{c.name} loses its Minor this turn (Glitch)",
                                                        "D20-GLITCH")]


def timed(c: Combatant, condition: str, turns: int) -> Combatant:
    """D20-DURATION: `condition` lasts `turns` turns of its holder (the effect's duration)."""
    timers = tuple(t for t in c.timers if t[0] != condition) + ((condition, turns),)
    return replace(c.with_conditions(condition), timers=timers)


def tick(c: Combatant) -> tuple[Combatant, list[tuple[str, str]]]:
    """D20-DURATION: the end of the holder's turn takes one turn off each timed condition; one at 0
    ends. A creature knocked out wakes when its minutes have passed, at 1 HP (D20-KO)."""
    if c.dead or not c.timers:
        return c, []
    events: list[tuple[str, str]] = []
    left = tuple((name, turns - 1) for name, turns in c.timers)
    c = replace(c, timers=tuple(t for t in left if t[1] > 0))
    for name, turns in left:
        if turns > 0:
            continue
        c = c.with_conditions(removed=(name,))
        word = name.replace("_", " ").title()
        if name == "unconscious" and c.hp == 0 and not c.dying:
            c = replace(c, hp=1)
            events.append((f"{c.name}'s minutes of unconsciousness have passed: it wakes at 1 HP", "D20-KO"))
        else:
            events.append((f"{c.name} is no longer {word}: its duration has run out", "D20-DURATION"))
    return c, events


def turns_left(c: Combatant, condition: str) -> int | None:
    return next((turns for name, turns in c.timers if name == condition), None)


def displace(c: Combatant) -> tuple[Combatant, str]:
    """D20-COND-TEMPORAL: no effect on a creature still immune after its return."""
    if c.has("temporal_immune"):
        return c, f"{c.name} is immune to Temporal Displacement for 1 round after its return."
    return (c.with_conditions("temporal_displacement"),
            f"{c.name} is Temporally Displaced: it skips its next turn.")


def staunch(c: Combatant, medicine_total: int) -> tuple[Combatant, bool]:
    """D20-COND-BLEEDING: a Medicine check (an Action) of 12 or more stops the Bleeding."""
    if medicine_total >= STAUNCH_DC:
        return c.with_conditions(removed=("bleeding",)), True
    return c, False


def stand_up(c: Combatant) -> Combatant:
    """D20-COND-PRONE: standing costs the Minor."""
    return c.with_conditions(removed=("prone",))


def resists(save_total: int, dc: int) -> bool:
    """D20-COND-CHARMED: a Charm or Insight Save resists Charmed/Frightened; the DC is the effect's."""
    return save_total >= dc


def effect_save(c: Combatant, attribute: str, natural: int, dc: int, condition: str | None,
                proficient: bool = False) -> tuple[Combatant, bool, str]:
    """D20-EFFECT-SAVE: "Effects specify Saves and Conditions": d20 + the named attribute (+ PB when
    the creature is proficient, the player's call) meeting the effect's DC resists it; a failure
    takes the effect's Condition (Temporal Displacement as D20-COND-TEMPORAL has it)."""
    total = natural + c.attribute(attribute) + (c.pb if proficient else 0)
    said = f"{c.name}'s {attribute.title()} Save {total} (d20 {natural})"
    if resists(total, dc):
        return c, True, f"{said} meets DC {dc}: it resists."
    if condition is None:
        return c, False, f"{said} misses DC {dc}: the effect takes hold."
    if condition == "temporal_displacement":
        c, text = displace(c)
        return c, False, f"{said} misses DC {dc}. {text}"
    word = condition.replace("_", " ").title()
    return c.with_conditions(condition), False, f"{said} misses DC {dc}: it is {word}."
