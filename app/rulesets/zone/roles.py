"""The four roles in range bands (Z-ROLE-*), deciding as in 2038 (R-ROLE-*)."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from app.rulesets.zone.brain import (
    Facts,
    Plan,
    Target,
    armed_for,
    attack,
    can_fight,
    closest,
    move,
    ready,
    second_slot,
)
from app.rulesets.zone.models import BAND_NAMES, Band, Npc, ZoneHouse, step


def hunter(plan: Plan, facts: Facts, rng: Random) -> None:
    """Z-ROLE-HUNTER (R-ROLE-HUNTER): the closest Character inside its zone (sight not needed),
    else the closest in its line of sight; nobody: it moves one step in a rolled direction."""
    inside, visible = plan.zone(), plan.visible()
    if inside:
        focus = closest(inside, plan)
        why = (
            f"{focus.name} is the closest Character inside {plan.npc.name}'s zone ({BAND_NAMES[focus.band]})"
        )
    elif visible:
        focus = closest(visible, plan)
        why = (
            f"No Character is inside {plan.npc.name}'s zone and {focus.name} is the closest in its "
            f"line of sight ({BAND_NAMES[focus.band]})"
        )
    else:
        random_move(plan, facts, rng)
        return
    attack(plan, focus, why, "Z-ROLE-HUNTER")


def random_move(plan: Plan, facts: Facts, rng: Random) -> None:
    """Z-HUNTER-RANDOM: a move in a d8 direction (given, else rolled), then it seeks cover."""
    direction = facts.direction or rng.randint(1, 8)
    told = "given" if facts.direction else "rolled"
    plan.add(
        "maneuver",
        "move",
        f"No Character is inside {plan.npc.name}'s zone or in its line of sight, so "
        f"it moves one range step in direction {direction} ({told}).",
        "Z-HUNTER-RANDOM",
        f"direction {direction}",
    )
    plan.add("maneuver", "seek_cover", "Nobody to attack: it seeks cover where it stops.", "Z-HUNTER-RANDOM")


def engaged(plan: Plan) -> bool:
    """Z-CONTACT (R-CONTACT-MELEE): a Worker or Patrol with a Character at Arm's Length fights it."""
    close = [t for t in plan.targets if t.band == "arms_length" and can_fight(plan.npc, t.band)]
    if not close:
        return False
    focus = closest(close, plan)
    attack(plan, focus, f"{focus.name} is at Arm's Length", "Z-CONTACT")
    return True


def asked(plan: Plan, band: Band | None, what: str) -> bool:
    """Z-FACTS: without the band to its goal the NPC does not move (nothing decided on a guess)."""
    if band is None:
        plan.needs.append(what)
        plan.notes.append(
            f"Say how far {plan.npc.name} is from {what.replace('_band', '').replace('_', ' ')} "
            "to decide its round."
        )
        return True
    return False


def sentry(plan: Plan, facts: Facts, rng: Random) -> None:
    """Z-ROLE-SENTRY (R-ROLE-SENTRY, R-SENTRY-RETURN, R-SENTRY-INTRUDER, R-SENTRY-HOLD): within
    one move of its subject (Near) it guards; further, it heads back; it charges an intruder only
    if the charge keeps it within Near of its subject, else shoots from its post or holds."""
    npc, subject = plan.npc, plan.npc.subject or "its subject"
    if asked(plan, facts.subject_band, "subject_band"):
        return
    away = facts.subject_band
    if step(away) > 1:
        after = move(
            plan, subject, away, f"{subject} is at {BAND_NAMES[away]}, further than Near", "Z-SENTRY-RETURN"
        )
        second_slot(plan, subject, after, "Z-SENTRY-RETURN", fight=False)
        return
    if charge_intruder(plan, subject, away):
        return
    shooters = [t for t in plan.visible() if armed_for(npc, t)]
    if shooters:
        attack(plan, closest(shooters, plan), f"{npc.name} holds its post at {subject}", "Z-SENTRY-HOLD")
        return
    plan.notes.append(f"{npc.name} holds its post at {subject}: nobody to reach from there (Z-SENTRY-HOLD).")


def charge_intruder(plan: Plan, subject: str, away) -> bool:
    """Z-SENTRY-INTRUDER: the closest Character inside its zone is charged when the charge keeps
    the Sentry within Near of its subject (or it is already in reach); else shot from the post if
    the Sentry can. False: no intruder it can attack."""
    npc, intruders = plan.npc, plan.zone()
    if not intruders:
        return False
    focus = closest(intruders, plan)
    if step(away) + step(focus.band) <= 1 or can_fight(npc, focus.band):
        why = (f"{focus.name} is the closest Character inside {npc.name}'s zone and a charge "
               f"keeps it within Near of {subject}")
    elif armed_for(npc, focus):
        why = f"Charging {focus.name} would take {npc.name} beyond Near of {subject}"
    else:
        return False
    attack(plan, focus, why, "Z-SENTRY-INTRUDER")
    return True


def worker(plan: Plan, facts: Facts, rng: Random) -> None:
    """Z-ROLE-WORKER (R-ROLE-WORKER): at Arm's Length of its object it uses it (the seed's "Use an
    item", a maneuver), its action free for a Character in reach (Z-SLOT2); otherwise it moves
    toward it, using it at once if the move gets there (Z-WORKER-ARRIVE)."""
    obj = plan.npc.object or "its object"
    if asked(plan, facts.object_band, "object_band"):
        return
    if engaged(plan):
        return
    away = facts.object_band
    if away == "arms_length":
        plan.add("maneuver", "use_item", f"{plan.npc.name} is at Arm's Length of {obj}: it uses it.",
                 "Z-ROLE-WORKER", obj)
        second_slot(plan, obj, away, "Z-ROLE-WORKER")
        return
    after = move(plan, obj, away, f"{plan.npc.name} works at {obj}, at {BAND_NAMES[away]}", "Z-ROLE-WORKER")
    if after == "arms_length":
        plan.add("maneuver", "use_item", f"Now at Arm's Length of {obj}, it uses it.", "Z-WORKER-ARRIVE", obj)
        return
    second_slot(plan, obj, after, "Z-ROLE-WORKER")


def patrol(plan: Plan, facts: Facts, rng: Random) -> None:
    """Z-ROLE-PATROL (R-ROLE-PATROL): toward its waypoint; standing on it (Arm's Length), toward
    the next one, whose band must be given."""
    npc = plan.npc
    route = npc.waypoints or ["its waypoint"]
    waypoint = route[npc.next_waypoint % len(route)]
    if asked(plan, facts.waypoint_band, "waypoint_band"):
        return
    if engaged(plan):
        return
    away = facts.waypoint_band
    if away == "arms_length" and len(route) > 1:
        plan.advance = True  # Z-PATROL-ROUTE: the next waypoint is its goal from now on
        waypoint = route[(npc.next_waypoint + 1) % len(route)]
        plan.notes.append(
            f"{npc.name} stands on {route[npc.next_waypoint % len(route)]}: it heads for {waypoint}."
        )
        if asked(plan, facts.next_waypoint_band, "next_waypoint_band"):
            return
        away = facts.next_waypoint_band
    if away == "arms_length":
        plan.notes.append(f"{npc.name} is on {waypoint}, its only waypoint.")
        second_slot(plan, waypoint, away, "Z-ROLE-PATROL")
        return
    after = move(
        plan, waypoint, away, f"{npc.name} patrols toward {waypoint}, at {BAND_NAMES[away]}", "Z-ROLE-PATROL"
    )
    second_slot(plan, waypoint, after, "Z-ROLE-PATROL")


ROLES: dict[str, Callable[[Plan, Facts, Random], None]] = {
    "hunter": hunter,
    "sentry": sentry,
    "worker": worker,
    "patrol": patrol,
}


def decide(npc: Npc, house: ZoneHouse, targets: list[Target], facts: Facts, rng: Random) -> Plan:
    """Z-ROUND: an NPC's round, with a reason and a rule id on every line; a broken NPC does
    nothing (Z-BROKEN)."""
    plan = Plan(npc, house, targets)
    if npc.broken:
        plan.notes.append(f"{npc.name} is broken ({', '.join(npc.broken_by())}) and takes no action.")
        return plan
    ready(plan)  # Z-PRONE, Z-PICK-UP: once, before its role decides
    if npc.grappled_by:
        held(plan)
        return plan
    ROLES[npc.role](plan, facts, rng)
    return plan


def held(plan: Plan) -> None:
    """Z-GRAPPLE: an NPC held in a grapple does not walk away (no move); it may fight the one
    holding it, at Arm's Length. Breaking free is the table's call (end_grapple)."""
    npc = plan.npc
    holder = next((t for t in plan.targets if t.character.id == npc.grappled_by), None)
    name = holder.name if holder else "the Character holding it"
    plan.notes.append(f"{npc.name} is held in a grapple by {name}: it cannot move away; it may only fight "
                      f"{name} (or the table lets it break free).")
    if holder is not None and can_fight(npc, "arms_length"):
        holder.band = "arms_length"
        plan.add("action", "fight", f"Held by {name}, it fights back at Arm's Length.", "Z-GRAPPLE", holder)
