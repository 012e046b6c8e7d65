"""Shared builders for the turn tests: a small roster with fixed ids, and one-line commands."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from app.kernel.commands import Entry, Refused
from app.rulesets.potham2038 import engine
from app.rulesets.potham2038.models import Bot, Character, GameState

ADA = Character(id="ada", name="Ada", points=45, health=5, max_health=5, melee={"red": 2},
                shoot={"red": 2}, defense={"white": 2}, mission_stats={"Hacking": {"red": 2}},
                equipment=["DIAGNOSTICS", "TECH SUPPORT"])
BEN = Character(id="ben", name="Ben", points=30, health=4, max_health=4, melee={"red": 1},
                defense={"white": 1})
HUNTER = Bot(id="hunter", name="Warden", role="hunter", points=60, health=4, max_health=4,
             melee={"red": 3}, defense={"white": 2}, shoot={"red": 2}, shoot_range=18)
SENTRY = Bot(id="sentry", name="Guard", role="sentry", points=30, subject="Vault", melee={"red": 1},
             defense={"white": 1})
PATROL = Bot(id="patrol", name="Pat", role="patrol", waypoints=["A", "B", "C"], patrol_mode="route")
WORKER = Bot(id="worker", name="Mole", role="worker", object="Console")


def game(*models: Character | Bot, phase: int = 1, **fields: Any) -> GameState:
    """A game in play with the given models (default: Ada and the Hunter)."""
    models = models or (ADA, HUNTER)
    return GameState(characters=[m for m in models if isinstance(m, Character)],
                     bots=[m for m in models if isinstance(m, Bot)], phase=phase, **fields)


def run(state: GameState, command: dict[str, Any], seed: str = "test") -> tuple[GameState, list[Entry]]:
    name, body = engine.parse(command)
    return engine.apply(state, name, body, Random(seed))


def play(state: GameState, *commands: dict[str, Any]) -> GameState:
    for i, command in enumerate(commands):
        state, _ = run(state, command, seed=f"play:{i}")
    return state


def refused(state: GameState, command: dict[str, Any]) -> Refused:
    """Assert the command is refused and the state is exactly as before."""
    before = state.model_dump()
    with pytest.raises(Refused) as caught:
        run(state, command)
    assert state.model_dump() == before
    return caught.value


def texts(entries: list[Entry]) -> str:
    return " | ".join(e.text for e in entries)


def rules(entries: list[Entry]) -> set[str | None]:
    return {e.rule for e in entries}


def hits(n: int, criticals: int = 0) -> dict[str, int]:
    return {"hits": n, "criticals": criticals}
