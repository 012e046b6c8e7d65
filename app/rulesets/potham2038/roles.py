"""The four AI-Bot roles (R-ROLE-*): slot 1 follows the Primary Directive, slot 2 another family.

Readings where the seeds leave a choice carry their own ids and are written up in
docs/rules.md § Activation (seed 000).
"""

from __future__ import annotations

import random
from dataclasses import replace as dc_replace

from app.rulesets.potham2038.activation_types import ATTACK, INTERACT, MANEUVER, SCAN, Directive, Seen
from app.rulesets.potham2038.plan import Plan, closest, inches, pick
from app.rulesets.potham2038.plan_moves import approach, cannot_move, stand_up
from app.rulesets.potham2038.plan_responses import fight_in_contact, finish


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
    """R-ROLE-HUNTER; R-HUNTER-SLOT2: after the move, melee if it reached contact, else Shoot,
    else Scan, else Reload, else the fallback on toward its target."""
    focus, why = hunter_target(plan)
    if plan.bot.knocked_down:
        stand_up(plan)
        if focus is None:
            finish(plan, None, direction=rolled_direction(directive, rng))
        else:
            finish(plan, focus, focus.name, focus.reach)
        return
    if focus is None:
        random_move(plan, directive, rng)
        return
    if focus.reach <= 0:
        fight_in_contact(plan, focus)
        return
    approach(plan, focus.name, focus.reach, why, "R-ROLE-HUNTER", seen=focus)
    finish(plan, focus, focus.name, plan.now(focus))


def rolled_direction(directive: Directive, rng: random.Random | None) -> int:
    """The given direction, else a d8 from the injected rng (a fresh one only when needed)."""
    if directive.direction is not None:
        return directive.direction
    return (rng or random.Random()).randint(1, 8)


def random_move(plan: Plan, directive: Directive, rng: random.Random | None) -> None:
    """R-ROLE-HUNTER: a full Walk in a rolled direction; R-HUNTER-RANDOM: the fallback goes on
    (after a Reload when its weapon is empty: R-ACT-RELOAD)."""
    bot = plan.bot
    plan.why[ATTACK] = plan.why[SCAN] = "no Character is inside its zone or in its line of sight"
    direction = rolled_direction(directive, rng)
    told = "given" if directive.direction is not None and not directive.direction_rolled else "rolled"
    run = bot.full_throttle or bot.walk <= 0  # Walk 0 but Run > 0: it still moves, by Running
    move = float(max(bot.run, bot.walk) if run else bot.walk)
    if move <= 0:
        cannot_move(plan)
        finish(plan)
        return
    size = ("a complete Run, forced by Full Throttle" if bot.full_throttle else
            "a Run, as its Walk is 0" if run else "a full Walk")
    plan.add("random_move", None, move, f"No Character is inside {bot.name}'s zone or in its line of "
             f"sight, so it moves randomly: {size} of {inches(move)} in direction {direction} ({told}).",
             "R-ROLE-HUNTER", direction=direction)
    plan.moved_toward(None, move)
    finish(plan, None, direction=direction)


def sentry(plan: Plan, directive: Directive) -> None:
    bot = plan.bot
    subject = directive.subject or "its subject"
    away = directive.subject_distance or 0.0
    must_return = not directive.exempt and away > bot.walk
    if bot.knocked_down:
        stand_up(plan)
        plan.why[MANEUVER] = f"it is within one Walk of {subject}"
        finish(plan, None, subject if must_return else None, away)
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
    there, else Run, stopping at the subject's base); the other slot as R-SLOT2-PRIORITY, else
    the fallback while still outside one Walk."""
    bot = plan.bot
    reach = max(bot.run, bot.walk)
    if not bot.full_throttle and away - bot.walk <= bot.walk:
        action, move = "walk", float(bot.walk)
    else:
        action, move = "run", float(min(reach, away))
    if move <= 0:
        cannot_move(plan)
        finish(plan)
        return
    throttle = " (Full Throttle forces a complete Run)" if bot.full_throttle else ""
    plan.add(action, subject, move, f"{subject} is {inches(away)} away, more than one Walk "
             f"({inches(bot.walk)}), so {bot.name} {action}s {inches(move)} back toward it to be within "
             f"one Walk at the Phase 4 check{throttle}.", "R-ROLE-SENTRY")
    plan.moved_toward(subject, move)
    left = away - move
    plan.why[MANEUVER] = f"it is within one Walk of {subject} again"
    finish(plan, None, subject if left > bot.walk else None, left)


def guard(plan: Plan, subject: str, away: float, exempt: bool) -> None:
    """R-SENTRY-INTRUDER: at its post a Sentry charges the closest Character in its zone only when
    the charge surely ends within one Walk of its subject (subject distance + intruder distance
    ≤ Walk) or it is exempt; otherwise it shoots or Scans from its post. R-SENTRY-HOLD: nobody in
    its zone, it holds its post, shooting from there (R-ACT-SHOOT-ANY) rather than standing idle."""
    bot = plan.bot
    intruders = plan.zone()
    plan.why[MANEUVER] = f"leaving its post at {subject} is not logical (R-SENTRY-HOLD)"
    if not intruders:
        plan.notes.append(f"No Character is inside {bot.name}'s zone and it is within one Walk of "
                          f"{subject}, so it holds its post (R-SENTRY-HOLD).")
        finish(plan)
        return
    focus, plan.ties = closest(intruders, plan)
    if exempt or away + focus.reach <= bot.walk:
        why = (f"{focus.name} is the closest Character inside {bot.name}'s zone and a charge keeps it "
               f"within one Walk of {subject}") if not exempt else (
               f"{focus.name} is the closest Character inside {bot.name}'s zone and it is exempt from "
               "the position check")
        approach(plan, focus.name, focus.reach, why, "R-SENTRY-INTRUDER", seen=focus)
        finish(plan, focus, focus.name, plan.now(focus))
        return
    lead = f"Charging {focus.name} could take {bot.name} more than one Walk from {subject}: "
    finish(plan, focus, lead=lead, rule="R-SENTRY-INTRUDER")
    if not plan.actions:
        plan.notes.append(f"{bot.name} holds its post: it can neither shoot nor Scan {focus.name} "
                          "from there (R-SENTRY-INTRUDER).")


def interact(plan: Plan, obj: str, walked: bool) -> None:
    bot = plan.bot
    plan.add("activate", obj, None, (
        f"Having moved into base contact with {obj}, {bot.name} Interacts with it at once: Maneuver "
        "then Interact are different families, so both fit in one turn.") if walked else (
        f"{bot.name} is in base contact with {obj}, so it activates it at once (Interact)."),
        "R-ROLE-WORKER")


def engaged_or_unmeasured(plan: Plan, where: str, distance: float | None) -> bool:
    """Before a Worker or Patrol moves: in base contact it fights (R-CONTACT-MELEE); without a
    reported distance it does not move and only deals with Characters (R-ACT-UNKNOWN)."""
    touching = plan.touching()
    if touching:
        fight_in_contact(plan, pick(touching, plan))
        return True
    if distance is None:
        plan.notes.append(f"No distance to {where} was reported, so {plan.bot.name} does not move.")
        plan.why[MANEUVER] = f"no distance to {where} was reported (R-ACT-UNKNOWN)"
        finish(plan)
        return True
    return False


def worker(plan: Plan, directive: Directive) -> None:
    """R-ROLE-WORKER; R-WORKER-SLOT2: with its object handled or out of reach, the other slot
    deals with Characters (R-SLOT2-PRIORITY, R-ACT-SHOOT-ANY), else the fallback toward the object."""
    bot = plan.bot
    obj = directive.object or "its object"
    at_object = directive.object_contact or directive.object_distance == 0
    away = 0.0 if at_object else (directive.object_distance or 0.0)
    plan.why[INTERACT] = f"{obj} is out of reach"
    if at_object:
        plan.why[MANEUVER] = f"it works at {obj}, in base contact"
    if bot.knocked_down:
        stand_up(plan)
        if at_object:
            interact(plan, obj, False)
        finish(plan, None, None if at_object else obj, away)
        return
    if at_object:
        interact(plan, obj, False)
        finish(plan)
        return
    if engaged_or_unmeasured(plan, obj, directive.object_distance):
        return
    move = approach(plan, obj, away, f"{bot.name} works at {obj}, {inches(away)} away", "R-ROLE-WORKER")
    if move >= away > 0:
        interact(plan, obj, True)  # R-WORKER-RUN: a Run into contact leaves the Interact too
        return
    finish(plan, None, obj if move > 0 else None, away - move)


def patrol(plan: Plan, directive: Directive) -> None:
    """R-ROLE-PATROL; R-PATROL-SLOT2: the other slot deals with Characters (R-SLOT2-PRIORITY,
    R-ACT-SHOOT-ANY), else the fallback on toward the waypoint. Standing on its waypoint it
    heads for the next one, whose distance must be given: without it nothing is decided and
    `needs` asks for it (no decision on a guess)."""
    waypoint = directive.waypoint or "its next waypoint"
    distance = directive.waypoint_distance
    if distance == 0 and not plan.touching():
        plan.reached.append(waypoint)
        follow = directive.next_waypoint
        if follow is None or follow != waypoint:  # one waypoint only: it stays on it
            waypoint, distance = follow or "its next waypoint", directive.next_waypoint_distance
            if distance is None:
                wait_for_next_waypoint(plan, directive.waypoint or "its waypoint", waypoint)
                return
            # R-PATROL-NEXT: reaching that one, it goes on toward the one after (distance unknown)
            directive = dc_replace(directive, waypoint=waypoint, waypoint_distance=distance,
                                   next_waypoint=directive.waypoint_after_next, next_waypoint_distance=None)
    plan.next_waypoint = waypoint if plan.reached else None
    patrol_toward(plan, waypoint, distance, directive)
    if len(plan.reached) > 1 and plan.next_waypoint == plan.reached[-1]:
        plan.next_waypoint = None  # it reached that one too; the one after is not known here


def wait_for_next_waypoint(plan: Plan, here: str, follow: str) -> None:
    """R-ROLE-PATROL: the move toward the next waypoint needs its distance, asked, never guessed."""
    plan.next_waypoint = None if follow == "its next waypoint" else follow
    plan.needs.append("next_waypoint_distance")
    plan.notes.append(f"{plan.bot.name} stands on {here}, so it heads for {follow} next: measure the "
                      f"distance from it to {follow} to decide its actions.")


def patrol_toward(plan: Plan, waypoint: str, distance: float | None, directive: Directive) -> None:
    bot = plan.bot
    away = distance or 0.0
    if bot.knocked_down:
        stand_up(plan)
        plan.why[MANEUVER] = f"it is at {waypoint}"
        finish(plan, None, waypoint, away, has_base=False)
        note_arrival(plan, waypoint, away)
        return
    if engaged_or_unmeasured(plan, waypoint, distance):
        return
    if away <= 0:  # its only waypoint (or a next one 0" away): it stays on it
        plan.why[MANEUVER] = f"it is on {waypoint}" + _only(directive, waypoint)
        finish(plan)
        return
    move = approach(plan, waypoint, away, f"{bot.name} patrols toward waypoint {waypoint}, "
                    f"{inches(away)} away", "R-ROLE-PATROL", has_base=False)
    plan.why[MANEUVER] = f"it reaches {waypoint}" if move >= away else "half its Walk is 0"
    arrives = 0 < away <= move
    follow = directive.next_waypoint if arrives and directive.next_waypoint != waypoint else None
    if arrives and follow is None:
        plan.why[MANEUVER] = f"it reaches {waypoint}" + _only(directive, waypoint)
    if follow is not None:  # R-PATROL-ARRIVE: the 50% Walk goes on toward the next waypoint
        onward = directive.next_waypoint_distance
        finish(plan, None, follow, float("inf") if onward is None else onward, has_base=False)
        plan.next_waypoint = follow
    else:
        finish(plan, None, waypoint if 0 < move < away else None, away - move, has_base=False)
    note_arrival(plan, waypoint, away)


def _only(directive: Directive, waypoint: str) -> str:
    """R-PATROL-NEXT: "its only waypoint" only when the route says so, never when it has more."""
    if directive.next_waypoint == waypoint:
        return ", its only waypoint"
    return ", and the waypoint after it is not named" if directive.next_waypoint is None else ""


def note_arrival(plan: Plan, waypoint: str, away: float) -> None:
    """`reached` gains the waypoint when the moves toward it cover its distance (R-PATROL-ROUTE)."""
    moved = sum(a.move or 0.0 for a in plan.actions if a.target == waypoint and a.family == "maneuver")
    if away > 0 and moved >= away:
        plan.reached.append(waypoint)
