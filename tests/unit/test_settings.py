import pytest

from app.settings import Settings


def test_defaults_serve_locally_from_a_sqlite_file_under_data(monkeypatch):
    for key in ("DATABASE_URL", "HOST", "PORT"):
        monkeypatch.delenv(key, raising=False)
    settings = Settings(_env_file=None)
    assert settings.database_url == "sqlite:///./data/potham.db"
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)


def test_environment_overrides_each_setting(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@db/potham")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9000")
    settings = Settings(_env_file=None)
    assert settings.database_url.startswith("postgresql+psycopg://")
    assert (settings.host, settings.port) == ("0.0.0.0", 9000)


def test_the_pool_has_a_connection_for_every_worker_thread(tmp_path, monkeypatch):
    """Issue 11: 15 connections for 40 threads froze the server; now no thread waits on the pool."""
    from app.settings import get_settings
    from app.store import db

    monkeypatch.setenv("WORKER_THREADS", "24")
    monkeypatch.delenv("DB_POOL_SIZE", raising=False)
    get_settings.cache_clear()
    try:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'pool.db'}")
        assert engine.pool.size() >= get_settings().worker_threads == 24
        engine.dispose()
    finally:
        get_settings.cache_clear()


@pytest.mark.parametrize("setting, pragma", [(None, 1), ("normal", 1), ("full", 2)])
def test_sqlite_files_run_wal_with_synchronous_normal_unless_set_to_full(tmp_path, monkeypatch, setting, pragma):
    """Issue 21: no disk flush per committed step under WAL by default (a killed server still loses
    no answered step: tests/e2e/test_durability.py); SQLITE_SYNCHRONOUS=full flushes every commit."""
    from sqlalchemy import text

    from app.settings import get_settings
    from app.store import db

    if setting is None:
        monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)
    else:
        monkeypatch.setenv("SQLITE_SYNCHRONOUS", setting)
    get_settings.cache_clear()
    try:
        engine = db.make_engine(f"sqlite:///{tmp_path / 'sync.db'}")
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA synchronous")).scalar() == pragma  # 1 NORMAL, 2 FULL
        engine.dispose()
    finally:
        get_settings.cache_clear()
