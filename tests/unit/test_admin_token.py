"""The admin link's token (app/web/admin_link.py): the Jupyter-token pattern, kept in the data folder."""

from __future__ import annotations

import stat

import pytest

from app.settings import Settings
from app.web import admin_link as admin


def settings_for(tmp_path, **extra) -> Settings:
    return Settings(_env_file=None, database_url=f"sqlite:///{tmp_path}/games/potham.db", **extra)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_first_start_makes_a_token_next_to_the_sqlite_file_readable_by_its_owner_only(tmp_path):
    token = admin.ensure_token(settings_for(tmp_path))
    saved = tmp_path / "games" / "admin_token"
    assert saved.read_text().strip() == token and len(token) >= 32
    assert mode(saved) == 0o600


def test_the_token_is_the_same_after_a_restart(tmp_path):
    assert admin.ensure_token(settings_for(tmp_path)) == admin.ensure_token(settings_for(tmp_path))


def test_a_saved_token_with_a_looser_mode_is_tightened(tmp_path):
    token = admin.ensure_token(settings_for(tmp_path))
    saved = tmp_path / "games" / "admin_token"
    saved.chmod(0o644)
    assert admin.ensure_token(settings_for(tmp_path)) == token and mode(saved) == 0o600


def test_an_empty_or_damaged_token_file_is_replaced(tmp_path):
    saved = tmp_path / "games" / "admin_token"
    saved.parent.mkdir()
    saved.write_text("short\n")
    token = admin.ensure_token(settings_for(tmp_path))
    assert token != "short" and saved.read_text().strip() == token and mode(saved) == 0o600


def test_admin_token_from_the_environment_wins_and_writes_nothing(tmp_path):
    chosen = "my-own-admin-token-0123456789"
    assert admin.ensure_token(settings_for(tmp_path, admin_token=chosen)) == chosen
    assert not (tmp_path / "games" / "admin_token").exists()


@pytest.mark.parametrize("weak", ["short", "has spaces in it and is long enough", "é" * 30])
def test_a_weak_admin_token_from_the_environment_is_refused(tmp_path, weak):
    with pytest.raises(ValueError, match="ADMIN_TOKEN"):
        admin.ensure_token(settings_for(tmp_path, admin_token=weak))


def test_without_a_sqlite_file_the_token_lives_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = Settings(_env_file=None, database_url="postgresql+psycopg://u:p@localhost/db")
    assert admin.data_dir(settings) == admin.DEFAULT_DATA_DIR
    token = admin.ensure_token(settings)
    assert (tmp_path / "data" / "admin_token").read_text().strip() == token


def test_only_the_exact_token_matches():
    assert admin.matches("a" * 32, "a" * 32)
    assert not admin.matches("a" * 31, "a" * 32) and not admin.matches(None, "a" * 32)
