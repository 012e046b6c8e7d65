"""Zone: the d6-pool, range-band rules of seed 002 as a ruleset (docs/rules-zone.md). Pure."""

from __future__ import annotations

from typing import Any

from app.kernel.report import register_notes
from app.rulesets.base import Ruleset
from app.rulesets.zone import character_rolls, npc_rolls, play, turns  # noqa: F401  (register the round commands)
from app.rulesets.zone.commands import COMMANDS
from app.rulesets.zone.glossary import GLOSSARY
from app.rulesets.zone.models import ZoneState
from app.rulesets.zone.report import REPORT
from app.rulesets.zone.sheets import SAMPLE

register_notes(COMMANDS, "Round", lambda state: state.round)  # the battle report's title and notes


def columns(state: ZoneState) -> dict[str, Any]:
    """The saved-games list shows the round (Z-ROUND)."""
    return {"turn": state.round, "phase": 1, "danger": 0, "status": state.status}


RULESET = Ruleset(
    id="zone",
    name="Zone (d6 pools, range bands)",
    summary="Year Zero-style quick reference: one action and one maneuver, range bands, "
    "stunts, pushing, trauma and Broken.",
    state=ZoneState,
    commands=COMMANDS,
    columns=columns,
    glossary=GLOSSARY,
    sample=SAMPLE,
    sample_summary="two Characters with their sheets and weapons, and one NPC of each role with its "
    "assignment",
    web=f"{__name__}.web",
    report=REPORT,
)
