"""Alembic environment: the URL comes from the app's settings unless the caller sets one."""

from alembic import context
from sqlmodel import SQLModel

import app.store.tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.store.db import make_engine
from app.settings import get_settings

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url") or get_settings().database_url,
                      target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or get_settings().database_url
    engine = make_engine(url, size=1)
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()  # its connection closed, not left pooled in the process that migrated


def _run(connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things; batch mode copies the table instead.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
