"""What a ruleset brings to the shell (docs/rulesets.md). Pure: no web, no SQL.

The games store, the log, undo, live updates, sharing and export hold a ruleset's state as JSON
and its commands as named bodies; they reach the rules only through this object.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from pydantic import BaseModel

from app.kernel import preconditions
from app.kernel.commands import Body, Commands, Entry


def no_note(before: Any, after: Any) -> str:
    return ""


@dataclass(frozen=True, eq=False)  # one object per ruleset: hashed by identity
class Ruleset:
    """One game system. `state` is its frozen pydantic game state (a new game is `state()`), with
    `house` (its house rules, a pydantic model), `character(id)` and `bot(id)`; `commands` its own
    command namespace; `columns` copies of the state the saved-games list shows (turn, phase,
    danger, danger_limit, status); `undo_note` what an undo says moved back (", Danger 4 → 3");
    `glossary` its rule ids and their meaning; `sample` (optional) the commands that build its
    sample game, each run as its own step (home page: "Start a sample game"); `sample_summary`
    one line saying what that sample holds; `report` what its battle report reads
    (app/kernel/report.py); `web` the dotted name of its web part (pages,
    panels, JSON APIs: app/web/routes/rulesets.py installs it), "" for none."""

    id: str
    name: str
    summary: str
    state: type[BaseModel]
    commands: Commands
    columns: Callable[[Any], dict[str, Any]]
    glossary: Mapping[str, str] = field(default_factory=dict)
    undo_note: Callable[[Any, Any], str] = no_note
    sample: tuple[dict[str, Any], ...] = ()
    sample_summary: str = ""
    web: str = ""
    report: Any = None  # its battle report's pieces (app/kernel/report.ReportPieces), None: none

    def new_state(self) -> Any:
        return self.state()

    def load(self, data: dict[str, Any]) -> Any:
        return self.state.model_validate(data)

    def parse(self, data: dict[str, Any]) -> tuple[str, Body]:
        return self.commands.parse(data)

    def apply(self, state: Any, name: str, body: Body, rng: Random) -> tuple[Any, list[Entry]]:
        return self.commands.apply(state, name, body, rng)

    def check(self, state: Any, name: str, body: Body, expect: Any, moved_on: bool, rng: Random) -> None:
        """Raise preconditions.Stale when the command would overwrite values its client did not see."""
        preconditions.check(state, name, body, expect, moved_on, rng, self.commands)
