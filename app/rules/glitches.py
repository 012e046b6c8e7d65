"""Glitches: rolled on the game's Glitch table and applied to one AI-Bot (R-GLITCH, R-END-CHECK).

Each trigger resolves separately when it occurs; an impossible result has no effect and is not
rerolled (seed 000 § Noise, Alarm, and Glitches). Durations count the bot's activations.
"""

from __future__ import annotations

from random import Random

from app.rules.commands import Entry, Refused
from app.rules.models import Bot, GameState, GlitchEffect, GlitchRow
from app.rules.play import replace

LASTING = ("reboot", "full_throttle")


def glitch_row(state: GameState, value: int) -> GlitchRow | None:
    return next((r for r in state.house.glitch_table if r.low <= value <= r.high), None)


def roll_glitch(state: GameState, rng: Random, entered: int | None) -> tuple[int, str]:
    """(die result, by): the entered result, or one `house.glitch_die` rolled by the app."""
    die = state.house.glitch_die
    if entered is None:
        return rng.randint(1, die), "app"
    if not 1 <= entered <= die:
        raise Refused(f"A d{die} shows 1 to {die}, not {entered}.", "R-GLITCH")
    return entered, "entered"


def glitch(state: GameState, bot: Bot, rng: Random, entered: int | None) -> tuple[GameState, list[Entry]]:
    """Roll (or take) one Glitch for `bot` and apply it."""
    value, by = roll_glitch(state, rng, entered)
    record = {"by": by, "faces": [{"roll": "glitch", "die": state.house.glitch_die, "face": value}],
              "glitch": value}
    row = glitch_row(state, value)
    state, text = apply_glitch(state, bot, row)
    return state, [Entry(f"Glitch for {bot.name}: d{state.house.glitch_die} = {value}. {text}", "R-GLITCH",
                         record)]


def apply_glitch(state: GameState, bot: Bot, row: GlitchRow | None) -> tuple[GameState, str]:
    """R-GLITCH: Reboot, Overcharged, Full Throttle; anything impossible is "no effect"."""
    if row is None or row.result == "no_effect":
        return state, "No effect."
    if row.result == "overcharged":
        if row.amount <= 0:
            return state, "Overcharged for 0 Health: no effect."
        health = min(bot.health + row.amount, 100)
        new = bot.model_copy(update={"health": health})
        return replace(state, new), (f"Overcharged: Health {bot.health} → {health} "
                                     f"(may exceed the maximum of {bot.max_health}).")
    if row.duration <= 0:
        return state, f"{_title(row.result)} for no activations: no effect."
    if row.result == "full_throttle" and bot.run <= 0:
        return state, "Full Throttle, but it cannot move: no effect (not rerolled)."
    return replace(state, _lasting(bot, row)), _lasting_text(row)


def _lasting(bot: Bot, row: GlitchRow) -> Bot:
    """R-GLITCH-STACK: a second Glitch of a kind already acting adds its duration to it."""
    effects = list(bot.glitches)
    for i, effect in enumerate(effects):
        if effect.result == row.result and effect.turns_left > 0:
            effects[i] = effect.model_copy(update={"turns_left": effect.turns_left + row.duration})
            break
    else:
        effects.append(GlitchEffect(result=row.result, turns_left=row.duration))  # type: ignore[arg-type]
    return bot.model_copy(update={"glitches": effects})


def _lasting_text(row: GlitchRow) -> str:
    span = "its next activation" if row.duration == 1 else f"its next {row.duration} activations"
    if row.result == "reboot":
        return f"Reboot: no actions at all, free ones included, in {span}."
    return f"Full Throttle: every move is a complete Run in {span}."


def _title(result: str) -> str:
    return result.replace("_", " ").title()


def spend_activation(bot: Bot) -> Bot:
    """An activation uses up one activation of each lasting Glitch acting on the bot."""
    effects = [g.model_copy(update={"turns_left": g.turns_left - 1}) if g.result in LASTING and g.turns_left
               else g for g in bot.glitches]
    return bot.model_copy(update={"glitches": [g for g in effects if g.turns_left > 0]})
