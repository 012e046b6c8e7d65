"""A sample game for a first game, so a new player can start a turn in two taps (home page:
"Start a sample game", one button per ruleset that has a sample; 2038's "Use the sample roster"
is in its web part). The ruleset says what its sample holds (`Ruleset.sample`, docs/rulesets.md):
each model is added by the ruleset's ordinary roster commands, so every one is a step in the log
and Undo takes it back."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException
from fastapi.responses import RedirectResponse

from app import rulesets
from app.store import game_commands, games
from app.store.tables import Game
from app.web.deps import SessionDep

router = APIRouter(include_in_schema=False)


def add_sample_roster(session, game: Game) -> None:
    for command in rulesets.get(game.ruleset).sample:
        game_commands.run_command(session, game, command)


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
