"""Builders shared by the four roles: moving, Stand Up, Melee, Shoot, Scan, the fallback.

A `Plan` collects one activation's actions in slot order. After slot 1's move only the distance
to the model the bot moved straight toward is known to change (it shrinks by the move); every
other reported fact stands until the player reports again (R-ACT-FACTS).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.activation_types import ATTACK, FAMILY_OF, MANEUVER, PHASE_OF, SCAN, Action, Activator, Seen

_INCHES: dict[float, str] = {}


def inches(x: float) -> str:
    """2.5 -> '2.5"', 4.0 -> '4"' (cached: the same few lengths come up again and again)."""
    text = _INCHES.get(x)
    if text is None:
        text = f'{round(x, 2):g}"'
        if len(_INCHES) < 4096:
            _INCHES[x] = text
    return text


class Plan:
    __slots__ = ("bot", "seen", "actions", "used", "notes", "ties", "approached", "moved", "arrived",
                 "_touching")

    def __init__(self, bot: Activator, seen: Sequence[Seen]):
        self.bot = bot
        self.seen = seen
        self.actions: list[Action] = []
        self.used: set[str] = set()  # Action Families spent (R-ACT-TWO)
        self.notes: list[str] = []
        self.ties: tuple[str, ...] = ()
        self.approached: Seen | None = None
        self.moved = 0.0
        self.arrived = False
        self._touching: list[Seen] | None = None  # cached until the bot moves

    def add(self, action: str, target: str | None, move: float | None, reason: str, rule: str,
            fallback: bool = False, direction: int | None = None) -> None:
        family = FAMILY_OF[action]
        self.used.add(family)
        self.actions.append(Action(len(self.actions) + 1, family, action, PHASE_OF[action], target,
                                   move, fallback, reason, rule, direction))

    def now(self, c: Seen) -> float:
        """Distance to `c` after slot 1 (R-ACT-FACTS)."""
        d = 0.0 if c.base_contact else c.distance
        return d - self.moved if c is self.approached else d

    def in_zone(self, c: Seen) -> bool:
        return self.now(c) <= self.bot.control_zone  # R-ZONE

    def zone(self) -> list[Seen]:
        return [c for c in self.seen if self.in_zone(c)]

    def touching(self) -> list[Seen]:
        if self._touching is None:
            self._touching = [c for c in self.seen if self.now(c) <= 0]
        return self._touching


def closest(candidates: Sequence[Seen], plan: Plan) -> tuple[Seen, tuple[str, ...]]:
    """The closest; equal distances are the player's choice: list them, take the first (R-ROLE-HUNTER)."""
    best = min(plan.now(c) for c in candidates)
    tied = [c for c in candidates if plan.now(c) == best]
    return tied[0], (tuple(c.name for c in tied) if len(tied) > 1 else ())


def pick(candidates: Sequence[Seen], plan: Plan, focus: Seen | None = None) -> Seen:
    """`focus` if it qualifies, else the closest; equal distances are the player's choice, so the
    tied names are listed (R-ROLE-HUNTER's convention, for every role) unless ties are already set."""
    if focus in candidates:
        return focus  # type: ignore[return-value]
    foe, tied = closest(candidates, plan)
    if tied and not plan.ties:
        plan.ties = tied
    return foe


def gait(bot: Activator, distance: float, has_base: bool) -> tuple[str, float]:
    """R-ACT-MOVE: Walk when a Walk reaches, else Run; a base stops the bot at base contact.

    Full Throttle (R-GLITCH) makes every move a complete Run; only a base can cut it short.
    """
    reach = max(bot.run, bot.walk)
    if bot.full_throttle:
        return "run", float(min(reach, distance) if has_base else reach)
    if distance <= bot.walk:
        return "walk", float(distance)
    return "run", float(min(reach, distance))


def approach(plan: Plan, target: str, distance: float, why: str, rule: str,
             has_base: bool = True, seen: Seen | None = None) -> float:
    """Slot-1 move straight toward `target`; answers the inches moved (0: the bot cannot move)."""
    action, move = gait(plan.bot, distance, has_base)
    if move <= 0:
        plan.notes.append(f"{plan.bot.name} cannot move: its Walk and Run are 0.")
        return 0.0
    if move < distance:
        where = f"toward {target}"
    elif has_base:
        where = f"into base contact with {target}"
    else:
        where = f"to {target}" if move == distance else f"to {target} and on past it"
    throttle = " (Full Throttle forces a complete Run)" if plan.bot.full_throttle else ""
    verb = "walks" if action == "walk" else "runs"
    plan.add(action, target, move, f"{why}, so it {verb} {inches(move)} {where}{throttle}.", rule)
    plan.approached, plan.moved, plan._touching = seen, move, None
    return move


def stand_up(plan: Plan) -> None:
    plan.add("stand_up", None, None, f"{plan.bot.name} is knocked down, so its first action is "
             "Stand Up.", "R-ACT-MOVE")


def fight_in_contact(plan: Plan, foe: Seen) -> None:
    """R-CONTACT-MELEE: a bot in base contact stays and fights; slot 2 Scans if it can."""
    plan.add("melee", foe.name, None, f"{plan.bot.name} is in base contact with {foe.name} and an "
             "AI-Bot in base contact prioritizes melee, resolved in Phase 3.", "R-CONTACT-MELEE")
    if not respond(plan, foe, ()):
        plan.notes.append(f"Slot 2 stays empty: {plan.bot.name} has no Scan to make and walking "
                          "away from its melee is not logical (R-ACT-FALLBACK).")


def can_shoot(plan: Plan) -> bool:
    """R-CMB-SHOOT: a ranged weapon with ammo, and not in base contact with anyone."""
    bot = plan.bot
    return bot.shoot_range is not None and bot.has_ammo and not plan.touching()


def respond(plan: Plan, focus: Seen | None, pool: Sequence[Seen], lead: str = "",
            rule: str | None = None) -> Seen | None:
    """Deal with Characters in an unused family: Melee in contact, else Shoot, else Scan.

    R-SLOT2-PRIORITY: an Attack that can do damage comes before a Scan, whose Marked is gone at
    the end of Phase 4. `focus` is preferred wherever it qualifies. Answers the target or None.
    """
    if ATTACK not in plan.used:
        foe = melee(plan, focus, lead, rule) if plan.touching() else shoot(plan, focus, pool, lead, rule)
        if foe is not None:
            return foe
    return scan(plan, focus, lead, rule) if SCAN not in plan.used else None


def melee(plan: Plan, focus: Seen | None, lead: str, rule: str | None) -> Seen:
    """An AI-Bot in base contact prioritizes melee (seed 000, Phase 3)."""
    foes, name = plan.touching(), plan.bot.name
    foe = pick(foes, plan, focus)
    came = foe is plan.approached and plan.moved > 0
    plan.add("melee", foe.name, None, lead + (
        f"Having moved into base contact with {foe.name}, {name} attacks it in melee in Phase 3 "
        "with its second action, from a different family." if came else
        f"{name} is in base contact with {foe.name}, so it attacks in melee in Phase 3."),
        rule or ("R-ACT-TWO" if came else "R-CONTACT-MELEE"))
    return foe


def shoot(plan: Plan, focus: Seen | None, pool: Sequence[Seen], lead: str, rule: str | None) -> Seen | None:
    """R-CMB-SHOOT: a target in line of sight and in range, from `pool`."""
    if not can_shoot(plan):
        return None
    reach, name = plan.bot.shoot_range, plan.bot.name
    marks = [c for c in pool if c.line_of_sight and plan.now(c) <= reach]
    if not marks:
        return None
    foe = pick(marks, plan, focus)
    plan.add("shoot", foe.name, None, lead + (
        f"{foe.name} is in line of sight {inches(plan.now(foe))} away, within {name}'s "
        f"{inches(reach)} range, and {name} is not in base contact, so it shoots in Phase 3."),
        rule or "R-CMB-SHOOT")
    return foe


def scan(plan: Plan, focus: Seen | None, lead: str, rule: str | None) -> Seen | None:
    """R-SCAN: +1 Marked to a Character both in line of sight and inside the zone; none, no Scan."""
    eligible = [c for c in plan.seen if c.line_of_sight and plan.in_zone(c)]
    if not eligible:
        return None
    foe, name = pick(eligible, plan, focus), plan.bot.name
    plan.add("scan", foe.name, None, lead + (
        f"{foe.name} is in line of sight and inside {name}'s {inches(plan.bot.control_zone)} zone, "
        f"so a Scan gives {foe.name} +1 Marked at once."), rule or "R-SCAN")
    return foe


def fallback(plan: Plan, target: str | None, remaining: float, has_base: bool = True,
             direction: int | None = None) -> bool:
    """R-ACT-FALLBACK: nothing legal or logical in an unused family after a Maneuver: a second
    Maneuver at 50% Walk, only when there is still somewhere to go (Full Throttle: a full Run)."""
    bot = plan.bot
    if MANEUVER not in plan.used or (direction is None and remaining <= 0):
        return False
    if bot.full_throttle:
        action, move = "run", float(max(bot.run, bot.walk))
        if has_base and direction is None:
            move = min(move, remaining)
    else:
        action, move = "walk", bot.walk / 2
        if direction is None:
            move = min(move, remaining)
    if move <= 0:
        return False
    if direction is not None:
        action, where = "random_move", f"on in direction {direction}"
    else:
        where = f"toward {target}"
    size = "a complete Run, forced by Full Throttle" if bot.full_throttle else "50% of its Walk"
    plan.add(action, target, move, f"No legal or logical action is left in an unused family, so "
             f"{bot.name} takes the fallback Maneuver ({size}): {inches(move)} {where}.",
             "R-ACT-FALLBACK", fallback=True, direction=direction)
    return True
