"""A real game played by the rules engine alone (no database): the states after each step, for
the tests of how steps are stored (issue 11 § 3)."""

from __future__ import annotations

from typing import Any

from app.rulesets.potham2038 import engine
from app.store.game_commands import step_rng
from tests.support.turn_games import roster_state

SEED = 7


def turn_cycle(bots: list[Any]) -> list[dict[str, Any]]:
    """One short turn: a Noise, Phases 2 to 4, the position checks, the end of the turn."""
    return [{"type": "noise", "character_id": "ada", "kind": "noise", "bot_ids": []},
            {"type": "next_phase"}, {"type": "next_phase"}, {"type": "next_phase"},
            *[{"type": "position_check", "bot_id": b.id, "passed": True} for b in bots
              if b.role in ("sentry", "patrol")],
            {"type": "end_turn"}]


def played(commands: int) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(kind, command, state after it as JSON) for step 0 (the roster) and `commands` steps."""
    state = roster_state()
    steps = [("create", {"type": "create"}, state.model_dump(mode="json"))]
    cycle = turn_cycle(state.bots)
    for seq in range(1, commands + 1):
        command = cycle[(seq - 1) % len(cycle)]
        name, body = engine.parse(command)
        state, _ = engine.apply(state, name, body, step_rng(SEED, seq))
        steps.append((name, command, state.model_dump(mode="json")))
    return steps
