"""A free slot's response, for the four roles: Melee in base contact, else Shoot, else Scan,
else Reload (R-SLOT2-PRIORITY), and filling every slot left (R-ACT-TWO).

Each adds its action to the activation's `Plan` (plan.py); a slot left over after a Maneuver
takes the fallback move (plan_moves.py).
"""

from __future__ import annotations

from app.rulesets.potham2038.activation_types import (
    ATTACK,
    CONFIRM_SHOT,
    INTERACT,
    MANEUVER,
    SCAN,
    Action,
    Seen,
)
from app.rulesets.potham2038.plan import Plan, inches, pick
from app.rulesets.potham2038.plan_moves import fallback


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
