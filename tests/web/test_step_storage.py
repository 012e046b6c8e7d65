"""Issue 11 § 3 in the database: steps store deltas, and every way of reading a state (the latest,
a log page, undo, "Go back here") gives exactly the state the step had when it was played."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import Text, cast
from sqlmodel import Session, select

from app.store import game_commands, games, steplog
from app.store.tables import Step
from app.web import log_rows
from tests.support.played import turn_cycle
from tests.support.turn_games import make_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def played_game(session, commands: int):
    game = make_game(session)
    cycle = turn_cycle(games.current_state(session, game).bots)
    states = {0: games.current_state(session, game).model_dump(mode="json")}
    for n in range(commands):
        step = game_commands.run_command(session, game, cycle[n % len(cycle)])
        states[step.seq] = games.current_state(session, game).model_dump(mode="json")
    return game, states


def test_every_log_page_reads_the_states_its_steps_had(session):
    game, states = played_game(session, 2 * steplog.SNAPSHOT_EVERY + 9)
    for before in range(1, game.seq + 2, 7):
        page = log_rows.log_page(session, game, before, limit=40)  # as the log panel reads them
        assert steplog.states_json(session, game.id, [s.seq for s in page]) == {s.seq: states[s.seq] for s in page}


def test_undo_and_go_back_restore_exactly_the_state_of_that_step(session):
    game, states = played_game(session, steplog.SNAPSHOT_EVERY + 20)
    far = 3
    game_commands.undo(session, game, to_seq=far)
    assert games.current_state(session, game).model_dump(mode="json") == states[far]
    game_commands.undo(session, game)  # back one more command from step 3
    assert games.current_state(session, game).model_dump(mode="json") == states[far - 1]
    game_commands.undo(session, game, to_seq=steplog.SNAPSHOT_EVERY + 7)
    assert games.current_state(session, game).model_dump(mode="json") == states[steplog.SNAPSHOT_EVERY + 7]


def test_the_latest_step_and_snapshots_keep_their_state_the_others_only_a_delta(session):
    game, _ = played_game(session, steplog.SNAPSHOT_EVERY + 3)
    log = games.steps(session, game)
    assert log[-1].state is not None and log[0].delta is None
    assert all(s.delta is not None for s in log[1:])
    assert [s.seq for s in log[:-1] if s.state is not None] == [
        s.seq for s in log[:-1] if s.seq % steplog.SNAPSHOT_EVERY == 0 or s.kind == "end_turn"]


def test_a_duplicate_copies_the_log_as_stored(session):
    game, states = played_game(session, 30)
    copy = games.duplicate(session, game)
    assert games.states_json(session, copy, games.steps(session, copy)) == states


def test_a_commands_state_is_stored_as_the_json_columns_own_type_stores_it(engine, session):
    """Issue 21: the command dumps its state once and stores that text (game_commands.DumpedJSON):
    it must be the same JSON value, and the same text, as the JSON column's own type stores."""
    game, states = played_game(session, 3)
    with Session(engine) as other:  # a new session reads the row through the ORM's JSON type
        stored = other.exec(select(Step).where(Step.game_id == game.id, Step.seq == game.seq)).one()
        text = other.exec(select(cast(Step.__table__.c.state, Text)).where(Step.id == stored.id)).one()
    assert isinstance(stored.state, dict) and stored.state == states[game.seq]
    assert json.loads(text) == states[game.seq] and text == json.dumps(stored.state)
