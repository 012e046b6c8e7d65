"""Settings from the environment (or a `.env` file): where the games live and where we serve."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # SQLite file by default; any SQLAlchemy URL works, e.g. postgresql+psycopg://user@host/db
    database_url: str = "sqlite:///./data/potham.db"
    # Where `make run` / `python -m app` serves. Use HOST=0.0.0.0 to reach it from a tablet.
    host: str = "127.0.0.1"
    port: int = 8000
    # The admin link's secret (see app/admin.py). Unset: made on first start, kept in the data folder.
    admin_token: str | None = None


@lru_cache
def get_settings() -> Settings:
    return Settings()
