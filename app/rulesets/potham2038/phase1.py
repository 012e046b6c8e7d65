"""Phase 1 · Action: what the Characters did, as the player reports it (seed 000 § Four phases).

  character_move      {character_id, entries: [bot id, ...]}           R-MARK-MOVE
  character_contact   {character_id, bot_id, entered: true}            R-ZONE, R-MARK-MOVE, R-LOS
  noise               {character_id, kind: noise|alarm, bot_ids}       R-NOISE, R-ALARM
  character_shoot     {character_id, target_id, melee_with, cover, black_die?, tie_choice?, attack?, defense?}
  invoke_distracted   {character_id, bot_ids}                          R-DISTRACTED
  distracted_contact  {character_id, bot_id}                           R-DISTRACTED
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.char_activation import invoked, may_act, new_contact
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.engagements import melee_of
from app.rulesets.potham2038.house_rules import Cover
from app.rulesets.potham2038.marked import noise as noise_effect
from app.rulesets.potham2038.models import Bot, Character, GameState
from app.rulesets.potham2038.play import (
    EnteredRoll,
    Result,
    add_danger,
    add_marked,
    bot_of,
    character_of,
    replace,
    require_play,
)
from app.rulesets.potham2038.shots import Aim, ShootRolls, shoot

Ids = list[str]


def _acting(state: GameState, character_id: str) -> Character:
    character = character_of(state, character_id)
    if character.health <= 0:
        raise Refused(f"{character.name} is out of action (Health 0).")
    return character


class CharacterMove(Body):
    character_id: str
    entries: Ids = Field(default_factory=list, max_length=50)  # one bot id per zone entry, re-entries too


@command("character_move", CharacterMove)
def character_move(state: GameState, body: CharacterMove, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 1, what="A Character's move")
    character = _acting(state, body.character_id)
    bots, gone = _with_zones([bot_of(state, i) for i in body.entries])
    if not bots:
        return state, [*gone, Entry(f"{character.name} moves; no AI-Bot enters its zone.", "R-MARK-MOVE")]
    names = ", ".join(b.name for b in bots)
    why = f"{character.name} moves and AI-Bots enter its zone ({names})"
    state, marked = add_marked(state, character, len(bots), why, "R-MARK-MOVE")
    return state, gone + marked


def _with_zones(bots: list[Bot]) -> tuple[list[Bot], list[Entry]]:
    """R-OUT-OF-ACTION-ZONE: a destroyed AI-Bot has no zone, so an entry into it or a Noise or
    Alarm inside it counts for nothing; the log says so."""
    gone = {b.id: b.name for b in bots if b.health <= 0}
    said = [Entry(f"{name} is destroyed: it has no zone, so it adds no Marked.", "R-OUT-OF-ACTION-ZONE")
            for name in gone.values()]
    return [b for b in bots if b.health > 0], said


class CharacterContact(Body):
    character_id: str
    bot_id: str
    entered: bool = True  # the AI-Bot was outside the Character's zone before this move


@command("character_contact", CharacterContact)
def character_contact(state: GameState, body: CharacterContact, rng: Random) -> Result:
    """A Character moved into base contact with an AI-Bot, as the player reports it (R-LOS: a fact,
    never inferred). Base contact is inside every zone (R-ZONE): coming from outside, the bot
    enters the moving Character's zone, +1 Marked (R-MARK-MOVE). Phase 3 lists the pair as an
    engagement (engagements.contacts) even when the bot is asked no facts (a Reboot)."""
    require_play(state, 1, what="A Character's move into base contact")
    character = _acting(state, body.character_id)
    bot = bot_of(state, body.bot_id)
    if bot.health <= 0:
        raise Refused(f"{bot.name} is destroyed: nothing to be in base contact with.")
    key = f"{bot.id}:{character.id}"
    again = key in state.contacts_reported  # reported twice: not a new contact
    known = [k for k in state.contacts_reported if k != key]
    state = state.model_copy(update={"contacts_reported": [*known, key]})
    entries = [Entry(f"{character.name} moves into base contact with {bot.name}.", "R-ZONE")]
    if not again:  # R-DISTRACTED-NEW-CONTACT
        state, stack = new_contact(state, character, bot, "recorded")
        entries += stack
    if not body.entered:
        return state, entries
    why = f"{character.name} moves and {bot.name} enters its zone"
    state, marked = add_marked(state, character, 1, why, "R-MARK-MOVE")
    return state, entries + marked


class Noise(Body):
    character_id: str
    kind: Literal["noise", "alarm"] = "noise"
    bot_ids: Ids = Field(default_factory=list, max_length=50)  # bots whose zone contains the Character


@command("noise", Noise)
def noise(state: GameState, body: Noise, rng: Random) -> tuple[GameState, list[Entry]]:
    """Resolved as it occurs (seed 000), so any phase of a game in play."""
    require_play(state)
    character = character_of(state, body.character_id)
    zones, gone = _with_zones([bot_of(state, i) for i in dict.fromkeys(body.bot_ids)])
    effect = noise_effect(body.kind, len(zones))
    entries = [*gone, Entry(f"{character.name}: {effect.reason}", effect.rule)]
    state, marked = add_marked(state, character, effect.marked, body.kind.title(), effect.rule)
    state, danger = add_danger(state, effect.danger, f"{body.kind.title()} by {character.name}", effect.rule)
    return state, entries + marked + danger


class CharacterShoot(Aim):
    character_id: str
    target_id: str  # an AI-Bot
    cover: Cover = "none"  # the target's Cover (R-CMB-SHOOT)
    attack: EnteredRoll | None = None
    defense: EnteredRoll | None = None


@command("character_shoot", CharacterShoot)
def character_shoot(state: GameState, body: CharacterShoot, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 1, what="A Character's Shoot")
    shooter = _acting(state, body.character_id)
    target = bot_of(state, body.target_id)
    if target.health <= 0:
        raise Refused(f"{target.name} is already destroyed.")
    if not sum(shooter.shoot.values()):
        raise Refused(f"{shooter.name} has no Shoot dice.", "R-CMB-SHOOT")
    state, acting = may_act(state, shooter, "shoot", against=target)
    body, known = _known_melee(state, target, body)
    shot = shoot(state, shooter, target.id, body, ShootRolls(attack=body.attack, defense=body.defense),
                 body.cover, rng)
    entries = acting + known + shot.entries
    if shot.result.out_of_ammo_check:
        entries.append(Entry(f"{shooter.name} rolled a Critical: check Out of Ammo for its weapon "
                             "(the app does not track Characters' ammunition).", "R-CMB-AMMO"))
    return shot.state, entries


def _known_melee(state: GameState, target: Bot, body: CharacterShoot) -> tuple[CharacterShoot, list[Entry]]:
    """R-CMB-BLACK-KNOWN: a shot at a model the app knows to be in a melee (base contacts recorded
    this turn) rolls (or takes) the Black Die even when the player ticked no one (seed 001: "Roll
    the Black Die. On Success, attack the intended target; on Blank, attack the eligible model in
    that melee with the highest current Health.")."""
    known = [i for i in melee_of(state, target.id) if i not in body.melee_with]
    if not known:
        return body, []
    names = ", ".join(m.name for i in known if (m := state.bot(i) or state.character(i)) is not None)
    said = Entry(f"{target.name} is known to be in a melee with {names} (base contact recorded this turn): "
                 "the Black Die decides the actual target.", "R-CMB-BLACK-KNOWN")
    return body.model_copy(update={"melee_with": [*body.melee_with, *known]}), [said]


class InvokeDistracted(Body):
    character_id: str
    bot_ids: Ids = Field(min_length=1, max_length=20)  # the NPCs in base contact


@command("invoke_distracted", InvokeDistracted)
def invoke_distracted(state: GameState, body: InvokeDistracted, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 1, what="Invoking Distracted")
    character = _acting(state, body.character_id)
    bots = [bot_of(state, i) for i in dict.fromkeys(body.bot_ids)]
    stacks = character.distracted + len(bots)
    new = character.model_copy(update={"distracted": stacks, "distracted_since": state.turn,
                                       "distracted_last_gain": state.turn})
    text = (f"{character.name} spends two actions for one action that excludes "
            f"{', '.join(b.name for b in bots)}: +{len(bots)} Distracted (now {stacks}). "
            "Each incoming attack adds one White die per stack.")
    return invoked(replace(state, new), new, bots), [Entry(text, "R-DISTRACTED")]


class DistractedContact(Body):
    character_id: str
    bot_id: str


@command("distracted_contact", DistractedContact)
def distracted_contact(state: GameState, body: DistractedContact, rng: Random) -> Result:
    """A new contact while Distracted is active; contacts happen in any phase (bots move in 2)."""
    require_play(state, 1, 2, 3, what="A new Distracted contact")
    character = character_of(state, body.character_id)
    bot = bot_of(state, body.bot_id)
    if not character.distracted:
        raise Refused(f"{character.name} is not Distracted; invoke Distracted first.", "R-DISTRACTED")
    return new_contact(state, character, bot, "reported")
