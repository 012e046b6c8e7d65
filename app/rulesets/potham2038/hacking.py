"""Mission-defined hacking and the Luck Roll (seed 000 § Mission-defined hacking, R-HACK).

  hack       {character_id, stat? | pool?, opposing? | opposing_stat?, bot_id?, npc_stat?,
              help: none|diagnostics|tech_support,
              rolls?: {attempt?, opposing?}, success_text?, failure_text?}
  luck_roll  {character_id, stat, black_die?, success_text?, failure_text?}

There is no generic hacking action: the Mission or Event names the stats and the outcome, the
app rolls and compares. Both may happen whenever a rule calls for them, in any phase.
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038 import dice
from app.rulesets.potham2038.char_activation import may_act
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.models import Bot, Character, GameState, Pool
from app.rulesets.potham2038.play import (
    BlackFace,
    EnteredRoll,
    black_die,
    black_record,
    bot_of,
    character_of,
    dice_record,
    pool_text,
    replace,
    require_play,
    roll,
)

Text = str


class HackRolls(Body):
    attempt: EnteredRoll | None = None
    opposing: EnteredRoll | None = None


class Hack(Body):
    character_id: str
    stat: str | None = Field(default=None, max_length=80)  # a mission stat, or Melee/Shoot/Defense
    pool: Pool | None = None  # or the pool itself, when the Mission names dice
    opposing: Pool = Field(default_factory=dict)  # the opposing NPC or target stat, as dice
    # or the opposing NPC stat by its name: the AI-Bot's own pool on its sheet (R-HACK)
    opposing_stat: Literal["melee", "shoot", "defense"] | None = None
    # the NPC the attempt is against (its subject), if any; validated even when left out, since
    # an opposing NPC stat needs its NPC
    bot_id: str | None = Field(default=None, validate_default=True)
    # R-HACK-TECH: the opposing stat is that NPC's; None: yes whenever bot_id names one. False
    # for an attempt on an NPC subject against another stat (TECH SUPPORT may help there).
    npc_stat: bool | None = None
    help: Literal["none", "diagnostics", "tech_support"] = "none"
    rolls: HackRolls | None = None
    success_text: str = Field(default="", max_length=300)
    failure_text: str = Field(default="", max_length=300)

    @field_validator("bot_id")
    @classmethod
    def _npc_for_its_stat(cls, bot_id: str | None, info: ValidationInfo) -> str | None:
        """R-HACK: "opposing NPC ... stat": the stat is that AI-Bot's, so it must be named."""
        if info.data.get("opposing_stat") and not bot_id:
            raise ValueError("choose the AI-Bot whose stat opposes the attempt")
        return bot_id


def stat_pool(character: Character, stat: str) -> Pool | None:
    """The Character's pool for a stat name, compared loosely; None when it has no such stat."""
    key = stat.strip().lower()
    named = {"melee": character.melee, "shoot": character.shoot, "defense": character.defense}
    named |= {name.lower(): pool for name, pool in character.mission_stats.items()}
    return named.get(key)


def _attempt_pool(character: Character, body: Hack) -> tuple[str, Pool]:
    if body.pool is not None:
        return body.stat or "the Mission's dice", body.pool
    if not body.stat:
        raise Refused("Name the stat the Mission asks for, or give its dice.", "R-HACK")
    return body.stat, stat_pool(character, body.stat) or {}


def _help(state: GameState, character: Character, bot: Bot | None, body: Hack) -> tuple[Pool, list[Entry]]:
    """R-HACK-HELP (house): DIAGNOSTICS (against an NPC stat) or TECH SUPPORT (other specified
    attempts) adds `hack_help_dice` dice; OUT OF WARRANTY on the subject negates it (R-HACK)."""
    if body.help == "none":
        return {}, []
    gear = "DIAGNOSTICS" if body.help == "diagnostics" else "TECH SUPPORT"
    has = character.has_diagnostics if body.help == "diagnostics" else character.has_tech_support
    if not has:
        raise Refused(f"{character.name} does not carry {gear}.", "R-HACK")
    against_npc = body.npc_stat if body.npc_stat is not None else bot is not None
    if body.help == "diagnostics" and (bot is None or not against_npc):
        raise Refused("DIAGNOSTICS helps only against an NPC stat: name the AI-Bot (bot_id).", "R-HACK-TECH")
    if body.help == "tech_support" and against_npc:
        raise Refused("TECH SUPPORT helps only on attempts that are not against an NPC stat; against "
                      "an NPC stat, DIAGNOSTICS is the one that helps.", "R-HACK-TECH")
    if bot is not None and bot.has_rule("OUT OF WARRANTY"):
        text = f"OUT OF WARRANTY on {bot.name} negates {gear}; the attempt goes on without it."
        return {}, [Entry(text, "R-HACK")]
    extra = {state.house.hack_help_colour: state.house.hack_help_dice}
    return extra, [Entry(f"{gear} helps: +{pool_text(extra)}.", "R-HACK-HELP")]


def _opposing_pool(bot: Bot | None, body: Hack) -> Pool:
    """R-HACK: the Mission names the opposing NPC stat (read off that AI-Bot's sheet) or the
    target stat's dice; naming both would be two oppositions, so it is refused."""
    if body.opposing_stat is None or bot is None:
        return body.opposing
    if sum(body.opposing.values()):
        raise Refused("Give the opposing NPC stat or the opposing dice, not both.", "R-HACK")
    return getattr(bot, body.opposing_stat)


@command("hack", Hack)
def hack(state: GameState, body: Hack, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state)
    character = character_of(state, body.character_id)
    bot = bot_of(state, body.bot_id) if body.bot_id else None
    stat, pool = _attempt_pool(character, body)
    if not sum(pool.values()):
        raise Refused(f"{character.name} has no dice in {stat}: use the Luck Roll instead.", "R-HACK")
    state, acting = may_act(state, character, "hack", against=bot)  # R-CHAR-CONTACT-ENDS
    extra, entries = _help(state, character, bot, body)
    entries = [*acting, *entries]
    for colour, n in extra.items():
        pool = dice.add_dice(pool, colour, n)
    rolls = body.rolls or HackRolls()
    attempt = roll(state, pool, rng, rolls.attempt)
    opposing = roll(state, _opposing_pool(bot, body), rng, rolls.opposing)
    passed = attempt.hits > opposing.hits  # R-HACK-ROLL: like an attack, it must beat the opposition
    verdict = "succeeds" if passed else "fails"
    outcome = body.success_text if passed else body.failure_text
    against = f" ({bot.name}'s {body.opposing_stat.title()})" if bot and body.opposing_stat else ""
    text = (f"{character.name}'s hacking attempt with {stat} ({pool_text(pool)}) {verdict}: "
            f"{attempt.hits} against {opposing.hits}{against}." + (f" {outcome}" if outcome else ""))
    return state, [*entries, Entry(text, "R-HACK-ROLL", dice_record(attempt=attempt, opposing=opposing))]


class LuckRoll(Body):
    character_id: str
    stat: str = Field(min_length=1, max_length=80)  # the required stat it has no dice in
    black_die: BlackFace | None = None
    success_text: Text = Field(default="", max_length=300)
    failure_text: Text = Field(default="", max_length=300)


@command("luck_roll", LuckRoll)
def luck_roll(state: GameState, body: LuckRoll, rng: Random) -> tuple[GameState, list[Entry]]:
    """R-HACK: once per turn, only with no dice in the required stat; (house) one Black Die,
    Success passes."""
    require_play(state)
    character = character_of(state, body.character_id)
    if character.luck_roll_used:
        raise Refused(f"{character.name} has already made the Luck Roll this turn.", "R-HACK")
    if sum((stat_pool(character, body.stat) or {}).values()):
        raise Refused(f"{character.name} has dice in {body.stat}: roll them, not the Luck Roll.", "R-HACK")
    face, by = black_die(state, rng, body.black_die)
    passed = face == "success"
    outcome = body.success_text if passed else body.failure_text
    text = (f"{character.name} makes the Luck Roll for {body.stat}: {face.title()}, "
            f"{'passed' if passed else 'failed'}." + (f" {outcome}" if outcome else ""))
    new = character.model_copy(update={"luck_roll_used": True})
    return replace(state, new), [Entry(text, "R-HACK", black_record(face, by, "luck"))]
