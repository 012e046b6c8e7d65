"""A d20 NPC's turn: the four 2038 roles deciding the same way in the d20 economy.

`decide(npc, characters, orders, rng, house) -> Decision` is the public door. The mapping
(docs/rules-d20.md § The NPC brain): 2038's zone is the NPC's zone in squares (D20-ZONE); a
Walk is one Move of Speed squares, a Run is Move + Dash (the Action); "closest" counts squares;
the second action from another family becomes the Action after the Move, its priority an
attack that can do damage (D20-ACTION-PRIORITY), then the role's own use, then the Dash.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rulesets.d20.brain_plan import (
    Plan,
    attack_something,
    closest,
    dash,
    keep_distance,
    melee,
    move_toward,
    pick,
    squares,
)
from app.rulesets.d20.brain_types import SLOTS, Decision, Facts, Npc, Orders, Step, Unused
from app.rulesets.d20.brain_weapons import best
from app.rulesets.d20.conditions import budget
from app.rulesets.d20.models import HouseRules
from app.rulesets.d20.reactions import ready_reaction

HOUSE = HouseRules()
NO_ORDERS = Orders()


def decide(npc: Npc, characters: Sequence[Facts], orders: Orders = NO_ORDERS,
           rng: random.Random | None = None, house: HouseRules = HOUSE) -> Decision:
    turn = budget(npc.stats)
    if turn.skip:
        why = turn.why[0]
        unused = tuple(Unused(slot, why[0] + ".", why[1]) for slot in SLOTS)
        return Decision(npc.name, (), unused, notes=(why[0] + ".",))
    plan = Plan(npc, characters, turn, house)
    for text, rule in turn.why:
        plan.notes.append(f"{text} ({rule}).")
    stand_first(plan)
    ROLE[npc.role](plan, orders, rng)
    ready_reaction(plan)
    return answer(plan)


def stand_first(plan: Plan) -> None:
    """D20-COND-PRONE: a Prone NPC stands with its Minor before it moves; without a Minor it stays
    down and does not move (crawling is a Core rule the reference does not give)."""
    if not plan.turn.must_stand:
        return
    if plan.minor_free:
        plan.add(Step("minor", "stand", None, f"{plan.name} is Prone, so it stands up with its Minor.",
                      "D20-COND-PRONE"))
        plan.minor_free = False
    else:
        plan.move_left = 0
        plan.why["move"] = ("it is Prone with no Minor to stand up", "D20-COND-PRONE")


def hunter(plan: Plan, orders: Orders, rng: random.Random | None) -> None:
    """D20-ROLE-HUNTER: the closest Character in its zone, else the closest in line of sight; it
    closes in (Move), attacks if it can (Action), else Dashes on; nobody: D20-HUNTER-RANDOM."""
    inside = plan.zone()
    visible = [c for c in plan.seen if c.line_of_sight]
    if not inside and not visible:
        random_move(plan, orders, rng)
        return
    focus, plan.ties = closest(inside or visible, plan)
    why = (f"{focus.name} is the closest Character inside {plan.name}'s {squares(plan.npc.zone)} zone"
           if inside else f"nobody is inside {plan.name}'s zone and {focus.name} is the closest Character "
           "in its line of sight")
    if plan.adjacent(focus):
        plan.why["move"] = (f"it is already next to {focus.name}", "D20-CONTACT-MELEE")
    elif keep_distance(plan, focus, why[0].upper() + why[1:]):
        return
    else:
        move_toward(plan, focus.name, focus.distance, why[0].upper() + why[1:], "D20-ROLE-HUNTER",
                    seen=focus)
    if not attack_something(plan, focus):
        dash(plan, focus.name, plan.now(focus) - plan.house.reach)


def random_move(plan: Plan, orders: Orders, rng: random.Random | None) -> None:
    direction = orders.direction
    if direction is None:
        direction = (rng or random.Random()).randint(1, 8)
    told = "given" if orders.direction is not None else "rolled"
    if plan.move_left <= 0:
        plan.notes.append(f"Nobody is in {plan.name}'s zone or line of sight and it cannot move.")
        return
    plan.add(Step("move", "random_move", None, f"Nobody is inside {plan.name}'s zone or in its line of "
                  f"sight, so it moves randomly: {squares(plan.move_left)} in direction {direction} "
                  f"({told}).",
                  "D20-HUNTER-RANDOM", squares=plan.move_left, direction=direction))
    plan.moved, plan.move_left = plan.move_left, 0
    dash(plan, None, 0, direction)


def sentry(plan: Plan, orders: Orders, rng: random.Random | None) -> None:
    """D20-ROLE-SENTRY: stay within one Move of its subject; adjacent, it fights (D20-CONTACT-MELEE)."""
    subject = orders.subject or "its subject"
    away = orders.subject_distance
    if plan.touching():
        hold_melee(plan, "leaving would provoke an Attack of Opportunity")
    elif away is None:  # D20-FACTS: a fact never given is never assumed (it was 0)
        plan.needs.append("subject_distance")
        plan.notes.append(f"Give the squares from {plan.name} to {subject}: its turn waits for them.")
    elif not orders.exempt and away > plan.npc.stats.speed:
        moved = move_toward(plan, subject, away, f"{subject} is {squares(away)} away, more than one Move "
                            f"({squares(plan.npc.stats.speed)})", "D20-SENTRY-RETURN")
        if not attack_something(plan, None) and away - moved > plan.npc.stats.speed:
            dash(plan, subject, away - moved)
    else:
        guard(plan, subject, away, orders.exempt)


def guard(plan: Plan, subject: str, away: int, exempt: bool) -> None:
    """D20-SENTRY-INTRUDER: charge the closest Character in its zone only when the charge surely
    ends within one Move of its subject (or it is exempt), else shoot from its post;
    D20-SENTRY-HOLD: nothing to attack, it holds its post on Overwatch (with a ranged weapon)."""
    intruders = plan.zone()
    plan.why["move"] = (f"leaving its post at {subject} is not logical", "D20-SENTRY-HOLD")
    if intruders:
        focus, plan.ties = closest(intruders, plan)
        reach = plan.now(focus) - plan.house.reach
        choice = best(plan, focus)  # D20-BRAIN-WEAPON: a charge only when melee does best
        may_charge = exempt or away + reach <= plan.npc.stats.speed
        if may_charge and (choice is None or choice.melee):
            move_toward(plan, focus.name, focus.distance, f"{focus.name} is the closest Character inside "
                        f"{plan.name}'s zone and a charge keeps it within one Move of {subject}",
                        "D20-SENTRY-INTRUDER", seen=focus)
            attack_something(plan, focus)
            return
        lead, rule = (f"Charging {focus.name} could take {plan.name} more than one Move from {subject}: ",
                      "D20-SENTRY-INTRUDER")
        if may_charge and choice is not None:
            lead, rule = (f"{focus.name} is inside {plan.name}'s zone and its {choice.weapon.name} does "
                          f"better than a charge: ", "D20-BRAIN-WEAPON")
        if attack_something(plan, focus, lead, rule):
            return
    elif attack_something(plan, None):
        return
    overwatch(plan, subject)


def overwatch(plan: Plan, subject: str) -> None:
    if not plan.action_free:
        return
    if not any(w.kind != "melee" for w in plan.npc.stats.weapons):
        plan.why["action"] = (f"nobody is in reach and it holds its post at {subject}", "D20-SENTRY-HOLD")
        return
    plan.add(Step("action", "overwatch", subject, f"Nobody can be attacked from {plan.name}'s post at "
                  f"{subject}, so it holds it on Overwatch (its Action).", "D20-SENTRY-HOLD"))
    plan.action_free = False


def hold_melee(plan: Plan, why: str) -> None:
    """D20-CONTACT-MELEE: next to a Character the NPC stays and fights."""
    plan.why["move"] = (f"it is next to a Character and {why} unless it Disengages, which costs the "
                        "Action it attacks with", "D20-AOO")
    melee(plan, None)


def interact(plan: Plan, obj: str, minor: bool) -> bool:
    slot = "minor" if minor else "action"
    if not (plan.minor_free if minor else plan.action_free):
        return False
    how = "a Minor: a device or a door" if minor else "an Action: Interact"
    plan.add(Step(slot, "interact", obj, f"{plan.name} is at {obj}, so it works it ({how}).",
                  "D20-ROLE-WORKER"))
    if minor:
        plan.minor_free = False
    else:
        plan.action_free = False
    return True


def worker(plan: Plan, orders: Orders, rng: random.Random | None) -> None:
    """D20-ROLE-WORKER: move to its object and work it (an Action, or a Minor for a device). At
    its object it works it first, as 2038's Worker in contact with its object Interacts in slot 1
    (its Primary Directive), and attacks with what is left."""
    obj = orders.object or "its object"
    if orders.object_distance == 0:
        plan.why["move"] = (f"it works at {obj}", "D20-ROLE-WORKER")
        interact(plan, obj, orders.object_minor)
        attack_something(plan, None)
        return
    if plan.touching():
        hold_melee(plan, "leaving would provoke an Attack of Opportunity")
        return
    if orders.object_distance is None:
        plan.why["move"] = (f"no distance to {obj} was given", "D20-FACTS")
        attack_something(plan, None)
        return
    away = orders.object_distance
    moved = move_toward(plan, obj, away, f"{plan.name} works at {obj}, {squares(away)} away",
                        "D20-ROLE-WORKER")
    if moved >= away and interact(plan, obj, orders.object_minor):
        attack_something(plan, None)
        return
    if attack_something(plan, None) or not dash(plan, obj, away - moved):
        return
    if orders.object_minor and moved + plan.npc.stats.speed >= away:
        interact(plan, obj, True)  # a Dash into reach still leaves the Minor for a device


def patrol(plan: Plan, orders: Orders, rng: random.Random | None) -> None:
    """D20-ROLE-PATROL: on toward its waypoint; standing on it, toward the next one (its distance
    asked, never guessed); adjacent, it fights."""
    waypoint, distance = orders.waypoint or "its waypoint", orders.waypoint_distance
    if plan.touching():
        hold_melee(plan, "leaving would provoke an Attack of Opportunity")
        return
    if distance == 0:
        plan.reached.append(waypoint)
        waypoint, distance = orders.next_waypoint or "its next waypoint", orders.next_waypoint_distance
        plan.next_waypoint = orders.next_waypoint
        if distance is None:
            plan.needs.append("next_waypoint_distance")
            plan.notes.append(f"{plan.name} stands on {orders.waypoint}: give the squares to {waypoint}.")
            return
    if distance is None:
        plan.why["move"] = (f"no distance to {waypoint} was given", "D20-FACTS")
        attack_something(plan, None)
        return
    moved = move_toward(plan, waypoint, distance, f"{plan.name} patrols toward {waypoint}, "
                        f"{squares(distance)} away", "D20-ROLE-PATROL")
    if not attack_something(plan, None):
        dash(plan, waypoint, distance - moved)
    covered = sum(s.squares or 0 for s in plan.steps
                  if s.target == waypoint and s.action in ("move", "dash"))
    if covered >= distance > 0:
        plan.reached.append(waypoint)


ROLE = {"hunter": hunter, "sentry": sentry, "worker": worker, "patrol": patrol}

DEFAULT_WHY = {"minor": ("nothing needs a Minor: no weapon to draw, not Prone", "D20-TURN"),
               "move": ("its role gives it nowhere to go", "D20-TURN"),
               "action": ("nothing legal or logical is left for its Action", "D20-ACTION-PRIORITY")}


def answer(plan: Plan) -> Decision:
    used = {s.slot for s in plan.steps}
    unused = []
    for slot in ("minor", "move", "action"):
        if slot not in used:
            text, rule = plan.why.get(slot) or plan_why(plan, slot)
            unused.append(Unused(slot, f"{text[0].upper()}{text[1:]}.", rule))
    return Decision(plan.name, tuple(plan.steps), tuple(unused), plan.ties, tuple(plan.notes),
                    tuple(plan.reached), plan.next_waypoint, tuple(plan.needs))


def plan_why(plan: Plan, slot: str) -> tuple[str, str]:
    if slot in plan.npc.stats.spent:
        return f"its {slot.title()} is already spent this turn", "D20-TURN-BUDGET"
    if slot == "action" and not plan.turn.action:
        return "it is Stunned: it loses its Action", "D20-COND-STUNNED"
    if slot == "minor" and not plan.turn.minor:
        return "it Glitched: it loses its Minor", "D20-GLITCH"
    if slot == "move" and plan.turn.move <= 0:
        return "its Speed is 0", "D20-COND-GRAPPLED"
    if "subject_distance" in plan.needs:
        return "it waits for the squares to its subject", "D20-FACTS"
    if plan.needs:
        return "it waits for the squares to its next waypoint", "D20-ROLE-PATROL"
    return DEFAULT_WHY[slot]


__all__ = ["decide", "Decision", "Facts", "Npc", "Orders", "pick"]
