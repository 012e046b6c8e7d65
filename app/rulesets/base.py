"""What a ruleset brings to the shell (docs/rulesets.md). Pure: no web, no SQL.

The games store, the log, undo, live updates, sharing and export hold a ruleset's state as JSON
and its commands as named bodies; they reach the rules only through this object.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from app.kernel import preconditions
from app.kernel.commands import Body, Commands, Entry

if TYPE_CHECKING:  # annotations only: an engine never imports the web framework
    from fastapi import APIRouter


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


def no_context(opened: Any, session: Any, context: dict[str, Any]) -> dict[str, Any]:
    return {}


@dataclass(frozen=True, eq=False)
class RulesetWeb:
    """What a ruleset's web part (`<package>.web.WEB`) hands the shell; app/bootstrap.py installs
    it. Every field has a default: a ruleset without a web part, or with an empty one, gets the
    generic page `ruleset_game.html` (title, status, log, sharing and undo; its commands played
    through the JSON API).
      - `page`: the template of its game page (it extends base.html and includes the shared panels),
      - `panels`: panel name -> template, for the panels it draws itself (status, turn, roster…),
      - `context(opened, session, context) -> dict`: what its panels need beyond the state,
      - `router`: its page routes (`/g/{token}/<id>/…`),
      - `api`: its stateless rules, mounted under `/api/rulesets/{id}`,
      - `row`: the partial of a saved game's line in the lists (home, admin), given `g`; None:
        "Round N" (`_ruleset_row.html`),
      - `rules`: the address of its own rule glossary page; None: `/rules/{id}` lists its glossary,
      - `step_labels`: the log's label of each of its commands ("add_npc" -> "NPC added"), and
        `command_labels` those that depend on the command's body,
      - `template_globals`, `template_filters`: the names its templates use."""

    page: str = "ruleset_game.html"
    panels: Mapping[str, str] = field(default_factory=dict)
    context: Callable[[Any, Any, dict[str, Any]], dict[str, Any]] = no_context
    router: APIRouter | None = None
    api: APIRouter | None = None
    row: str | None = None
    rules: str | None = None
    step_labels: Mapping[str, str] = field(default_factory=dict)
    command_labels: Mapping[str, Callable[[dict[str, Any]], str]] = field(default_factory=dict)
    template_globals: Mapping[str, Any] = field(default_factory=dict)
    template_filters: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
