"""Games that many tests start from, played once per worker and copied into each test's database.

The log's fixtures played 50 to 95 steps through the app's own commands for every test that used
them (most of those tests' CPU). `copied(session, build)` plays `build(session)` once, in the first
test's emptied database, keeps its rows (the game and its steps, read and written back through the
tables' own types), and gives every later test a copy of them in its own emptied database: the
same game, step for step, with the same ids (each test's database starts empty, its ids at 1:
tests/conftest.py), as `build` would have made it. Only its links are new, as a build's would be:
the app keeps per-process caches keyed by link (app/web/routes/live.py's pushed steps), and no test may
meet another test's game under the same link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select, text
from sqlmodel import Session

from app.store.games import new_token
from app.store.tables import Game, Step

_ROWS: dict[Callable[[Session], Game], dict[str, list[dict[str, Any]]]] = {}
TABLES = (Game.__table__, Step.__table__)  # in the order of their foreign key


def copied(session: Session, build: Callable[[Session], Game]) -> Game:
    """The game `build(session)` makes, in this test's (emptied) database."""
    rows = _ROWS.get(build)
    if rows is None:
        game = build(session)
        connection = session.connection()
        _ROWS[build] = {t.name: [dict(r) for r in connection.execute(select(t)).mappings()] for t in TABLES}
        session.commit()
        return game
    connection = session.connection()
    for table in TABLES:
        values = rows[table.name]
        if table is Game.__table__:
            values = [{**row, "edit_token": new_token(), "view_token": new_token()} for row in values]
        connection.execute(table.insert(), values)
        if connection.dialect.name == "postgresql":  # ids were given: the sequence follows them
            connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                    f"(SELECT max(id) FROM {table.name}))"))
    session.commit()
    [game_id] = [row["id"] for row in rows[Game.__table__.name]]
    return session.get(Game, game_id)
