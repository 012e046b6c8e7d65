"""The zone NPC brain (Z-ROUND, Z-ROLE-*): the four roles deciding as in 2038, in range bands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.kernel.commands import Refused
from app.rulesets.zone.models import BANDS
from tests.rulesets.zone.zone_kit import RIFLE, SPEAR, activate, card, game, seen


def test_z_role_hunter_takes_the_closest_character_inside_its_zone_even_out_of_sight():
    """Z-ROLE-HUNTER: the closest inside its zone (Near), line of sight not needed."""
    state = game(npcs=[{"name": "Gnasher", "role": "hunter", "fight": 4}])
    state, _ = activate(state, "n3", seen(("c1", "near", False), ("c2", "short", True)))
    assert card(state, "n3") == [("maneuver", "move", "Ada"), ("action", "fight", "Ada")]


def test_z_role_hunter_else_the_closest_in_line_of_sight():
    state = game(npcs=[{"name": "Sharp", "role": "hunter", "shoot": 3, "gun": RIFLE}])
    state, _ = activate(state, "n3", seen(("c1", "distant", False), ("c2", "long", True)))
    assert card(state, "n3") == [("maneuver", "aim", "Bo"), ("action", "shoot", "Bo")]


def test_z_hunter_random_with_nobody_in_zone_or_sight_moves_in_the_given_direction():
    state = game(npcs=[{"name": "Gnasher", "role": "hunter"}])
    state, entries = activate(state, "n3", seen(("c1", "long", False)), direction=5)
    assert card(state, "n3") == [("maneuver", "move", "direction 5"), ("maneuver", "seek_cover", None)]
    assert all(e.rule == "Z-HUNTER-RANDOM" for e in entries)


def test_z_close_a_scrap_spear_fights_from_near_fists_must_close_to_arms_length():
    """Z-CLOSE: Fight at Arm's Length; some weapons (a scrap spear) reach Near."""
    state = game(npcs=[{"name": "Spear", "role": "hunter", "melee": SPEAR}, {"name": "Fist", "role": "hunter"}])
    state, _ = activate(state, "n3", seen(("c1", "near", True)))
    state, _ = activate(state, "n4", seen(("c1", "near", True)))
    assert card(state, "n3") == [("action", "fight", "Ada")]
    assert card(state, "n4") == [("maneuver", "move", "Ada"), ("action", "fight", "Ada")]


def test_z_shoot_needs_range_and_sight_else_the_hunter_closes_in():
    """Z-SHOOT: within the weapon's range; Z-MOVE: a move is one band step, two maneuvers at most."""
    pistol = {**RIFLE, "reach": "short"}
    state = game(npcs=[{"name": "Pistol", "role": "hunter", "shoot": 2, "gun": pistol}])
    state, _ = activate(state, "n3", seen(("c1", "distant", True)))
    assert card(state, "n3") == [("maneuver", "move", "Ada"), ("maneuver", "move", "Ada")]
    assert [a.band_after for a in state.decision("n3").actions] == ["long", "short"]


def test_z_sentry_return_further_than_near_from_its_subject_it_heads_back():
    state = game(npcs=[{"name": "Warden", "role": "sentry", "subject": "Gate"}])
    state, _ = activate(state, "n3", seen(("c1", "long", True)), subject_band="short")
    assert card(state, "n3")[0] == ("maneuver", "move", "Gate")
    assert state.decision("n3").actions[0].rule == "Z-SENTRY-RETURN"


def test_z_sentry_intruder_charges_only_if_it_stays_within_near_of_its_subject():
    state = game(npcs=[{"name": "A", "role": "sentry", "subject": "Gate"},
                       {"name": "B", "role": "sentry", "subject": "Gate", "shoot": 2, "gun": RIFLE}])
    state, _ = activate(state, "n3", seen(("c1", "near", True)), subject_band="arms_length")
    state, _ = activate(state, "n4", seen(("c1", "near", True)), subject_band="near")
    assert card(state, "n3") == [("maneuver", "move", "Ada"), ("action", "fight", "Ada")]
    assert card(state, "n4") == [("maneuver", "aim", "Ada"), ("action", "shoot", "Ada")]  # from its post


def test_z_sentry_hold_nobody_near_it_holds_its_post():
    state = game(npcs=[{"name": "A", "role": "sentry", "subject": "Gate"}])
    state, entries = activate(state, "n3", seen(("c1", "long", True)), subject_band="near")
    assert card(state, "n3") == [] and "holds its post" in entries[0].text


def test_z_role_worker_works_its_object_and_z_worker_arrive_after_one_move():
    state = game(npcs=[{"name": "W1", "role": "worker", "object": "Pump"}, {"name": "W2", "role": "worker", "object": "Pump"}])
    state, _ = activate(state, "n3", seen(("c1", "long", True)), object_band="arms_length")
    state, _ = activate(state, "n4", seen(("c1", "long", True)), object_band="near")
    assert card(state, "n3") == [("maneuver", "use_item", "Pump")]
    assert card(state, "n4") == [("maneuver", "move", "Pump"), ("maneuver", "use_item", "Pump")]


def test_z_reload_an_empty_gun_in_range_is_reloaded_then_fired():
    state = game(npcs=[{"name": "Sharp", "role": "hunter", "shoot": 2, "gun": {**RIFLE, "bullets": 0}}])
    state, _ = activate(state, "n3", seen(("c1", "long", True)))
    assert card(state, "n3") == [("maneuver", "reload", "Ada"), ("action", "shoot", "Ada")]
    assert state.bot("n3").gun.bullets > 0


def test_z_contact_a_worker_with_a_character_at_arms_length_fights_it():
    state = game(npcs=[{"name": "W", "role": "worker", "object": "Pump"}])
    state, _ = activate(state, "n3", seen(("c2", "arms_length", True)), object_band="short")
    assert card(state, "n3") == [("action", "fight", "Bo")]


def test_z_role_patrol_on_its_waypoint_needs_the_band_to_the_next_one():
    """Z-ROLE-PATROL, Z-FACTS: nothing is decided on a guess."""
    state = game(npcs=[{"name": "P", "role": "patrol", "waypoints": ["Tower", "Well"]}])
    with pytest.raises(Refused) as refused:
        activate(state, "n3", [], waypoint_band="arms_length")
    assert "Well" in refused.value.reason
    state, _ = activate(state, "n3", [], waypoint_band="arms_length", next_waypoint_band="short")
    assert card(state, "n3") == [("maneuver", "move", "Well"), ("maneuver", "move", "Well")]


def test_z_slot2_after_moving_toward_its_waypoint_a_patrol_shoots_a_character_in_range():
    state = game(npcs=[{"name": "P", "role": "patrol", "waypoints": ["Tower"], "shoot": 2, "gun": RIFLE}])
    state, _ = activate(state, "n3", seen(("c1", "short", True)), waypoint_band="long")
    assert card(state, "n3") == [("maneuver", "move", "Tower"), ("action", "shoot", "Ada")]


def test_z_round_an_npc_acts_once_per_round():
    state = game(npcs=[{"name": "G", "role": "hunter"}])
    state, _ = activate(state, "n3", seen(("c1", "near", True)))
    with pytest.raises(Refused):
        activate(state, "n3", seen(("c1", "near", True)))


def test_z_broken_an_npc_at_zero_takes_no_action():
    """Z-BROKEN, Z-OUT: "When an attribute score hits zero, you are broken. You've had enough and
    lack the will or ability to keep going": its round is refused, naming the rule."""
    state = game(npcs=[{"name": "G", "role": "hunter", "attributes": {"strength": 1}}])
    from tests.rulesets.zone.zone_kit import run

    state, _ = run(state, {"type": "character_attack", "character_id": "c1", "npc_id": "n3", "pool": 6,
                           "faces": [6, 2, 2, 2, 2, 2], "weapon_damage": 1})
    assert state.bot("n3").broken
    with pytest.raises(Refused) as refused:
        activate(state, "n3", seen(("c1", "arms_length", True)))
    assert refused.value.rule == "Z-OUT" and state.decision("n3") is None


ROLES = ["hunter", "sentry", "worker", "patrol"]


@settings(max_examples=150, deadline=None)
@given(role=st.sampled_from(ROLES), bands=st.lists(st.sampled_from(BANDS), min_size=0, max_size=2),
       sight=st.lists(st.booleans(), min_size=2, max_size=2), goal=st.sampled_from(BANDS),
       nxt=st.sampled_from(BANDS), gun=st.booleans(), prone=st.booleans())
def test_z_round_every_decision_is_one_action_and_one_maneuver_or_two_maneuvers(role, bands, sight, goal, nxt,
                                                                                 gun, prone):
    """Z-ROUND, whatever the facts: at most two slots, at most one of them an action, each line
    with a reason and a Z- rule id; moves step one band at a time (Z-MOVE)."""
    sheet = {"name": "N", "role": role, "subject": "S", "object": "O", "waypoints": ["A", "B"], "shoot": 2,
             **({"gun": RIFLE} if gun else {})}
    state = game(npcs=[sheet])
    if prone:
        state = state.model_copy(update={"npcs": [state.npcs[0].model_copy(update={"prone": True})]})
    facts = seen(*[(f"c{i + 1}", b, sight[i]) for i, b in enumerate(bands)])
    state, _ = activate(state, "n3", facts, subject_band=goal, object_band=goal, waypoint_band=goal,
                        next_waypoint_band=nxt)
    actions = state.decision("n3").actions
    assert len(actions) <= 2 and sum(a.kind == "action" for a in actions) <= 1
    assert all(a.reason and a.rule.startswith("Z-") for a in actions)
    if prone and actions:
        assert actions[0].name == "get_up"  # Z-PRONE
