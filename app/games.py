"""Use cases on saved games: create, find by token, run a command as a new step, undo.

A game is its step log (architecture.md): step 0 holds the empty game, every later step one
command and what it changed (app/steplog.py says how states are stored). Nothing here knows
HTTP; the web layer maps the exceptions, nor which ruleset a game is played under: its Ruleset
(app/rulesets) parses, applies and stores.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from random import Random
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy import Text, bindparam, cast, insert, null, update
from sqlalchemy import delete as sa_delete
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, or_, select

from app import rulesets, steplog
from app.kernel import preconditions
from app.kernel.commands import Entry, Refused
from app.latest_state import LATEST
from app.rulesets.base import Ruleset
from app.tables import Game, Step, now

Access = Literal["edit", "view"]


class Conflict(Exception):
    """The client acted on step `seen`, the game is at `seq`, and the command no longer fits; or
    it would overwrite values its client did not see: then `theirs` holds them as they are now
    and `yours` what the command would have set (preconditions.py)."""

    def __init__(self, reason: str, seq: int, theirs: dict | None = None, yours: dict | None = None):
        super().__init__(reason)
        self.reason = reason
        self.seq = seq
        self.theirs, self.yours = theirs, yours


@dataclass
class StepRecord:
    """A step as a command wrote or read it, attached to no session: the fields of a `Step` row
    (issue 21: building a Step model for it cost more than the statement that stored it)."""

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


# Called with (game_id, seq) after each committed step: live.py pushes it to every screen.
STEP_LISTENERS: list[Callable[[int, int], None]] = []
# Called with (game_id, "renamed" | "deleted") after a change that is not a step: open pages
# refresh their title, or learn that the game is gone.
GAME_LISTENERS: list[Callable[[int, str], None]] = []


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


# The statements every request runs, built once (issue 21: building one took longer than running it).
_BY_TOKEN = select(Game).where(or_(Game.edit_token == bindparam("token"),
                                   Game.view_token == bindparam("token")))
# A command's writes, in SQLAlchemy Core on the session's connection (issue 21: the ORM's unit of
# work, its refresh and its identity checks cost more than the statements themselves).
_GAMES, _STEPS = Game.__table__, Step.__table__
# the write lock, which also reads the game's row as it is now (RETURNING: SQLite ≥ 3.35, PostgreSQL)
_LOCK = update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(seq=_GAMES.c.seq).returning(
    *_GAMES.c)
# the latest step: its state as the text stored, parsed only when this process has not yet
_LATEST = select(*(c for c in _STEPS.c if c.name != "state"),
                 cast(_STEPS.c.state, Text).label("state_text")).where(
    _STEPS.c.game_id == bindparam("game_id"), _STEPS.c.seq == bindparam("seq"))
_INSERT_STEP = insert(_STEPS)
_RETIRE = update(_STEPS).where(_STEPS.c.id == bindparam("step_id")).values(state=null())


def find_game(session: Session, token: str) -> tuple[Game, Access] | None:
    """The game a capability token opens, and what it may do there."""
    if not token or len(token) > 64:
        return None
    game = session.exec(_BY_TOKEN, params={"token": token}).first()
    if game is None:
        return None
    if secrets.compare_digest(game.edit_token.encode(), token.encode()):
        return game, "edit"
    if secrets.compare_digest(game.view_token.encode(), token.encode()):
        return game, "view"
    return None


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
    no session (issue 21: the ORM's loading cost more than the query). If another device's step
    landed since `game` was read, this one lost its state in that commit: read on. The state is
    read as its stored text and parsed only if this process has not already parsed exactly that
    text at this step (app/latest_state.py)."""
    for _ in range(5):
        row = session.connection().execute(_LATEST, {"game_id": game.id, "seq": game.seq}).one()
        fields = dict(row._mapping)
        text = fields.pop("state_text")
        if text is not None:
            return StepRecord(**fields, state=LATEST.json(game.id, game.seq, text))
        session.refresh(game)
    raise RuntimeError(f"game {game.id}: its latest step {game.seq} has no state")


def ruleset_of(game: Game) -> Ruleset:
    return rulesets.get(game.ruleset)


def state_of(step: Step | StepRecord, ruleset: Ruleset | None = None) -> Any:
    """The state after a step read by `latest_step` (any other step: `state_json`), as its
    ruleset's model (2038 when not said): validated once per step and process (latest_state.py)."""
    ruleset = ruleset or rulesets.get(None)
    return LATEST.model(step.game_id, step.seq, step.state, ruleset.id, ruleset.load)


def state_json(session: Session, step: Step) -> dict[str, Any]:
    """The state after any step, as JSON (rebuilt from a snapshot and deltas when needed)."""
    return steplog.state_json(session, step)


def states_json(session: Session, game: Game, log: list[Step],
                latest: StepRecord | None = None) -> dict[int, dict[str, Any]]:
    """The states after each of these steps, by seq, read together (a log page's). Given the
    latest step as `latest_step` read it, the few states before it come from this process's
    cache instead of being rebuilt (app/latest_state.py)."""
    known = {} if latest is None else LATEST.recent(game.id, latest.seq, latest.state)
    return steplog.states_json(session, game.id, [s.seq for s in log], loaded=log, known=known)


def current_state(session: Session, game: Game) -> Any:
    return state_of(latest_step(session, game), ruleset_of(game))


def steps(session: Session, game: Game, since: int = -1) -> list[Step]:
    return list(session.exec(
        select(Step).where(Step.game_id == game.id, Step.seq > since).order_by(col(Step.seq))
    ))


def log_page(session: Session, game: Game, before: int | None = None, oldest: int | None = None,
             limit: int = 40) -> list[Step]:
    """Steps newest first: those before step `before` (all when None), down to step `oldest`
    when given (at most `limit` either way)."""
    query = select(Step).where(Step.game_id == game.id)
    if before is not None:
        query = query.where(Step.seq < before)
    if oldest is not None:
        query = query.where(Step.seq >= oldest)
    return list(session.exec(query.order_by(col(Step.seq).desc()).limit(limit)))


def step_rng(seed: int, seq: int) -> Random:
    """Each step's dice come from the game's seed and the step number: replays match exactly."""
    return Random(f"{seed}:{seq}")


def run_command(session: Session, game: Game, data: dict[str, Any], seen: int | None = None,
                actor: str = "player", expect: Any = None) -> StepRecord:
    """Validate, lock the game, apply the command to the latest state and append the step.

    `expect`: for a command that sets values, the values its client saw (preconditions.py).
    Raises pydantic.ValidationError (bad body), Refused (illegal now) or Conflict (the
    client saw an older step and the command no longer fits the newer state, or it would
    overwrite values the client did not see). Five statements in one transaction: lock (and
    read the game), read the latest step, insert the new one, drop the old one's state, update
    the game. The step returned is a record of what was written, attached to no session."""
    ruleset = ruleset_of(game)
    name, body = ruleset.parse(data)  # validate before taking the lock
    _lock(session, game)
    latest = latest_step(session, game)
    before = state_of(latest, ruleset)
    try:  # (the check applies a stale command to say what it would set: its own dice stream)
        ruleset.check(before, name, body, expect, seen is not None and seen != latest.seq,
                      step_rng(game.seed, latest.seq + 1))
        state, entries = ruleset.apply(before, name, body, step_rng(game.seed, latest.seq + 1))
    except preconditions.Stale as stale:
        session.rollback()
        raise Conflict(stale.reason, latest.seq, stale.theirs, stale.yours) from stale
    except ValidationError:  # an `expect` that leaves out a value the command sets
        session.rollback()
        raise
    except Refused as refused:
        session.rollback()
        if seen is not None and seen != latest.seq:
            raise Conflict(f"The game moved on since you looked: {refused.reason}", latest.seq) from refused
        raise
    step = {"game_id": game.id, "seq": latest.seq + 1, "kind": name, "actor": actor,
            "command": {"type": name, **body.model_dump(mode="json")},
            "entries": [e.as_dict() for e in entries]}
    return _commit(session, game, latest, step, state)


def undo(session: Session, game: Game, to_seq: int | None = None, seen: int | None = None,
         actor: str = "player", describe: Callable[[Step, dict[str, Any]], str] | None = None) -> StepRecord:
    """Go back to an earlier state as a new step, so every device follows and the log keeps it.

    Without `to_seq`, undo the latest command; repeated undos keep walking back. The log says
    what was undone (`describe` names a step, given its state, for a player: "Noise (Vex)") and
    how Danger moved back."""
    _lock(session, game)
    latest = latest_step(session, game)
    if seen is not None and seen != latest.seq:  # "Go back here" too (issue 16): never undo unseen steps
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
    return _commit(session, game, latest, step, state, states[target])


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
    LATEST.forget(game_id)
    _tell(game_id, "deleted")


def _tell(game_id: int | None, what: str) -> None:
    for listener in GAME_LISTENERS:
        listener(game_id, what)


def _lock(session: Session, game: Game) -> None:
    """Take the game's write lock before reading its latest step: a row lock on PostgreSQL,
    the database write lock on SQLite (waits up to the busy timeout). One command at a time.
    The same statement reads the game's row as it is now (another device may have moved it)."""
    row = session.connection().execute(_LOCK, {"game_id": game.id}).one()
    for column, value in row._mapping.items():
        set_committed_value(game, column, value)


def _commit(session: Session, game: Game, latest: Step | StepRecord, step: dict[str, Any], state: Any,
            as_json: dict[str, Any] | None = None) -> StepRecord:
    """Store the new step (`step`: its columns but its state and delta) after `latest`, which
    keeps its full state only if steplog says so, and commit: three statements on the session's
    connection, no ORM unit of work (issue 21). Returns a record of the step as stored.

    Nothing is read back after the commit: every value of the step and the game was just
    written here, under the game's lock, so the game takes them as committed values."""
    before = latest.state
    after = as_json or state.model_dump(mode="json")
    row = {**step, "state": after, "delta": steplog.delta(before, after), "created_at": now()}
    connection = session.connection()
    row["id"] = connection.execute(_INSERT_STEP, row).inserted_primary_key[0]
    retired = not steplog.keeps_state(latest.seq, latest.kind)
    if retired:
        connection.execute(_RETIRE, {"step_id": latest.id})
    values = {"seq": row["seq"], **ruleset_of(game).columns(state), "updated_at": now()}  # turn, phase…
    connection.execute(_set_game(tuple(values)),
                       {"game_id": game.id, **{f"new_{k}": v for k, v in values.items()}})
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    for column, value in values.items():
        set_committed_value(game, column, value)
    held = session.identity_map.get(session.identity_key(Step, latest.id)) if retired else None
    if held is not None:  # the old latest step, as this session holds it: as stored now
        set_committed_value(held, "state", None)
    text = json.dumps(after)  # once, for this process's cache and the API's answer
    LATEST.stored(game.id, row["seq"], after, state, ruleset_of(game).id, before=before, text=text)
    for listener in STEP_LISTENERS:
        listener(game.id, row["seq"])
    return StepRecord(**row, state_text=text)


_SET_GAME: dict[tuple[str, ...], Any] = {}


def _set_game(columns: tuple[str, ...]) -> Any:
    """UPDATE game SET these columns: built once per set of columns (a ruleset's)."""
    if columns not in _SET_GAME:
        _SET_GAME[columns] = update(_GAMES).where(_GAMES.c.id == bindparam("game_id")).values(
            {column: bindparam(f"new_{column}") for column in columns})
    return _SET_GAME[columns]


def _store(session: Session, game: Game, step: Step, state: Any) -> None:
    session.add(step)
    game.seq = step.seq
    for column, value in ruleset_of(game).columns(state).items():  # turn, phase, danger, status…
        setattr(game, column, value)
    game.updated_at = now()
    session.add(game)
