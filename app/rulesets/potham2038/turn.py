"""The turn of a 2038 game: Phase 1 → 2 → 3 → 4 → the next turn (seed 000 § Four phases).

Importing this module registers every play command (see docs/rules.md § The turn (seed 000)):

Phase control (this module)
  next_phase   {}                          1→2→3→4; from Phase 4 use end_turn.
  end_turn     {}                          Phase 4 cleanup (R-MARK-CLEAR, R-DISTRACTED, Glitches,
                                           Luck Roll), then turn+1, Phase 1; "ended" after a final turn.
  adjust       {target_id?, health?, marked?, distracted?, danger?, knocked_down?, out_of_ammo?, note}
                                           the player's correction (absolute values), any phase.
Phase 1 (phase1.py, hacking.py)
  character_move, character_contact, noise, character_shoot, invoke_distracted, distracted_contact,
  hack, luck_roll
Phase 2 (phase2.py)
  record_event, set_activation_order, activate_bot
Phase 3 (phase3.py, redecide.py)
  resolve_melee, bot_shoot, resolve_fallback, redecide
Any phase (glitches.py)
  record_glitch
Phase 4 (phase4.py)
  position_check
"""

from __future__ import annotations

from random import Random
from typing import Any

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038 import bot_shoot, glitches, hacking, phase1, phase2, phase3, phase4, redecide  # noqa: F401  (register)
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.engagements import open_engagements
from app.rulesets.potham2038.models import MAX_TURN, PHASE_NAMES, Character, GameState
from app.rulesets.potham2038.play import Result, add_danger, model_of, replace, require_play


class NoBody(Body):
    pass


@command("next_phase", NoBody)
def next_phase(state: GameState, body: NoBody, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state)
    if state.phase == 4:
        raise Refused("Phase 4 is the last phase: answer the position checks and use end_turn.")
    entries = _leaving(state)
    phase = state.phase + 1
    state = state.model_copy(update={"phase": phase, "phase3_melee": False, "engaged": [],
                                    "separated": [], "bot_attacked": []})
    return state, [*entries, Entry(f"Turn {state.turn}, Phase {phase}: {PHASE_NAMES[phase]}.")]


def _leaving(state: GameState) -> list[Entry]:
    """Say what is left behind when a phase closes: it is not an error, the player decides."""
    if state.phase == 2 and state.to_activate():
        names = ", ".join(b.name for b in state.to_activate())
        return [Entry(f"Not activated this turn: {names}.", "R-ACT-TWO")]
    if state.phase == 3 and (state.pending_actions() or open_engagements(state)):
        names = [f"{bot.name} {a.action}" for b, a in state.pending_actions()
                 if (bot := state.bot(b)) is not None]
        names += [f"{bot.name} ⚔ {character.name}" for bot, character in open_engagements(state)
                  if not any(a.action == "melee" and a.target_id == character.id
                             for b, a in state.pending_actions() if b == bot.id)]
        return [Entry(f"Left unresolved in Phase 3: {', '.join(names)}.", "R-ACT-PHASE")]
    return []


def worked(state: GameState) -> dict[str, str]:
    """Each bot whose activation this turn ended working its object: R-ROLE-WORKER's Interact
    ("activate") is made only in base contact with it, so that is where the bot stood."""
    return {d.bot_id: a.target for d in state.decisions for a in d.actions
            if a.action == "activate" and a.target}


@command("end_turn", NoBody)
def end_turn(state: GameState, body: NoBody, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 4, what="Ending the turn")
    due = state.checks_due()
    if due:
        names = ", ".join(b.name for b in due)
        raise Refused(f"Answer the position check first: {names}.", "R-END-CHECK")
    entries = [Entry("All Marked stacks are removed.", "R-MARK-CLEAR")]
    characters = []
    for c in state.characters:
        c, said = _end_of_turn_character(c, state.turn)
        characters.append(c)
        entries += said
    bots = [glitches.end_of_turn(b, state.turn) for b in state.bots]  # R-GLITCH-REBOOT
    update = {"characters": characters, "bots": bots, "decisions": [], "event": None, "phase3_melee": False,
              "worked_last_turn": worked(state),
              "engaged": [], "separated": [], "bot_attacked": [], "contacts_reported": [],
              "distracted_ready": [], "distracted_by": [],
              "position_checks": {}}
    if state.status == "final_turn":
        entries.append(Entry(f"Turn {state.turn} is over and Danger stands at the limit: the game ends.",
                             "R-DANGER"))
        return state.model_copy(update={**update, "status": "ended"}), entries
    if state.turn >= MAX_TURN:  # no table plays this long; a state past it could not be loaded
        raise Refused(f"A game has at most {MAX_TURN} turns.")
    state = state.model_copy(update={**update, "turn": state.turn + 1, "phase": 1})
    return state, [*entries, Entry(f"Turn {state.turn}, Phase 1: {PHASE_NAMES[1]}.")]


def _end_of_turn_character(c: Character, turn: int) -> tuple[Character, list[Entry]]:
    """R-MARK-CLEAR, the Luck Roll's once-per-turn reset, and R-DISTRACTED's lifecycle: the
    stacks clear at the end of a turn after the invocation turn in which no stack was gained."""
    update: dict = {"marked": 0, "luck_roll_used": False}
    entries: list[Entry] = []
    if c.distracted and c.distracted_since != turn and c.distracted_last_gain != turn:
        update |= {"distracted": 0, "distracted_since": None, "distracted_last_gain": None}
        entries.append(Entry(f"{c.name} is no longer Distracted (no new stacks this turn).", "R-DISTRACTED"))
    return c.model_copy(update=update), entries


class Adjust(Body):
    """A correction by the player: every given field is set to that value and logged."""

    target_id: str | None = None
    health: int | None = Field(default=None, ge=0, le=100)
    marked: int | None = Field(default=None, ge=0, le=100)
    distracted: int | None = Field(default=None, ge=0, le=100)
    knocked_down: bool | None = None
    out_of_ammo: bool | None = None
    danger: int | None = Field(default=None, ge=0, le=100)
    note: str = Field(default="", max_length=300)


CHARACTER_ONLY = ("marked", "distracted")
BOT_ONLY = ("knocked_down", "out_of_ammo")


def _adjusted(state: GameState, body: Adjust) -> dict[str, dict[str, Any]]:
    """What a correction overwrites (preconditions.py): the given values, as they stand now."""
    given = body.model_dump(exclude={"target_id", "danger", "note"}, exclude_none=True)
    model = (state.bot(body.target_id) or state.character(body.target_id)) if body.target_id else None
    found = {model.id: {k: getattr(model, k) for k in given if hasattr(model, k)}} if model else {}
    return found | ({"game": {"danger": state.danger}} if body.danger is not None else {})


@command("adjust", Adjust, sets=_adjusted)
def adjust(state: GameState, body: Adjust, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state)
    changes = body.model_dump(exclude={"target_id", "danger", "note"}, exclude_none=True)
    if changes and body.target_id is None:
        raise Refused("Name the model to correct (target_id).")
    if not changes and body.danger is None:
        raise Refused("Nothing to correct: give at least one value.")
    note = f" ({body.note})" if body.note else ""
    entries: list[Entry] = []
    if changes:
        state, entries = _adjust_model(state, body.target_id or "", changes, note)
    if body.danger is not None:
        state, said = _adjust_danger(state, body.danger, note)
        entries += said
    return state, entries


def _adjust_model(state: GameState, target_id: str, changes: dict, note: str) -> Result:
    model = model_of(state, target_id)
    wrong = [k for k in (BOT_ONLY if isinstance(model, Character) else CHARACTER_ONLY) if k in changes]
    if wrong:
        raise Refused(f"{model.name} has no {', '.join(wrong)} to correct.")
    said = ", ".join(f"{k.replace('_', ' ')} {getattr(model, k)} → {v}" for k, v in changes.items())
    if "distracted" in changes and changes["distracted"] == 0:
        changes |= {"distracted_since": None, "distracted_last_gain": None}
    entry = Entry(f"Correction: {model.name}: {said}{note}.")
    return replace(state, model.model_copy(update=changes)), [entry]


def _adjust_danger(state: GameState, danger: int, note: str) -> tuple[GameState, list[Entry]]:
    """A correction sets Danger within 0..limit; an effect over the limit is an event, not a fix."""
    limit = state.house.danger_limit
    if danger > limit:
        raise Refused(f"Danger cannot be set above the limit ({limit}); record an Event to raise it.",
                      "R-DANGER")
    status = "final_turn" if danger == limit else "playing"
    entry = Entry(f"Correction: Danger {state.danger} → {danger}{note}.", "R-DANGER")
    return state.model_copy(update={"danger": danger, "status": status}), [entry]


__all__ = ["add_danger", "next_phase", "end_turn", "adjust"]
