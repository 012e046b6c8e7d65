"""Properties every activation keeps, whatever the board (R-ACT-TWO, R-ACT-FALLBACK, R-SCAN,
R-MARK-ACT, R-ACT-MOVE, R-CMB-SHOOT)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate
from tests.support.examples import examples

distances = st.floats(min_value=0, max_value=40, allow_nan=False).map(lambda x: round(x, 1))

characters = st.lists(
    st.builds(Seen, name=st.sampled_from(["Ada", "Bo", "Cy", "Dee", "Eli"]), distance=distances,
              line_of_sight=st.booleans(), base_contact=st.booleans()),
    max_size=5, unique_by=lambda c: c.name)

bots = st.builds(
    Activator, name=st.just("Warden-2"), role=st.sampled_from(["hunter", "sentry", "worker", "patrol"]),
    walk=st.sampled_from([0.0, 3.0, 4.0, 5.5]), run=st.sampled_from([0.0, 6.0, 8.0, 11.0]),
    control_zone=st.sampled_from([0.0, 2.0, 3.0, 6.0]),
    shoot_range=st.one_of(st.none(), st.sampled_from([6.0, 12.0, 24.0])), has_ammo=st.booleans(),
    knocked_down=st.booleans(), rebooted=st.booleans(), full_throttle=st.booleans())

directives = st.builds(
    Directive, subject=st.just("Vault"), subject_distance=st.one_of(st.none(), distances),
    object=st.just("Console"), object_distance=st.one_of(st.none(), distances), object_contact=st.booleans(),
    waypoint=st.just("B"), waypoint_distance=st.one_of(st.none(), distances),
    direction=st.one_of(st.none(), st.integers(1, 8)), exempt=st.booleans())

boards = st.tuples(bots, characters, directives, st.integers(0, 2**16))


def decide(board):
    bot, seen, directive, seed = board
    return bot, seen, directive, activate(bot, seen, directive, random.Random(seed))


@settings(max_examples=examples(400), deadline=None)
@given(boards)
def test_R_ACT_TWO_slot_2_is_another_family_or_the_flagged_fallback_maneuver(board):
    _, _, _, result = decide(board)
    assert len(result.actions) <= 2
    assert [a.slot for a in result.actions] == list(range(1, len(result.actions) + 1))
    if len(result.actions) == 2:
        first, second = result.actions
        if second.family == first.family:
            assert second.fallback and second.family == "maneuver" and second.rule == "R-ACT-FALLBACK"
    assert not (result.actions and result.actions[0].fallback)


@settings(max_examples=examples(400), deadline=None)
@given(boards)
def test_R_SCAN_only_targets_a_character_in_line_of_sight_and_in_zone(board):
    bot, seen, _, result = decide(board)
    by_name = {c.name: c for c in seen}
    moved = {a.target: a.move for a in result.actions if a.family == "maneuver" and a.slot == 1 and a.move}
    for scan in (a for a in result.actions if a.action == "scan"):
        target = by_name[scan.target]
        now = target.reach - moved.get(scan.target, 0.0)  # R-ACT-FACTS: the approached one is closer
        assert target.line_of_sight and now <= bot.control_zone


@settings(max_examples=examples(300), deadline=None)
@given(boards)
def test_R_MARK_ACT_a_rebooted_bot_has_no_actions_and_marks_no_one(board):
    bot, seen, _, result = decide(board)
    if bot.rebooted:
        assert result.actions == () and result.marked == ()
    else:
        assert {m.character for m in result.marked} == {
            c.name for c in seen if c.base_contact or c.distance <= bot.control_zone}


@settings(max_examples=examples(400), deadline=None)
@given(boards)
def test_R_ACT_MOVE_a_move_never_exceeds_the_allowed_distance(board):
    bot, seen, _, result = decide(board)
    by_name = {c.name: c for c in seen}
    run = max(bot.run, bot.walk)
    for action in result.actions:
        if action.family != "maneuver" or action.action == "stand_up":
            assert action.move is None
            continue
        assert action.move > 0
        if bot.full_throttle:
            limit = run
        elif action.fallback:
            limit = bot.walk / 2
        else:
            # third reading: Walk 0 and Run > 0, the random move is a Run
            limit = {"walk": bot.walk, "run": run, "random_move": bot.walk or run}[action.action]
        assert action.move <= limit + 1e-9
        if action.target in by_name:  # never through a Character's base
            assert action.move <= by_name[action.target].reach + 1e-9


@settings(max_examples=examples(300), deadline=None)
@given(boards)
def test_R_CMB_SHOOT_only_with_weapon_ammo_line_of_sight_and_out_of_contact(board):
    bot, seen, _, result = decide(board)
    by_name = {c.name: c for c in seen}
    for shot in (a for a in result.actions if a.action == "shoot"):
        reloaded = any(a.action == "reload" and a.slot < shot.slot for a in result.actions)  # R-ACT-RELOAD
        assert bot.shoot_range is not None and (bot.has_ammo or reloaded) and by_name[shot.target].line_of_sight
        assert not any(c.base_contact for c in seen)
        assert shot.phase == 3


@settings(max_examples=examples(200), deadline=None)
@given(boards)
def test_every_action_has_a_reason_and_a_rule_and_the_answer_is_json_ready(board):
    _, _, _, result = decide(board)
    data = result.as_dict()
    assert set(data) >= {"bot", "marked", "actions", "ties"}
    for action in data["actions"]:
        assert action["reason"].endswith(".") and action["rule"].startswith("R-")
        assert action["phase"] == (3 if action["action"] in {"melee", "shoot"} else 2)


def legal_unused(bot, seen, directive, result) -> list[str]:
    """What the facts make legal in a family the plan left unused (ignoring the fallback): a
    Shoot in sight and range with ammo (or after a planned Reload), a Reload, an Interact with
    the Worker's object in contact. Distances after slot 1's move: only the move's own target
    is measured anew (R-ACT-FACTS); anyone else keeps the distance measured before the move."""
    used = {a.family for a in result.actions if not a.fallback}
    mover = next((a for a in result.actions if a.slot == 1 and a.move and not a.fallback), None)
    after = {c.name: c.reach - (mover.move if mover and mover.target == c.name else 0.0) for c in seen}
    loaded = bot.has_ammo or any(a.action == "reload" for a in result.actions)
    legal = []
    if ("attack" not in used and bot.shoot_range is not None and loaded and min(after.values(), default=1) > 0
            and any(c.line_of_sight and after[c.name] <= bot.shoot_range for c in seen)):
        legal.append("shoot")
    if "interact" not in used and bot.shoot_range is not None and not loaded:
        legal.append("reload")
    at_object = directive.object_contact or directive.object_distance == 0
    if "interact" not in used and bot.role == "worker" and at_object and not any(c.reach <= 0 for c in seen):
        legal.append("interact")
    return legal


@settings(max_examples=examples(600), deadline=None)
@given(boards)
def test_R_ACT_SHOOT_ANY_R_ACT_RELOAD_no_empty_slot_nor_fallback_while_a_legal_action_is_unused(board):
    """Issue 8 "Also": over many generated activations, no slot stays empty and no fallback is
    taken while a legal action in an unused family exists, unless the card says why (a Reboot,
    a decision waiting for a fact); and every empty slot carries its reason (item 15)."""
    bot, seen, directive, result = decide(board)
    assert [e.slot for e in result.empty] == list(range(len(result.actions) + 1, 3))
    assert all(e.reason and e.rule.startswith("R-") for e in result.empty)
    if bot.rebooted or result.needs:
        assert result.actions == () and result.empty  # the card says why
        return
    idle = len(result.actions) < 2 or any(a.fallback for a in result.actions)
    assert not (idle and legal_unused(bot, seen, directive, result)), (result.actions, result.empty)
