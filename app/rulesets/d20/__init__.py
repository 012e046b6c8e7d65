"""The `d20` ruleset: the d20 combat reference (Action, Move, Minor, one Reaction; attacks
against DEF; cover; natural 20 and natural 1; conditions; Dying) and the same NPC roles as
2038 deciding in its economy. Pure: stdlib, dataclasses and pydantic; no web, SQL or templates.

Rule ids are `D20-…`; docs/rules-d20.md maps every sentence of the d20 combat reference to
them, and glossary.py summarises each for the player. `RULESET` plugs it into the shell
(docs/rulesets.md).
"""

from __future__ import annotations

from typing import Any

from app.kernel.commands import Commands
from app.kernel.report import register_notes
from app.rulesets.base import Ruleset
from app.rulesets.d20 import play_npc, play_roster, play_round, play_tracker, play_turn  # noqa: F401  (registers the commands)
from app.rulesets.d20.commands import HANDLERS, SETS
from app.rulesets.d20.game import D20State
from app.rulesets.d20.glossary import GLOSSARY
from app.rulesets.d20.report import REPORT
from app.rulesets.d20.sample import SAMPLE

COMMANDS = Commands()
for _name, _body, _handler in HANDLERS:
    COMMANDS.command(_name, _body, SETS.get(_name))(_handler)

register_notes(COMMANDS, "Round", lambda state: state.round)  # the battle report's title and notes


def columns(state: D20State) -> dict[str, Any]:
    """The saved-games list shows the round (D20-TURN)."""
    return {"turn": state.round, "phase": 1, "danger": 0, "status": state.status}


RULESET = Ruleset(
    id="d20",
    name="d20 (Action, Move, Minor)",
    summary="A d20 combat reference: attacks against DEF, cover, natural 20 and 1, conditions, "
    "Dying; NPCs take an Action, a Move and a Minor.",
    state=D20State,
    commands=COMMANDS,
    columns=columns,
    glossary=GLOSSARY,
    sample=SAMPLE,
    sample_summary="two Characters (a Fighter and a Medic) and three NPCs on ready stat blocks: a Hunter, "
    "a Sentry and a Worker",
    web=f"{__name__}.web",
    report=REPORT,
)
