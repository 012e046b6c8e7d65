"""A sample game for a first game, so a new player can start a turn in two taps (home page:
"Start a sample game", one button per ruleset that has a sample; an empty 2038 game: "Use the
sample roster"). The ruleset says what its sample holds (`Ruleset.sample`, docs/rulesets.md):
each model is added by the ruleset's ordinary roster commands, so every one is a step in the log
and Undo takes it back."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException
from fastapi.responses import RedirectResponse

from app import games, rulesets
from app.rulesets.potham import BOTS, CHARACTERS  # noqa: F401  (the 2038 sample, read by tests)
from app.tables import Game
from app.web.deps import POTHAM_ONLY, EditDep, SessionDep

router = APIRouter(include_in_schema=False)

ASSIGNMENT = ("name", "subject", "object", "waypoints", "patrol_mode")


def role_defaults(role: str) -> dict[str, Any]:
    """A new AI-Bot's starting sheet for its role, "+ Hunter" (issue 9): the sample's, so a bot
    like it takes no typing; the player changes what differs from the card. Its assignment
    stays blank: it names things on this board."""
    sheet = next((b for b in BOTS if b["role"] == role), {"role": "hunter"})
    return {k: v for k, v in sheet.items() if k not in ASSIGNMENT}


# A new Character's starting sheets (issue 18), "+ Hacker": the sample's two Characters, named by
# what their sheet is good at (Vex carries DIAGNOSTICS, which helps a hack, R-HACK; Rook has the
# most Shoot dice). The player names the Character or leaves it "Hacker-1", and edits the rest.
CHARACTER_SHEETS = {"hacker": "Vex", "gunner": "Rook"}


def character_defaults(sheet: str) -> dict[str, Any] | None:
    """That starting sheet without its name; None for a sheet this app does not have."""
    name = CHARACTER_SHEETS.get(sheet)
    found = next((c for c in CHARACTERS if c["name"] == name), None)
    return None if found is None else {k: v for k, v in found.items() if k != "name"}


def add_sample_roster(session, game: Game) -> None:
    for command in rulesets.get(game.ruleset).sample:
        games.run_command(session, game, command)


@router.post("/games/sample")
def start_sample_game(session: SessionDep, ruleset: Annotated[str, Form(max_length=40)] = rulesets.DEFAULT):
    """A new game of that ruleset with its sample roster, opened on its first turn (2038: Turn 1 ·
    Phase 1). A ruleset this app lacks, or one without a sample, is a 422 naming `ruleset`."""
    if ruleset not in rulesets.RULESETS or not rulesets.get(ruleset).sample:
        said = f"no sample game for ruleset {ruleset!r}"
        raise HTTPException(422, [{"type": "value_error", "loc": ["body", "ruleset"], "msg": said}])
    game = games.create_game(session, "Sample game", ruleset=ruleset)
    add_sample_roster(session, game)
    return RedirectResponse(f"/g/{game.edit_token}", status_code=303)  # the page remembers it on this device


@router.post("/g/{token}/roster/sample", dependencies=[POTHAM_ONLY])
def use_sample_roster(opened: EditDep, session: SessionDep):
    """An empty game takes the sample roster (refused once it has any model: nothing is mixed)."""
    state = games.current_state(session, opened.game)
    if not state.characters and not state.bots:
        add_sample_roster(session, opened.game)
    return RedirectResponse(f"/g/{opened.token}", status_code=303)
