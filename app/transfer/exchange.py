"""Export and import: a game as one versioned JSON document (docs/architecture.md § The game as a log).

The promise: any document this app ever exported imports into any later version. So the format
has a version, and each change of the format adds ONE function to MIGRATIONS that lifts a
document from version n to n+1 (old functions are never edited), plus a saved sample in
tests/fixtures/exports/v<n>.json that the tests import. A document is migrated to the current
version first, then validated strictly against the current models, then stored as a new game
with new tokens. Steps are restored as recorded, not replayed: a rule fixed later must not
rewrite the history of a game played before.

Version history:
  1  name, seed, created_at, house (the house rules in force at the latest step), and every
     step with seq, kind, actor, command, entries, state and created_at. Tokens never leave.
  2  ruleset: the id of the ruleset the game is played under (app/rulesets); a version-1
     document is a Potham 2038 game. House rules, states and commands are that ruleset's.
  3  a step carries either its full `state` or its `delta` from the step before (app/store/deltas.py);
     step 0 carries a state. The app exports the states it stores (step 0, snapshots, ends of
     turn, the latest step: app/store/steplog.py) and deltas elsewhere, so an export is as compact as
     the database. A version-2 document is a valid version 3 (every step has a state).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    model_validator,
)
from sqlmodel import Session, col, select

from app import rulesets
from app.kernel.commands import EntryRecord
from app.kernel.names import GameName, printable
from app.rulesets.base import Ruleset
from app.store import games, steplog
from app.store.tables import Game, Step, now
from app.transfer.replay import raw_states, replay_check

GAME_FORMAT = "potham-2038-game"
CURRENT_VERSION = 3
MAX_BYTES = 20 * 1024 * 1024  # a long game with a big roster is well under 5 MB
MAX_STEPS = 20_000

# format_version n -> a function lifting a version-n document to n+1 (it sets format_version).
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def _v1_games_are_potham_2038(doc: dict[str, Any]) -> dict[str, Any]:
    return {**doc, "ruleset": "potham-2038"}


MIGRATIONS[1] = _v1_games_are_potham_2038


def _states_may_become_deltas(doc: dict[str, Any]) -> dict[str, Any]:
    """2 -> 3: nothing to change, a step with a full state is still allowed."""
    return doc


MIGRATIONS[2] = _states_may_become_deltas
MAX_DELTA = 10_000  # edits in one step's delta; a step changes a few dozen values at most


class Problem(Exception):
    """A document that cannot be imported; `errors` are FastAPI-style 422 details."""

    def __init__(self, errors: list[dict[str, Any]]):
        super().__init__("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors))
        self.errors = errors


def problem(loc: tuple, msg: str, type_: str = "value_error") -> Problem:
    return Problem([{"type": type_, "loc": list(loc), "msg": msg}])


# --- the current format, validated strictly ------------------------------------------------


def _in_utc(moment: datetime) -> datetime:
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+01:00 is before year 1 in UTC
        raise ValueError("the time is out of range") from None


# A moment as the app writes it, with its timezone: the database refuses one without (
# a naive or date-only timestamp answered 500).
Moment = Annotated[AwareDatetime, AfterValidator(_in_utc)]
# A text column's value: PostgreSQL text cannot hold a NUL (JSON columns escape it).
Text = Annotated[str, AfterValidator(printable)]


# Documents from before rulesets are the default ruleset's (Potham 2038): its state and house rules.
DefaultState = rulesets.get(rulesets.DEFAULT).state
DefaultHouse = DefaultState.model_fields["house"].annotation


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StepDoc(Strict):
    """A step as the app writes it: its command validates as that command's body (`create` and
    `undo` as theirs), its entries as stored log entries, its state as its ruleset's state
    (documents_for makes one per ruleset; this one is Potham 2038's), or else its delta as
    edits that give one (checked with the whole log: replay_check)."""

    ruleset: ClassVar[Ruleset] = rulesets.get("potham-2038")

    seq: int = Field(ge=0, le=MAX_STEPS)
    kind: str = Field(min_length=1, max_length=40)
    actor: Text = Field(default="player", min_length=1, max_length=40)
    command: dict[str, Any]
    entries: list[EntryRecord] = Field(default_factory=list, max_length=1000)
    state: DefaultState | None = None
    delta: list[list[Any]] | None = Field(default=None, max_length=MAX_DELTA)
    created_at: Moment | None = None

    @model_validator(mode="after")
    def state_or_delta(self) -> StepDoc:
        if (self.state is None) == (self.delta is None):
            raise ValueError("a step carries either its state or its delta (one of them)")
        return self

    @model_validator(mode="after")
    def command_matches_kind(self) -> StepDoc:
        if self.command.get("type") != self.kind:
            raise ValueError(f"command.type must be the step's kind {self.kind!r}")
        body = {k: v for k, v in self.command.items() if k != "type"}
        try:  # a recorded command must still be a valid command
            if self.kind in LOG_COMMANDS:
                LOG_COMMANDS[self.kind].model_validate(body)
            elif self.kind in self.ruleset.commands.registry:
                self.ruleset.parse(self.command)
            else:
                raise ValueError(f"unknown command {self.kind!r}")
        except ValidationError as error:
            problems = "; ".join(f"command.{'.'.join(map(str, e['loc']))}: {e['msg']}"
                                 for e in error.errors())
            raise ValueError(f"the recorded command is not valid: {problems}") from None
        return self


class CreateCommand(Strict):
    pass


class UndoCommand(Strict):
    to_seq: int = Field(ge=0, le=MAX_STEPS)  # the step whose state it restored (never an undo)


# The two steps games.py and game_commands.py write without a command body of the engine's.
LOG_COMMANDS: dict[str, type[Strict]] = {"create": CreateCommand, "undo": UndoCommand}


class GameDoc(Strict):
    format: Literal["potham-2038-game"]
    format_version: Literal[3]
    ruleset: Literal["potham-2038"]
    exported_at: Moment | None = None
    app: str | None = Field(default=None, max_length=200)
    name: GameName
    seed: int = Field(ge=0, le=2**31 - 1)
    created_at: Moment | None = None
    house: DefaultHouse
    steps: list[StepDoc] = Field(min_length=1, max_length=MAX_STEPS)

    @model_validator(mode="after")
    def steps_form_one_log(self) -> GameDoc:
        for index, step in enumerate(self.steps):
            if step.seq != index:
                raise ValueError(f"steps must be numbered 0, 1, 2, … without gaps; "
                                 f"step {index} says {step.seq}")
        if self.steps[0].kind != "create" or self.steps[0].state is None:
            raise ValueError("step 0 must be the game's creation, with its state")
        last = replay_check(self.steps, self.seed, type(self.steps[0]).ruleset)
        if self.house != last.house:
            raise ValueError("house must equal the house rules of the latest step")
        return self


@cache
def documents_for(ruleset: Ruleset) -> type[GameDoc]:
    """The document of a game played under `ruleset`: its house rules, states and commands."""
    if ruleset is StepDoc.ruleset:
        return GameDoc
    name = ruleset.id.replace("-", "_")
    step_doc = create_model(f"StepDoc_{name}", __base__=StepDoc, state=(ruleset.state | None, None))
    step_doc.ruleset = ruleset
    return create_model(f"GameDoc_{name}", __base__=GameDoc, ruleset=(Literal[ruleset.id], ...),  # type: ignore[valid-type]
                        house=(ruleset.state.model_fields["house"].annotation, ...),
                        steps=(list[step_doc], Field(min_length=1, max_length=MAX_STEPS)))


# --- export --------------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def step_json(s: Step) -> dict[str, Any]:
    return {"seq": s.seq, "kind": s.kind, "actor": s.actor, "command": s.command, "entries": s.entries,
            "created_at": _iso(s.created_at),
            **({"state": s.state} if s.state is not None else {"delta": s.delta})}


def head_json(session: Session, game: Game) -> dict[str, Any]:
    """The document but its steps; the house rules are the latest step's."""
    house = games.current_state(session, game).house.model_dump(mode="json")
    return {
        "format": GAME_FORMAT, "format_version": CURRENT_VERSION, "exported_at": now().isoformat(),
        "app": "potham-assistant", "ruleset": game.ruleset, "name": game.name, "seed": game.seed,
        "created_at": _iso(game.created_at), "house": house,
    }


def export_game(session: Session, game: Game) -> dict[str, Any]:
    return {**head_json(session, game), "steps": [step_json(s) for s in games.steps(session, game)]}


EXPORT_BATCH = 20  # steps read, written and let go at a time (a step is 1-2 KB, its log text up to 4 MB)


def as_json(value: Any) -> bytes:
    """As the app's JSON answers are written (Starlette's JSONResponse): compact, UTF-8."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def export_chunks(bind: Any, game_id: int) -> Iterator[bytes]:
    """export_game's document, the same bytes as its JSON answer, in pieces of EXPORT_BATCH steps,
    each read in a session of its own: a client that does not read the answer holds neither the
    whole document in memory (40 unread exports of a 7.2 MB game held 864 MB) nor a database
    connection; the server writes the next piece only once the client took the last one
    (uvicorn's back-pressure). Steps are only ever added, so the steps up to the game's step at
    the start are the document of that moment."""
    with Session(bind) as session:
        game = session.get(Game, game_id)
        head, top = head_json(session, game), game.seq
    yield as_json(head)[:-1] + b',"steps":['
    after = -1
    while True:
        with Session(bind) as session:
            batch = list(session.exec(select(Step).where(Step.game_id == game_id, Step.seq > after,
                                                          Step.seq <= top).order_by(col(Step.seq))
                                      .limit(EXPORT_BATCH)))
        if not batch:
            break
        yield (b"," if after >= 0 else b"") + b",".join(as_json(step_json(s)) for s in batch)
        after = batch[-1].seq
    yield b"]}"


# --- import --------------------------------------------------------------------------------


def upgrade(doc: Any, loc: tuple = ()) -> dict[str, Any]:
    """Lift a game document of any past version to the current one."""
    if not isinstance(doc, dict):
        raise problem(loc, "Expected a JSON object (an exported game).", "dict_type")
    if doc.get("format") != GAME_FORMAT:
        raise problem((*loc, "format"), f"Not a game export: format must be {GAME_FORMAT!r}.",
                      "literal_error")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise problem((*loc, "format_version"), "format_version must be a whole number from 1.", "int_type")
    if version > CURRENT_VERSION:
        raise problem((*loc, "format_version"), f"Made by a newer version of the app (format {version}); "
                      f"this one reads formats 1 to {CURRENT_VERSION}.", "less_than_equal")
    while version < CURRENT_VERSION:
        doc = MIGRATIONS[version](doc)
        version += 1
        doc["format_version"] = version
    return doc


def parse_game(doc: Any, loc: tuple = ("body",)) -> GameDoc:
    upgraded = upgrade(doc, loc)
    ruleset = upgraded.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in rulesets.RULESETS:
        raise problem((*loc, "ruleset"), f"Unknown ruleset: this app plays {', '.join(rulesets.RULESETS)}.",
                      "literal_error")
    try:
        return documents_for(rulesets.get(ruleset)).model_validate(upgraded)
    except ValidationError as error:
        raise Problem([{"type": e["type"], "loc": [*loc, *e["loc"]], "msg": e["msg"]}
                       for e in error.errors()]) from error


def parse_document(doc: Any) -> list[GameDoc]:
    """One exported game. A backup of all games restores only through the admin link
    (app/transfer/backup.py)."""
    return [parse_game(doc)]


def store(session: Session, doc: GameDoc) -> Game:
    """A new game with new tokens and every step as recorded (stored as steplog.py says)."""
    ruleset = rulesets.get(doc.ruleset)
    game = Game(name=doc.name, edit_token=games.new_token(), view_token=games.new_token(), seed=doc.seed,
                ruleset=doc.ruleset, seq=doc.steps[-1].seq, created_at=doc.created_at or now())
    session.add(game)
    session.flush()
    before: tuple[Step, dict[str, Any]] | None = None
    for s, raw in raw_states(doc.steps):
        step = Step(game_id=game.id, seq=s.seq, kind=s.kind, actor=s.actor, command=s.command,
                    entries=[e.model_dump(mode="json", exclude_unset=True) for e in s.entries],
                    created_at=s.created_at or now())
        session.add(steplog.record(step, before[1] if before else None, raw))
        if s.delta is not None:  # as recorded: export, import, export gives the same document
            step.delta = s.delta
        if before:
            steplog.retire(before[0])
        before = step, raw
    for column, value in ruleset.columns(doc.steps[-1].state or ruleset.load(raw)).items():
        setattr(game, column, value)
    return game


def import_documents(session: Session, docs: list[GameDoc]) -> list[Game]:
    """All or nothing (validation already ran)."""
    stored = [store(session, d) for d in docs]
    session.commit()
    for game in stored:
        session.refresh(game)
    return stored
