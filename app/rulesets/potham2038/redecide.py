"""Phase 3 re-decision: seed 001 § Resolve eligible fallback actions, "Use remaining actions in a
different family where legal. ... Movement and combat still belong to their respective phases".

  redecide  {bot_id, slot, action: scan|reload|interact|fallback, character_id?, line_of_sight,
             in_zone, object?, object_contact}

A decided action that became impossible when it came to resolve (a Shoot with no line of sight
after all: R-ACT-FACTS, or at a Character now out of action: R-CMB-TARGET-FACTS), or an open slot,
becomes another legal action in an unused family: a Scan of a Character the player sees in line
of sight and zone, a Reload of an empty weapon, an Interact with an object in base contact.
R-PHASE-MOVE: never a movement in Phase 3, so `fallback` (the 50% Walk) is refused here: the slot
stays empty with its reason (the fallback Maneuver is decided in Phase 2, as the activation does).
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.models import Bot, DecidedAction, GameState
from app.rulesets.potham2038.play import (
    Result,
    add_marked,
    bot_of,
    character_of,
    offline,
    replace,
    require_play,
)
from app.rulesets.potham2038.slots import family_used, put_action

FAMILY = {"scan": "scan", "reload": "interact", "interact": "interact", "fallback": "maneuver"}


class Redecide(Body):
    bot_id: str
    slot: int = Field(ge=1, le=2)
    action: Literal["scan", "reload", "interact", "fallback"]  # fallback: refused (R-PHASE-MOVE)
    character_id: str | None = None  # the Scan's Character
    line_of_sight: bool = False  # the Scan's facts, reported now (R-SCAN, R-LOS)
    in_zone: bool = False
    object: str | None = Field(default=None, min_length=1, max_length=80)  # the Interact's object
    object_contact: bool = False  # the Interact's fact: the bot is in base contact with it


def _slot_to_use(state: GameState, bot: Bot, body: Redecide) -> None:
    decision = state.decision(bot.id)
    if decision is None or bot.health <= 0:
        raise Refused(f"{bot.name} has not activated this turn, so it has no action to use.", "R-ACT-TWO")
    if offline(state, bot):
        raise Refused(f"{bot.name} is rebooted: it takes no actions at all.", "R-GLITCH-REBOOT")
    current = next((a for a in decision.actions if a.slot == body.slot and not a.free), None)
    if current is not None and current.status == "done":
        what = current.action.replace("_", " ")
        raise Refused(f"{bot.name}'s action {body.slot} ({what}) is already done.", "R-ACT-TWO")
    family = FAMILY[body.action]
    if body.action != "fallback" and family_used(state, bot.id, family, but=body.slot):
        raise Refused(f"{bot.name} has already used its {family.title()} action this turn (one per family).",
                      "R-ACT-TWO")


def _scan(state: GameState, bot: Bot, body: Redecide) -> tuple[GameState, DecidedAction, list[Entry]]:
    if not body.character_id:
        raise Refused("Name the Character the bot Scans.", "R-SCAN")
    character = character_of(state, body.character_id)
    if character.health <= 0 or not (body.line_of_sight and body.in_zone):
        raise Refused(f"A Scan needs {character.name} both in {bot.name}'s line of sight and inside its "
                      f"{bot.control_zone:g}\" zone.", "R-SCAN")
    state, said = add_marked(state, character, 1, f"{bot.name} scans {character.name} instead", "R-SCAN")
    action = DecidedAction(slot=body.slot, family="scan", action="scan", phase=3, target=character.name,
                           target_id=character.id, rule="R-SCAN", status="done",
                           reason=f"Re-decided in Phase 3: {character.name} is in line of sight and zone.")
    return state, action, said


def _reload(state: GameState, bot: Bot, body: Redecide) -> tuple[GameState, DecidedAction, list[Entry]]:
    if bot.shoot_range is None or not sum(bot.shoot.values()):
        raise Refused(f"{bot.name} has no ranged weapon to reload.", "R-ACT-TWO")
    if not bot.out_of_ammo:
        raise Refused(f"{bot.name} is not out of ammo: nothing to reload.", "R-ACT-TWO")
    state = replace(state, bot.model_copy(update={"out_of_ammo": False}))
    action = DecidedAction(slot=body.slot, family="interact", action="reload", phase=3, rule="R-ACT-TWO",
                           status="done",
                           reason="Re-decided in Phase 3: Reload (an Interact) clears Out of Ammo.")
    return state, action, [Entry(f"{bot.name} reloads: no longer out of ammo.", "R-ACT-TWO")]


def _interact(state: GameState, bot: Bot, body: Redecide) -> tuple[GameState, DecidedAction, list[Entry]]:
    """An Interact (open/close, activate, search) with an object the bot is in base contact with."""
    name = body.object or bot.object
    if not name:
        raise Refused("Name the object the bot Interacts with.", "R-PHASE-MOVE")
    if not body.object_contact:
        raise Refused(f"An Interact needs {bot.name} in base contact with {name}; it cannot move there in "
                      "Phase 3 (movement belongs to Phase 2).", "R-PHASE-MOVE")
    action = DecidedAction(slot=body.slot, family="interact", action="activate", phase=3, target=name,
                           rule="R-PHASE-MOVE", status="done",
                           reason=f"Re-decided in Phase 3: {bot.name} is in base contact with {name}.")
    return state, action, [Entry(f"{bot.name} interacts with {name}.", "R-PHASE-MOVE")]


def _fallback(state: GameState, bot: Bot, body: Redecide) -> tuple[GameState, DecidedAction, list[Entry]]:
    """R-PHASE-MOVE: the 50% Walk fallback is a movement, and movement belongs to Phase 2."""
    raise Refused(f"No movement in Phase 3: {bot.name}'s slot {body.slot} may become a Scan, a Reload or an "
                  "Interact where legal, else it stays empty (seed 001: \"Movement and combat still belong "
                  "to their respective phases\").", "R-PHASE-MOVE")


BUILD = {"scan": _scan, "reload": _reload, "interact": _interact, "fallback": _fallback}


@command("redecide", Redecide)
def redecide(state: GameState, body: Redecide, rng: Random) -> Result:
    require_play(state, 3, what="Re-deciding an action")
    bot = bot_of(state, body.bot_id)
    _slot_to_use(state, bot, body)
    state, action, entries = BUILD[body.action](state, bot, body)
    said = Entry(f"{bot.name}'s action {body.slot} becomes {body.action.replace('_', ' ')} (seed 001: use "
                 "remaining actions in a different family where legal).", action.rule)
    return put_action(state, bot.id, action), [said, *entries]
