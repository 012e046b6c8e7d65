"""Alembic builds the same schema as the models, and the app migrates a database that is behind."""

from __future__ import annotations

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
