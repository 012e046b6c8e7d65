"""Issue 21: the statements every command runs go to the driver's cursor (app/store/driver_sql.py), not
through Core's execution, and must store, read and commit exactly what Core would have: the
same text in every column, the same values read back, a commit that commits (a command on a
connection of its own is seen by any other connection, also after its request's session closes)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Text, bindparam, cast, insert, select
from sqlalchemy.exc import NoResultFound
from sqlmodel import Session, SQLModel

from app.store import game_commands, games
from app.store.db import make_engine
from app.store.driver_sql import Prepared
from app.store.tables import Game, Step
from tests.conftest import POSTGRES

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

STEPS = Step.__table__
COLUMNS = ("game_id", "seq", "kind", "actor", "command", "entries", "state", "delta", "created_at")
AS_STORED = select(*(cast(c, Text) for c in STEPS.c if c.name != "id")).where(STEPS.c.id == bindparam("id"))


@pytest.fixture
def shared_engine(tmp_path, engine) -> Iterator:
    """A database whose connections are really apart (a SQLite file; PostgreSQL as given): the
    in-memory SQLite of the other tests shares one connection, so it would show uncommitted rows."""
    if POSTGRES:
        yield engine
        return
    own = make_engine(f"sqlite:///{tmp_path / 'apart.db'}")
    SQLModel.metadata.create_all(own)
    yield own
    own.dispose()


def test_a_command_on_a_fresh_session_is_committed_for_every_other_connection(shared_engine):
    with Session(shared_engine) as session:
        game = games.create_game(session, "Apart")
    with Session(shared_engine) as request:  # as a request's: the game found, nothing begun
        opened, _ = games.find_game(request, game.edit_token)
        request.add(opened)
        step = game_commands.run_command(request, opened, {"type": "add_character", "character": {"name": "Ada"}})
        assert opened.seq == step.seq == 1
    with shared_engine.connect() as other:
        assert other.execute(select(Game.__table__.c.seq).where(Game.__table__.c.id == game.id)).scalar() == 1
        stored = other.execute(select(STEPS.c.kind, STEPS.c.state).where(STEPS.c.id == step.id)).one()
        assert stored.kind == "add_character" and stored.state["characters"][0]["name"] == "Ada"


def test_a_step_written_on_the_cursor_is_stored_and_read_as_core_stores_and_reads_it(shared_engine):
    with Session(shared_engine) as session:
        game = games.create_game(session, "Same text")
    values = {"game_id": game.id, "seq": 1, "kind": "noise", "actor": "player", "command": {"type": "noise"},
              "entries": [{"text": "Noise — “quoted”", "rule": "R-1"}], "state": None, "delta": None,
              "created_at": datetime(2038, 1, 2, 3, 4, 5, 0, tzinfo=UTC)}
    prepared = Prepared(insert(STEPS).returning(STEPS.c.id), COLUMNS)
    read = Prepared(select(*STEPS.c).where(STEPS.c.id == bindparam("id")))
    with shared_engine.begin() as connection:
        by_cursor = prepared.one(connection, values)["id"]
        by_core = connection.execute(insert(STEPS).values({**values, "seq": 2})).inserted_primary_key[0]
    with shared_engine.connect() as connection:
        texts = [connection.execute(AS_STORED, {"id": i}).one() for i in (by_cursor, by_core)]
        assert texts[0][:1] + texts[0][2:] == texts[1][:1] + texts[1][2:]  # all but seq, as text
        assert texts[0].delta is None and texts[0].state is None  # SQL NULL, not JSON null
        core_rows = [dict(connection.execute(select(*STEPS.c).where(STEPS.c.id == i)).one()._mapping)
                     for i in (by_cursor, by_core)]
        assert [read.one(connection, {"id": i}) for i in (by_cursor, by_core)] == core_rows


def test_one_row_asked_and_none_found_raises_as_core_does(shared_engine):
    with shared_engine.connect() as connection:
        with pytest.raises(NoResultFound):
            Prepared(select(STEPS.c.id).where(STEPS.c.id == bindparam("id"))).one(connection, {"id": -1})


def test_a_statement_with_values_of_its_own_reads_what_core_reads(shared_engine):
    """A literal in the statement (`kind == "end_turn"`) and a JSON path (`state["turn"]`) are
    parameters Core gives itself: the cursor gets them too, converted as Core converts them."""
    with Session(shared_engine) as session:
        game = games.create_game(session, "Own values")
    rows = [{"game_id": game.id, "seq": seq, "kind": kind, "actor": "player", "command": {"type": kind},
             "entries": [], "state": {"turn": seq, "danger": 2 * seq}, "delta": None,
             "created_at": datetime(2038, 1, 2, tzinfo=UTC)}
            for seq, kind in ((1, "end_turn"), (2, "noise"), (3, "end_turn"), (9, "end_turn"))]
    statement = select(STEPS.c.seq, Step.state["turn"].as_integer().label("turn"),
                       Step.state["danger"].as_integer().label("danger")).where(
        STEPS.c.game_id == bindparam("game_id"), STEPS.c.kind == "end_turn",
        STEPS.c.seq <= bindparam("seq")).order_by(STEPS.c.seq)
    with shared_engine.begin() as connection:
        connection.execute(insert(STEPS), rows)
        by_core = [dict(r._mapping) for r in connection.execute(statement, {"game_id": game.id, "seq": 5})]
        by_cursor = Prepared(statement).rows(connection, {"game_id": game.id, "seq": 5})
    assert by_cursor == by_core == [{"seq": 1, "turn": 1, "danger": 2}, {"seq": 3, "turn": 3, "danger": 6}]
