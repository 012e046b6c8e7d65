"""Saved games: create, find by token, list, rename, duplicate, delete; read their steps and states.

A game is its step log (docs/architecture.md): step 0 holds the empty game, every later step one
command and what it changed (app/store/steplog.py says how states are stored). Running a command or
an undo as a new step is app/store/game_commands.py. Nothing here knows HTTP, nor which ruleset a game
is played under: its Ruleset (app/rulesets) parses, applies and stores.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Text, bindparam, cast, inspect
from sqlalchemy import delete as sa_delete
from sqlalchemy.engine import Connection
from sqlalchemy.orm import configure_mappers, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, or_, select

from app import rulesets
from app.kernel.commands import Entry
from app.rulesets.base import Ruleset
from app.store import latest_state, steplog
from app.store.driver_sql import Prepared
from app.store.tables import Game, Step, now

Access = Literal["edit", "view"]


@dataclass
class StepRecord:
    """A step as a command wrote or read it, attached to no session: the fields of a `Step` row
    (building a Step model for it cost more than the statement that stored it)."""

    id: int | None
    game_id: int
    seq: int
    kind: str
    actor: str = "player"
    command: dict[str, Any] | None = None
    entries: list[dict[str, Any]] | None = None
    state: dict[str, Any] | None = None
    delta: list[Any] | None = None
    created_at: datetime | None = None
    state_text: str | None = None  # the state as JSON text, when the writer has it (the API's answer)


# Called with (game_id, "renamed" | "deleted") after a change that is not a step: open pages
# refresh their title, or learn that the game is gone.
GAME_LISTENERS: list[Callable[[int, str], None]] = []


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


# The statements every request runs, built once (building one took longer than running it).
_GAMES, _MAPPER = Game.__table__, inspect(Game)
# the game's row by either token, on the driver's cursor: the ORM's loading, then Core's execution,
# cost more than the query (app/store/driver_sql.py)
_BY_TOKEN = Prepared(select(*_GAMES.c).where(or_(_GAMES.c.edit_token == bindparam("token"),
                                                 _GAMES.c.view_token == bindparam("token"))))
_STEPS = Step.__table__
# the latest step: its state as the text stored, parsed only when this process has not yet
_LATEST = Prepared(select(*(c for c in _STEPS.c if c.name != "state"),
                          cast(_STEPS.c.state, Text).label("state_text")).where(
    _STEPS.c.game_id == bindparam("game_id"), _STEPS.c.seq == bindparam("seq")))


def find_game(session: Session, token: str) -> tuple[Game, Access] | None:
    """The game a capability token opens, and what it may do there."""
    if not token or len(token) > 64:
        return None
    if session.in_transaction():
        row = _BY_TOKEN.first(session.connection(), {"token": token})
    else:  # nothing begun (a request's first read): a connection of its own, given back at once
        with session.get_bind().connect() as connection:
            row = _BY_TOKEN.first(connection, {"token": token})
    if row is None:
        return None
    game = _detached(session, row)
    if secrets.compare_digest(game.edit_token.encode(), token.encode()):
        return game, "edit"
    if secrets.compare_digest(game.view_token.encode(), token.encode()):
        return game, "view"
    return None


def _detached(session: Session, row: Any) -> Game:
    """The game as the ORM would have loaded it from this row, detached (the ORM's
    query, its row processing and identity map cost about twice the statement): read again on
    every request, so never stale. The session's own copy when it already holds one, its
    expired values filled in from the row, as the ORM's loading does."""
    held = session.identity_map.get(session.identity_key(Game, row["id"])) if session.identity_map else None
    if held is not None:
        for key in inspect(held).unloaded & row.keys():
            set_committed_value(held, key, row[key])
        return held
    if not _MAPPER.configured:  # (the ORM's first query would have configured it)
        configure_mappers()
    game = Game._sa_class_manager.new_instance()  # as the ORM makes one: no validation, no defaults
    game.__dict__.update(row)  # loaded values, as the ORM's loader puts them
    make_transient_to_detached(game)  # its identity from its primary key, every value committed
    return game


def create_game(session: Session, name: str, seed: int | None = None,
                state: Any = None, ruleset: str = rulesets.DEFAULT) -> Game:
    game = Game(name=name, edit_token=new_token(), view_token=new_token(), ruleset=ruleset,
                seed=seed if seed is not None else secrets.randbelow(2**31))
    session.add(game)
    session.flush()
    start = state or rulesets.get(ruleset).new_state()
    step = Step(game_id=game.id, seq=0, kind="create", command={"type": "create"},
                entries=[Entry(f"Game “{name}” created.").as_dict()])
    _store(session, game, steplog.record(step, None, start.model_dump(mode="json")), start)
    session.commit()
    session.refresh(game)
    return game


def list_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).order_by(col(Game.updated_at).desc(), col(Game.id).desc())))


def latest_step(session: Session, game: Game) -> StepRecord:
    """The game's newest step, which holds its full state (steplog.py), as a record attached to
    no session (the ORM's loading cost more than the query). If another device's step
    landed since `game` was read, this one lost its state in that commit: read on. The state is
    read as its stored text and parsed only if this process has not already parsed exactly that
    text at this step (app/store/latest_state.py)."""
    for _ in range(5):
        record = read_latest(session.connection(), game)
        if record is not None:
            return record
        session.refresh(game)
    raise RuntimeError(f"game {game.id}: its latest step {game.seq} has no state")


def read_latest(connection: Connection, game: Game) -> StepRecord | None:
    """The step `game.seq` on this connection, as `latest_step` gives it; None if it has no state
    (a newer step landed since `game` was read)."""
    fields = _LATEST.one(connection, {"game_id": game.id, "seq": game.seq})
    text = fields.pop("state_text")
    if text is None:
        return None
    return StepRecord(**fields, state=latest_state.LATEST.json(game.id, game.seq, text))


def ruleset_of(game: Game) -> Ruleset:
    return rulesets.get(game.ruleset)


def state_of(step: Step | StepRecord, ruleset: Ruleset | None = None) -> Any:
    """The state after a step read by `latest_step` (any other step: `state_json`), as its
    ruleset's model (2038 when not said): validated once per step and process (latest_state.py)."""
    ruleset = ruleset or rulesets.get(None)
    return latest_state.LATEST.model(step.game_id, step.seq, step.state, ruleset.id, ruleset.load)


def state_json(session: Session, step: Step) -> dict[str, Any]:
    """The state after any step, as JSON (rebuilt from a snapshot and deltas when needed)."""
    return steplog.state_json(session, step)


def states_json(session: Session, game: Game, log: list[Step],
                latest: StepRecord | None = None) -> dict[int, dict[str, Any]]:
    """The states after each of these steps, by seq, read together (a log page's). Given the
    latest step as `latest_step` read it, the few states before it come from this process's
    cache instead of being rebuilt (app/store/latest_state.py)."""
    known = {} if latest is None else latest_state.LATEST.recent(game.id, latest.seq, latest.state)
    return steplog.states_json(session, game.id, [s.seq for s in log], loaded=log, known=known)


def current_state(session: Session, game: Game) -> Any:
    return state_of(latest_step(session, game), ruleset_of(game))


def steps(session: Session, game: Game, since: int = -1) -> list[Step]:
    return list(session.exec(
        select(Step).where(Step.game_id == game.id, Step.seq > since).order_by(col(Step.seq))
    ))


def shown_position(step: Step) -> int:
    """The step whose state this one shows: itself, or the step an undo went back to."""
    return int(step.command.get("to_seq", step.seq)) if step.kind == "undo" else step.seq


def rename(session: Session, game: Game, name: str) -> Game:
    game.name = name
    game.updated_at = now()
    session.add(game)
    session.commit()
    session.refresh(game)
    _tell(game.id, "renamed")
    return game


def duplicate(session: Session, game: Game, name: str | None = None) -> Game:
    """A new game with new tokens, the same seed and a copy of every step."""
    copy = Game(name=name or f"{game.name} (copy)"[:80], edit_token=new_token(), view_token=new_token(),
                seed=game.seed, ruleset=game.ruleset, seq=game.seq, turn=game.turn, phase=game.phase,
                danger=game.danger, danger_limit=game.danger_limit, status=game.status)
    session.add(copy)
    session.flush()
    for s in steps(session, game):
        session.add(Step(game_id=copy.id, seq=s.seq, kind=s.kind, actor=s.actor, command=s.command,
                         entries=s.entries, state=s.state, delta=s.delta, created_at=s.created_at))
    session.commit()
    session.refresh(copy)
    return copy


def delete(session: Session, game: Game) -> None:
    """Remove the game and its whole log in one transaction (two statements, whatever its length)."""
    game_id = game.id
    session.execute(sa_delete(Step).where(col(Step.game_id) == game_id))
    session.execute(sa_delete(Game).where(col(Game.id) == game_id))
    session.commit()
    latest_state.LATEST.forget(game_id)
    _tell(game_id, "deleted")


def _tell(game_id: int | None, what: str) -> None:
    for listener in GAME_LISTENERS:
        listener(game_id, what)


def _store(session: Session, game: Game, step: Step, state: Any) -> None:
    session.add(step)
    game.seq = step.seq
    for column, value in ruleset_of(game).columns(state).items():  # turn, phase, danger, status…
        setattr(game, column, value)
    game.updated_at = now()
    session.add(game)
