"""The command registry: every change to a game is a named command with a pydantic body.

A rules module registers its handlers with `@command("name", Body)`; `engine.apply` looks
them up. A handler is pure: `(state, body, rng) -> (new_state, entries)`, and raises
`Refused` (never half-applies) when the command is illegal in that state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from pydantic import BaseModel, ConfigDict

from app.rules.models import GameState


class Refused(Exception):
    """A command that is illegal in the current state; `reason` is for the player."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


@dataclass(frozen=True)
class Entry:
    """One log line: a plain sentence, the rule id it applies, and any dice behind it."""

    text: str
    rule: str | None = None
    dice: dict[str, Any] | None = field(default=None)  # e.g. {"by": "app", "faces": [...]}

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "rule": self.rule, "dice": self.dice}


class Body(BaseModel):
    """Base for command bodies: unknown fields are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid", frozen=True)


Handler = Callable[[GameState, Any, Random], tuple[GameState, list[Entry]]]
REGISTRY: dict[str, tuple[type[Body], Handler]] = {}


def command(name: str, body: type[Body]) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"command {name!r} registered twice")
        REGISTRY[name] = (body, fn)
        return fn

    return register
