"""Phase 3 · Melee & Ranged Combat (seed 001 § Phase 3).

  resolve_melee     {bot_id, character_id, in_contact, attacker?: npc|character, counter_attack,
                     rolls?: {npc?, character?}}
  bot_shoot         (in bot_shoot.py)
  resolve_fallback  {bot_id, slot, done}
  (redecide, in redecide.py)

The to-do list is `GameState.pending_actions()`: every decided Melee or Shoot not yet resolved.
Engagements first; every AI-Bot Shoot waits until each is resolved or separated (R-CMB-ORDER).
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.combat import (
    Fighter,
    MeleeResult,
    attack_pool_against,
    points_clause,
    resolve_melee,
)
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.engagements import attack_for, pair_key, settled, who_attacks_here
from app.rulesets.potham2038.models import Bot, Character, DecidedAction, GameState
from app.rulesets.potham2038.play import (
    NO_DEFENSE,
    EnteredRoll,
    add_danger,
    bot_of,
    character_of,
    dice_record,
    offline,
    require_play,
    roll,
    wound,
)
from app.rulesets.potham2038.shooting import ShootResult
from app.rulesets.potham2038.slots import put_action, set_status


class MeleeRolls(Body):
    npc: EnteredRoll | None = None
    character: EnteredRoll | None = None


class ResolveMelee(Body):
    bot_id: str
    character_id: str
    in_contact: bool = True
    # R-CMB-WHO, R-TIE-CHOICE: the side the player names; None: the default (points, a rebooted bot
    # or one with no Attack action left: the Character)
    attacker: Literal["npc", "character"] | None = None
    counter_attack: bool = False  # a permitted counter-attack: both roll Melee (R-CMB-TIE)
    rolls: MeleeRolls | None = None


def _fighters(state: GameState, body: ResolveMelee) -> tuple[Bot, Character]:
    bot, character = bot_of(state, body.bot_id), character_of(state, body.character_id)
    for model in (bot, character):
        if model.health <= 0:
            raise Refused(f"{model.name} is out of the fight (Health 0).")
    if settled(state, bot, character):
        raise Refused(f"{bot.name} and {character.name} have already fought or separated this phase.",
                      "R-CMB-GANGUP")
    return bot, character


def _attacker(state: GameState, bot: Bot, character: Character, body: ResolveMelee) -> tuple[str, str | None]:
    """R-CMB-WHO: the side that attacks and the clause that says why (None: the points default
    as combat.who_attacks words it). The player may name either side where both are possible."""
    who = who_attacks_here(state, bot, character)
    if body.attacker is not None and body.attacker not in who.choices:
        if who.choices == ("npc",):
            raise Refused(f"{who.why}: the AI-Bot attacks; {character.name} Defends or counter-attacks.",
                          "R-GLITCH-FREE-ACTS")
        raise Refused(f"{bot.name} cannot attack {character.name}: {who.why}; the Character attacks.",
                      "R-CMB-NOACTION" if not offline(state, bot) else "R-CMB-WHO")
    side = body.attacker or who.side
    if len(who.choices) == 1:
        return side, who.why
    if side != who.side:
        return side, f"the player names the {'AI-Bot' if side == 'npc' else 'Character'}: a Special Rule"
    return side, None


@command("resolve_melee", ResolveMelee)
def melee(state: GameState, body: ResolveMelee, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 3, what="Melee")
    bot, character = _fighters(state, body)
    if not body.in_contact:
        return _separate(state, bot, character, _decided_melee(state, bot, character))
    side, why = _attacker(state, bot, character, body)
    rebooted = offline(state, bot)
    if body.counter_attack and side != "npc":
        raise Refused("Only a Character attacked by the AI-Bot can counter-attack.", "R-CMB-TIE")
    rolls = body.rolls or MeleeRolls()
    npc_pool = (attack_pool_against(bot.melee, character.distracted, state.house.distracted_colour)
                if side == "npc" else bot.defense)
    character_pool = character.melee if side == "character" or body.counter_attack else character.defense
    npc_roll = NO_DEFENSE if rebooted else roll(state, npc_pool, rng, rolls.npc)  # R-GLITCH-REBOOT
    character_roll = roll(state, character_pool, rng, rolls.character)
    result = resolve_melee(Fighter(bot.name, bot.points, bot.health),
                           Fighter(character.name, character.points, character.health), npc_roll,
                           character_roll, attacker=side, counter_attack=body.counter_attack,  # type: ignore
                           marked=character.marked, marked_target=bot.has_rule("Marked Target"),
                           push_on_damage=state.house.push_on_damage,
                           counter_rule=state.house.counter_attack_rule,
                           why=why or points_clause(bot.points, character.points))
    record = dice_record(npc=npc_roll, character=character_roll) | totals(result)
    entries = [Entry(result.reason, result.rule, record)]
    if rebooted:
        entries.append(Entry(f"{bot.name} is rebooted: Reboot stops even free actions, so it cannot Defend "
                             "and rolls no Defense.", "R-GLITCH-REBOOT"))
    spends = attack_for(state, bot, character)
    state, said = _melee_outcome(state, bot, character, result)
    state, spent = _spend_melee(state, bot, character, side, spends)
    key = pair_key(bot, character)
    apart = [key] if result.push_back or result.damage_push_back else []
    attacked = [key] if side == "npc" and key not in state.bot_attacked else []
    fought = [] if key in state.engaged else [key]
    state = state.model_copy(update={"engaged": [*state.engaged, *fought],
                                     "separated": [*state.separated, *apart],
                                     "bot_attacked": [*state.bot_attacked, *attacked]})
    return state, entries + said + spent


def _decided_melee(state: GameState, bot: Bot, character: Character) -> DecidedAction | None:
    mine = [a for b, a in state.pending_actions() if b == bot.id]
    return next((a for a in mine if a.action == "melee" and not a.free and a.target_id == character.id), None)


def _spend_melee(state: GameState, bot: Bot, character: Character, side: str,
                 spends: DecidedAction | int | None) -> tuple[GameState, list[Entry]]:
    """R-CMB-GANGUP: an attacking bot spends the one action `attack_for` names (its decided
    Melee, a free one, its pending Attack, or an open slot). R-CMB-DEFEND-FREE: when the
    Character attacks, the bot Defends for free and its decided Melee at this Character never
    happens, so that Attack action stays unused (it may Shoot after a push back)."""
    if side == "npc":
        if isinstance(spends, DecidedAction):
            update = {"status": "done", "action": "melee", "target": character.name,
                      "target_id": character.id}
            return put_action(state, bot.id, spends.model_copy(update=update)), []
        if spends:  # an open slot; 0: a bot never activated this turn, nothing recorded to spend
            return put_action(state, bot.id, DecidedAction(
                slot=spends, family="attack", action="melee", phase=3, target=character.name,
                target_id=character.id, reason=f"{bot.name} attacks {character.name} in base contact.",
                rule="R-CMB-GANGUP", status="done")), []
        return state, []
    decided = _decided_melee(state, bot, character)
    if decided is None:
        return state, []
    state = set_status(state, bot.id, decided.slot, "skipped")
    return state, [Entry(f"{bot.name} only Defended (a free action): its Attack action stays unused.",
                         "R-CMB-DEFEND-FREE")]


def _separate(state: GameState, bot: Bot, character: Character,
              action: DecidedAction | None) -> tuple[GameState, list[Entry]]:
    """R-CMB-ORDER: models that separated do not fight; the bot's Melee never happened, so its
    Attack action is unused again and may become a Shoot once every melee is settled."""
    text = f"{bot.name} and {character.name} are no longer in base contact: no melee."
    if action is not None:
        state = set_status(state, bot.id, action.slot, "skipped")
        if bot.shoot_range is not None and sum(bot.shoot.values()):
            text += f" {bot.name}'s unused Attack action may become a Shoot after the melees."
    key = pair_key(bot, character)
    state = state.model_copy(update={"separated": [*state.separated, key]})
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
    if body.done and action.action in ("melee", "shoot") and state.phase == 2:
        raise Refused(f"{bot.name}'s {action.action.title()} belongs to Phase 3: resolve it there with dice "
                      "(or skip it); it cannot be marked done in Phase 2.", "R-PHASE-FALLBACK")
    status = "done" if body.done else "skipped"
    state = set_status(state, bot.id, body.slot, status)
    entries = [Entry(f"{bot.name}'s action {body.slot} ({action.action.replace('_', ' ')}) is {status}.",
                     "R-ACT-FALLBACK" if action.fallback else "R-ACT-PHASE")]
    if body.done and action.action == "melee":
        return _melee_done_by_hand(state, bot, action, entries)
    return state, entries


def _melee_done_by_hand(state: GameState, bot: Bot, action: DecidedAction,
                        entries: list[Entry]) -> tuple[GameState, list[Entry]]:
    """R-PHASE-FALLBACK: a Melee the player says was fought (on the table) is still a melee this
    phase: its pair is settled and Danger rises once per phase (R-CMB-DANGER)."""
    character = state.character(action.target_id or "")
    if character is not None:
        key = pair_key(bot, character)
        state = state.model_copy(update={"engaged": [*(k for k in state.engaged if k != key), key]})
    if not state.phase3_melee:
        state, said = add_danger(state, 1, "Melee this phase", "R-CMB-DANGER")
        state = state.model_copy(update={"phase3_melee": True})
        entries = entries + said
    return state, entries
