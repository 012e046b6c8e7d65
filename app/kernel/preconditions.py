"""No edit silently overwritten: the precondition of a command that sets absolute values.

`seen` (the step a page last saw) refuses a command that no longer fits the newer state, but an
edit fits any state: two edits of one Character made from the same page both apply, and the
first is lost. So such a command (registered with `sets`, see commands.py) may carry `expect`:
the values its page saw of what it sets, shaped like `sets` answers, `{thing: {field: value}}`
(a thing is a model id, "house" or "game"). If any of them changed meanwhile the command is
refused as stale, with both versions (theirs: the values now; yours: the values the command
would set); an edit of another thing, or of fields it does not set, still applies. Things and
fields the command does not set are ignored, so a page may send everything it showed, and a
new field of a model or of the house rules is covered without listing it anywhere.

Without `expect`, a command that sets values is refused as soon as the game moved on past the
step its client saw (`seen`): it cannot say that it is not overwriting anything.
"""

from __future__ import annotations

import json
from random import Random
from typing import Any

from pydantic import ValidationError

from app.kernel.commands import Body, Commands, Refused

Values = dict[str, dict[str, Any]]
MAX_MISSING = 20


class Stale(Exception):
    """The values a command would overwrite are not the ones its client saw."""

    def __init__(self, reason: str, theirs: Values, yours: Values | None):
        super().__init__(reason)
        self.reason, self.theirs, self.yours = reason, theirs, yours


def current(state: Any, name: str, body: Body, commands: Commands) -> Values:
    """What the command sets, as it stands in `state` ({} for a command that sets nothing)."""
    sets = commands.sets.get(name)
    return sets(state, body) if sets is not None else {}


def changed(theirs: Values, expect: Any) -> list[tuple[str, str]]:
    """(thing, field) of each value that is not the expected one. Raises ValidationError naming
    `expect.<thing>.<field>` for a value the command sets that `expect` leaves out."""
    missing: list[tuple[str, ...]] = []
    differ: list[tuple[str, str]] = []
    for thing, fields in theirs.items():
        seen = expect.get(thing) if isinstance(expect, dict) else None
        for field, value in fields.items():
            if not isinstance(seen, dict) or field not in seen:
                missing.append(("expect", thing, field))
            elif not _same(seen[field], value):
                differ.append((thing, field))
    if missing:
        raise ValidationError.from_exception_data("Command", [
            {"type": "missing", "loc": loc, "input": None} for loc in missing[:MAX_MISSING]])
    return differ


def _same(seen: Any, now: Any) -> bool:
    """JSON equality (4 == 4.0), but a flag is not a number."""
    if isinstance(seen, bool) or isinstance(now, bool):
        return type(seen) is type(now) and seen == now
    return bool(seen == now)


def check(state: Any, name: str, body: Body, expect: Any, moved_on: bool, rng: Random,
          commands: Commands) -> None:
    """Raise Stale when the command would overwrite values its client did not see. `commands`:
    the game's ruleset's namespace; its state has `character(id)` and `bot(id)`."""
    theirs = current(state, name, body, commands)
    if not theirs:
        return  # it sets nothing (or its model is gone: the command itself refuses that)
    if expect is None:
        if not moved_on:
            return
        reason = ("The game moved on since you looked, and this change does not say which values it "
                  "replaces (expect): nothing was saved.")
        raise Stale(reason, theirs, _yours(state, name, body, rng, commands))
    differ = changed(theirs, expect)
    if differ:
        yours = _yours(state, name, body, rng, commands)
        raise Stale(describe(state, differ, theirs, yours), theirs, yours)


def _yours(state: Any, name: str, body: Body, rng: Random, commands: Commands) -> Values | None:
    """What the command would set, applied to the state as it is now (None: refused now)."""
    try:
        after, _ = commands.apply(state, name, body, rng)
    except Refused:
        return None
    return current(after, name, body, commands)


def describe(state: Any, differ: list[tuple[str, str]], theirs: Values, yours: Values | None) -> str:
    """"Changed on another device since you looked: Ada: health is now 1 (yours: 2)."."""
    parts = []
    for thing, field in differ:
        said = f"{_thing(state, thing)}{field.replace('_', ' ')} is now {_text(theirs[thing][field])}"
        if yours is not None and thing in yours and field in yours[thing]:
            said += f" (yours: {_text(yours[thing][field])})"
        parts.append(said)
    return ("Changed on another device since you looked: " + "; ".join(parts)
            + ". Nothing was saved: save again to replace it with yours.")


def _thing(state: Any, thing: str) -> str:
    if thing == "house":
        return "house rules: "
    model = state.character(thing) or state.bot(thing)
    return f"{model.name}: " if model is not None else ""


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:80] + "…"
