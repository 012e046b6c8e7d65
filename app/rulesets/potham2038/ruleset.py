"""Potham Chronicles 2038 as a ruleset: the rules in this package, exactly as they are."""

from __future__ import annotations

from typing import Any

from app.kernel.report import register_notes
from app.rulesets.base import Ruleset
from app.rulesets.potham2038 import engine  # noqa: F401  (registers the 2038 commands)
from app.rulesets.potham2038.commands import POTHAM_COMMANDS
from app.rulesets.potham2038.glossary import GLOSSARY
from app.rulesets.potham2038.models import GameState
from app.rulesets.potham2038.report import REPORT

# The sample game: two Characters and one AI-Bot of each role, ready for Turn 1.
CHARACTERS: list[dict[str, Any]] = [
    {"name": "Vex", "points": 45, "health": 3, "max_health": 3, "melee": {"red": 2}, "shoot": {"red": 2},
     "defense": {"white": 2}, "equipment": ["DIAGNOSTICS"]},
    {"name": "Rook", "points": 40, "health": 4, "max_health": 4, "melee": {"red": 1}, "shoot": {"red": 3},
     "defense": {"white": 2}},
]
BOTS: list[dict[str, Any]] = [
    {"name": "Hunter-1", "role": "hunter", "points": 60, "health": 4, "max_health": 4, "melee": {"red": 3},
     "defense": {"white": 2}},
    {"name": "Sentry-1", "role": "sentry", "points": 50, "subject": "Vault", "melee": {"red": 2},
     "defense": {"white": 2}, "shoot": {"red": 2}, "shoot_range": 18},
    {"name": "Worker-1", "role": "worker", "points": 30, "object": "Console", "melee": {"red": 1},
     "defense": {"white": 1}},
    {"name": "Patrol-1", "role": "patrol", "points": 40, "waypoints": ["Gate", "Fountain", "Depot"],
     "patrol_mode": "route", "melee": {"red": 2}, "defense": {"white": 2}},
]
SAMPLE = tuple([{"type": "add_character", "character": c} for c in CHARACTERS]
               + [{"type": "add_bot", "bot": b} for b in BOTS])

register_notes(POTHAM_COMMANDS, "Turn", lambda state: state.turn)  # the battle report's title and notes


def columns(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "phase": state.phase, "danger": state.danger, "status": state.status,
            "danger_limit": state.house.danger_limit}


def danger_moved(before: GameState, after: GameState) -> str:
    """", Danger 4 → 3" when an undo moved Danger back (R-DANGER)."""
    return f", Danger {before.danger} → {after.danger}" if before.danger != after.danger else ""


RULESET = Ruleset(id="potham-2038", name="Potham Chronicles 2038",
                  summary="The AI-Bots of Potham 2038: coloured dice, zones, the Danger track.",
                  state=GameState, commands=POTHAM_COMMANDS, columns=columns, glossary=GLOSSARY,
                  undo_note=danger_moved, sample=SAMPLE,
                  sample_summary="two Characters and one AI-Bot of each role, ready for Turn 1",
                  web=f"{__package__}.web", report=REPORT)
