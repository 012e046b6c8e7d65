"""Moving, for the four roles: Walk or Run toward a target, Stand Up, the fallback Maneuver.

Each adds its action to the activation's `Plan` (plan.py) with the reason and the rule id.
"""

from __future__ import annotations

from app.rulesets.potham2038.activation_types import MANEUVER, Activator, Seen
from app.rulesets.potham2038.plan import Plan, inches


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
