"""Why a slot stays empty: every absent action is explained on the decision card.

docs/api.md: "A slot may be absent when nothing legal or logical is left and the fallback is not
taken." The reason names, family by family, what the bot could not do: the role's own reason
when it gave one (`Plan.why`), else what the facts show (R-ACT-FALLBACK).
"""

from __future__ import annotations

from app.rulesets.potham2038.activation_types import ATTACK, INTERACT, MANEUVER, SCAN, EmptySlot
from app.rulesets.potham2038.plan import Plan, inches
from app.rulesets.potham2038.plan_responses import shoot_targets


def empty_slots(plan: Plan, rule: str = "R-ACT-FALLBACK") -> tuple[EmptySlot, ...]:
    """One EmptySlot per absent slot (slots are filled in order, so the absent ones are last)."""
    missing = range(len(plan.actions) + 1, 3)
    if not missing:
        return ()
    reason = idle_reason(plan)
    return tuple(EmptySlot(slot, reason, rule) for slot in missing)


def idle_reason(plan: Plan) -> str:
    """'Nothing legal or logical is left for X in an unused family: <family>: <why>; …'."""
    clauses = [f"{label}: {why(plan)}" for family, label, why in FAMILIES if family not in plan.used]
    if MANEUVER in plan.used and not any(a.fallback for a in plan.actions):
        clauses.insert(0, f"no fallback move: {plan.why.get(MANEUVER, 'it has nowhere left to go')}")
    return (f"Nothing legal or logical is left for {plan.bot.name} in an unused family: "
            + "; ".join(clauses) + ".")


def no_move(plan: Plan) -> str:
    return plan.why.get(MANEUVER, "its directive gives it nowhere to move")


def no_attack(plan: Plan) -> str:
    if ATTACK in plan.why:
        return plan.why[ATTACK]
    bot = plan.bot
    if bot.shoot_range is None:
        return "no Character in base contact, and no ranged weapon"
    if not plan.loaded:
        return "its weapon is out of ammunition"
    known, unsure = shoot_targets(plan)
    if known or unsure:  # a target, yet no Shoot: only base contact forbids it (R-CMB-SHOOT)
        return "it is in base contact, so it cannot Shoot"
    measured = " as measured before it moved" if plan.moved > 0 else ""
    return f"no Character in line of sight within its {inches(bot.shoot_range)} range{measured}"


def no_scan(plan: Plan) -> str:
    if SCAN in plan.why:
        return plan.why[SCAN]
    zone = inches(plan.bot.control_zone)
    if plan.moved > 0:
        return (f"no Character known to be both in line of sight and inside its {zone} zone "
                "after its move (only the distance to what it moved toward is known)")
    return f"no Character both in line of sight and inside its {zone} zone"


def no_interact(plan: Plan) -> str:
    if INTERACT in plan.why:
        return plan.why[INTERACT]
    if plan.bot.shoot_range is None:
        return "nothing to Interact with (no weapon to Reload)"
    return "nothing to Interact with (its weapon is loaded)"


FAMILIES = ((MANEUVER, "Maneuver", no_move), (ATTACK, "Attack", no_attack), (SCAN, "Scan", no_scan),
            (INTERACT, "Interact", no_interact))
