"""Phase 3 · an AI-Bot's Shoot (seed 001 § AFTER MELEE · ELIGIBLE NPC RANGED ATTACKS).

  bot_shoot  {bot_id, character_id, line_of_sight, in_range, in_contact?, cover?, melee_with,
              black_die?, tie_choice?, rolls?: {attack?, defense?}, ammo_die?}

Every AI-Bot shot waits until each engagement, decided or not, is fought or separated
(R-CMB-GANGUP); it is resolved only at the Character whose line of sight and range the player
confirms in this command (R-CMB-TARGET-FACTS), never at one out of action.
"""

from __future__ import annotations

from random import Random

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.combat import out_of_ammo
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.engagements import contacts, melee_of, open_engagements, pair_key
from app.rulesets.potham2038.house_rules import Cover
from app.rulesets.potham2038.models import Bot, Character, DecidedAction, GameState
from app.rulesets.potham2038.play import (
    BlackFace,
    black_die,
    black_record,
    bot_of,
    character_of,
    offline,
    replace,
    require_play,
)
from app.rulesets.potham2038.shots import Aim, ShootRolls, shoot
from app.rulesets.potham2038.slots import open_slot, pending, put_action, set_status


class BotShoot(Aim):
    bot_id: str
    character_id: str
    line_of_sight: bool  # asked when the shot resolves, never carried over from Phase 2 (R-ACT-FACTS)
    in_range: bool
    in_contact: bool = False  # the shooter is in base contact with an enemy
    cover: Cover | None = None  # the target's Cover now (R-SHOOT-COVER); None: its roster Cover
    rolls: ShootRolls | None = None
    ammo_die: BlackFace | None = None  # the Out of Ammo check, entered (R-CMB-AMMO)


def _after_melee(state: GameState) -> None:
    """R-CMB-ORDER: AI-Bot shots come after every melee of the phase (seed 001 "AFTER MELEE")."""
    waiting = open_engagements(state)
    if waiting:
        pairs = ", ".join(f"{bot.name} ⚔ {character.name}" for bot, character in waiting)
        raise Refused(f"AI-Bot shots come after melee: first resolve or separate {pairs}.", "R-CMB-ORDER")


def _shooting_slot(state: GameState, bot: Bot, body: BotShoot) -> DecidedAction | int:
    """R-CMB-SHOOT: not in base contact, line of sight, in range, armed with ammunition, not
    rebooted, and an action to spend: its decided Shoot, a pending Attack that can become one,
    or an open slot with the Attack family unused (R-CMB-SHOOT-ACTION)."""
    checks = [(bot.health <= 0, "is destroyed"),
              (state.decision(bot.id) is None, "has not activated this turn"),
              (offline(state, bot), "is rebooted: it takes no actions at all"),
              (body.in_contact, "is in base contact: it fights in melee instead"),
              (bot.shoot_range is None or not sum(bot.shoot.values()), "has no ranged weapon"),
              (bot.out_of_ammo, "is out of ammo"),
              (not body.line_of_sight, "has no line of sight to its target"),
              (not body.in_range, "is out of range")]
    for failed, why in checks:
        if failed:
            raise Refused(f"{bot.name} cannot Shoot: it {why}.", "R-CMB-SHOOT")
    action = pending(state, bot.id, "shoot", "attack")
    slot = open_slot(state, bot.id, "attack")
    if action is None and slot is None:
        raise Refused(f"{bot.name} cannot Shoot: no unused Attack action is left "
                      "(its Attack family is used, or both actions are spent).",
                      "R-CMB-SHOOT-ACTION")
    return action if action is not None else slot  # type: ignore[return-value]


def _into_melee(state: GameState, bot: Bot, target: Character, body: BotShoot) -> BotShoot:
    """R-CMB-TARGET-FACTS: a target still in base contact with a bot is in a melee, so the Black
    Die target check is rolled even when the player did not list the melee (seed 001: "It may
    shoot into another melee using the Core target check")."""
    touching = [c.name for b, c in contacts(state)
                if b.id == bot.id and pair_key(b, c) not in state.separated]
    if touching:  # seed 001: "An AI-Bot not in base contact can Shoot"
        raise Refused(f"{bot.name} cannot Shoot: it is in base contact with {', '.join(touching)}.",
                      "R-CMB-SHOOT")
    known = [i for i in melee_of(state, target.id) if i != bot.id]  # a gang-up is one melee
    melee_with = list(dict.fromkeys([*body.melee_with, *known]))
    return body if melee_with == body.melee_with else body.model_copy(update={"melee_with": melee_with})


def _spend(state: GameState, bot: Bot, spent: DecidedAction | int, target: Character) -> GameState:
    """The Shoot is done: its decided action, or a new one in the open slot."""
    if isinstance(spent, DecidedAction):
        update = {"status": "done", "action": "shoot", "target": target.name, "target_id": target.id}
        return put_action(state, bot.id, spent.model_copy(update=update))
    reason = (f"{bot.name} had slot {spent} open and its Attack family unused, so it shoots "
              f"{target.name} in Phase 3.")
    return put_action(state, bot.id, DecidedAction(
        slot=spent, family="attack", action="shoot", phase=3, target=target.name, target_id=target.id,
        reason=reason, rule="R-CMB-SHOOT-ACTION", status="done"))


class NoShot(Body):
    """The player's answer that the bot cannot shoot its target now (no line of sight, or out of
    range): `bot_shoot` refuses a shot without both facts; this records the answer instead."""

    bot_id: str
    character_id: str
    line_of_sight: bool = False
    in_range: bool = False


@command("no_shot", NoShot)
def no_shot(state: GameState, body: NoShot, rng: Random) -> tuple[GameState, list[Entry]]:
    """No line of sight, or out of range, is an answer, not an error (R-CMB-TARGET-FACTS): the shot
    does not happen. A decided Shoot is skipped, so its Attack stays unused and the slot may
    become a Scan, Reload or Interact, or stay empty (seed 001: "Use remaining actions in a
    different family where legal"); no movement in Phase 3 (R-PHASE-MOVE)."""
    require_play(state, 3, what="An AI-Bot's Shoot")
    bot, target = bot_of(state, body.bot_id), character_of(state, body.character_id)
    if body.line_of_sight and body.in_range:
        raise Refused(f"{bot.name} has line of sight and range: resolve the shot (bot_shoot).", "R-CMB-SHOOT")
    _after_melee(state)
    why = "no line of sight to" if not body.line_of_sight else "out of range of"
    text = f"{bot.name} cannot shoot: it has {why} {target.name}."
    action = pending(state, bot.id, "shoot")
    if action is not None:
        state = set_status(state, bot.id, action.slot, "skipped")
        text += (f" Its action {action.slot} (Shoot) does not happen: it may become a Scan, Reload or "
                 "Interact where legal, or stay skipped.")
    else:
        text += " Nothing is spent."
    return state, [Entry(text, "R-CMB-TARGET-FACTS")]


@command("bot_shoot", BotShoot)
def bot_shoot(state: GameState, body: BotShoot, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 3, what="An AI-Bot's Shoot")
    bot = bot_of(state, body.bot_id)
    target = character_of(state, body.character_id)
    if target.health <= 0:
        raise Refused(f"{target.name} is already out of action.")
    _after_melee(state)
    spent = _shooting_slot(state, bot, body)
    body = _into_melee(state, bot, target, body)
    shot = shoot(state, bot, target.id, body, body.rolls, body.cover, rng)
    state, entries = _spend(shot.state, bot, spent, target), shot.entries
    if shot.result.out_of_ammo_check:
        face, by = black_die(state, rng, body.ammo_die)
        empty = out_of_ammo(face)
        verdict = "out of ammo" if empty else "still loaded"
        text = f"Out of Ammo check for {bot.name}: {face.title()}, {verdict}."
        entries.append(Entry(text, "R-CMB-AMMO", black_record(face, by, "ammo")))
        if empty:
            state = replace(state, (state.bot(bot.id) or bot).model_copy(update={"out_of_ammo": True}))
    return state, entries
