"""Property (issue 16): whatever body any command of any ruleset gets through the games API, and
whatever undo or "Go back here" a page sends, the answer is 200, 400, 409 or 422, never 500, and
a refused one leaves the game's `seq` where it was. Bodies come from each command's own JSON
schema (tests/support/json_strategies.py) with hostile values mixed in; bounded and derandomized,
so it runs in the normal test run the same everywhere. (Potham 2038's commands also get a longer
pass through every phase of a turn: tests/web/test_command_properties.py.)"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import rulesets
from app.transfer import exchange
from tests.support.examples import examples
from tests.support.json_strategies import HUGE_NUMBERS, from_schema, spoiled, wild_json

ROSTERS = {
    "potham-2038": [
        {"type": "add_character", "character": {"name": "Ada", "melee": {"red": 2}, "defense": {"white": 2}}},
        {"type": "add_bot", "bot": {"name": "Hunter-1", "role": "hunter", "melee": {"red": 3}}},
        {"type": "add_bot", "bot": {"name": "Patrol-1", "role": "patrol", "waypoints": ["A", "B"]}},
    ],
    "zone": [
        {"type": "add_character", "character": {"name": "Ada <b>"}},
        {"type": "add_npc", "npc": {"name": "Warden", "role": "sentry", "subject": "Gate"}},
        {"type": "add_npc", "npc": {"name": "Rover", "role": "patrol"}},
    ],
    "d20": [
        {"type": "add_character", "character": {
            "name": "Ada <b>", "defense": 14, "hp": 8, "attributes": {"agility": 3}, "skills": {"arrow_time": 2},
            "weapons": [{"name": "Bow", "kind": "ranged", "damage": "1d8", "short": 10, "long": 30}]}},
        {"type": "add_npc", "npc": {
            "name": "Raider", "role": "hunter", "defense": 13, "hp": 9, "attributes": {"vigor": 2},
            "skills": {"blade_waltz": 2}, "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"}]}},
    ],
}
EXAMPLES = examples(60)  # per ruleset; the full 60 took about a minute each on a busy 2-core machine


def game_with_roster(client, ruleset: str) -> tuple[str, list[str]]:
    token = client.post("/api/games", json={"name": "Fuzz", "ruleset": ruleset, "seed": 5}).json()["edit_token"]
    for command in ROSTERS[ruleset]:
        r = client.post(f"/api/games/{token}/commands", json=command)
        assert r.status_code == 200, (command, r.text[:300])
    state = client.get(f"/api/games/{token}").json()
    ids = [m["id"] for key in ("characters", "bots", "npcs") for m in state.get(key, [])]
    return token, ids


def command(ruleset: str, name: str, words: list[str]) -> st.SearchStrategy[dict]:
    model = rulesets.get(ruleset).commands.registry[name][0]
    body = from_schema(model.model_json_schema(), words)
    return st.one_of(body, body, spoiled(body)).map(lambda b: {"type": name, **b})


def undo(seq: int) -> st.SearchStrategy[dict]:
    """An undo or a "Go back here" as a page sends it: a step of the log (or not), a `seen`
    that is the latest step, an older one, or none."""
    step = st.integers(-2, seq + 2) | st.sampled_from(HUGE_NUMBERS)
    seen = st.none() | st.just(seq) | st.integers(0, max(seq - 1, 0)) | st.sampled_from(HUGE_NUMBERS)
    return st.fixed_dictionaries({}, optional={"to_seq": step, "seen": seen})


@pytest.mark.parametrize("ruleset", ["potham-2038", "zone", "d20"])
def test_no_command_or_undo_of_any_ruleset_answers_500_and_a_refused_one_changes_nothing(client, ruleset):
    start, ids = game_with_roster(client, ruleset)
    names = sorted(rulesets.get(ruleset).commands.registry)
    words = [*ids, "red", "white", "Gate", "A", "hunter", "patrol"]

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def any_command(data):
        token = client.post(f"/api/games/{start}/duplicate").json()["edit_token"]
        for _ in range(data.draw(st.integers(1, 4), label="requests")):
            before = client.get(f"/api/games/{token}").json()["seq"]
            if data.draw(st.integers(0, 4), label="undo?") == 0:
                r = client.post(f"/api/games/{token}/undo", content=json.dumps(data.draw(undo(before))),
                                headers={"content-type": "application/json"})
            else:
                cmd = data.draw(command(ruleset, data.draw(st.sampled_from(names)), words), label="command")
                expect = data.draw(st.none() | st.none() | wild_json, label="expect")
                if expect is not None:
                    cmd = {**cmd, "expect": expect}
                seen = data.draw(st.none() | st.just(before) | st.sampled_from(HUGE_NUMBERS), label="seen")
                r = client.post(f"/api/games/{token}/commands", content=json.dumps(cmd),
                                params={} if seen is None else {"seen": seen},
                                headers={"content-type": "application/json"})
            assert r.status_code in (200, 400, 409, 422), (r.request.content[:300], r.status_code, r.text[:300])
            if r.status_code != 200:
                assert client.get(f"/api/games/{token}").json()["seq"] == before
        page = client.get(f"/g/{token}")
        assert page.status_code == 200 and "<script>alert" not in page.text  # player text is escaped
        # whatever the app wrote, its own import accepts
        exchange.parse_game(client.get(f"/api/games/{token}/export").json())

    any_command()
