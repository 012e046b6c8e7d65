"""Properties of the battle report over generated games of each ruleset (tests/support/report_games.py:
the sample roster, then commands and undos drawn by hypothesis, played by the engines alone).

- The threat series equals the game's state at each end of turn (2038: Danger after each end of
  turn, R-DANGER; zone: the trauma each side dealt in the round, Z-TRAUMA; d20: HP per side,
  D20-DAMAGE), read here straight from the states, not through the ruleset's report code.
- The narrative's attacks are exactly the log's attack lines of the live history, in order.
- Undone steps never appear: the live steps, replayed by the engine from the first state, give the
  latest state; no line of the report comes from any other step.
- The notes are the live `report_note` steps' last word per turn; luck adds up its rolls.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import rulesets
from app.report.build import build, live_steps
from app.store.game_commands import step_rng
from tests.support.examples import examples
from tests.support.report_games import play

TRACKS = ("damage", "fatigue", "confusion", "doubt")


def level(ruleset: str, state: dict) -> dict[str, float]:
    """The threat as the state holds it (independent of the rulesets' report code)."""
    if ruleset == "potham-2038":
        return {"Danger": state["danger"]}
    if ruleset == "d20":
        return {"Characters": sum(c["hp"] for c in state["characters"]), "NPCs": sum(n["hp"] for n in state["npcs"])}
    held = {side: sum(m[t] for m in state[key] for t in TRACKS) for side, key in (("by NPCs", "characters"),
                                                                               ("by Characters", "npcs"))}
    return held


ATTACK_LINES = {"potham-2038": ({"resolve_melee", "bot_shoot", "character_shoot"}, "attack_total"),
                "zone": ({"npc_attack", "character_attack", "push_roll"}, "successes"),
                "d20": ({"attack"}, "natural")}
TURN_END = {"potham-2038": ("end_turn", "turn"), "zone": ("end_round", "round"), "d20": ("end_round", "round")}

choices = st.lists(st.tuples(st.sampled_from([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]), st.integers(0, 10_000)),
                   min_size=5, max_size=70)


def check_game(ruleset_id: str, picks: list[tuple[int, int]]) -> None:
    ruleset = rulesets.get(ruleset_id)
    log = play(ruleset_id, picks)
    report = build(log, ruleset.report, "Night", ruleset.id, ruleset.name)
    live = live_steps(log)
    live_seqs = {s.seq for s in live}

    # undone steps never appear: the live history replayed gives the latest state
    state = ruleset.load(log[0].state)
    for step in live[1:]:
        state, _ = ruleset.apply(state, *ruleset.parse(step.command), step_rng(5, step.seq))
    assert state.model_dump(mode="json") == log[-1].state
    assert {p.seq for t in report.turns for p in t.pieces} <= live_seqs

    # the threat at each end of turn is the state's, and the running turn's is now's
    end, counter = TURN_END[ruleset_id]
    ends = {}
    previous = live[0].state
    for step in live[1:]:
        if step.kind == end:
            ends[previous[counter]] = step.state
        previous = step.state
    by_turn = {t.number: t for t in report.turns}
    reached = {1} | {before.state[counter] for before, step in zip(live, live[1:], strict=False)
                     if step.kind not in ("report_note", "report_title")}
    noted = {n["turn"] for n in (log[-1].state.get("report") or {}).get("notes", [])}
    assert sorted(by_turn) == sorted(reached | noted)
    before = {k: 0 for k in level(ruleset_id, log[-1].state)}
    for number in sorted(by_turn):
        held = level(ruleset_id, ends.get(number, log[-1].state))
        if ruleset_id == "zone":  # trauma dealt in the round: what was added since the last round's end
            assert by_turn[number].threat == {k: max(0, v - before[k]) for k, v in held.items()}, number
            before = held
        else:
            assert by_turn[number].threat == held, number

    # the narrative's attacks are the log's attack lines, in order, from live steps only
    kinds, mark = ATTACK_LINES[ruleset_id]
    logged = [(s.seq, e["text"]) for s in live[1:] if s.kind in kinds
              for e in s.entries if mark in (e.get("dice") or {})]
    told = [(p.seq, p.source) for t in report.turns for p in t.pieces if p.attack is not None]
    assert sorted(told) == sorted(logged)
    assert sum(len(t.of("attack")) for t in report.turns) == len(logged)

    # notes: the last live word per turn; luck: the sum of the rolls
    notes: dict[int, str] = {}
    for step in live:
        if step.kind == "report_note":
            notes[step.command["turn"]] = step.command["text"]
    assert {t.number: t.note for t in report.turns if t.note} == {k: v for k, v in notes.items() if v}
    rolls = [r for t in report.turns for p in t.pieces for r in p.rolls]
    for side in ("characters", "npcs"):
        assert report.luck.rolls[side] == len([r for r in rolls if r.side == side])
        assert abs(report.luck.actual[side] - sum(r.actual for r in rolls if r.side == side)) < 1e-9
    if rolls:
        assert report.luck.unlikeliest.tail == min(r.tail for r in rolls)
        assert all(0 <= r.tail <= 1 for r in rolls)


SETTINGS = settings(max_examples=examples(40), derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


@SETTINGS
@given(picks=choices)
def test_a_2038_report_follows_its_live_log(picks):
    check_game("potham-2038", picks)


@SETTINGS
@given(picks=choices)
def test_a_zone_report_follows_its_live_log(picks):
    check_game("zone", picks)


@SETTINGS
@given(picks=choices)
def test_a_d20_report_follows_its_live_log(picks):
    check_game("d20", picks)


def test_the_generated_games_hold_attacks_undos_and_ends_of_turn():
    """The strategy reaches what the properties speak of (else they would hold vacuously)."""
    import random

    for ruleset_id in ATTACK_LINES:
        rng = random.Random(3)
        log = play(ruleset_id, [(0 if rng.random() < 0.1 else 1, rng.randrange(10_000)) for _ in range(70)])
        kinds = {s.kind for s in log}
        assert "undo" in kinds and TURN_END[ruleset_id][0] in kinds, (ruleset_id, kinds)
        assert kinds & ATTACK_LINES[ruleset_id][0], (ruleset_id, kinds)
