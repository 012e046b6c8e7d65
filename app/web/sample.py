"""A sample roster for a first game: two Characters and one AI-Bot of each role, so a new player
can start a turn in two taps (home page: "Start a sample game"; an empty game: "Use the sample
roster"). Each model is added by the ordinary roster commands, so every one is a step in the log
and Undo takes it back."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse

from app import games
from app.tables import Game
from app.web.deps import POTHAM_ONLY, EditDep, SessionDep

router = APIRouter(include_in_schema=False)

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


ASSIGNMENT = ("name", "subject", "object", "waypoints", "patrol_mode")


def role_defaults(role: str) -> dict[str, Any]:
    """A new AI-Bot's starting sheet for its role, "+ Hunter" (issue 9): the sample's, so a bot
    like it takes no typing; the player changes what differs from the card. Its assignment
    stays blank: it names things on this board."""
    sheet = next((b for b in BOTS if b["role"] == role), {"role": "hunter"})
    return {k: v for k, v in sheet.items() if k not in ASSIGNMENT}


def add_sample_roster(session, game: Game) -> None:
    for character in CHARACTERS:
        games.run_command(session, game, {"type": "add_character", "character": character})
    for bot in BOTS:
        games.run_command(session, game, {"type": "add_bot", "bot": bot})


@router.post("/games/sample")
def start_sample_game(session: SessionDep):
    """A new game with the sample roster, opened at Turn 1 · Phase 1."""
    game = games.create_game(session, "Sample game")
    add_sample_roster(session, game)
    return RedirectResponse(f"/g/{game.edit_token}", status_code=303)  # the page remembers it on this device


@router.post("/g/{token}/roster/sample", dependencies=[POTHAM_ONLY])
def use_sample_roster(opened: EditDep, session: SessionDep):
    """An empty game takes the sample roster (refused once it has any model: nothing is mixed)."""
    state = games.current_state(session, opened.game)
    if not state.characters and not state.bots:
        add_sample_roster(session, opened.game)
    return RedirectResponse(f"/g/{opened.token}", status_code=303)
