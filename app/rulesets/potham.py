"""Potham Chronicles 2038 as a ruleset: the rules in app/rules, exactly as they are."""

from __future__ import annotations

from typing import Any

from app.rules import engine  # noqa: F401  (registers the 2038 commands)
from app.rules.commands import POTHAM_COMMANDS
from app.rules.glossary import GLOSSARY
from app.rules.models import GameState
from app.rulesets.base import Ruleset


def columns(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "phase": state.phase, "danger": state.danger, "status": state.status,
            "danger_limit": state.house.danger_limit}


def danger_moved(before: GameState, after: GameState) -> str:
    """", Danger 4 → 3" when an undo moved Danger back (R-DANGER)."""
    return f", Danger {before.danger} → {after.danger}" if before.danger != after.danger else ""


RULESET = Ruleset(id="potham-2038", name="Potham Chronicles 2038",
                  summary="The AI-Bots of Potham 2038: coloured dice, zones, the Danger track.",
                  state=GameState, commands=POTHAM_COMMANDS, columns=columns, glossary=GLOSSARY,
                  undo_note=danger_moved)
