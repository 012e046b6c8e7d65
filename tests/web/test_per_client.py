"""The hourly quota of new games and imports per client address (app/web/middleware/per_client.py):
off by default (`make run`), and when set, every way of making a game counts, a failed one does
not, and the refusal says how long to wait (429 with Retry-After)."""

from __future__ import annotations

import json

import pytest

from app.settings import get_settings
from app.web.middleware import per_client


@pytest.fixture
def quota(monkeypatch):
    """A quota of 3, counted afresh (the shared app's counts outlive a test)."""
    monkeypatch.setattr(get_settings(), "games_per_hour", 3)
    per_client.made_by.clear()
    yield 3
    per_client.made_by.clear()


def test_without_a_quota_a_client_makes_as_many_games_as_it_likes(client):
    assert get_settings().games_per_hour == 0
    assert all(client.post("/api/games", json={"name": f"G{n}"}).status_code == 201 for n in range(8))


def test_every_way_of_making_a_game_counts_and_the_next_is_429_with_retry_after(client, quota):
    first = client.post("/api/games", json={"name": "One"}).json()
    assert client.post(f"/api/games/{first['edit_token']}/duplicate").status_code == 201
    exported = client.get(f"/api/games/{first['edit_token']}/export").content
    assert client.post("/api/games/import", content=exported,
                       headers={"Content-Type": "application/json"}).status_code == 201
    for refused in (client.post("/api/games", json={"name": "Four"}),
                    client.post("/games", data={"name": "Four", "ruleset": "potham2038"},
                                headers={"Accept": "text/html"}, follow_redirects=False),
                    client.post("/games/sample", data={"ruleset": "potham2038"}, follow_redirects=False),
                    client.post(f"/g/{first['edit_token']}/duplicate", follow_redirects=False)):
        assert refused.status_code == 429
        assert 0 < int(refused.headers["Retry-After"]) <= 3600
        assert "in the last hour" in refused.text
    # playing a game is not making one
    played = client.post(f"/api/games/{first['edit_token']}/commands",
                         json={"type": "add_character", "character": {"name": "Ada"}})
    assert played.status_code == 200


def test_a_failed_attempt_does_not_count(client, quota):
    for _ in range(5):
        bad = client.post("/api/games/import", content=json.dumps({"format": "nope"}),
                          headers={"Content-Type": "application/json"})
        assert bad.status_code == 422
    assert all(client.post("/api/games", json={"name": f"G{n}"}).status_code == 201 for n in range(quota))
