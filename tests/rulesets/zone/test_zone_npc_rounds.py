"""NPC rounds as a Year Zero table plays them (issue 19: Z1, Z3, Z4, Z6, Z9, Z10). The quick
reference: "Take one action and one maneuver or two maneuvers", "Pick up an item from the
ground", "Reload a gun", "Move one range step"."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.kernel.commands import Refused
from tests.rulesets.zone.zone_kit import RIFLE, activate, card, game, run, seen


def prone(state, npc_id="n3", **flags):
    flags = flags or {"prone": True}
    return state.model_copy(update={"npcs": [n.model_copy(update=flags) if n.id == npc_id else n
                                             for n in state.npcs]})


@pytest.mark.parametrize("sheet, goal", [
    ({"role": "sentry", "subject": "Gate"}, {"subject_band": "arms_length"}),
    ({"role": "worker", "object": "Pump"}, {"object_band": "short"}),
    ({"role": "patrol", "waypoints": ["Tower", "Well"]}, {"waypoint_band": "short"}),
    ({"role": "hunter"}, {}),
])
def test_z_prone_getting_up_is_one_maneuver_and_the_action_is_still_there(sheet, goal):
    """Z-PRONE (Z1): "Take one action and one maneuver": up, then the attack, never "get up" twice."""
    state = prone(game(npcs=[{"name": "N", **sheet}]))
    state, _ = activate(state, "n3", seen(("c1", "arms_length", True)), **goal)
    assert card(state, "n3") == [("maneuver", "get_up", None), ("action", "fight", "Ada")]
    assert not state.bot("n3").prone


def test_z_prone_a_hunter_with_a_gun_gets_up_and_shoots_without_aiming():
    """Z-PRONE, Z-AIM (Z1): getting up takes the maneuver that would have aimed; the shot stays."""
    state = prone(game(npcs=[{"name": "Sharp", "role": "hunter", "shoot": 2, "gun": RIFLE}]))
    state, _ = activate(state, "n3", seen(("c1", "long", True)))
    assert card(state, "n3") == [("maneuver", "get_up", None), ("action", "shoot", "Ada")]


def test_z_patrol_route_it_goes_on_along_its_route_round_after_round():
    """Z-PATROL-ROUTE (Z3): standing on a waypoint, the next one becomes its goal, and stays so."""
    state = game(npcs=[{"name": "P", "role": "patrol", "waypoints": ["Tower", "Well", "Gate"]}])
    state, _ = activate(state, "n3", [], waypoint_band="arms_length", next_waypoint_band="near")
    assert card(state, "n3")[0] == ("maneuver", "move", "Well") and state.bot("n3").next_waypoint == 1
    state, _ = run(state, {"type": "end_round"})
    state, _ = activate(state, "n3", [], waypoint_band="near")  # the band to Well, as the form now asks
    assert card(state, "n3")[0] == ("maneuver", "move", "Well")
    state, _ = run(state, {"type": "end_round"})
    state, _ = activate(state, "n3", [], waypoint_band="arms_length", next_waypoint_band="short")
    assert card(state, "n3")[0] == ("maneuver", "move", "Gate") and state.bot("n3").next_waypoint == 2
    state, _ = run(state, {"type": "end_round"})
    state, _ = activate(state, "n3", [], waypoint_band="arms_length", next_waypoint_band="long")
    assert card(state, "n3")[0] == ("maneuver", "move", "Tower") and state.bot("n3").next_waypoint == 0


EMPTY = {**RIFLE, "bullets": 0}


@pytest.mark.parametrize("sheet, goal, expected", [
    ({"role": "sentry", "subject": "Gate"}, {"subject_band": "near"},
     [("maneuver", "reload", "Ada"), ("action", "shoot", "Ada")]),
    ({"role": "patrol", "waypoints": ["Tower"]}, {"waypoint_band": "long"},
     [("maneuver", "move", "Tower"), ("maneuver", "reload", "Ada")]),
    ({"role": "worker", "object": "Pump"}, {"object_band": "long"},
     [("maneuver", "move", "Pump"), ("maneuver", "reload", "Ada")]),
])
def test_z_reload_every_role_reloads_an_empty_gun(sheet, goal, expected):
    """Z-RELOAD (Z4): "Reload a gun" is a maneuver every NPC has, not only a Hunter."""
    state = game(npcs=[{"name": "N", "shoot": 2, "gun": EMPTY, **sheet}])
    state, _ = activate(state, "n3", seen(("c1", "short", True)), **goal)
    assert card(state, "n3") == expected and state.bot("n3").gun.bullets > 0


def test_z_reload_a_gun_added_with_its_bullets_left_blank_is_refused_naming_bullets():
    """Z-RELOAD (Z4): an empty gun would never fire without a word; the sheet must say its bullets."""
    gun = {k: v for k, v in RIFLE.items() if k != "bullets"}
    with pytest.raises(ValidationError) as refused:
        run(game(), {"type": "add_npc", "npc": {"name": "N", "shoot": 2, "gun": gun}})
    assert any(e["loc"][-1] == "bullets" for e in refused.value.errors())


@pytest.mark.parametrize("sheet, band, expected", [
    ({"fight": 3, "melee": {"name": "Club", "damage": 2}}, "arms_length",
     [("maneuver", "pick_up", None), ("action", "fight", "Ada")]),
    ({"shoot": 2, "gun": RIFLE}, "long", [("maneuver", "pick_up", None), ("action", "shoot", "Ada")]),
])
def test_z_pick_up_a_disarmed_npc_picks_its_weapon_up_and_uses_it(sheet, band, expected):
    """Z-PICK-UP (Z6): "Pick up an item from the ground" is one maneuver; the action is still there."""
    state = prone(game(npcs=[{"name": "N", "role": "hunter", **sheet}]), disarmed=True)
    state, _ = activate(state, "n3", seen(("c1", band, True)))
    assert card(state, "n3") == expected and not state.bot("n3").disarmed


def test_z_sentry_return_it_does_not_fight_a_character_it_walks_away_from():
    """Z-SENTRY-RETURN (Z9): heading back to its post, the Character at Arm's Length is left behind."""
    state = game(npcs=[{"name": "Warden", "role": "sentry", "subject": "Gate"}])
    state, _ = activate(state, "n3", seen(("c1", "arms_length", True)), subject_band="short")
    assert ("action", "fight", "Ada") not in card(state, "n3")
    assert card(state, "n3")[0] == ("maneuver", "move", "Gate")


def test_z_broken_target_npcs_turn_to_the_next_threat_unless_the_house_says_finish_them():
    """Z-BROKEN-TARGET (Z10): a Broken Character "lacks the will or ability to keep going"; by
    default an NPC turns to the next threat; the house rule `broken_targets` may say otherwise."""
    state = game(npcs=[{"name": "G", "role": "hunter", "fight": 3}])
    ada = state.character("c1").model_copy(update={"damage": 3})
    state = state.model_copy(update={"characters": [ada, state.character("c2")]})
    done, _ = activate(state, "n3", seen(("c1", "arms_length", True), ("c2", "near", True)))
    assert card(done, "n3") == [("maneuver", "move", "Bo"), ("action", "fight", "Bo")]
    house = state.house.model_copy(update={"broken_targets": "attack"})
    done, _ = activate(state.model_copy(update={"house": house}), "n3",
                       seen(("c1", "arms_length", True), ("c2", "near", True)))
    assert card(done, "n3") == [("action", "fight", "Ada")]


def test_z_bands_kept_same_as_last_round_is_one_tap_with_its_own_moves_applied():
    """Z-BANDS-KEPT: "Move one range step": the band it moved along changes by one step; the rest
    is kept as reported, and only used when the player says so (never assumed)."""
    state = game(npcs=[{"name": "G", "role": "hunter"}])
    with pytest.raises(Refused):
        run(state, {"type": "activate_npc", "npc_id": "n3", "same_as_last": True})
    state, _ = activate(state, "n3", seen(("c1", "short", True), ("c2", "long", True)))
    assert card(state, "n3") == [("maneuver", "move", "Ada"), ("maneuver", "move", "Ada")]
    assert [f.band for f in state.bot("n3").last_facts.seen] == ["arms_length", "long"]
    state, _ = run(state, {"type": "end_round"})
    state, _ = run(state, {"type": "activate_npc", "npc_id": "n3", "same_as_last": True})
    assert card(state, "n3") == [("action", "fight", "Ada")]


def test_z_bands_kept_a_patrol_keeps_the_band_to_the_waypoint_it_now_heads_for():
    state = game(npcs=[{"name": "P", "role": "patrol", "waypoints": ["Tower", "Well"]}])
    state, _ = activate(state, "n3", [], waypoint_band="arms_length", next_waypoint_band="long")
    kept = state.bot("n3").last_facts
    assert (kept.waypoint_band, kept.next_waypoint_band) == ("near", None)  # two moves toward Well
