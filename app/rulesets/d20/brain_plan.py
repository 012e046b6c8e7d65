"""Builders shared by the four roles in the d20 economy: Move, Dash, attacks with their exact
odds, and the Action's priority (D20-ACTION-PRIORITY).

Facts are measured before the NPC moves (D20-FACTS, as 2038's R-ACT-FACTS): after a Move only
the squares to what it moved toward are known; a ranged attack at anyone else is conditional
(the player confirms line of sight and range), never planned from a guessed distance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rulesets.d20.attack import attack_bonus, damage_attribute, situation
from app.rulesets.d20.brain_types import Facts, Npc, Step
from app.rulesets.d20.brain_weapons import (
    Option,
    at_hand,
    best,
    melee_option,
    melee_weapon,
    said,
    shot_options,
)
from app.rulesets.d20.conditions import Budget
from app.rulesets.d20.models import UNARMED, Combatant, HouseRules, Weapon
from app.rulesets.d20.odds import damage_odds, effective, expected, outcome

CONFIRM = "confirm line of sight and range after the move"


def squares(n: int) -> str:
    return f"{n} square" + ("" if n == 1 else "s")


class Plan:
    """One NPC turn being decided: what is left of its Action, Move and Minor, and the steps."""

    def __init__(self, npc: Npc, seen: Sequence[Facts], turn: Budget, house: HouseRules):
        self.npc, self.seen, self.turn, self.house = npc, seen, turn, house
        self.steps: list[Step] = []
        self.action_free, self.minor_free, self.move_left = turn.action, turn.minor, turn.move
        self.moved = 0
        self.approached: Facts | None = None
        self.moved_to: str | None = None
        self.in_hand = npc.wielding
        self.why: dict[str, tuple[str, str]] = {}  # slot -> why it stays unused
        self.ties: tuple[str, ...] = ()
        self.notes: list[str] = []
        self.reached: list[str] = []
        self.next_waypoint: str | None = None
        self.needs: list[str] = []

    @property
    def name(self) -> str:
        return self.npc.name

    def add(self, step: Step) -> None:
        self.steps.append(step)

    def now(self, c: Facts) -> int:
        return c.distance - self.moved if c is self.approached else c.distance

    def known(self, c: Facts) -> bool:
        return self.moved <= 0 or c is self.approached

    def adjacent(self, c: Facts) -> bool:
        return self.now(c) <= self.house.reach

    def touching(self) -> list[Facts]:
        return [c for c in self.seen if self.known(c) and self.adjacent(c)]

    def zone(self) -> list[Facts]:
        """D20-ZONE: within the NPC's zone (squares), line of sight not needed; a Character next
        to it is inside every zone (as 2038's base contact)."""
        reach = max(self.npc.zone, self.house.reach)
        return [c for c in self.seen if self.known(c) and self.now(c) <= reach]


def closest(candidates: Sequence[Facts], plan: Plan) -> tuple[Facts, tuple[str, ...]]:
    """Fewest squares; equal counts are the player's choice: listed, first taken (D20-ROLE-TIES)."""
    best = min(plan.now(c) for c in candidates)
    tied = [c for c in candidates if plan.now(c) == best]
    return tied[0], (tuple(c.name for c in tied) if len(tied) > 1 else ())


def pick(candidates: Sequence[Facts], plan: Plan, focus: Facts | None = None) -> Facts:
    if focus in candidates:
        return focus  # type: ignore[return-value]
    foe, tied = closest(candidates, plan)
    if tied and not plan.ties:
        plan.ties = tied
    return foe


def move_toward(plan: Plan, target: str, distance: int, why: str, rule: str,
                seen: Facts | None = None) -> int:
    """D20-MOVE: one Move of up to Speed squares straight toward `target`; a Character is
    reached when adjacent. Answers the squares moved (0: it cannot move)."""
    need = max(distance - plan.house.reach, 0) if seen is not None else distance
    step = min(plan.move_left, need)
    if step <= 0:
        if need > 0:
            plan.why["move"] = ("it cannot move this turn", "D20-TURN")
        return 0
    where = f"toward {target}"
    if step >= need:
        where = f"next to {target}" if seen is not None else f"to {target}"
    plan.add(Step("move", "move", target, f"{why}, so it moves {squares(step)} {where}.", rule, squares=step))
    plan.move_left, plan.moved, plan.approached, plan.moved_to = 0, step, seen, target
    return step


def dash(plan: Plan, target: str | None, remaining: int, direction: int | None = None) -> bool:
    """D20-DASH-FALLBACK: with nothing better for its Action after a Move, the NPC Dashes on (the
    Action for another Move of Speed squares: 2038's Run, a house default for the Core Dash)."""
    if not plan.action_free or plan.moved <= 0 or (direction is None and remaining <= 0):
        return False
    step = plan.npc.stats.speed if direction is not None else min(plan.npc.stats.speed, remaining)
    where = f"on in direction {direction}" if direction is not None else f"on toward {target}"
    plan.add(Step("action", "dash", target, f"Nothing better is left for its Action, so {plan.name} "
                  f"Dashes {squares(step)} {where}.", "D20-DASH-FALLBACK", squares=step, direction=direction))
    plan.action_free = False
    return True


def ready_weapon(plan: Plan, weapon: Weapon) -> bool:
    """D20-MINOR-DRAW: a weapon not in hand is drawn with the Minor; no Minor, no draw."""
    if plan.in_hand is None or plan.in_hand == weapon.name or weapon is UNARMED:
        return True
    if not plan.minor_free:
        return False
    plan.add(Step("minor", "draw", None, f"{plan.name} draws its {weapon.name} (a Minor) to attack "
                  "with it.", "D20-MINOR-DRAW", weapon=weapon.name))
    plan.minor_free, plan.in_hand = False, weapon.name
    return True


def odds_of(plan: Plan, weapon: Weapon, c: Facts, range_: str) -> dict[str, Any]:
    """Exact odds for the card: always the attack bonus; p_hit and the rest once DEF is known."""
    stats = plan.npc.stats
    if c.defense is None:
        return {"bonus": attack_bonus(stats, weapon)[0], "range": range_, "cover": c.cover}
    target = Combatant(c.name, defense=c.defense, conditions=("prone",) if c.prone else ())
    where = situation(stats, weapon, target, range_, c.cover, plan.house)
    odds = where.odds(plan.house)
    flat = stats.attribute(damage_attribute(weapon, plan.house))
    mean = expected(damage_odds(odds, weapon.dice, flat, plan.house))
    return {"bonus": where.bonus, "defense": where.defense, "range": where.range, "cover": where.cover,
            "mode": where.mode,
            "hit_on": hit_on(where.bonus, where.defense, where.range, where.cover, plan.house),
            "p_hit": round(float(odds.p_hit), 4), "p_crit": round(float(odds.p_crit), 4),
            "p_glitch": round(float(odds.p_glitch), 4), "expected_damage": round(float(mean), 3)}


def hit_on(bonus: int, defense: int, range_: str, cover: str, house: HouseRules) -> int | None:
    """The lowest natural d20 that hits once range and cover apply (None: none does)."""
    bonus, defense = effective(bonus, defense, range_, cover)
    return next((n for n in range(1, 21) if outcome(n, bonus, defense, cover, house)[0]), None)


def melee(plan: Plan, focus: Facts | None, lead: str = "", rule: str | None = None) -> Step | None:
    """D20-CONTACT-MELEE: adjacent, the NPC attacks in melee (the Action), unless a shot from its
    square does better (D20-BRAIN-WEAPON: a gunner next to a Character shoots, it does not punch;
    the reference gives a shot at Short range no penalty)."""
    if not plan.action_free:
        return None
    foe = pick(plan.touching(), plan, focus)
    choice, close = best(plan, foe, can_move=False), melee_option(plan, foe, can_move=False)
    if choice is not None and close is not None and not choice.melee:
        return fire(plan, foe, choice, f"{lead}{plan.name} is next to {foe.name}: {said(choice)} does "
                    f"better than {said(close)}, so it shoots from where it stands.", "D20-BRAIN-WEAPON")
    weapon = melee_weapon(plan)
    ready_weapon(plan, weapon)
    came = foe is plan.approached and plan.moved > 0
    text = (f"Having moved next to {foe.name}, {plan.name} attacks it in melee with its "
            f"{weapon.name} (its Action)." if came else
            f"{plan.name} is next to {foe.name}, so it attacks it in melee with its {weapon.name}.")
    rule = rule or ("D20-ACTION-PRIORITY" if came else "D20-CONTACT-MELEE")
    step = Step("action", "attack", foe.name, lead + text, rule, weapon=weapon.name,
                odds=odds_of(plan, weapon, foe, "short"))
    plan.add(step)
    plan.action_free = False
    return step


def fire(plan: Plan, foe: Facts, choice: Option, text: str, rule: str) -> Step:
    """The chosen shot (the Action), its weapon drawn first if need be (D20-MINOR-DRAW)."""
    ready_weapon(plan, choice.weapon)
    step = Step("action", "attack", foe.name, text, rule, weapon=choice.weapon.name,
                odds=odds_of(plan, choice.weapon, foe, choice.band))
    plan.add(step)
    plan.action_free = False
    return step


def keep_distance(plan: Plan, foe: Facts, why: str) -> bool:
    """D20-BRAIN-WEAPON: when a shot (from here, or after a Move that stops short of the
    Character) does better than closing in for melee, the NPC keeps its distance and shoots."""
    if not plan.action_free or plan.moved > 0:
        return False
    choice = best(plan, foe)
    if choice is None or choice.melee:
        return False
    close = melee_option(plan, foe, can_move=True)
    versus = f"closing in with {said(close)}" if close else "a melee attack it cannot reach this turn"
    if choice.move > 0:
        band = "Short" if choice.band == "short" else "Long"
        plan.add(Step("move", "move", foe.name, f"{why}; {said(choice)} does better than {versus}, so it "
                      f"moves {squares(choice.move)} toward {foe.name}, to {band} range, not next to it.",
                      "D20-BRAIN-WEAPON", squares=choice.move))
        plan.move_left, plan.moved, plan.approached, plan.moved_to = 0, choice.move, foe, foe.name
        text = (f"{foe.name} is {squares(plan.now(foe))} away, at {said(choice)}: {plan.name} shoots "
                "it (its Action).")
    else:
        plan.why["move"] = (f"it keeps its distance from {foe.name}: {said(choice)} does better than "
                            f"{versus}", "D20-BRAIN-WEAPON")
        text = (f"{why}; {said(choice)} does better than {versus}, so {plan.name} shoots it from "
                "where it stands.")
    fire(plan, foe, choice, text, "D20-BRAIN-WEAPON")
    return True


def shot_weapon(plan: Plan, c: Facts) -> tuple[Weapon, str] | None:
    """A ranged or tech weapon that reaches `c`: Short first, else Long (-2, D20-RANGE)."""
    usable = [w for w in plan.npc.stats.weapons if w.kind != "melee" and at_hand(plan, w)]
    distance = plan.now(c)
    for band in ("short", "long"):
        for w in usable:
            if distance <= (w.short if band == "short" else w.long):
                return w, band
    return None


def shoot(plan: Plan, focus: Facts | None, lead: str = "", rule: str | None = None) -> Step | None:
    """D20-ATTACK-RANGED: a Character in line of sight within a weapon's Long range, not adjacent
    to the NPC; one a Move made unknown only conditionally (D20-FACTS)."""
    if not plan.action_free or plan.touching():
        return None
    ok = [c for c in plan.seen if c.line_of_sight and not plan.adjacent(c) and shot_weapon(plan, c)]
    known = [c for c in ok if plan.known(c)]
    if not ok:
        return None
    foe = pick(known or ok, plan, focus)
    choice = max(shot_options(plan, foe, can_move=False), key=lambda o: o.worth)  # D20-BRAIN-WEAPON
    weapon, band = choice.weapon, choice.band
    ready_weapon(plan, weapon)
    away = squares(plan.now(foe))
    band_text = "Short range" if band == "short" else "Long range (-2)"
    if known:
        text = (f"{foe.name} is in line of sight {away} away, at {weapon.name}'s {band_text}, so "
                f"{plan.name} shoots it (its Action).")
        step = Step("action", "attack", foe.name, lead + text, rule or "D20-ATTACK-RANGED",
                    weapon=weapon.name, odds=odds_of(plan, weapon, foe, band))
    else:
        text = (f"Before it moved, {foe.name} was in line of sight {away} away, at {weapon.name}'s "
                f"{band_text}; after its move toward {plan.moved_to} that is unknown, so it shoots only "
                "if you confirm line of sight and range.")
        step = Step("action", "attack", foe.name, lead + text, rule or "D20-FACTS", weapon=weapon.name,
                    odds=odds_of(plan, weapon, foe, band), conditional=True, condition=CONFIRM)
    plan.add(step)
    plan.action_free = False
    return step


def attack_something(plan: Plan, focus: Facts | None, lead: str = "", rule: str | None = None) -> bool:
    """D20-ACTION-PRIORITY: melee when adjacent, else a shot, before any other use of the Action."""
    if not plan.action_free:
        return False
    if plan.touching():
        melee(plan, focus, lead, rule)
        return True
    return shoot(plan, focus, lead, rule) is not None
