"""2038's sample roster in a game: an empty game takes it in one tap ("Use the sample roster"),
and a new AI-Bot starts from the sample's sheet of its role."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse

from app.rulesets.potham2038.ruleset import BOTS, CHARACTERS
from app.rulesets.potham2038.web.guard import POTHAM_ONLY
from app.store import games
from app.web.deps import EditDep, SessionDep
from app.web.routes.sample import add_sample_roster

router = APIRouter(include_in_schema=False)

ASSIGNMENT = ("name", "subject", "object", "waypoints", "patrol_mode")

# A new Character's starting sheets, "+ Hacker": the sample's two Characters, named by
# what their sheet is good at (Vex carries DIAGNOSTICS, which helps a hack, R-HACK; Rook has the
# most Shoot dice). The player names the Character or leaves it "Hacker-1", and edits the rest.
CHARACTER_SHEETS = {"hacker": "Vex", "gunner": "Rook"}


def character_defaults(sheet: str) -> dict[str, Any] | None:
    """That starting sheet without its name; None for a sheet this app does not have."""
    name = CHARACTER_SHEETS.get(sheet)
    found = next((c for c in CHARACTERS if c["name"] == name), None)
    return None if found is None else {k: v for k, v in found.items() if k != "name"}


def role_defaults(role: str) -> dict[str, Any]:
    """A new AI-Bot's starting sheet for its role, "+ Hunter": the sample's, so a bot
    like it takes no typing; the player changes what differs from the card. Its assignment
    stays blank: it names things on this board."""
    sheet = next((b for b in BOTS if b["role"] == role), {"role": "hunter"})
    return {k: v for k, v in sheet.items() if k not in ASSIGNMENT}


@router.post("/g/{token}/roster/sample", dependencies=[POTHAM_ONLY])
def use_sample_roster(opened: EditDep, session: SessionDep):
    """An empty game takes the sample roster (refused once it has any model: nothing is mixed)."""
    state = games.current_state(session, opened.game)
    if not state.characters and not state.bots:
        add_sample_roster(session, opened.game)
    return RedirectResponse(f"/g/{opened.token}", status_code=303)
