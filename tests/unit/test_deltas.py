"""Issue 11 § 3: a step stores its delta; a state rebuilt from a snapshot and the deltas after it
equals the full state the step had (app/store/deltas.py, app/store/steplog.py; no database here)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.store import deltas, steplog
from app.store.tables import Step
from tests.support.examples import examples
from tests.support.json_strategies import wild_json
from tests.support.played import played
from tests.support.turn_games import roster_state

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(json_values, json_values)
def test_patching_with_the_diff_gives_the_new_value_exactly(before, after):
    delta = deltas.diff(before, after)
    rebuilt = deltas.patch(before, delta)
    assert json.dumps(rebuilt, sort_keys=True) == json.dumps(after, sort_keys=True)
    assert json.loads(json.dumps(delta)) == delta  # a delta is plain JSON: it can be stored


@settings(max_examples=examples(200), deadline=None)
@given(json_values, json_values)
def test_patch_leaves_the_state_it_was_given_as_it_was(before, after):
    kept = copy.deepcopy(before)
    deltas.patch(before, deltas.diff(before, after))
    assert json.dumps(before, sort_keys=True) == json.dumps(kept, sort_keys=True)


def test_true_and_1_are_different_json_values():
    assert deltas.diff({"a": 1}, {"a": True}) == [["set", ["a"], True]]
    assert deltas.diff({"a": 1}, {"a": 1.0}) == [["set", ["a"], 1.0]]
    assert deltas.diff({"a": [1, 2]}, {"a": [1, 2]}) == []


def test_a_delta_names_only_what_changed():
    state = roster_state().model_dump(mode="json")
    hurt = copy.deepcopy(state)
    hurt["bots"][1]["health"] = 1
    hurt["danger"] = 3
    assert sorted(deltas.diff(state, hurt)) == [["set", ["bots", 1, "health"], 1], ["set", ["danger"], 3]]


def test_lists_grow_and_shrink_at_their_end():
    assert deltas.diff([1, 2], [1, 2, 3, 4]) == [["add", [], [3, 4]]]
    assert deltas.diff({"x": [1, 2, 3]}, {"x": [1]}) == [["cut", ["x"], 1]]
    assert deltas.patch({"x": [1, 2, 3]}, [["cut", ["x"], 1]]) == {"x": [1]}


@settings(max_examples=examples(200), deadline=None)
@given(json_values, st.lists(wild_json, max_size=3))
def test_a_delta_that_does_not_fit_is_refused_never_a_crash(state, delta):
    try:
        deltas.patch(state, delta)
    except deltas.BadDelta:
        pass


@pytest.mark.parametrize("delta", [
    [["set", ["nowhere", "deep"], 1]], [["del", ["missing"]]], [["cut", ["danger"], 0]],
    [["set", ["bots", 99, "health"], 1]], [["add", ["bots"], "not a list"]], [["set", ["danger"]]],
    [["set", "danger", 1]], ["set"], [["set", ["bots", -1], 1]], [["set", ["bots", True], 1]],
])
def test_edits_that_do_not_fit_the_state_are_refused(delta):
    with pytest.raises(deltas.BadDelta):
        deltas.patch(roster_state().model_dump(mode="json"), delta)


def played_log(commands: int) -> tuple[list[Step], list[dict]]:
    """A real game played by the engine, laid out as the app stores it: each new step
    recorded, the one before retired."""
    rows: list[Step] = []
    full: list[dict] = []
    for seq, (kind, _, after) in enumerate(played(commands)):
        if rows:
            steplog.retire(rows[-1])
        rows.append(steplog.record(Step(game_id=1, seq=seq, kind=kind), full[-1] if full else None, after))
        full.append(after)
    return rows, full


def test_the_state_at_every_step_rebuilt_from_its_snapshot_and_deltas_equals_the_full_state():
    rows, full = played_log(3 * steplog.SNAPSHOT_EVERY + 7)
    assert full[-1]["turn"] > 10  # the game really moved on
    kept = [r.seq for r in rows if r.state is not None]
    for seq in range(len(rows)):
        start = max(k for k in kept if k <= seq and steplog.keeps_state(k, rows[k].kind))
        window = [(r.seq, r.state, r.delta) for r in rows[start:seq + 1]]
        assert steplog.rebuild(window)[seq] == full[seq], f"step {seq} from snapshot {start}"


def test_only_snapshots_ends_of_turn_and_the_latest_step_keep_a_full_state():
    rows, _ = played_log(2 * steplog.SNAPSHOT_EVERY + 3)
    kept = {r.seq for r in rows if r.state is not None}
    assert kept == {r.seq for r in rows if r.seq % steplog.SNAPSHOT_EVERY == 0 or r.kind == "end_turn"} | {
        rows[-1].seq}
    assert rows[0].delta is None and all(r.delta is not None for r in rows[1:])
    assert len(kept) < len(rows) / 4


def test_a_stored_step_is_a_small_fraction_of_a_full_state():
    rows, full = played_log(40)
    delta_bytes = sum(len(json.dumps(r.delta)) for r in rows[1:]) / 40
    assert delta_bytes < len(json.dumps(full[-1])) / 10


def test_a_row_with_neither_state_nor_a_state_before_it_is_refused():
    with pytest.raises(deltas.BadDelta):
        steplog.rebuild([(5, None, [["set", ["danger"], 1]])])


@pytest.mark.parametrize("before, after, delta", [
    ({"a": {"x": [1, 2]}}, {"a": {"x": [True, 2]}}, [["set", ["a", "x", 0], True]]),
    ({"a": [{"n": 1}]}, {"a": [{"n": 1.0}]}, [["set", ["a", 0, "n"], 1.0]]),
    ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}, [["set", ["a"], {"y": 2, "x": 1}]]),
])
def test_containers_equal_in_python_but_not_as_json_are_still_diffed(before, after, delta):
    """Issue 21: an unchanged dict or list is recognised whole (==, then its marshal bytes), so
    one that Python calls equal but JSON does not (True and 1, 1 and 1.0, another key order) must
    still be walked."""
    assert before == after  # Python's == alone would have skipped them
    assert deltas.diff(before, after) == delta
    assert json.dumps(deltas.patch(before, delta)) == json.dumps(after)


def test_a_state_with_one_change_deep_inside_gives_that_one_edit():
    state = roster_state().model_dump(mode="json")
    moved = json.loads(json.dumps(state))  # no object shared, as a stored state and a new one
    moved["bots"][2]["melee"]["red"] = 9
    assert deltas.diff(state, moved) == [["set", ["bots", 2, "melee", "red"], 9]]
    assert deltas.diff(state, json.loads(json.dumps(state))) == []
