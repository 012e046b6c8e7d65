"""Glitches: rolled on the game's Glitch table and applied to one AI-Bot (R-GLITCH, R-END-CHECK).

  record_glitch  {bot_id, source, roll? | result?, duration?, amount?, action?}   any phase (R-GLITCH-ANY)

Each trigger resolves separately when it occurs; an impossible result has no effect and is not
rerolled (seed 000 § Noise, Alarm, and Glitches). A Reboot lasts until the end of the bot's next
turn whether or not it activates (R-GLITCH-REBOOT: durations in turns); Full Throttle counts the
bot's activations. A free Glitch action spends no slot and may duplicate a normal action; a Reboot
blocks it (R-GLITCH-ANY).
"""

from __future__ import annotations

from random import Random
from typing import Literal

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.free_actions import ScanFacts, free_action, take_waiting
from app.rulesets.potham2038.house_rules import FreeAction, GlitchRow
from app.rulesets.potham2038.models import Bot, GameState, GlitchEffect
from app.rulesets.potham2038.play import bot_of, replace, require_play

LASTING = ("reboot", "full_throttle")
__all__ = ["take_waiting"]  # phase2 takes a bot's waiting free actions at its activation


def glitch_row(state: GameState, value: int) -> GlitchRow | None:
    return next((r for r in state.house.glitch_table if r.low <= value <= r.high), None)


def glitch_faces(state: GameState) -> list[tuple[int, str]]:
    """Each face of the game's Glitch die with what its row of the Glitch table gives, in a word or
    two ("Reboot", "Overcharged +1", "Free Shoot"); a face no row covers has no effect (R-GLITCH,
    *house* die and rows; an impossible result is not rerolled, R-END-CHECK)."""
    faces = []
    for value in range(1, state.house.glitch_die + 1):
        row = glitch_row(state, value)
        if row is None or row.result == "no_effect":
            faces.append((value, "No effect"))
        elif row.result == "free_action":
            faces.append((value, f"Free {_title(row.action or 'action')}"))
        elif row.result == "overcharged":
            faces.append((value, f"Overcharged +{row.amount}"))
        else:
            faces.append((value, _title(row.result)))
    return faces


def roll_glitch(state: GameState, rng: Random, entered: int | None) -> tuple[int, str]:
    """(die result, by): the entered result, or one `house.glitch_die` rolled by the app."""
    die = state.house.glitch_die
    if entered is None:
        return rng.randint(1, die), "app"
    if not 1 <= entered <= die:
        raise Refused(f"A d{die} shows 1 to {die}, not {entered}.", "R-GLITCH")
    return entered, "entered"


def glitch(state: GameState, bot: Bot, rng: Random, entered: int | None,
           scan: ScanFacts | None = None) -> tuple[GameState, list[Entry]]:
    """Roll (or take) one Glitch for `bot` and apply it; `scan` names a free Scan's Character."""
    value, by = roll_glitch(state, rng, entered)
    record = {"by": by, "faces": [{"roll": "glitch", "die": state.house.glitch_die, "face": value}],
              "glitch": value}
    row = glitch_row(state, value)
    state, text, more = apply_glitch(state, bot, row, scan)
    return state, [Entry(f"Glitch for {bot.name}: d{state.house.glitch_die} = {value}. {text}", "R-GLITCH",
                         record), *more]


def _over_maximum(bot: Bot, health: int) -> str:
    """R-GLITCH Overcharged may take Health above the maximum: say so only when it does."""
    if health > bot.max_health:
        return f" (above its maximum of {bot.max_health}, as Overcharged allows)"
    return f" (maximum {bot.max_health})"


def apply_glitch(state: GameState, bot: Bot, row: GlitchRow | None,
                 scan: ScanFacts | None = None) -> tuple[GameState, str, list[Entry]]:
    """R-GLITCH: Reboot, Overcharged, Full Throttle, a free action (R-GLITCH-FREE-ACTS); anything
    impossible is "no effect" (R-GLITCH-IMPOSSIBLE). Answers the state, the sentence for the
    Glitch's log line and any further entries (a free Scan's Marked)."""
    if row is None or row.result == "no_effect":
        return state, "No effect.", []
    if row.result == "free_action":
        return free_action(state, bot, row.action or "action", scan)
    if row.result == "overcharged":
        if row.amount <= 0:
            return state, "Overcharged for 0 Health: no effect.", []
        health = min(bot.health + row.amount, 100)
        new = bot.model_copy(update={"health": health})
        said = f"Overcharged: Health {bot.health} → {health}{_over_maximum(bot, health)}."
        return replace(state, new), said, []
    if row.duration <= 0:
        return state, f"{_title(row.result)} for no activations: no effect.", []
    if row.result == "full_throttle" and bot.run <= 0:
        return state, "Full Throttle, but it cannot move: no effect (not rerolled).", []
    start = first_turn(state, bot)
    return replace(state, _lasting(bot, row, start)), _lasting_text(row, start, state.turn), []


def first_turn(state: GameState, bot: Bot) -> int:
    """R-GLITCH-REBOOT: the bot's next turn is this one while it may still activate (Phase 1 or 2,
    not yet activated), else the next one."""
    return state.turn if state.phase <= 2 and state.decision(bot.id) is None else state.turn + 1


def _lasting(bot: Bot, row: GlitchRow, start: int) -> Bot:
    """R-GLITCH-STACK: a second Glitch of a kind already acting adds its duration to it."""
    effects = list(bot.glitches)
    for i, effect in enumerate(effects):
        if effect.result == row.result and effect.turns_left > 0:
            effects[i] = effect.model_copy(update={"turns_left": effect.turns_left + row.duration})
            break
    else:
        effects.append(GlitchEffect(result=row.result, turns_left=row.duration,  # type: ignore[arg-type]
                                    start_turn=start if row.result == "reboot" else None))
    return bot.model_copy(update={"glitches": effects})


def _lasting_text(row: GlitchRow, start: int, turn: int) -> str:
    if row.result == "reboot":
        first = "this turn" if start == turn else "its next turn"
        span = f"until the end of {first}" if row.duration == 1 else f"for {row.duration} turns from {first}"
        return (f"Reboot: no actions at all, free ones included, not even Defense, {span}, "
                "whether or not it activates.")
    span = "its next activation" if row.duration == 1 else f"its next {row.duration} activations"
    return f"Full Throttle: every move is a complete Run in {span}."


def _title(result: str) -> str:
    return result.replace("_", " ").title()


def spend_activation(bot: Bot) -> Bot:
    """An activation uses up one activation of Full Throttle (a Reboot counts turns instead)."""
    effects = [g.model_copy(update={"turns_left": g.turns_left - 1})
               if g.result == "full_throttle" and g.turns_left else g for g in bot.glitches]
    return bot.model_copy(update={"glitches": [g for g in effects if g.turns_left > 0]})


def end_of_turn(bot: Bot, turn: int) -> Bot:
    """R-GLITCH-REBOOT: a Reboot acting in this turn has one turn fewer to go, activated or not;
    spent effects are dropped."""
    effects = [g.model_copy(update={"turns_left": g.turns_left - 1})
               if g.result == "reboot" and g.turns_left and (g.start_turn or turn) <= turn else g
               for g in bot.glitches]
    return bot.model_copy(update={"glitches": [g for g in effects if g.turns_left > 0]})


class RecordGlitch(Body):
    """A Glitch from any source (an Event, a hack, a Core rule): rolled on the game's table (the
    `roll` entered, else the app rolls), or the `result` the source names."""

    bot_id: str
    source: str = Field(default="", max_length=120)
    roll: int | None = Field(default=None, ge=1, le=100)
    result: Literal["reboot", "overcharged", "full_throttle", "free_action", "no_effect"] | None = None
    duration: int | None = Field(default=None, ge=0, le=20)  # Reboot: turns; Full Throttle: activations
    amount: int | None = Field(default=None, ge=0, le=20)  # Overcharged: Health added
    action: FreeAction | None = None  # the free action
    # a free Scan's Character and the facts the player reports for it (R-GLITCH-FREE-ACTS, R-SCAN)
    character_id: str | None = Field(default=None, max_length=80)
    line_of_sight: bool = False
    in_zone: bool = False


@command("record_glitch", RecordGlitch)
def record_glitch(state: GameState, body: RecordGlitch, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state)
    bot = bot_of(state, body.bot_id)
    if bot.health <= 0:
        raise Refused(f"{bot.name} is destroyed: no Glitch.", "R-GLITCH-ANY")
    source = f" ({body.source})" if body.source else ""
    scan = ScanFacts(body.character_id, body.line_of_sight, body.in_zone)
    if body.result is None:
        state, entries = glitch(state, bot, rng, body.roll, scan)
        return state, [Entry(f"A Glitch for {bot.name}{source}.", "R-GLITCH-ANY"), *entries]
    if body.result == "free_action" and body.action is None:
        raise Refused("Name the free action the Glitch gives.", "R-GLITCH-ANY")
    row = GlitchRow(low=1, high=1, result=body.result, action=body.action,
                    duration=1 if body.duration is None else body.duration,
                    amount=1 if body.amount is None else body.amount)
    state, text, more = apply_glitch(state, bot, row, scan)
    return state, [Entry(f"Glitch for {bot.name}{source}: {text}", "R-GLITCH-ANY"), *more]
