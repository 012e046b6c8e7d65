"""The books of a zone round (the Year Zero-style reference): every model's turn kept in the
state, models out of the fight doing nothing, the turn order, patrols on a Route or a Circuit."""

from __future__ import annotations

from random import Random

import pytest

from app.kernel import turn_order
from app.kernel.commands import Refused
from tests.rulesets.zone.zone_kit import RIFLE, activate, game, run, seen

BRUTE = {"name": "Brute", "role": "hunter", "attributes": {"strength": 8}}


def attack(state, character="c1", npc="n3", **fields):
    return run(state, {"type": "character_attack", "character_id": character, "npc_id": npc, "pool": 4,
                       "weapon_damage": 1, **fields})


# --- Z-TURN: "Take one action and one maneuver, or two maneuvers" -----------------------------


def test_z_turn_a_character_has_one_action_a_round_and_a_second_attack_is_refused_naming_the_rule():
    """Z-TURN: "TAKE ONE ACTION AND ONE MANEUVER OR TWO MANEUVERS": a second attack (a second
    "Roll for a skill") in the same round is refused with the rule's reason."""
    state = game(npcs=[BRUTE])
    state, _ = attack(state, faces=[2, 2, 2, 2])
    assert state.character("c1").spent == ["action"] and state.character("c1").slots_left() == ["maneuver"]
    with pytest.raises(Refused) as refused:
        attack(state, faces=[6, 2, 2, 2])
    assert refused.value.rule == "Z-ROUND" and "one action and one maneuver" in refused.value.reason
    state, _ = run(state, {"type": "character_maneuver", "character_id": "c1", "maneuver": "seek_cover"})
    assert state.character("c1").slots_left() == []
    with pytest.raises(Refused):
        run(state, {"type": "character_maneuver", "character_id": "c1", "maneuver": "move"})


def test_z_turn_two_maneuvers_leave_no_action():
    """Z-TURN: "… OR TWO MANEUVERS": after two maneuvers there is no action left this round, and
    the next round gives the whole turn back."""
    state = game(npcs=[BRUTE])
    for m in ("move", "aim"):
        state, _ = run(state, {"type": "character_maneuver", "character_id": "c1", "maneuver": m})
    with pytest.raises(Refused):
        attack(state, faces=[6, 2, 2, 2])
    state, _ = run(state, {"type": "end_round"})
    state, _ = attack(state, faces=[6, 2, 2, 2])
    assert state.bot("n3").damage == 1


def test_z_turn_an_npcs_card_spends_its_slots_and_never_more():
    """Z-TURN: an NPC's decision card spends one action and one maneuver, or two maneuvers."""
    state = game(npcs=[{"name": "G", "role": "hunter"}])
    state, _ = activate(state, "n3", seen(("c1", "short", True)))
    assert sorted(state.bot("n3").spent) in (["action", "maneuver"], ["maneuver", "maneuver"])
    with pytest.raises(Refused):
        activate(state, "n3", seen(("c1", "near", True)))


# --- Z-OUT: "When an attribute score hits zero, you are broken" --------------------------------


def test_z_out_an_npc_broken_between_its_decision_and_its_roll_does_not_hit():
    """Z-OUT: "When an attribute score hits zero, you are broken. You've had enough and lack the
    will or ability to keep going": its pending attack is cancelled with a log line, its roll
    refused."""
    state = game(npcs=[{"name": "G", "role": "hunter", "attributes": {"strength": 1}}])
    state, _ = activate(state, "n3", seen(("c1", "arms_length", True)))
    state, entries = run(state, {"type": "character_attack", "character_id": "c2", "npc_id": "n3", "pool": 2,
                                 "faces": [6, 2]})
    assert state.bot("n3").broken
    assert any(e.rule == "Z-OUT" and "cancelled" in e.text for e in entries)
    assert [a.status for a in state.decision("n3").actions if a.name == "fight"] == ["cancelled"]
    with pytest.raises(Refused):
        run(state, {"type": "npc_attack", "npc_id": "n3", "faces": [6, 6, 6]})


def test_z_out_a_broken_character_neither_attacks_nor_pushes_nor_maneuvers():
    """Z-OUT: "You've had enough and lack the will or ability to keep going"."""
    state = game(npcs=[BRUTE])
    state = state.model_copy(update={"characters": [state.character("c1").model_copy(update={"damage": 3}),
                                                    state.character("c2")]})
    for body in ({"type": "character_attack", "character_id": "c1", "npc_id": "n3", "pool": 2, "faces": [6, 2]},
                 {"type": "character_maneuver", "character_id": "c1", "maneuver": "move"}):
        with pytest.raises(Refused) as refused:
            run(state, body)
        assert refused.value.rule == "Z-OUT"


def test_z_out_a_character_broken_by_its_own_push_keeps_no_roll_to_push():
    """Z-OUT, Z-PUSH-COST: a push whose base 1s break the roller: no further push."""
    state = game(npcs=[BRUTE])
    weak = state.character("c1").model_copy(update={"damage": 2})  # Strength 1 left
    state = state.model_copy(update={"characters": [weak, state.character("c2")]})
    state, _ = attack(state, pool={"base": 1, "skill": 1}, faces=[3, 2])
    state, _ = run(state, {"type": "push_roll", "character_id": "c1", "faces": [1, 2]})
    assert state.character("c1").broken and state.character("c1").last_roll is None


def test_z_out_an_attack_at_a_broken_npc_or_a_broken_character_is_refused():
    """Z-OUT: nobody attacks a model out of the fight (house default: NPCs turn to the next threat)."""
    state = game(npcs=[{"name": "G", "role": "hunter", "attributes": {"strength": 1}}, BRUTE])
    state, _ = attack(state, faces=[6, 2, 2, 2])
    with pytest.raises(Refused) as refused:
        attack(state, character="c2", faces=[6, 2, 2, 2])
    assert refused.value.rule == "Z-OUT"
    state, _ = activate(state, "n4", seen(("c1", "arms_length", True), ("c2", "short", True)))
    ada = state.character("c1").model_copy(update={"damage": 3})
    state = state.model_copy(update={"characters": [ada, state.character("c2")]})
    with pytest.raises(Refused):
        run(state, {"type": "npc_attack", "npc_id": "n4", "character_id": "c1", "faces": [6, 6, 6]})


# --- Z-PATROL-ROUTE: "follow assigned waypoints as a Route or Circuit" (2038's patrol_mode) -----


@pytest.mark.parametrize("mode, visits", [
    ("route", ["A", "B", "C", "B", "A", "B"]),
    ("circuit", ["A", "B", "C", "A", "B", "C"]),
])
def test_z_patrol_route_a_route_goes_there_and_back_a_circuit_loops(mode, visits):
    """Z-PATROL-ROUTE: `patrol_mode` "route" goes A B C B A, "circuit" A B C A, as 2038's do."""
    state = game(npcs=[{"name": "P", "role": "patrol", "waypoints": ["A", "B", "C"], "patrol_mode": mode}])
    heading = []
    for _ in visits:
        p = state.bot("n3")
        heading.append(p.waypoints[p.next_waypoint])
        state, _ = activate(state, "n3", [], waypoint_band="arms_length", next_waypoint_band="near")
        state, _ = run(state, {"type": "end_round"})
    assert heading == visits


# --- Z-INITIATIVE: initiative cards 1-10, lowest first -----------------------------------------


def test_z_initiative_the_player_enters_the_characters_cards_the_app_draws_the_npcs():
    """Z-INITIATIVE: cards 1 to 10, each drawn once; lowest first; one tap to the next."""
    state = game(npcs=[BRUTE, {"name": "G", "role": "hunter"}])
    state, entries = run(state, {"type": "start_fight", "draws": [{"member_id": "c1", "card": 7},
                                                                  {"member_id": "c2", "card": 2}]})
    order = state.turn_order
    cards = [p.value for p in order.places]
    assert cards == sorted(cards) and len(set(cards)) == 4 and all(1 <= c <= 10 for c in cards)
    assert order.value_of("c1") == 7 and order.value_of("c2") == 2
    assert order.acting == order.places[0].member_id
    with pytest.raises(Refused):  # a card drawn twice
        run(state, {"type": "start_fight", "draws": [{"member_id": "c1", "card": 3},
                                                     {"member_id": "c2", "card": 3}]})


def test_z_initiative_set_initiative_takes_the_cards_in_the_d20_trackers_words():
    """Z-INITIATIVE: `set_initiative` {"rolls": [{"member_id", "value"}]} deals the same cards."""
    state = game(npcs=[BRUTE])
    state, _ = run(state, {"type": "set_initiative", "rolls": [{"member_id": "c2", "value": 1}]})
    assert state.turn_order.acting == "c2" and state.turn_order.value_of("c2") == 1
    state, _ = run(state, {"type": "next_turn"})
    assert state.turn_order.acting != "c2"


def test_z_initiative_only_the_model_whose_turn_it_is_acts():
    state = game(npcs=[BRUTE])
    state, _ = run(state, {"type": "start_fight", "draws": [{"member_id": "c1", "card": 1},
                                                            {"member_id": "c2", "card": 2}]})
    with pytest.raises(Refused) as refused:
        attack(state, character="c2", faces=[6, 2, 2, 2])
    assert refused.value.rule == "Z-INITIATIVE"
    state, _ = attack(state, faces=[6, 2, 2, 2])
    state, _ = run(state, {"type": "next_turn"})
    assert state.turn_order.acting == "c2"


def test_z_initiative_a_round_ends_after_everyone_and_no_turn_is_lost_to_a_broken_model():
    """Z-INITIATIVE, Z-OUT: a model broken mid-round loses its turn (it is out), nobody else
    does; after the last turn the round ends and the order starts again."""
    state = game(npcs=[{"name": "G", "role": "hunter", "attributes": {"strength": 1}}, BRUTE])
    state, _ = run(state, {"type": "start_fight", "draws": [{"member_id": "c1", "card": 1},
                                                            {"member_id": "c2", "card": 5}]})
    acted = []
    for _ in range(8):
        acted.append((state.round, state.turn_order.acting))
        if state.turn_order.acting == "c1" and not state.bot("n3").broken:
            state, _ = attack(state, faces=[6, 2, 2, 2])  # breaks G
        state, _ = run(state, {"type": "next_turn"})
    round1 = [m for r, m in acted if r == 1]
    round2 = [m for r, m in acted if r == 2]
    assert round1[0] == "c1" and sorted(round1) == sorted(set(round1))
    assert "n3" not in round2 and sorted(round2) == ["c1", "c2", "n4"]


def test_z_initiative_a_model_added_mid_fight_draws_a_card_and_gets_its_turn():
    state = game(npcs=[BRUTE])
    state, _ = run(state, {"type": "start_fight"})
    state, entries = run(state, {"type": "add_npc", "npc": {"name": "Late", "role": "hunter"}})
    assert state.turn_order.value_of("n4") is not None and any(e.rule == "Z-INITIATIVE" for e in entries)
    seen_turns = set()
    for _ in range(4):
        seen_turns.add(state.turn_order.acting)
        state, _ = run(state, {"type": "next_turn"})
    assert {"c1", "c2", "n3", "n4"} <= seen_turns


def test_z_initiative_end_round_with_turns_still_to_come_is_refused():
    state = game(npcs=[BRUTE])
    state, _ = run(state, {"type": "start_fight"})
    with pytest.raises(Refused) as refused:
        run(state, {"type": "end_round"})
    assert refused.value.rule == "Z-INITIATIVE"


def test_the_kernel_turn_order_never_loses_or_repeats_a_turn():
    """The kernel piece alone: a member leaving while acting, another joining mid-round."""
    order = turn_order.started_round(turn_order.settled([("a", 3), ("b", 1), ("c", 2)]), {"a", "b", "c"})
    assert order.acting == "b"
    order, _ = turn_order.advanced(order, {"a", "b", "c"})
    assert order.acting == "c"
    order = turn_order.left(order, "c")
    order = turn_order.joined(order, "d", 1)
    order, over = turn_order.advanced(order, {"a", "b", "d"})
    assert (order.acting, over) == ("d", False)
    order, over = turn_order.advanced(order, {"a", "b", "d"})
    assert (order.acting, over) == ("a", False)
    order, over = turn_order.advanced(order, {"a", "b", "d"})
    assert over and turn_order.draw(range(1, 3), [1], Random(0)) == 2


def test_z_reload_a_characters_gun_counts_its_bullets_and_refuses_an_empty_one():
    """Z-RELOAD, Z-SHOOT: "Reload a gun" (a maneuver) fills the gun to its sheet's bullets."""
    state = game(characters=(), npcs=[BRUTE])
    sheet = {"name": "Ada", "shoot": 2, "weapons": [{**RIFLE, "bullets": 1}]}
    state, _ = run(state, {"type": "add_character", "character": sheet})
    cid, nid = state.characters[0].id, state.npcs[0].id
    state, _ = run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0,
                           "faces": [2, 2]})
    assert state.character(cid).weapons[0].bullets == 0
    state, _ = run(state, {"type": "end_round"})
    with pytest.raises(Refused):
        run(state, {"type": "character_attack", "character_id": cid, "npc_id": nid, "weapon": 0, "faces": [2, 2]})
    state, _ = run(state, {"type": "character_maneuver", "character_id": cid, "maneuver": "reload"})
    assert state.character(cid).weapons[0].bullets == 1
