"""A bot's two action slots during Phase 3: which are still open and which family is unused
(seed 001 § Phase 3). The engagements every AI-Bot shot waits for are in engagements.py, which
imports this module (never the other way: no import cycle).

A slot is open when no normal action fills it, or its action was skipped (never happened).
A free Glitch action (R-GLITCH-ANY) spends no slot and uses up no family, so it is ignored here.
"""

from __future__ import annotations

from app.rulesets.potham2038.models import DecidedAction, GameState


def set_status(state: GameState, bot_id: str, slot: int, status: str) -> GameState:
    decisions = [d.model_copy(update={"actions": [a.model_copy(update={"status": status}) if a.slot == slot
                                                   else a for a in d.actions]}) if d.bot_id == bot_id else d
                 for d in state.decisions]
    return state.model_copy(update={"decisions": decisions})


def put_action(state: GameState, bot_id: str, action: DecidedAction) -> GameState:
    """The bot's decision with `action` in its slot (replacing what was there), slots in order."""
    decisions = []
    for d in state.decisions:
        if d.bot_id == bot_id:
            actions = sorted([*(a for a in d.actions if a.slot != action.slot), action], key=lambda a: a.slot)
            d = d.model_copy(update={"actions": actions})
        decisions.append(d)
    return state.model_copy(update={"decisions": decisions})


def pending(state: GameState, bot_id: str, *actions: str) -> DecidedAction | None:
    """The bot's first pending action among `actions` (in that order of preference)."""
    mine = [a for b, a in state.pending_actions() if b == bot_id]
    for wanted in actions:
        found = next((a for a in mine if wanted in (a.action, a.family)), None)
        if found:
            return found
    return None


def taken(state: GameState, bot_id: str) -> list[DecidedAction]:
    """The bot's normal actions that happened or still will (not skipped, not free)."""
    decision = state.decision(bot_id)
    return [a for a in (decision.actions if decision else []) if not a.free and a.status != "skipped"]


def family_used(state: GameState, bot_id: str, family: str, but: int | None = None) -> bool:
    """R-ACT-TWO: one action per family; `but` leaves out the slot being re-decided."""
    return any(a.family == family and a.slot != but for a in taken(state, bot_id))


def open_slot(state: GameState, bot_id: str, family: str) -> int | None:
    """The slot a new action of `family` may take now (seed 001: "Use remaining actions in a
    different family where legal"): the family is unused and slot 1 or 2 is open; else None."""
    if state.decision(bot_id) is None or family_used(state, bot_id, family):
        return None
    used = {a.slot for a in taken(state, bot_id)}
    return next((slot for slot in (1, 2) if slot not in used), None)
