"""SQLModel tables: a game and its step log (docs/architecture.md § The game as a log)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

NULLABLE_JSON = JSON(none_as_null=True)


def now() -> datetime:
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=80)
    edit_token: str = Field(max_length=64, unique=True, index=True)
    view_token: str = Field(max_length=64, unique=True, index=True)
    # the report link (/r/…): opens the battle report alone; made on demand, None when there is none
    report_token: str | None = Field(default=None, max_length=64, unique=True, index=True)
    seed: int
    # the ruleset it is played under (app/rulesets); games from before rulesets are 2038
    ruleset: str = Field(default="potham-2038", max_length=40)
    seq: int = 0  # number of the latest step
    # copies of the latest state, so the saved-games list needs no JSON parsing
    turn: int = 1
    phase: int = 1
    danger: int = 0
    danger_limit: int = 24  # the house Danger limit (R-DANGER), so the list shows "Danger n/limit"
    status: str = Field(default="playing", max_length=20)
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now, index=True)


class Step(SQLModel, table=True):
    """One command and what it changed. (game_id, seq) is unique: two writers can never
    both store step N, which is the last line of defence against a lost update.

    `delta`: the changes from the state before (None for step 0); `state`: the full state
    after the step, kept only by the latest step, snapshots and ends of turn (app/store/steplog.py
    says which; read a step's state through it)."""

    # ix_step_game_kind: a game's steps of one kind in order (its ends of turn: the danger track on every
    # turn panel) found without reading every step of the game
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_step_game_seq"),
                      Index("ix_step_game_kind", "game_id", "kind", "seq"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True, ondelete="CASCADE")
    seq: int
    kind: str = Field(max_length=40)  # the command's name
    actor: str = Field(default="player", max_length=40)
    command: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    entries: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # none_as_null: a missing state or delta is SQL NULL (not JSON null), so queries can test it
    state: dict[str, Any] | None = Field(default=None, sa_column=Column(NULLABLE_JSON, nullable=True))
    delta: list[Any] | None = Field(default=None, sa_column=Column(NULLABLE_JSON, nullable=True))
    created_at: datetime = Field(default_factory=now)
