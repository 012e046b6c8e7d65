"""Games for the turn UI tests: a known roster in a known state, made straight in the database."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.rulesets.potham2038.models import Bot, Character, GameState, GlitchEffect
from app.store import games


def roster_state(**changes: Any) -> GameState:
    """Two Characters and one AI-Bot per role (the table the browser test plays too)."""
    characters = [
        Character(id="ada", name="Ada", points=45, health=3, max_health=3, melee={"red": 2},
                  shoot={"red": 2}, defense={"white": 2}),
        Character(id="bo", name="Bo <b>", points=40, health=4, max_health=4, melee={"red": 1},
                  shoot={"red": 3}, defense={"white": 2}),
    ]
    bots = [
        Bot(id="hunt", name="Hunter-1", role="hunter", points=60, health=4, max_health=4,
            melee={"red": 3}, defense={"white": 2}),
        Bot(id="sent", name="Sentry-1", role="sentry", points=50, health=3, max_health=3, subject="Vault",
            melee={"red": 2}, defense={"white": 2}, shoot={"red": 2}, shoot_range=18),
        Bot(id="work", name="Worker-1", role="worker", points=30, health=3, max_health=3, object="Console",
            melee={"red": 1}, defense={"white": 1}),
        Bot(id="patr", name="Patrol-1", role="patrol", points=40, health=3, max_health=3,
            waypoints=["A", "B", "C"], melee={"red": 2}, defense={"white": 2}),
    ]
    return GameState(characters=characters, bots=bots).model_copy(update=changes)


def make_game(session: Session, state: GameState | None = None, name: str = "Night shift"):
    return games.create_game(session, name, seed=7, state=state or roster_state())


def with_bot(state: GameState, bot_id: str, **changes: Any) -> GameState:
    bots = [b.model_copy(update=changes) if b.id == bot_id else b for b in state.bots]
    return state.model_copy(update={"bots": bots})


def with_character(state: GameState, character_id: str, **changes: Any) -> GameState:
    chars = [c.model_copy(update=changes) if c.id == character_id else c for c in state.characters]
    return state.model_copy(update={"characters": chars})


GLITCH_REBOOT = GlitchEffect(result="reboot", turns_left=1)

HX = {"HX-Request": "true"}
