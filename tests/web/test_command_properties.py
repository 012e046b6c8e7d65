"""Property: whatever body any command gets, in any phase of a real game, the answer is 200, 400,
409 or 422 (never 500), a refused or invalid command leaves the game's `seq` where it was, and
player text comes back escaped. Bodies come from each command's own JSON schema
(tests/support/json_strategies.py); bounded and deterministic, so it runs the same everywhere."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rulesets.potham2038.commands import REGISTRY
from app.rulesets.potham2038.engine import command_names
from app.transfer import exchange
from tests.support.examples import examples
from tests.support.json_strategies import HUGE_NUMBERS, from_schema, spoiled, wild_json

ROSTER = [
    {"type": "add_character", "character": {"name": "Ada", "points": 45, "melee": {"red": 2},
                                            "shoot": {"red": 2}, "defense": {"white": 2}}},
    {"type": "add_character", "character": {"name": "Bo <b>", "health": 4, "max_health": 4,
                                            "melee": {"red": 1}, "defense": {"white": 2}}},
    {"type": "add_bot", "bot": {"name": "Hunter-1", "role": "hunter", "health": 4, "max_health": 4,
                                "melee": {"red": 3}, "defense": {"white": 2}}},
    {"type": "add_bot", "bot": {"name": "Sentry-1", "role": "sentry", "subject": "Vault", "shoot": {"red": 2},
                                "shoot_range": 18, "melee": {"red": 2}, "defense": {"white": 2}}},
    {"type": "add_bot", "bot": {"name": "Worker-1", "role": "worker", "object": "Console", "melee": {"red": 1}}},
    {"type": "add_bot", "bot": {"name": "Patrol-1", "role": "patrol", "waypoints": ["A", "B", "C"],
                                "melee": {"red": 2}}},
]


def one_turn(ada: str, bo: str, hunt: str, sent: str, work: str, patr: str) -> list[dict]:
    """A whole turn, step by step: each step is a checkpoint the fuzzing starts from."""
    seen = [{"character_id": ada, "distance": 1, "line_of_sight": True, "base_contact": True},
            {"character_id": bo, "distance": 6, "line_of_sight": True}]
    return [
        {"type": "noise", "character_id": ada, "kind": "noise", "bot_ids": [hunt]},
        {"type": "next_phase"},
        {"type": "record_event", "title": "Sirens", "danger": 1},
        {"type": "activate_bot", "bot_id": hunt, "characters": seen},
        {"type": "activate_bot", "bot_id": sent, "characters": seen, "subject_distance": 2},
        {"type": "activate_bot", "bot_id": work, "characters": seen, "object_distance": 2},
        {"type": "activate_bot", "bot_id": patr, "characters": seen, "waypoint_distance": 3},
        {"type": "next_phase"},
        {"type": "resolve_melee", "bot_id": hunt, "character_id": ada},
        {"type": "next_phase"},
        {"type": "position_check", "bot_id": sent, "passed": False},
        {"type": "position_check", "bot_id": patr, "passed": True},
        {"type": "end_turn"},
    ]


def checkpoints(client) -> tuple[list[str], list[str]]:
    """Edit tokens of copies of one game at every step of its first turn, and the model ids."""
    token = client.post("/api/games", json={"name": "Fuzz", "seed": 3}).json()["edit_token"]
    for command in ROSTER:
        assert client.post(f"/api/games/{token}/commands", json=command).status_code == 200
    state = client.get(f"/api/games/{token}").json()
    ids = [c["id"] for c in state["characters"]] + [b["id"] for b in state["bots"]]
    copies = [client.post(f"/api/games/{token}/duplicate").json()["edit_token"]]
    for command in one_turn(*ids):
        assert client.post(f"/api/games/{token}/commands", json=command).status_code == 200, command
        copies.append(client.post(f"/api/games/{token}/duplicate").json()["edit_token"])
    return copies, ids


def command(name: str, words: list[str]) -> st.SearchStrategy[dict]:
    body = from_schema(REGISTRY[name][0].model_json_schema(), words)
    return st.one_of(body, body, spoiled(body)).map(lambda b: {"type": name, **b})


def test_no_command_body_in_any_phase_answers_500_and_a_refused_one_leaves_seq_unchanged(client):
    copies, ids = checkpoints(client)
    words = [*ids, "red", "white", "black", "Melee", "Hacking", "Vault"]

    @settings(max_examples=examples(150), derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def any_command(data):
        start = data.draw(st.sampled_from(copies), label="checkpoint")
        token = client.post(f"/api/games/{start}/duplicate").json()["edit_token"]
        for _ in range(data.draw(st.integers(1, 3), label="commands")):
            cmd = data.draw(command(data.draw(st.sampled_from(command_names())), words), label="command")
            before = client.get(f"/api/games/{token}").json()["seq"]
            seen = data.draw(st.none() | st.just(before) | st.sampled_from(HUGE_NUMBERS), label="seen")
            expect = data.draw(st.none() | st.none() | wild_json, label="expect")  # what the page saw
            if expect is not None:
                cmd = {**cmd, "expect": expect}
            r = client.post(f"/api/games/{token}/commands", content=json.dumps(cmd),
                            params={} if seen is None else {"seen": seen},
                            headers={"content-type": "application/json"})
            assert r.status_code in (200, 400, 409, 422), (cmd, r.status_code, r.text[:300])
            if r.status_code != 200:
                assert client.get(f"/api/games/{token}").json()["seq"] == before, cmd
        page = client.get(f"/g/{token}")
        assert page.status_code == 200 and "<script>alert" not in page.text  # player text is escaped
        # whatever the app wrote, its own import accepts (entries, undo steps, replay)
        exchange.parse_game(client.get(f"/api/games/{token}/export").json())

    any_command()
