"""Alembic builds the same schema as the models, and the app migrates a database that is behind."""

from __future__ import annotations

import json

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

import app.store.tables  # noqa: F401
from app.store.db import make_engine
from app.store.migrate import migrate


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

    from app.store.migrate import alembic_config

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

    from app.store.migrate import alembic_config

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


# --- 0004: each step stores its delta (issue 11 § 3) ------------------------------------------


PREVIOUS = "0003_ruleset"  # the revision before 0004_step_deltas


def old_database(tmp_path):
    """A database at revision 0003_ruleset (a full state at every step) holding a real game played by the
    engine past two snapshots and several ends of turn, with an undo to a far step and a step
    after it; answers its URL and every step's full state."""
    from alembic import command
    from sqlalchemy import text

    from app.rulesets.potham2038 import engine as rules
    from app.rulesets.potham2038.models import GameState
    from app.store.game_commands import step_rng
    from app.store.migrate import alembic_config
    from tests.support.played import played

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), PREVIOUS)
    log = played(120)
    log.append(("undo", {"type": "undo", "to_seq": 7}, log[7][2]))
    noise = played(1)[1][1]  # a command after the undo, played from step 7's state
    state, _ = rules.apply(GameState.model_validate(log[7][2]), *rules.parse(noise), step_rng(7, len(log)))
    log.append(("noise", noise, state.model_dump(mode="json")))
    with make_engine(url).begin() as connection:
        connection.execute(text(
            "INSERT INTO game (id, name, edit_token, view_token, seed, seq, turn, phase, danger, status,"
            " danger_limit, created_at, updated_at) VALUES (1, 'g', 'e1', 'v1', 7, :seq, 1, 1, 0, 'playing',"
            " 24, '2026-01-01', '2026-01-01')"), {"seq": len(log) - 1})
        for seq, (kind, command_, state) in enumerate(log):
            connection.execute(text(
                "INSERT INTO step (game_id, seq, kind, actor, command, entries, state, created_at)"
                " VALUES (1, :s, :k, 'player', :c, '[]', :state, '2026-01-01')"),
                {"s": seq, "k": kind, "c": json.dumps(command_), "state": json.dumps(state)})
    return url, [state for _, _, state in log]


def test_upgrading_to_deltas_keeps_every_steps_state_and_undo_still_works(tmp_path):
    from sqlmodel import Session, select

    from app.store import game_commands, games, steplog
    from app.store.tables import Game, Step

    url, states = old_database(tmp_path)
    migrate(url)
    engine = make_engine(url)
    with Session(engine) as session:
        game = session.get(Game, 1)
        rows = games.steps(session, game)
        assert [r.seq for r in rows if r.state is not None] == [
            r.seq for r in rows if steplog.keeps_state(r.seq, r.kind) or r.seq == game.seq]
        assert len([r for r in rows if r.state is not None]) < len(rows) / 4  # most states are gone
        assert games.states_json(session, game, rows) == dict(enumerate(states))  # every step, identical
        for row in rows:  # and one at a time, from its own snapshot
            assert games.state_json(session, row) == states[row.seq]
        game_commands.undo(session, game, to_seq=3)
        game_commands.undo(session, game, to_seq=99)
        assert games.current_state(session, game).model_dump(mode="json") == states[99]
        game_commands.undo(session, game)  # undo the last command: walks back to step 98
        assert games.current_state(session, game).model_dump(mode="json") == states[98]
        newest = session.exec(select(Step).where(Step.game_id == 1).order_by(Step.seq.desc())).first()
        assert newest.command == {"type": "undo", "to_seq": 98}


def test_downgrading_from_deltas_gives_every_step_its_full_state_back(tmp_path):
    from alembic import command
    from sqlalchemy import text

    from app.store.migrate import alembic_config

    url, states = old_database(tmp_path)
    migrate(url)
    command.downgrade(alembic_config(url), PREVIOUS)
    with make_engine(url).connect() as connection:
        rows = connection.execute(text("SELECT seq, state FROM step WHERE game_id = 1 ORDER BY seq")).all()
        columns = {c["name"] for c in inspect(connection).get_columns("step")}
    assert [json.loads(state) for _, state in rows] == states
    assert "delta" not in columns


def test_upgrading_from_0005_gives_every_game_no_report_link_and_downgrading_keeps_its_steps(tmp_path):
    """0006_report_token: a nullable, unique report token; every saved game starts with none, and
    the way back drops only the column (no copy of the table: the steps would go with it)."""
    from alembic import command
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    from app.store.migrate import alembic_config

    url, states = old_database(tmp_path)
    command.upgrade(alembic_config(url), "0005_step_game_kind")
    migrate(url)
    engine = make_engine(url)
    with engine.begin() as connection:
        assert connection.execute(text("SELECT report_token FROM game")).scalars().all() == [None]
        connection.execute(text(
            "INSERT INTO game (id, name, edit_token, view_token, seed, seq, turn, phase, danger, status,"
            " danger_limit, created_at, updated_at, ruleset) VALUES (2, 'h', 'e2', 'v2', 1, 0, 1, 1, 0, 'playing',"
            " 24, '2026-01-01', '2026-01-01', 'potham-2038')"))  # a second game with none: NULLs do not clash
        connection.execute(text("UPDATE game SET report_token = 'r1' WHERE id = 1"))
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE game SET report_token = 'r1' WHERE id = 2"))
        raise AssertionError("two games shared one report token")
    except IntegrityError:
        pass
    command.downgrade(alembic_config(url), "0005_step_game_kind")
    with make_engine(url).connect() as connection:
        columns = {c["name"] for c in inspect(connection).get_columns("game")}
        steps = connection.execute(text("SELECT count(*) FROM step WHERE game_id = 1")).scalar()
    assert "report_token" not in columns and steps == len(states)
