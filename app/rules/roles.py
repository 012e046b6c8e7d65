"""The four AI-Bot roles (R-ROLE-*): slot 1 follows the Primary Directive, slot 2 another family.

Readings where the seeds leave a choice carry their own ids and are written up in
docs/rules.md § Activation (seed 000).
"""

from __future__ import annotations

import random

from app.rules.activation_types import Directive, Seen
from app.rules.plan import (
    Plan,
    approach,
    closest,
    fallback,
    fight_in_contact,
    inches,
    pick,
    respond,
    stand_up,
)


def hunter_target(plan: Plan) -> tuple[Seen | None, str]:
    """R-ROLE-HUNTER: closest inside its zone (LOS not needed), else closest in LOS."""
    bot = plan.bot
    inside = plan.zone()
    if inside:
        focus, plan.ties = closest(inside, plan)
        zone = inches(bot.control_zone)
        return focus, f"{focus.name} is the closest Character inside {bot.name}'s {zone} zone"
    visible = [c for c in plan.seen if c.line_of_sight]
    if visible:
        focus, plan.ties = closest(visible, plan)
        return focus, (f"No Character is inside {bot.name}'s zone and {focus.name} is the closest "
                       "Character in its line of sight")
    return None, ""


def hunter(plan: Plan, directive: Directive, rng: random.Random | None) -> None:
    focus, why = hunter_target(plan)
    if plan.bot.knocked_down:
        stand_up(plan)
        if respond(plan, focus, plan.seen) is None:
            if focus is None:
                fallback(plan, None, 0.0, False, rolled_direction(directive, rng))
            else:
                fallback(plan, focus.name, focus.reach)
        return
    if focus is None:
        random_move(plan, directive, rng)
        return
    if focus.reach <= 0:
        fight_in_contact(plan, focus)
        return
    approach(plan, focus.name, focus.reach, why, "R-ROLE-HUNTER", seen=focus)
    # R-HUNTER-SLOT2: melee if the move reached contact, else Shoot, else Scan, else the fallback.
    if respond(plan, focus, plan.seen) is None:
        fallback(plan, focus.name, plan.now(focus))


def rolled_direction(directive: Directive, rng: random.Random | None) -> int:
    """The given direction, else a d8 from the injected rng (a fresh one only when needed)."""
    if directive.direction is not None:
        return directive.direction
    return (rng or random.Random()).randint(1, 8)


def random_move(plan: Plan, directive: Directive, rng: random.Random | None) -> None:
    """R-ROLE-HUNTER: a full Walk in a rolled direction; R-HUNTER-RANDOM: the fallback goes on."""
    bot = plan.bot
    direction = rolled_direction(directive, rng)
    told = "given" if directive.direction is not None else "rolled"
    move = float(max(bot.run, bot.walk) if bot.full_throttle else bot.walk)
    if move <= 0:
        plan.notes.append(f"{bot.name} cannot move: its Walk and Run are 0.")
        return
    size = "a complete Run, forced by Full Throttle" if bot.full_throttle else "a full Walk"
    plan.add("random_move", None, move, f"No Character is inside {bot.name}'s zone or in its line of "
             f"sight, so it moves randomly: {size} of {inches(move)} in direction {direction} ({told}).",
             "R-ROLE-HUNTER", direction=direction)
    fallback(plan, None, 0.0, False, direction)


def sentry(plan: Plan, directive: Directive) -> None:
    bot = plan.bot
    subject = directive.subject or "its subject"
    away = directive.subject_distance or 0.0
    must_return = not directive.exempt and away > bot.walk
    if bot.knocked_down:
        stand_up(plan)
        if respond(plan, None, plan.zone()) is None and must_return:
            fallback(plan, subject, away)
        return
    touching = plan.touching()
    if touching:
        fight_in_contact(plan, pick(touching, plan))
    elif must_return:
        return_to_post(plan, subject, away)
    else:
        guard(plan, subject, away, directive.exempt)


def return_to_post(plan: Plan, subject: str, away: float) -> None:
    """R-SENTRY-RETURN: head back until within one Walk of the subject (Walk if one Walk gets it
    there, else Run, stopping at the subject's base); slot 2 deals with its zone, else the fallback
    while still outside one Walk."""
    bot = plan.bot
    reach = max(bot.run, bot.walk)
    if not bot.full_throttle and away - bot.walk <= bot.walk:
        action, move = "walk", float(bot.walk)
    else:
        action, move = "run", float(min(reach, away))
    if move <= 0:
        plan.notes.append(f"{bot.name} cannot move: its Walk and Run are 0.")
        return
    throttle = " (Full Throttle forces a complete Run)" if bot.full_throttle else ""
    plan.add(action, subject, move, f"{subject} is {inches(away)} away, more than one Walk "
             f"({inches(bot.walk)}), so {bot.name} {action}s {inches(move)} back toward it to be within "
             f"one Walk at the Phase 4 check{throttle}.", "R-ROLE-SENTRY")
    left = away - move
    if respond(plan, None, plan.zone()) is None and not (left > bot.walk and fallback(plan, subject, left)):
        plan.notes.append(f"Slot 2 stays empty: nothing to Scan or attack in {bot.name}'s zone.")


def guard(plan: Plan, subject: str, away: float, exempt: bool) -> None:
    """R-SENTRY-INTRUDER: at its post a Sentry charges the closest Character in its zone only when
    the charge surely ends within one Walk of its subject (subject distance + intruder distance
    ≤ Walk) or it is exempt; otherwise it shoots or Scans from its post. R-SENTRY-HOLD: nobody in
    its zone, it holds its post and takes no action."""
    bot = plan.bot
    intruders = plan.zone()
    if not intruders:
        plan.notes.append(f"No Character is inside {bot.name}'s zone and it is within one Walk of "
                          f"{subject}, so it holds its post (R-SENTRY-HOLD).")
        return
    focus, plan.ties = closest(intruders, plan)
    if exempt or away + focus.reach <= bot.walk:
        why = (f"{focus.name} is the closest Character inside {bot.name}'s zone and a charge keeps it "
               f"within one Walk of {subject}") if not exempt else (
               f"{focus.name} is the closest Character inside {bot.name}'s zone and it is exempt from "
               "the position check")
        approach(plan, focus.name, focus.reach, why, "R-SENTRY-INTRUDER", seen=focus)
        if respond(plan, focus, intruders) is None:
            fallback(plan, focus.name, plan.now(focus))
        return
    lead = f"Charging {focus.name} could take {bot.name} more than one Walk from {subject}: "
    first = respond(plan, focus, intruders, lead, "R-SENTRY-INTRUDER")
    if first is None:
        plan.notes.append(f"{bot.name} holds its post: it can neither shoot nor Scan {focus.name} "
                          "from there (R-SENTRY-INTRUDER).")
    elif respond(plan, first, intruders) is None:
        plan.notes.append(f"Slot 2 stays empty: leaving its post is not logical for {bot.name}.")


def interact(plan: Plan, obj: str, walked: bool) -> None:
    bot = plan.bot
    plan.add("activate", obj, None, (
        f"Having moved into base contact with {obj}, {bot.name} Interacts with it at once: Maneuver "
        "then Interact are different families, so both fit in one turn.") if walked else (
        f"{bot.name} is in base contact with {obj}, so it activates it at once (Interact)."),
        "R-ROLE-WORKER")


def engaged_or_unmeasured(plan: Plan, where: str, distance: float | None) -> bool:
    """Before a Worker or Patrol moves: in base contact it fights (R-CONTACT-MELEE); without a
    reported distance it does not move and only deals with its zone (R-ACT-UNKNOWN)."""
    touching = plan.touching()
    if touching:
        fight_in_contact(plan, pick(touching, plan))
        return True
    if distance is None:
        plan.notes.append(f"No distance to {where} was reported, so {plan.bot.name} does not move.")
        respond(plan, None, plan.zone())
        return True
    return False


def worker(plan: Plan, directive: Directive) -> None:
    """R-ROLE-WORKER; R-WORKER-SLOT2: with its object handled or out of reach, slot 2 deals with
    Characters in its zone (Melee, Shoot, Scan), else the fallback toward the object."""
    bot = plan.bot
    obj = directive.object or "its object"
    at_object = directive.object_contact or directive.object_distance == 0
    away = 0.0 if at_object else (directive.object_distance or 0.0)
    if bot.knocked_down:
        stand_up(plan)
        if at_object:
            interact(plan, obj, False)
        elif respond(plan, None, plan.zone()) is None:
            fallback(plan, obj, away)
        return
    if at_object:
        interact(plan, obj, False)
        respond(plan, None, plan.zone())
        return
    if engaged_or_unmeasured(plan, obj, directive.object_distance):
        return
    move = approach(plan, obj, away, f"{bot.name} works at {obj}, {inches(away)} away", "R-ROLE-WORKER")
    if move >= away > 0:
        interact(plan, obj, True)  # R-WORKER-RUN: a Run into contact leaves the Interact too
    elif move > 0 and respond(plan, None, plan.zone()) is None:
        fallback(plan, obj, away - move)


def patrol(plan: Plan, directive: Directive) -> None:
    """R-ROLE-PATROL; R-PATROL-SLOT2: slot 2 deals with Characters in its zone, else the fallback
    on toward the waypoint. `arrived` tells the turn engine to advance the waypoint."""
    bot = plan.bot
    waypoint = directive.waypoint or "its next waypoint"
    away = directive.waypoint_distance or 0.0
    if bot.knocked_down:
        stand_up(plan)
        if respond(plan, None, plan.zone()) is None and fallback(plan, waypoint, away, False):
            plan.arrived = plan.actions[-1].move >= away
        return
    if engaged_or_unmeasured(plan, waypoint, directive.waypoint_distance):
        return
    if away <= 0:
        plan.arrived = True
        plan.notes.append(f"{bot.name} is already at {waypoint}: the turn engine moves it on to the next.")
        respond(plan, None, plan.zone())
        return
    move = approach(plan, waypoint, away, f"{bot.name} patrols toward waypoint {waypoint}, "
                    f"{inches(away)} away", "R-ROLE-PATROL", has_base=False)
    plan.arrived = move >= away
    if move > 0 and respond(plan, None, plan.zone()) is None and not plan.arrived:
        if fallback(plan, waypoint, away - move, False):
            plan.arrived = move + plan.actions[-1].move >= away
