"""Issue 21: each log row is rendered once per process (app/web/log_rows.py) and never served
stale: an undo strikes rows through, a new game that SQLite gives a deleted game's id shows its
own steps, and a page shows the same HTML from cached rows as from fresh ones."""

from __future__ import annotations

import re

import pytest

from app.web import log_rows
from app.web.log_rows import LogRows
from tests.support.api_game import new_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def rows(html: str) -> dict[int, str]:
    """The log's items by step number, as the page shows them."""
    items = re.findall(r'(<li class="log-step[^"]*" id="step-(\d+)".*?)(?=<li class="log-(?:step|more)|</ol>)', html, re.S)
    return {int(seq): item for item, seq in items}


@pytest.fixture
def fresh_rows(monkeypatch) -> LogRows:
    cache = LogRows()
    monkeypatch.setattr(log_rows, "ROWS", cache)
    return cache


def test_a_row_is_rendered_once_for_every_page_and_link_then_only_new_steps(client, fresh_rows):
    play, watch, send = new_game(client, "Ada", "Bo")
    first = client.get(f"/g/{play}").text
    assert fresh_rows.rendered == 3  # steps 0, 1, 2
    assert client.get(f"/g/{play}").text == first
    assert sorted(rows(client.get(f"/v/{watch}").text)) == [0, 1, 2]  # the watch page: the same rows
    assert fresh_rows.rendered == 3
    client.post(send, json={"type": "add_character", "character": {"name": "Cy"}}).raise_for_status()
    assert sorted(rows(client.get(f"/g/{play}").text)) == [0, 1, 2, 3]
    assert fresh_rows.rendered == 4


def test_cached_rows_give_the_page_fresh_rows_give(client, monkeypatch, fresh_rows):
    play, watch, send = new_game(client, "Ada", "Bo")
    client.post(f"/g/{play}/undo", data={"to_seq": 1, "seen": 2})
    client.get(f"/g/{play}")
    warm = client.get(f"/g/{play}").text, client.get(f"/v/{watch}").text
    monkeypatch.setattr(log_rows, "ROWS", LogRows())
    assert (client.get(f"/g/{play}").text, client.get(f"/v/{watch}").text) == warm


def test_an_undo_strikes_through_rows_already_rendered(client, fresh_rows):
    play, watch, send = new_game(client, "Ada", "Bo", "Cy")
    before = rows(client.get(f"/v/{watch}").text)
    assert not any("undone" in item for item in before.values())
    client.post(f"/g/{play}/undo", data={"to_seq": 1, "seen": 3}).raise_for_status()  # "Go back here"
    after = rows(client.get(f"/v/{watch}").text)
    assert [seq for seq, item in after.items() if 'class="log-step undone"' in item] == [3, 2]
    assert 'class="log-step"' in after[1] and "Ada" in after[1]


def test_a_new_game_given_a_deleted_games_id_shows_its_own_steps(client, engine, fresh_rows):
    old, _, _ = new_game(client, "Ada")
    old_id = client.get(f"/api/games/{old}").json()["id"]
    assert "Ada" in rows(client.get(f"/g/{old}").text)[1]
    client.delete(f"/api/games/{old}").raise_for_status()
    new, _, _ = new_game(client, "Zed")
    if engine.dialect.name == "sqlite":  # SQLite hands the freed ids out again: the case at stake
        assert client.get(f"/api/games/{new}").json()["id"] == old_id
    shown = rows(client.get(f"/g/{new}").text)
    assert "Zed" in shown[1] and "Ada" not in shown[1]
