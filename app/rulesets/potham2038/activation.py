"""One AI-Bot's activation in Phase 2: the Marked it causes and its two actions.

`activate(bot, characters, directive, rng) -> Activation` is the whole public door; the four
roles' decisions live in roles.py, the shared action builders in plan_moves.py and plan_responses.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rulesets.potham2038 import roles
from app.rulesets.potham2038.activation_types import (
    ATTACK,
    INTERACT,
    MANEUVER,
    SCAN,
    Action,
    Activation,
    Activator,
    Directive,
    EmptySlot,
    Mark,
    Seen,
)
from app.rulesets.potham2038.idle import empty_slots
from app.rulesets.potham2038.models import Bot
from app.rulesets.potham2038.plan import Plan

__all__ = ["Seen", "Directive", "Activator", "Action", "Mark", "Activation", "EmptySlot", "activate",
           "activator_from_bot", "MANEUVER", "SCAN", "INTERACT", "ATTACK"]


def activator_from_bot(bot: Bot) -> Activator:
    """No Shoot pool or no range: no ranged weapon (R-CMB-SHOOT)."""
    armed = bot.shoot_range is not None and any(n > 0 for n in bot.shoot.values())
    return Activator(
        name=bot.name, role=bot.role, walk=bot.walk, run=bot.run, control_zone=bot.control_zone,
        points=bot.points, health=bot.health, shoot_range=bot.shoot_range if armed else None,
        has_ammo=not bot.out_of_ammo, knocked_down=bot.knocked_down, rebooted=bot.rebooted,
        full_throttle=bot.full_throttle, special_rules=tuple(bot.special_rules),
    )


def marks(bot: Activator, characters: Sequence[Seen]) -> tuple[Mark, ...]:
    """R-MARK-ACT: every Character inside the bot's zone gains +1 Marked, once per activation."""
    zone = bot.control_zone
    return tuple(Mark(c.name, 1, "R-MARK-ACT") for c in characters if c.base_contact or c.distance <= zone)


def activate(bot: Activator, characters: Sequence[Seen], directive: Directive,
             rng: random.Random | None = None) -> Activation:
    """The Marked the bot causes and up to two actions. `rng` is used only for a Hunter's random
    direction when `directive.direction` is not given (a fresh Random when none is injected)."""
    if bot.rebooted:  # R-GLITCH: Reboot stops every action, free ones included; it marks no one
        why = f"{bot.name} is rebooted: it takes no actions and marks no one this activation."
        return Activation(bot.name, (), (), notes=(why,),
                          empty=(EmptySlot(1, why, "R-GLITCH"), EmptySlot(2, why, "R-GLITCH")))
    plan = Plan(bot, characters)
    plan.choice = directive.tie_choice
    role = bot.role
    if role == "hunter":
        roles.hunter(plan, directive, rng)
    elif role == "sentry":
        roles.sentry(plan, directive)
    elif role == "worker":
        roles.worker(plan, directive)
    elif role == "patrol":
        roles.patrol(plan, directive)
    else:
        raise ValueError(f"unknown role {role!r}")
    return answer(plan, marks(bot, characters))


def answer(plan: Plan, marked: tuple[Mark, ...]) -> Activation:
    """Every absent slot carries its reason (item 15); a decision waiting for a fact (`needs`)
    has no actions, and its slots say what they wait for."""
    if plan.needs:
        why = " ".join(plan.notes)
        empty = (EmptySlot(1, why, "R-ROLE-PATROL"), EmptySlot(2, why, "R-ROLE-PATROL"))
    else:
        empty = empty_slots(plan)
    notes = tuple(plan.notes) + tuple(f"Slot {e.slot} stays empty: {e.reason}" for e in empty
                                      if not plan.needs)
    return Activation(plan.bot.name, marked, tuple(plan.actions), plan.ties, plan.arrived, notes,
                      empty, tuple(plan.reached), plan.next_waypoint, tuple(plan.needs))
