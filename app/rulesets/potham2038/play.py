"""Shared pieces of the turn commands: guards, look-ups, the Danger track, Marked, Health, dice.

Every helper returns a new state (never mutates) and the log entries it caused, so a command
handler can chain them and raise `Refused` before anything is applied.
"""

from __future__ import annotations

from random import Random
from typing import Any, Literal

from pydantic import Field, model_validator

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038 import dice
from app.rulesets.potham2038.dice import Roll
from app.rulesets.potham2038.models import MAX_MARKED, PHASE_NAMES, Bot, Character, GameState, Pool

BlackFace = Literal["success", "blank"]
Result = tuple[GameState, list[Entry]]  # what every command handler answers


class EnteredRoll(Body):
    """A roll read off physical dice: `hits` counts every Hit face including Criticals."""

    hits: int = Field(ge=0, le=40)
    criticals: int = Field(default=0, ge=0, le=40)

    @model_validator(mode="after")
    def _criticals_are_hits(self) -> EnteredRoll:
        if self.criticals > self.hits:
            raise ValueError("criticals cannot exceed hits: a Critical is also a Hit (R-CMB-ROLL)")
        return self


# --- guards and look-ups -------------------------------------------------------------------


def require_play(state: GameState, *phases: int, what: str = "That") -> None:
    """Refuse play once the game is over, and commands that belong to another phase."""
    if state.status in ("ended", "failed"):
        lost = state.danger_excess == 0 and state.characters and all(c.health <= 0 for c in state.characters)
        how = ("failed (every Character out of action)" if lost else "failed (Danger over the limit)") \
            if state.status == "failed" else "ended"
        raise Refused(f"The game has {how}: no more play. Undo to go back.", "R-DANGER")
    if phases and state.phase not in phases:
        wanted = " or ".join(f"Phase {p} ({PHASE_NAMES[p]})" for p in phases)
        raise Refused(f"{what} belongs to {wanted}; the game is in Phase {state.phase} "
                      f"({PHASE_NAMES[state.phase]}).")


def character_of(state: GameState, id_: str) -> Character:
    found = state.character(id_)
    if found is None:
        raise Refused(f"There is no Character {id_!r} in this game.")
    return found


def bot_of(state: GameState, id_: str) -> Bot:
    found = state.bot(id_)
    if found is None:
        raise Refused(f"There is no AI-Bot {id_!r} in this game.")
    return found


def model_of(state: GameState, id_: str) -> Bot | Character:
    found = state.bot(id_) or state.character(id_)
    if found is None:
        raise Refused(f"There is no model {id_!r} in this game.")
    return found


def offline(state: GameState, bot: Bot) -> bool:
    """R-GLITCH-REBOOT: a Reboot "stops even free actions" from the Glitch until the end of the
    turn whose activation it took: the bot neither attacks nor Defends (Defend is a free action,
    seed 001), so an attack on it meets no Defense roll."""
    decision = state.decision(bot.id)
    return bot.rebooted or (decision is not None and decision.rebooted)


NO_DEFENSE = Roll(hits=0, criticals=0, by="entered")  # a rebooted bot rolls no Defense


def replace(state: GameState, model: Bot | Character) -> GameState:
    """The state with `model` swapped in for the model with the same id."""
    if isinstance(model, Bot):
        return state.model_copy(update={"bots": [model if b.id == model.id else b for b in state.bots]})
    characters = [model if c.id == model.id else c for c in state.characters]
    return state.model_copy(update={"characters": characters})


# --- tracks --------------------------------------------------------------------------------


def add_danger(state: GameState, amount: int, why: str, rule: str) -> tuple[GameState, list[Entry]]:
    """Move the Danger track (R-DANGER): never below 0; exactly the limit makes this the final
    turn; past the limit the game fails at once, Danger stays at the limit and the excess is
    kept in `danger_excess` (R-DANGER-CAP)."""
    if amount == 0:
        return state, []
    limit, wanted = state.house.danger_limit, state.danger + amount
    if wanted > limit:
        excess = wanted - limit
        text = (f"{why}: Danger would reach {wanted}, over the limit of {limit}. "
                "The mission fails at once.")
        return state.model_copy(update={"danger": limit, "danger_excess": state.danger_excess + excess,
                                        "status": "failed"}), [Entry(text, "R-DANGER")]
    new = max(wanted, 0)
    entries = [Entry(f"{why}: Danger {state.danger} → {new}.", rule)]
    if wanted < 0:
        entries.append(Entry("Danger never goes below 0.", "R-DANGER"))
    status = state.status
    if new == limit and status == "playing":
        status = "final_turn"
        entries.append(Entry(f"Danger has reached {limit}: the game ends after this turn.", "R-DANGER"))
    return state.model_copy(update={"danger": new, "status": status}), entries


def add_marked(state: GameState, character: Character, stacks: int, why: str,
               rule: str) -> tuple[GameState, list[Entry]]:
    if stacks <= 0:
        return state, []
    current = character_of(state, character.id)
    new = current.model_copy(update={"marked": min(current.marked + stacks, MAX_MARKED)})  # R-MARK-CAP
    text = f"{why}: {current.name} +{stacks} Marked (now {new.marked})."
    return replace(state, new), [Entry(text, rule)]


def wound(state: GameState, model_id: str, damage: int, rule: str) -> tuple[GameState, list[Entry]]:
    """Take `damage` from a model's current Health (never below 0) and say what it means."""
    model = model_of(state, model_id)
    if damage <= 0:
        return state, []
    health = max(model.health - damage, 0)
    text = f"{model.name} takes {damage} damage: Health {model.health} → {health}."
    if health == 0:
        text += " Destroyed." if isinstance(model, Bot) else " Out of action."
    return replace(state, model.model_copy(update={"health": health})), [Entry(text, rule)]


# --- dice ----------------------------------------------------------------------------------


def roll(state: GameState, pool: Pool, rng: Random, entered: EnteredRoll | None) -> Roll:
    """The entered result when there is one, else the app rolls the pool with the game's faces."""
    if entered is not None:
        return dice.entered_roll(entered.hits, entered.criticals)
    try:
        return dice.roll_pool(pool, rng, state.house.dice_faces)
    except ValueError as error:  # an unknown colour or too many dice: the player can fix it
        raise Refused(f"Cannot roll {pool_text(pool)}: {error}.", "R-DICE") from error


def black_die(state: GameState, rng: Random, entered: BlackFace | None) -> tuple[str, str]:
    """(face, by): the entered Black Die, or one the app rolls."""
    if entered is not None:
        return entered, "entered"
    try:
        face = dice.roll_black_die(rng, state.house.dice_faces)
    except ValueError as error:
        raise Refused(f"{error}: enter the Black Die's result instead.", "R-DICE") from error
    return ("success" if face == "success" else "blank"), "app"


def dice_record(**rolls: Roll) -> dict[str, Any]:
    """The log's dice: who rolled, every face, and each named roll's totals."""
    by = "app" if any(r.by == "app" for r in rolls.values()) else "entered"
    faces = [{"roll": name, "colour": c, "face": f} for name, r in rolls.items() for c, f in r.faces]
    return {"by": by, "faces": faces, **{name: r.as_dict() for name, r in rolls.items()}}


def black_record(face: str, by: str, purpose: str) -> dict[str, Any]:
    return {"by": by, "faces": [{"roll": purpose, "colour": "black", "face": face}], purpose: face}


def pool_text(pool: Pool) -> str:
    return dice.pool_text(pool) or "no dice"
