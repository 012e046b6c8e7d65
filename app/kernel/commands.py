"""The command registry: every change to a game is a named command with a pydantic body.

A rules module registers its handlers with `@command("name", Body)`; `engine.apply` looks
them up. Each ruleset has its own namespace (`Commands`; 2038's is in its commands.py). A
handler is pure: `(state, body, rng) -> (new_state, entries)`, and raises `Refused` (never
half-applies) when the command is illegal in that state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


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


# --- what a stored log entry may hold: the shapes Entry.dice takes (play.dice_record,
# play.black_record, glitches.glitch), so an imported log renders like one the app wrote -----

ShortText = Annotated[str, Field(max_length=80)]
Count = Annotated[int, Field(ge=0, le=1000)]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class FaceRecord(Record):
    """One die: its colour and face ({"colour": "red", "face": "hit"}), or a Glitch die's number."""

    roll: ShortText | None = None
    colour: ShortText | None = None
    die: int | None = Field(default=None, ge=2, le=100)
    face: ShortText | Count


class RollRecord(Record):
    """A rolled pool's totals (dice.Roll.as_dict)."""

    hits: Count
    criticals: Count
    faces: list[FaceRecord] = Field(default_factory=list, max_length=1000)
    by: Literal["app", "entered"]


class DiceRecord(Record):
    """Who rolled, every face, then named rolls or single results (`"luck": "success"`,
    `"glitch": 4`, `"damage": 2`)."""

    model_config = ConfigDict(extra="allow")
    by: Literal["app", "entered"] | None = None
    faces: list[FaceRecord] = Field(default_factory=list, max_length=1000)
    __pydantic_extra__: dict[str, RollRecord | Count | ShortText | None]


class EntryRecord(Record):
    """One log line as stored (Entry.as_dict)."""

    text: str = Field(max_length=4000)
    rule: ShortText | None = None
    dice: DiceRecord | None = None


class Body(BaseModel):
    """Base for command bodies: unknown fields are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid", frozen=True)


Handler = Callable[[Any, Any, Random], tuple[Any, list[Entry]]]
# What a command sets to absolute values, read from a state: {thing: {field: value}}, where a
# thing is a model id, "house" or "game" (see preconditions.py). Only such commands have one.
Sets = Callable[[Any, Any], dict[str, dict[str, Any]]]


class Commands:
    """One ruleset's command namespace (docs/rulesets.md): name -> (body type, handler), and
    the `sets` of the commands that overwrite values. Two rulesets may both have an `add_npc`."""

    def __init__(self) -> None:
        self.registry: dict[str, tuple[type[Body], Handler]] = {}
        self.sets: dict[str, Sets] = {}

    def command(self, name: str, body: type[Body], sets: Sets | None = None) -> Callable[[Handler], Handler]:
        """Register a handler; `sets` for a command that overwrites values instead of changing
        them (an edit, a correction), so a stale one can be told from a fresh one."""
        def register(fn: Handler) -> Handler:
            if name in self.registry:
                raise ValueError(f"command {name!r} registered twice")
            self.registry[name] = (body, fn)
            if sets is not None:
                self.sets[name] = sets
            return fn

        return register

    def names(self) -> list[str]:
        return sorted(self.registry)

    def parse(self, data: dict[str, Any]) -> tuple[str, Body]:
        """Validate a command's JSON. Raises pydantic.ValidationError naming the field."""
        name = data.get("type") if isinstance(data, dict) else None
        if name not in self.registry:
            raise ValidationError.from_exception_data(
                "Command",
                [{"type": "literal_error", "loc": ("type",), "input": name,
                  "ctx": {"expected": ", ".join(self.names())}}],
            )
        body_type, _ = self.registry[name]
        fields = {k: v for k, v in data.items() if k != "type"}
        return name, body_type.model_validate(fields)

    def apply(self, state: Any, name: str, body: Body, rng: Random) -> tuple[Any, list[Entry]]:
        """Apply one validated command. Raises Refused when it is illegal in `state`."""
        _, handler = self.registry[name]
        return handler(state, body, rng)
