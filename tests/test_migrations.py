"""Alembic builds the same schema as the models, and the app migrates a database that is behind."""

from __future__ import annotations

import json

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

import app.tables  # noqa: F401
from app.db import make_engine
from app.migrate import migrate


def test_upgrade_head_on_an_empty_sqlite_file_matches_the_models(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    migrate(url)
    engine = make_engine(url)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    assert diff == []
    assert {"game", "step", "alembic_version"} <= set(inspect(engine).get_table_names())


def test_the_sqlite_file_runs_in_wal_mode_with_a_busy_timeout(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'wal.db'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000


def test_migrating_twice_is_harmless(tmp_path):
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    migrate(url)
    migrate(url)
    with make_engine(url).connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() is not None


def test_upgrading_from_0001_copies_each_games_own_danger_limit_from_its_latest_state(tmp_path):
    from alembic import command
    from sqlalchemy import text

    from app.migrate import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0001")
    engine = make_engine(url)
    with engine.begin() as connection:
        for game_id, limit in ((1, 30), (2, None)):  # None: a state saved before house rules had one
            house = {"danger_limit": limit} if limit else {}
            connection.execute(text(
                "INSERT INTO game (id, name, edit_token, view_token, seed, seq, turn, phase, danger, status,"
                " created_at, updated_at) VALUES (:id, 'g', :e, :v, 1, 1, 1, 1, 0, 'playing', '2026-01-01',"
                " '2026-01-01')"), {"id": game_id, "e": f"e{game_id}", "v": f"v{game_id}"})
            for seq, state in ((0, "{}"), (1, json.dumps({"house": house}))):
                connection.execute(text(
                    "INSERT INTO step (game_id, seq, kind, actor, command, entries, state, created_at)"
                    " VALUES (:g, :s, 'x', 'player', '{}', '[]', :state, '2026-01-01')"),
                    {"g": game_id, "s": seq, "state": state})
    migrate(url)
    with engine.connect() as connection:
        limits = dict(connection.execute(text("SELECT id, danger_limit FROM game")).all())
    assert limits == {1: 30, 2: 24}


def test_upgrading_from_0002_makes_every_saved_game_a_potham_2038_game(tmp_path):
    from alembic import command
    from sqlalchemy import text

    from app.migrate import alembic_config

    url = f"sqlite:///{tmp_path / 'before-rulesets.db'}"
    command.upgrade(alembic_config(url), "0002")
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO game (id, name, edit_token, view_token, seed, seq, turn, phase, danger, danger_limit,"
            " status, created_at, updated_at) VALUES (1, 'g', 'e', 'v', 1, 0, 1, 1, 0, 24, 'playing',"
            " '2026-01-01', '2026-01-01')"))
    migrate(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT ruleset FROM game")).scalar() == "potham-2038"
