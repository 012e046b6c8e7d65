"""A game's name that shows nothing, or reorders what follows it, is 422 naming the field: on the
API, the new-game form and a rename (app/kernel/names.py `shown`)."""

from __future__ import annotations

import pytest

HIDDEN = {"zero-width": "\u200b\u200b", "rtl-override": "Bob\u202egpj.exe"}


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_the_api_refuses_the_name_naming_the_field(client, name):
    answer = client.post("/api/games", json={"name": name})
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"][-1] == "name"
    game = client.post("/api/games", json={"name": "Fine"}).json()
    renamed = client.post(f"/api/games/{game['edit_token']}/rename", json={"name": name})
    assert renamed.status_code == 422 and renamed.json()["detail"][0]["loc"][-1] == "name"


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_the_new_game_form_shows_the_reason_next_to_the_field(client, name):
    answer = client.post("/games", data={"name": name, "ruleset": "potham2038"}, headers={"Accept": "text/html"})
    assert answer.status_code == 422
    assert 'id="new-name-error"' in answer.text
    assert "visible character" in answer.text or "bidirectional" in answer.text
