"""Phase 3 re-decision: seed 001 § Resolve eligible fallback actions, "Use remaining actions in a
different family where legal. If no legal or logical unused family remains, the stated 50% Walk
fallback Maneuver is available."

  redecide  {bot_id, slot, action: scan|reload|fallback, character_id?, line_of_sight, in_zone}

A decided action that became impossible when it came to resolve (a Shoot with no line of sight
after all: R-ACT-FACTS), or an open slot, becomes another legal action in an unused family: a Scan
of a Character the player sees in line of sight and zone, a Reload of an empty weapon; else the
fallback half-Walk. The player reports the facts; the app checks the families and the rest.
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field

from app.rules.commands import Body, Entry, Refused, command
from app.rules.models import Bot, DecidedAction, GameState
from app.rules.play import Result, add_marked, bot_of, character_of, offline, replace, require_play
from app.rules.slots import family_used, put_action

FAMILY = {"scan": "scan", "reload": "interact", "fallback": "maneuver"}


class Redecide(Body):
    bot_id: str
    slot: int = Field(ge=1, le=2)
    action: Literal["scan", "reload", "fallback"]
    character_id: str | None = None  # the Scan's Character
    line_of_sight: bool = False  # the Scan's facts, reported now (R-SCAN, R-LOS)
    in_zone: bool = False


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


def _fallback(state: GameState, bot: Bot, body: Redecide) -> tuple[GameState, DecidedAction, list[Entry]]:
    """R-ACT-FALLBACK: a Walk at 50% of Walk; under Full Throttle a complete Run (R-GLITCH)."""
    gait, move = ("run", bot.run) if bot.full_throttle else ("walk", bot.walk / 2)
    action = DecidedAction(slot=body.slot, family="maneuver", action=gait, phase=3, move=move, fallback=True,
                           rule="R-ACT-FALLBACK", status="done",
                           reason="Re-decided in Phase 3: no legal or logical action in an unused family.")
    text = (f"{bot.name} takes the fallback: {gait} {move:g}\" on toward its Primary Directive's goal; "
            "move it on the table.")
    return state, action, [Entry(text, "R-ACT-FALLBACK")]


BUILD = {"scan": _scan, "reload": _reload, "fallback": _fallback}


@command("redecide", Redecide)
def redecide(state: GameState, body: Redecide, rng: Random) -> Result:
    require_play(state, 3, what="Re-deciding an action")
    bot = bot_of(state, body.bot_id)
    _slot_to_use(state, bot, body)
    state, action, entries = BUILD[body.action](state, bot, body)
    said = Entry(f"{bot.name}'s action {body.slot} becomes {body.action.replace('_', ' ')} (seed 001: use "
                 "remaining actions in a different family where legal).", action.rule)
    return put_action(state, bot.id, action), [said, *entries]
