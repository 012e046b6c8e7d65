"""`apply(state, command) -> (state, entries)`: the one door through which a game changes."""

from __future__ import annotations

from random import Random
from typing import Any

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038 import (
    roster,  # noqa: F401  (registers the roster commands)
    turn,  # noqa: F401  (registers the play commands)
)
from app.rulesets.potham2038.commands import POTHAM_COMMANDS
from app.rulesets.potham2038.models import GameState

__all__ = ["apply", "parse", "Refused", "Entry", "command_names"]


def command_names() -> list[str]:
    return POTHAM_COMMANDS.names()


def parse(data: dict[str, Any]) -> tuple[str, Body]:
    """Validate a command's JSON. Raises pydantic.ValidationError naming the field."""
    return POTHAM_COMMANDS.parse(data)


def apply(state: GameState, name: str, body: Body, rng: Random) -> tuple[GameState, list[Entry]]:
    """Apply one validated command. Raises Refused when it is illegal in `state`."""
    return POTHAM_COMMANDS.apply(state, name, body, rng)
