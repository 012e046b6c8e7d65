"""`apply(state, command) -> (state, entries)`: the one door through which a game changes."""

from __future__ import annotations

from random import Random
from typing import Any

from pydantic import ValidationError

from app.rules import (
    roster,  # noqa: F401  (registers the roster commands)
    turn,  # noqa: F401  (registers the play commands)
)
from app.rules.commands import REGISTRY, Body, Entry, Refused
from app.rules.models import GameState

__all__ = ["apply", "parse", "Refused", "Entry", "command_names"]


def command_names() -> list[str]:
    return sorted(REGISTRY)


def parse(data: dict[str, Any]) -> tuple[str, Body]:
    """Validate a command's JSON. Raises pydantic.ValidationError naming the field."""
    name = data.get("type") if isinstance(data, dict) else None
    if name not in REGISTRY:
        raise ValidationError.from_exception_data(
            "Command",
            [{"type": "literal_error", "loc": ("type",), "input": name,
              "ctx": {"expected": ", ".join(command_names())}}],
        )
    body_type, _ = REGISTRY[name]
    fields = {k: v for k, v in data.items() if k != "type"}
    return name, body_type.model_validate(fields)


def apply(state: GameState, name: str, body: Body, rng: Random) -> tuple[GameState, list[Entry]]:
    """Apply one validated command. Raises Refused when it is illegal in `state`."""
    _, handler = REGISTRY[name]
    return handler(state, body, rng)
