"""Phase 3 · Melee & Ranged Combat (seed 001 § Phase 3).

  resolve_melee     {bot_id, character_id, in_contact, attacker?: npc|character, counter_attack,
                     rolls?: {npc?, character?}}
  bot_shoot         {bot_id, character_id, line_of_sight, in_range, in_contact?, cover?, melee_with,
                     black_die?, tie_choice?, rolls?: {attack?, defense?}, ammo_die?}
  resolve_fallback  {bot_id, slot, done}
  (redecide, in redecide.py)

The to-do list is `GameState.pending_actions()`: every decided Melee or Shoot not yet resolved.
Engagements first; every AI-Bot Shoot waits until each is resolved or separated (R-CMB-ORDER).
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field

from app.rules.combat import (
    Fighter,
    MeleeResult,
    attack_pool_against,
    out_of_ammo,
    resolve_melee,
    who_attacks,
)
from app.rules.commands import Body, Entry, Refused, command
from app.rules.house_rules import Cover
from app.rules.models import Bot, Character, DecidedAction, GameState
from app.rules.play import (
    NO_DEFENSE,
    BlackFace,
    EnteredRoll,
    add_danger,
    black_die,
    black_record,
    bot_of,
    character_of,
    dice_record,
    offline,
    replace,
    require_play,
    roll,
    wound,
)
from app.rules.shooting import ShootResult
from app.rules.shots import Aim, ShootRolls, shoot
from app.rules.slots import open_engagements, open_slot, pending, put_action, set_status


class MeleeRolls(Body):
    npc: EnteredRoll | None = None
    character: EnteredRoll | None = None


class ResolveMelee(Body):
    bot_id: str
    character_id: str
    in_contact: bool = True
    attacker: Literal["npc", "character"] | None = None  # a Special Rule decides (R-CMB-WHO)
    counter_attack: bool = False  # a permitted counter-attack: both roll Melee (R-CMB-TIE)
    rolls: MeleeRolls | None = None


def _fighters(state: GameState, body: ResolveMelee) -> tuple[Bot, Character]:
    bot, character = bot_of(state, body.bot_id), character_of(state, body.character_id)
    for model in (bot, character):
        if model.health <= 0:
            raise Refused(f"{model.name} is out of the fight (Health 0).")
    if f"{bot.id}:{character.id}" in state.engaged:
        raise Refused(f"{bot.name} and {character.name} have already fought this phase.", "R-CMB-WHO")
    return bot, character


@command("resolve_melee", ResolveMelee)
def melee(state: GameState, body: ResolveMelee, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 3, what="Melee")
    bot, character = _fighters(state, body)
    if not body.in_contact:
        return _separate(state, bot, character, _decided_melee(state, bot, character))
    side, _ = who_attacks(bot.points, character.points, body.attacker)
    rebooted = offline(state, bot)
    if side == "npc" and rebooted:
        raise Refused(f"{bot.name} is rebooted this turn and takes no actions, so it cannot attack; "
                      "report the models as not in contact, or name the Character as attacker.", "R-GLITCH")
    if body.counter_attack and side != "npc":
        raise Refused("Only a Character attacked by the AI-Bot can counter-attack.", "R-CMB-TIE")
    rolls = body.rolls or MeleeRolls()
    npc_pool = (attack_pool_against(bot.melee, character.distracted, state.house.distracted_colour)
                if side == "npc" else bot.defense)
    character_pool = character.melee if side == "character" or body.counter_attack else character.defense
    npc_roll = NO_DEFENSE if rebooted else roll(state, npc_pool, rng, rolls.npc)  # R-GLITCH-REBOOT
    character_roll = roll(state, character_pool, rng, rolls.character)
    result = resolve_melee(Fighter(bot.name, bot.points), Fighter(character.name, character.points), npc_roll,
                           character_roll, attacker=body.attacker, counter_attack=body.counter_attack,
                           marked=character.marked, marked_target=bot.has_rule("Marked Target"),
                           push_on_damage=state.house.push_on_damage,
                           counter_rule=state.house.counter_attack_rule)
    record = dice_record(npc=npc_roll, character=character_roll) | totals(result)
    entries = [Entry(result.reason, result.rule, record)]
    if rebooted:
        entries.append(Entry(f"{bot.name} is rebooted: Reboot stops even free actions, so it cannot Defend "
                             "and rolls no Defense.", "R-GLITCH-REBOOT"))
    state, said = _melee_outcome(state, bot, character, result)
    state = _spend_melee(state, bot, character, side)
    return state.model_copy(update={"engaged": [*state.engaged, f"{bot.id}:{character.id}"]}), entries + said


def _decided_melee(state: GameState, bot: Bot, character: Character) -> DecidedAction | None:
    mine = [a for b, a in state.pending_actions() if b == bot.id]
    return next((a for a in mine if a.action == "melee" and a.target_id in (None, character.id)), None)


def _spend_melee(state: GameState, bot: Bot, character: Character, side: str) -> GameState:
    """The engagement settles the bot's decided Melee. When the bot attacks it spends its Attack
    action: a pending one, else an open slot (R-ACT-TWO); Defending is free and spends nothing."""
    action = _decided_melee(state, bot, character)
    if action is None and side == "npc":
        action = pending(state, bot.id, "attack")
        slot = open_slot(state, bot.id, "attack")
        if action is None and slot is not None:
            return put_action(state, bot.id, DecidedAction(
                slot=slot, family="attack", action="melee", phase=3, target=character.name,
                target_id=character.id, reason=f"{bot.name} attacks {character.name} in base contact.",
                rule="R-CMB-WHO", status="done"))
    return state if action is None else set_status(state, bot.id, action.slot, "done")


def _separate(state: GameState, bot: Bot, character: Character,
              action: DecidedAction | None) -> tuple[GameState, list[Entry]]:
    """R-CMB-ORDER: models that separated do not fight; the bot's Melee never happened, so its
    Attack action is unused again and may become a Shoot once every melee is settled."""
    text = f"{bot.name} and {character.name} are no longer in base contact: no melee."
    if action is not None and action.target_id in (None, character.id):
        state = set_status(state, bot.id, action.slot, "skipped")
        if bot.shoot_range is not None and sum(bot.shoot.values()):
            text += f" {bot.name}'s unused Attack action may become a Shoot after the melees."
    return state, [Entry(text, "R-CMB-ORDER")]


def _melee_outcome(state: GameState, bot: Bot, character: Character,
                   result: MeleeResult) -> tuple[GameState, list[Entry]]:
    """Damage to the loser, the push back named, and Danger +1 once per phase (R-CMB-DANGER)."""
    entries: list[Entry] = []
    if result.outcome == "damage":
        npc_won = (result.attack_total > result.defense_total if result.counter_attack
                   else result.attacker == "npc")
        state, entries = wound(state, character.id if npc_won else bot.id, result.damage, "R-CMB-DAMAGE")
    elif result.outcome == "tie":
        entries.append(Entry(f"Push back: move {result.push_back} away from the melee.", "R-CMB-TIE"))
    if result.damage_push_back:  # house, on by default: damage AND Push Back (seed 001)
        entries.append(Entry(f"Push back: move {result.damage_push_back} away from the melee.", "R-CMB-PUSH"))
    if not state.phase3_melee:
        state, said = add_danger(state, 1, "Melee this phase", "R-CMB-DANGER")
        state = state.model_copy(update={"phase3_melee": True})
        entries += said
    return state, entries


def totals(result: MeleeResult | ShootResult) -> dict:
    """The comparison behind a roll, kept with its dice for the log and the decision card."""
    return {"attack_total": result.attack_total, "defense_total": result.defense_total,
            "outcome": result.outcome, "damage": result.damage}


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


@command("bot_shoot", BotShoot)
def bot_shoot(state: GameState, body: BotShoot, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 3, what="An AI-Bot's Shoot")
    bot = bot_of(state, body.bot_id)
    target = character_of(state, body.character_id)
    if target.health <= 0:
        raise Refused(f"{target.name} is already out of action.")
    _after_melee(state)
    spent = _shooting_slot(state, bot, body)
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


class ResolveFallback(Body):
    bot_id: str
    slot: int = Field(ge=1, le=20)
    done: bool = True  # False: skipped (nothing legal or logical left)


@command("resolve_fallback", ResolveFallback)
def resolve_fallback(state: GameState, body: ResolveFallback, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 2, 3, what="Resolving a decided action")
    bot = bot_of(state, body.bot_id)
    decision = state.decision(bot.id)
    action = next((a for a in decision.actions if a.slot == body.slot), None) if decision else None
    if action is None:
        raise Refused(f"{bot.name} has no action {body.slot} this turn.", "R-ACT-FALLBACK")
    if action.status != "pending":
        raise Refused(f"{bot.name}'s action {body.slot} is already {action.status}.", "R-ACT-FALLBACK")
    status = "done" if body.done else "skipped"
    state = set_status(state, bot.id, body.slot, status)
    return state, [Entry(f"{bot.name}'s action {body.slot} ({action.action.replace('_', ' ')}) is {status}.",
                         "R-ACT-FALLBACK" if action.fallback else "R-ACT-PHASE")]
