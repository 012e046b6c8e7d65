"""Properties of the turn engine under random command sequences (hypothesis).

- R-DANGER: Danger stays within 0..limit whatever happens, and status follows it.
- Replays are exact: the same seed and the same commands give the same states and logs, and
  every state survives the JSON round trip the shell stores.
- A refused command changes nothing, and no command mutates the state it was given.
"""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.kernel.commands import Refused
from app.rulesets.potham2038 import engine
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import GameState
from tests.rulesets.potham2038.turn_kit import ADA, BEN, HUNTER, PATROL, SENTRY, WORKER, game

CHARACTERS = st.sampled_from(["ada", "ben"])
BOTS = st.sampled_from(["hunter", "sentry", "patrol", "worker"])
DISTANCE = st.floats(min_value=0, max_value=14, allow_nan=False).map(lambda d: round(d, 1))


def seen():
    return st.fixed_dictionaries({"character_id": CHARACTERS, "distance": DISTANCE,
                                  "line_of_sight": st.booleans(), "base_contact": st.booleans()})


PHASE_1 = st.one_of(
    st.fixed_dictionaries({"type": st.just("character_move"), "character_id": CHARACTERS,
                           "entries": st.lists(BOTS, max_size=3)}),
    st.fixed_dictionaries({"type": st.just("noise"), "character_id": CHARACTERS,
                           "kind": st.sampled_from(["noise", "alarm"]), "bot_ids": st.lists(BOTS, max_size=3)}),
    st.fixed_dictionaries({"type": st.just("character_shoot"), "character_id": CHARACTERS, "target_id": BOTS}),
    st.fixed_dictionaries({"type": st.just("invoke_distracted"), "character_id": CHARACTERS,
                           "bot_ids": st.lists(BOTS, min_size=1, max_size=2)}),
    st.fixed_dictionaries({"type": st.just("luck_roll"), "character_id": CHARACTERS, "stat": st.just("Luck")}),
)
PHASE_2 = st.one_of(
    st.fixed_dictionaries({"type": st.just("record_event"), "title": st.just("Event"),
                           "danger": st.integers(-4, 4)}),
    st.fixed_dictionaries({"type": st.just("activate_bot"), "bot_id": BOTS,
                           "characters": st.lists(seen(), max_size=2, unique_by=lambda s: s["character_id"]),
                           "subject_distance": DISTANCE, "object_distance": DISTANCE,
                           "waypoint_distance": DISTANCE}),
)
PHASE_3 = st.one_of(
    st.fixed_dictionaries({"type": st.just("resolve_melee"), "bot_id": BOTS, "character_id": CHARACTERS,
                           "in_contact": st.booleans(), "counter_attack": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("bot_shoot"), "bot_id": BOTS, "character_id": CHARACTERS,
                           "line_of_sight": st.booleans(), "in_range": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("resolve_fallback"), "bot_id": BOTS, "slot": st.integers(1, 2),
                           "done": st.booleans()}),
)
PHASE_4 = st.fixed_dictionaries({"type": st.just("position_check"), "bot_id": BOTS, "passed": st.booleans()})
ANYTIME = st.one_of(
    st.just({"type": "next_phase"}), st.just({"type": "end_turn"}),
    st.fixed_dictionaries({"type": st.just("adjust"), "danger": st.integers(0, 8)}),
    st.fixed_dictionaries({"type": st.just("noise"), "character_id": CHARACTERS,
                           "kind": st.sampled_from(["noise", "alarm"]), "bot_ids": st.lists(BOTS, max_size=3)}),
)
NEXT = {"type": "next_phase"}


@st.composite
def turn(draw) -> list[dict]:
    """One turn in phase order, with a stray command anywhere now and then."""
    steps = [*draw(st.lists(PHASE_1, max_size=4)), NEXT, *draw(st.lists(PHASE_2, max_size=5)), NEXT,
             *draw(st.lists(PHASE_3, max_size=5)), NEXT, *draw(st.lists(PHASE_4, max_size=4)),
             {"type": "position_check", "bot_id": "sentry", "passed": draw(st.booleans())},
             {"type": "position_check", "bot_id": "patrol", "passed": draw(st.booleans())},
             {"type": "end_turn"}]
    for _ in range(draw(st.integers(0, 2))):
        steps.insert(draw(st.integers(0, len(steps))), draw(ANYTIME))
    return steps


COMMANDS = turn()
GAMES = st.lists(COMMANDS, max_size=4).map(lambda turns: [c for t in turns for c in t])


def start():
    return game(ADA, BEN, HUNTER.model_copy(update={"shoot_range": 12}), SENTRY, PATROL, WORKER,
                house=HouseRules(danger_limit=6))


def replay(seed: int, commands: list[dict]) -> list[tuple[dict, list[dict]]]:
    """Apply every command like game_commands.py does (one Random per step); refused ones leave no step."""
    state, steps = start(), []
    for n, data in enumerate(commands, 1):
        try:
            name, body = engine.parse(data)
            state, entries = engine.apply(state, name, body, Random(f"{seed}:{n}"))
        except (Refused, ValidationError):
            continue
        assert GameState.model_validate(state.model_dump(mode="json")) == state  # what game_commands.py stores
        steps.append((state.model_dump(), [e.as_dict() for e in entries]))
    return steps


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(GAMES, st.integers(0, 2**31 - 1))
def test_R_DANGER_never_below_zero_nor_above_the_limit_and_status_follows(commands, seed):
    reached = False  # R-DANGER-FINAL: once reached, the final turn stands even if Danger drops
    for state, _ in replay(seed, commands):
        assert 0 <= state["danger"] <= 6
        reached = (reached and state["status"] != "playing") or state["danger"] == 6
        if state["status"] == "failed":
            assert state["danger"] == 6 and state["danger_excess"] > 0
        if state["status"] in ("final_turn", "ended"):
            assert reached


@SETTINGS
@given(GAMES, st.integers(0, 2**31 - 1))
def test_the_same_seed_and_commands_replay_to_the_same_states_and_logs(commands, seed):
    assert replay(seed, commands) == replay(seed, commands)


@SETTINGS
@given(GAMES, st.integers(0, 2**31 - 1))
def test_a_refused_command_changes_nothing_and_no_command_mutates_its_input(commands, seed):
    state = start()
    for n, data in enumerate(commands, 1):
        try:
            name, body = engine.parse(data)
        except ValidationError:
            continue
        before = state.model_dump()
        try:
            new, _ = engine.apply(state, name, body, Random(f"{seed}:{n}"))
        except Refused as refused:
            assert refused.reason
            new = state
        assert state.model_dump() == before
        state = new
