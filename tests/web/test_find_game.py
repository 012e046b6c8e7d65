"""Issue 21: the game a link opens is read in SQLAlchemy Core on every request (games.find_game),
not loaded by the ORM, and is still the game the ORM would have given: every column as stored
now, attached to the request's session like a loaded one, never a stale copy (a replaced link,
a deleted game, another device's step or rename)."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, update
from sqlmodel import Session

from app.store import game_commands, games
from app.store.tables import Game
from app.web.routes.share import regenerate
from tests.support.turn_games import make_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

COLUMNS = [c.name for c in Game.__table__.columns]


def orm_loaded(engine, game_id: int) -> dict:
    with Session(engine) as other:
        game = other.get_one(Game, game_id)
        return {name: getattr(game, name) for name in COLUMNS}


def found(engine, token: str):
    """find_game as open_game calls it: a new session, given back, the game attached again."""
    with Session(engine) as session:
        result = games.find_game(session, token)
        session.close()
        if result is not None:
            session.add(result[0])
        return None if result is None else ({name: getattr(result[0], name) for name in COLUMNS}, result[1])


def test_either_link_opens_its_game_with_every_column_the_orm_would_load(engine, session):
    game = make_game(session)
    stored = orm_loaded(engine, game.id)
    assert found(engine, game.edit_token) == (stored, "edit")
    assert found(engine, game.view_token) == (stored, "view")
    assert found(engine, game.edit_token[:-1]) is None
    assert found(engine, "") is None and found(engine, "x" * 65) is None


def test_the_game_found_is_attached_like_a_loaded_one_and_saves_a_change(engine, session):
    game = make_game(session, name="Before")
    with Session(engine) as request:
        opened, access = games.find_game(request, game.edit_token)
        request.close()  # open_game gives the connection back, then attaches the game again
        request.add(opened)
        assert access == "edit" and inspect(opened).persistent and not request.dirty
        games.rename(request, opened, "After")
    assert orm_loaded(engine, game.id)["name"] == "After"


def test_a_replaced_link_opens_nothing_and_its_new_one_opens_the_game_at_once(engine, session):
    game = make_game(session)
    old = game.edit_token
    assert found(engine, old) is not None
    regenerate(session, game, "play")
    assert found(engine, old) is None
    assert found(engine, game.edit_token)[1] == "edit"


def test_a_deleted_game_opens_with_neither_link(engine, session):
    game = make_game(session)
    tokens = game.edit_token, game.view_token
    games.delete(session, game)
    assert [found(engine, t) for t in tokens] == [None, None]


def test_each_request_reads_the_row_as_another_device_left_it(engine, session):
    game = make_game(session)
    game_commands.run_command(session, game, {"type": "add_character", "character": {"name": "Cy"}})
    with Session(engine) as other:  # another process renames it behind this one's back
        other.execute(update(Game).where(Game.id == game.id).values(name="Elsewhere"))
        other.commit()
    values, _ = found(engine, game.view_token)
    assert values["seq"] == game.seq and values["name"] == "Elsewhere"


def test_a_session_that_holds_the_game_gets_its_own_copy_with_expired_values_read_again(engine, session):
    game = make_game(session, name="Held")
    game_id, token = game.id, game.edit_token
    session.expire(game)  # as after a commit
    with Session(engine) as other:
        other.execute(update(Game).where(Game.id == game_id).values(name="Renamed"))
        other.commit()
    again, _ = games.find_game(session, token)
    assert again is game and not inspect(game).expired_attributes
    session.close()  # detached: every value must already be there (no lazy load possible)
    assert game.name == "Renamed"
