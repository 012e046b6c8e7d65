"""Builders shared by the four roles: moving, Stand Up, Melee, Shoot, Scan, Reload, the fallback.

A `Plan` collects one activation's actions in slot order. Facts are measured before the bot
moves (R-ACT-FACTS): after a move only the distance to the move's own target is known (it
shrinks by the move); every other distance and line of sight is unknown, so an action that
depends on them is planned as conditional (a Shoot the player confirms in Phase 3) or not at
all (a Scan, which resolves at once) — never from a distance with the move subtracted.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rulesets.potham2038.activation_types import (
    ATTACK,
    CONFIRM_SHOT,
    FAMILY_OF,
    INTERACT,
    MANEUVER,
    PHASE_OF,
    SCAN,
    Action,
    Activator,
    Seen,
)

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
    __slots__ = ("bot", "seen", "actions", "used", "notes", "ties", "approached", "moved", "moved_to",
                 "loaded", "last", "why", "reached", "next_waypoint", "needs", "_touching", "choice")

    def __init__(self, bot: Activator, seen: Sequence[Seen]):
        self.bot = bot
        self.seen = seen
        self.actions: list[Action] = []
        self.used: set[str] = set()  # Action Families spent (R-ACT-TWO)
        self.notes: list[str] = []
        self.ties: tuple[str, ...] = ()
        self.approached: Seen | None = None  # the Character the move went straight toward
        self.moved = 0.0
        self.moved_to: str | None = None  # what the move went toward (a name), for the reasons
        self.loaded = bot.has_ammo  # a Reload loads it for a Shoot in the next slot (R-ACT-RELOAD)
        self.last: Seen | None = None  # the Character the latest action dealt with
        self.why: dict[str, str] = {}  # family -> the role's reason it is not used (empty slots)
        self.reached: list[str] = []  # waypoints reached, in order (R-ROLE-PATROL)
        self.next_waypoint: str | None = None
        self.needs: list[str] = []  # facts the decision waits for: no action is decided
        self._touching: list[Seen] | None = None  # cached until the bot moves
        self.choice: str | None = None  # R-TIE-CHOICE: the player's pick wherever Characters tie

    def add(self, action: str, target: str | None, move: float | None, reason: str, rule: str,
            fallback: bool = False, direction: int | None = None, condition: str | None = None) -> None:
        family = FAMILY_OF[action]
        self.used.add(family)
        self.actions.append(Action(len(self.actions) + 1, family, action, PHASE_OF[action], target,
                                   move, fallback, reason, rule, direction, condition is not None, condition))

    @property
    def arrived(self) -> bool:
        return bool(self.reached)

    def known(self, c: Seen) -> bool:
        """R-ACT-FACTS: a fact about `c` still holds: the bot has not moved, or moved toward `c`."""
        return self.moved <= 0 or c is self.approached

    def now(self, c: Seen) -> float:
        """Distance to `c`: as measured, less the move when the bot moved straight toward it.
        For anyone else after a move it is the distance measured before it (R-ACT-FACTS)."""
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

    def moved_toward(self, target: str | None, move: float, seen: Seen | None = None) -> None:
        self.approached, self.moved, self.moved_to, self._touching = seen, move, target, None


def closest(candidates: Sequence[Seen], plan: Plan) -> tuple[Seen, tuple[str, ...]]:
    """The closest; equal distances are the player's choice (R-TIE-CHOICE): list them, take the
    one the player picked, else the first (R-ROLE-HUNTER)."""
    best = min(plan.now(c) for c in candidates)
    tied = [c for c in candidates if plan.now(c) == best]
    chosen = next((c for c in tied if c.name == plan.choice), tied[0])
    return chosen, (tuple(c.name for c in tied) if len(tied) > 1 else ())


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
        cannot_move(plan)
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
    plan.moved_toward(target, move, seen)
    return move


def cannot_move(plan: Plan) -> None:
    plan.why[MANEUVER] = "it cannot move: its Walk and Run are 0"
    plan.notes.append(f"{plan.bot.name} cannot move: its Walk and Run are 0.")


def stand_up(plan: Plan) -> None:
    plan.add("stand_up", None, None, f"{plan.bot.name} is knocked down, so its first action is "
             "Stand Up.", "R-ACT-MOVE")


def fight_in_contact(plan: Plan, foe: Seen) -> None:
    """R-CONTACT-MELEE: a bot in base contact stays and fights; the other slot as R-SLOT2-PRIORITY."""
    plan.add("melee", foe.name, None, f"{plan.bot.name} is in base contact with {foe.name} and an "
             "AI-Bot in base contact prioritizes melee, resolved in Phase 3.", "R-CONTACT-MELEE")
    plan.last = foe
    plan.why[MANEUVER] = "walking away from its melee is not logical (R-CONTACT-MELEE)"
    finish(plan, foe)


def respond(plan: Plan, focus: Seen | None, lead: str = "", rule: str | None = None) -> Action | None:
    """One free slot in an unused family: Melee in base contact, else Shoot, else Scan, else Reload.

    R-SLOT2-PRIORITY: an Attack that can do damage comes before a Scan, whose Marked is gone at
    the end of Phase 4. R-ACT-SHOOT-ANY: any Character in line of sight and range, not only
    those in the zone. R-ACT-RELOAD: an empty weapon is reloaded before the fallback, and first
    when that lets a Shoot follow in the next slot. `focus` is preferred wherever it qualifies.
    """
    if ATTACK not in plan.used:
        done = melee(plan, focus, lead, rule) if plan.touching() else shoot(plan, focus, lead, rule)
        if done is not None:
            return done
        if reload_then_shoot(plan):
            return reload(plan, lead, rule)
    if SCAN not in plan.used and (done := scan(plan, focus, lead, rule)) is not None:
        return done
    return reload(plan, lead, rule) if must_reload(plan) else None


def finish(plan: Plan, focus: Seen | None = None, toward: str | None = None, remaining: float = 0.0,
           has_base: bool = True, direction: int | None = None, lead: str = "",
           rule: str | None = None) -> None:
    """Fill every slot left (R-ACT-TWO): `respond` while it finds something, then the
    R-ACT-FALLBACK move `toward` (or on in `direction`) when a Maneuver was made."""
    while len(plan.actions) < 2 and respond(plan, plan.last or focus, lead, rule) is not None:
        lead, rule = "", None
    if len(plan.actions) < 2 and (toward is not None or direction is not None):
        fallback(plan, toward, remaining, has_base, direction)


def melee(plan: Plan, focus: Seen | None, lead: str, rule: str | None) -> Action:
    """An AI-Bot in base contact prioritizes melee (seed 000, Phase 3)."""
    foes, name = plan.touching(), plan.bot.name
    foe = pick(foes, plan, focus)
    came = foe is plan.approached and plan.moved > 0
    plan.add("melee", foe.name, None, lead + (
        f"Having moved into base contact with {foe.name}, {name} attacks it in melee in Phase 3 "
        "with its second action, from a different family." if came else
        f"{name} is in base contact with {foe.name}, so it attacks in melee in Phase 3."),
        rule or ("R-ACT-TWO" if came else "R-CONTACT-MELEE"))
    plan.last = foe
    return plan.actions[-1]


def can_shoot(plan: Plan) -> bool:
    """R-CMB-SHOOT: a ranged weapon with ammo, and not in base contact with anyone."""
    return plan.bot.shoot_range is not None and plan.loaded and not plan.touching()


def shoot_targets(plan: Plan) -> tuple[list[Seen], list[Seen]]:
    """Characters in line of sight and within range: (known now, known only before the move).

    R-ACT-FACTS: after a move only the move's own target is measured anew; anyone else is a
    candidate by the facts measured before the move, and a shot at them is conditional."""
    reach = plan.bot.shoot_range
    known: list[Seen] = []
    unsure: list[Seen] = []
    if reach is None:
        return known, unsure
    for c in plan.seen:
        if c.line_of_sight and 0 < plan.now(c) <= reach:
            (known if plan.known(c) else unsure).append(c)
    return known, unsure


def shoot(plan: Plan, focus: Seen | None, lead: str, rule: str | None) -> Action | None:
    """R-CMB-SHOOT, R-ACT-SHOOT-ANY: a Character in line of sight and in range; one whose facts a
    move made unknown only conditionally (R-ACT-FACTS), and only when no known one qualifies."""
    if not can_shoot(plan):
        return None
    known, unsure = shoot_targets(plan)
    if not known and not unsure:
        return None
    foe = pick(known or unsure, plan, focus)
    reach, name, away = inches(plan.bot.shoot_range or 0), plan.bot.name, inches(plan.now(foe))
    if known:
        plan.add("shoot", foe.name, None, lead + (
            f"{foe.name} is in line of sight {away} away, within {name}'s {reach} range, and {name} "
            "is not in base contact, so it shoots in Phase 3."), rule or "R-CMB-SHOOT")
    else:
        plan.add("shoot", foe.name, None, lead + (
            f"Before it moved, {foe.name} was in line of sight {away} away, within {name}'s {reach} "
            f"range; after its move toward {plan.moved_to} that is unknown, so it shoots {foe.name} "
            "in Phase 3 only if you confirm line of sight and range then."),
            rule or "R-ACT-FACTS", condition=CONFIRM_SHOT)
    plan.last = foe
    return plan.actions[-1]


def scan(plan: Plan, focus: Seen | None, lead: str, rule: str | None) -> Action | None:
    """R-SCAN: +1 Marked to a Character both in line of sight and inside the zone; none, no Scan.
    A Scan resolves at once, so after a move only the move's own target qualifies (R-ACT-FACTS)."""
    eligible = [c for c in plan.seen if c.line_of_sight and plan.known(c) and plan.in_zone(c)]
    if not eligible:
        return None
    foe, name = pick(eligible, plan, focus), plan.bot.name
    plan.add("scan", foe.name, None, lead + (
        f"{foe.name} is in line of sight and inside {name}'s {inches(plan.bot.control_zone)} zone, "
        f"so a Scan gives {foe.name} +1 Marked at once."), rule or "R-SCAN")
    plan.last = foe
    return plan.actions[-1]


def must_reload(plan: Plan) -> bool:
    """R-ACT-RELOAD: a ranged weapon out of ammunition and an unused Interact."""
    return plan.bot.shoot_range is not None and not plan.loaded and INTERACT not in plan.used


def reload_then_shoot(plan: Plan) -> bool:
    """Reload first when both slots are free and a Shoot would follow it (R-ACT-RELOAD)."""
    if not must_reload(plan) or plan.actions or plan.touching():
        return False
    known, unsure = shoot_targets(plan)
    return bool(known or unsure)


def reload(plan: Plan, lead: str, rule: str | None) -> Action:
    """R-ACT-RELOAD: an Interact, resolved at once in Phase 2 (R-ACT-PHASE): Out of Ammo clears."""
    plan.loaded = True
    plan.add("reload", None, None, lead + (
        f"{plan.bot.name} is out of ammunition, so it Reloads (an Interact) at once: Out of Ammo "
        "is cleared."), rule or "R-ACT-RELOAD")
    return plan.actions[-1]


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
