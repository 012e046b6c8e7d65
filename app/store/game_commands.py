"""Running a command on a saved game as a new step, and undo (a new step too).

Validate, lock the game, apply the command to its latest state (app/store/games.py reads it) and
append the step: in SQLAlchemy Core on the session's connection (the ORM's unit of
work, its refresh and its identity checks cost more than the statements themselves). Nothing
here knows HTTP; the web layer maps the exceptions, nor which ruleset a game is played under:
its Ruleset (app/rulesets) parses, applies and stores.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

from pydantic import ValidationError
from sqlalchemy import JSON, bindparam, insert, inspect, null, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.types import TypeDecorator
from sqlmodel import Session, select

from app.kernel import preconditions
from app.kernel.commands import Entry, Refused
from app.rulesets.base import Ruleset
from app.store import latest_state, steplog
from app.store.driver_sql import Prepared
from app.store.games import StepRecord, latest_step, read_latest, ruleset_of, shown_position, state_of
from app.store.tables import Game, Step, now


class Conflict(Exception):
    """The client acted on step `seen`, the game is at `seq`, and the command no longer fits; or
    it would overwrite values its client did not see: then `theirs` holds them as they are now
    and `yours` what the command would have set (preconditions.py)."""

    def __init__(self, reason: str, seq: int, theirs: dict | None = None, yours: dict | None = None):
        super().__init__(reason)
        self.reason = reason
        self.seq = seq
        self.theirs, self.yours = theirs, yours


# Called with (game_id, seq) after each committed step: live.py pushes it to every screen.
STEP_LISTENERS: list[Callable[[int, int], None]] = []

# The statements every command runs, built once (building one took longer than running it).
_GAMES, _STEPS = Game.__table__, Step.__table__
_STEP_MAPPER = inspect(Step)
# the write lock, which also reads the game's row as it is now (RETURNING: SQLite ≥ 3.35, PostgreSQL)
_LOCK = Prepared(update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(seq=_GAMES.c.seq)
                 .returning(*_GAMES.c))


class DumpedJSON(TypeDecorator):
    """A JSON column's value given as the text it stores (json.dumps, as the column's own type
    dumps it): a command's state is dumped once, for the row, this process's cache and the API's
    answer. Sent as is; PostgreSQL still gets it cast to JSON."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Any) -> None:
        return None


# the new step's columns, as _commit gives them; its id comes back (RETURNING, as for the lock)
_INSERT_STEP = Prepared(
    insert(_STEPS).values(state=bindparam("state", type_=DumpedJSON())).returning(_STEPS.c.id),
    ("game_id", "seq", "kind", "actor", "command", "entries", "state", "delta", "created_at"))
_RETIRE = Prepared(update(_STEPS).where(_STEPS.c.id == bindparam("step_id")).values(state=null()))


def step_rng(seed: int, seq: int) -> Random:
    """Each step's dice come from the game's seed and the step number: replays match exactly."""
    return Random(f"{seed}:{seq}")


def run_command(session: Session, game: Game, data: dict[str, Any], seen: int | None = None,
                actor: str = "player", expect: Any = None) -> StepRecord:
    """Validate, lock the game, apply the command to the latest state and append the step.

    `expect`: for a command that sets values, the values its client saw (preconditions.py).
    Raises pydantic.ValidationError (bad body), Refused (illegal now) or Conflict (the
    client saw an older step and the command no longer fits the newer state, or it would
    overwrite values the client did not see). Five statements in one transaction (_Writing):
    lock (and read the game), read the latest step, insert the new one, drop the old one's
    state, update the game. The step returned is a record of what was written, attached to no
    session."""
    ruleset = ruleset_of(game)
    name, body = ruleset.parse(data)  # validate before taking the lock
    with _Writing(session, own=_idle(session)) as writing:
        _lock(writing.connection, game)
        latest = read_latest(writing.connection, game)
        if latest is None:  # cannot be: the lock read the game's latest step number
            raise RuntimeError(f"game {game.id}: its latest step {game.seq} has no state")
        before = state_of(latest, ruleset)
        try:  # (the check applies a stale command to say what it would set: its own dice stream)
            ruleset.check(before, name, body, expect, seen is not None and seen != latest.seq,
                          step_rng(game.seed, latest.seq + 1))
            state, entries = ruleset.apply(before, name, body, step_rng(game.seed, latest.seq + 1))
        except preconditions.Stale as stale:
            writing.rollback()
            raise Conflict(stale.reason, latest.seq, stale.theirs, stale.yours) from stale
        except ValidationError:  # an `expect` that leaves out a value the command sets
            writing.rollback()
            raise
        except Refused as refused:
            writing.rollback()
            if seen is not None and seen != latest.seq:
                moved = f"The game moved on since you looked: {refused.reason}"
                raise Conflict(moved, latest.seq) from refused
            raise
        step = {"game_id": game.id, "seq": latest.seq + 1, "kind": name, "actor": actor,
                "command": {"type": name, **body.model_dump(mode="json")},
                "entries": [e.as_dict() for e in entries]}
        return _commit(writing, game, latest, step, state)


def _idle(session: Session) -> bool:
    """The session holds no connection (no read or write begun) and nothing to flush: a command
    on a connection of its own then sees and does exactly what it would on the session's. (Adding
    the opened game to the session begins an ORM transaction, without a connection.)"""
    transaction = session.get_transaction()
    if transaction is not None and transaction._connections:
        return False
    return not (session.new or session.dirty or session.deleted)


class _Writing:
    """A command's transaction. `own`: on a connection of its own, given back at the end (a
    request's command, whose session has begun nothing: no ORM session work); else on
    the session's connection, committed or rolled back through the session (undo reads through
    the ORM, and a caller may have begun reading)."""

    def __init__(self, session: Session, own: bool):
        self.session = session
        self.own = session.get_bind().connect() if own else None
        self.connection = self.own or session.connection()

    def commit(self) -> None:
        if self.own is not None:
            self.own.commit()
            return
        self.session.expire_on_commit = False  # every value just written is set on the game
        try:
            self.session.commit()
        finally:
            self.session.expire_on_commit = True

    def rollback(self) -> None:
        (self.own or self.session).rollback()

    def __enter__(self) -> _Writing:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.own is not None:  # not committed: rolled back as the pool takes it back
            self.own.close()


def undo(session: Session, game: Game, to_seq: int | None = None, seen: int | None = None,
         actor: str = "player", describe: Callable[[Step, dict[str, Any]], str] | None = None) -> StepRecord:
    """Go back to an earlier state as a new step, so every device follows and the log keeps it.

    Without `to_seq`, undo the latest command; repeated undos keep walking back. The log says
    what was undone (`describe` names a step, given its state, for a player: "Noise (Vex)") and
    how Danger moved back."""
    _lock(session.connection(), game)
    latest = latest_step(session, game)
    if seen is not None and seen != latest.seq:  # "Go back here" too: never undo unseen steps
        session.rollback()
        again = "undo again" if to_seq is None else "go back again"
        raise Conflict(f"The game moved on since you looked ({_latest_news(latest)}); nothing was undone: "
                       f"{again} if you still want to.", latest.seq)
    target = shown_position(latest) - 1 if to_seq is None else to_seq
    if target < 0 or target >= latest.seq:
        session.rollback()
        raise Refused("Nothing to undo." if to_seq is None else f"There is no step {to_seq} to go back to.")
    origin = session.exec(select(Step).where(Step.game_id == game.id, Step.seq == target)).one()
    restored, shown = shown_position(origin), shown_position(latest)
    undone = None  # the one command taken back, when there is one: the log names it
    if shown == restored + 1:
        undone = latest if shown == latest.seq else \
            session.exec(select(Step).where(Step.game_id == game.id, Step.seq == shown)).one()
    states = steplog.states_json(session, game.id, {target, shown} if undone else {target}, loaded=[latest])
    state = ruleset_of(game).load(states[target])
    described = describe(undone, states[shown]) if undone and describe else None
    text = _undo_text(ruleset_of(game), latest, restored, state, undone, described)
    step = {"game_id": game.id, "seq": latest.seq + 1, "kind": "undo", "actor": actor,
            "command": {"type": "undo", "to_seq": restored}, "entries": [Entry(text).as_dict()]}
    return _commit(_Writing(session, own=False), game, latest, step, state, states[target])


def _latest_news(latest: Step) -> str:
    """What changed, for a 409: the newest step and its first log line."""
    said = next((e.get("text") for e in latest.entries if isinstance(e, dict) and e.get("text")), "")
    return f"step {latest.seq}: {said}" if said else f"now at step {latest.seq}"


def _undo_text(ruleset: Ruleset, latest: Step, restored: int, state: Any, undone: Step | None,
               described: str | None) -> str:
    """The log line under "Undo": "Noise (Vex) taken back, Danger 4 → 3." or "Back to the game
    as it was after step 12." (the label already says Undo: no "Undo: Undo: ...")."""
    if undone is not None:
        what = f"{described or undone.kind.replace('_', ' ')} taken back"
    else:
        what = f"Back to the game as it was after step {restored}"
    return f"{what}{ruleset.undo_note(state_of(latest, ruleset), state)}."


def _lock(connection: Connection, game: Game) -> None:
    """Take the game's write lock before reading its latest step: a row lock on PostgreSQL,
    the database write lock on SQLite (waits up to the busy timeout). One command at a time.
    The same statement reads the game's row as it is now (another device may have moved it)."""
    row = _LOCK.one(connection, {"game_id": game.id})
    known = {} if inspect(game).modified else game.__dict__  # values loaded and unchanged since
    for column, value in row.items():
        if column not in known or known[column] != value:
            set_committed_value(game, column, value)


def _commit(writing: _Writing, game: Game, latest: Step | StepRecord, step: dict[str, Any], state: Any,
            as_json: dict[str, Any] | None = None) -> StepRecord:
    """Store the new step (`step`: its columns but its state and delta) after `latest`, which
    keeps its full state only if steplog says so, and commit: three statements on the
    transaction's connection, no ORM unit of work. Returns a record of the step as stored.

    Nothing is read back after the commit: every value of the step and the game was just
    written here, under the game's lock, so the game takes them as committed values."""
    before = latest.state
    after = as_json or state.model_dump(mode="json")
    text = json.dumps(after)  # once: the row, this process's cache and the API's answer
    row = {**step, "state": after, "delta": steplog.delta(before, after), "created_at": now()}
    connection = writing.connection
    row["id"] = _INSERT_STEP.one(connection, {**row, "state": text})["id"]
    retired = not steplog.keeps_state(latest.seq, latest.kind)
    if retired:
        _RETIRE.rows(connection, {"step_id": latest.id})
    values = {"seq": row["seq"], **ruleset_of(game).columns(state), "updated_at": now()}  # turn, phase…
    _set_game(tuple(values)).rows(connection,
                                  {"game_id": game.id, **{f"new_{k}": v for k, v in values.items()}})
    writing.commit()
    for column, value in values.items():
        set_committed_value(game, column, value)
    held = writing.session.identity_map.get(_STEP_MAPPER.identity_key_from_primary_key((latest.id,))) \
        if retired else None
    if held is not None:  # the old latest step, as this session holds it: as stored now
        set_committed_value(held, "state", None)
    latest_state.LATEST.stored(game.id, row["seq"], after, state, ruleset_of(game).id, before=before,
                               text=text)
    for listener in STEP_LISTENERS:
        listener(game.id, row["seq"])
    return StepRecord(**row, state_text=text)


_SET_GAME: dict[tuple[str, ...], Prepared] = {}


def _set_game(columns: tuple[str, ...]) -> Prepared:
    """UPDATE game SET these columns: built once per set of columns (a ruleset's)."""
    if columns not in _SET_GAME:
        _SET_GAME[columns] = Prepared(update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(
            {column: bindparam(f"new_{column}") for column in columns}))
    return _SET_GAME[columns]
