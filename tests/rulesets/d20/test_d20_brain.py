"""d20 ruleset: the NPC brain — the four 2038 roles deciding the same way in Action, Move,
Minor and one Reaction (D20-ROLE-*, D20-ACTION-PRIORITY, D20-DASH-FALLBACK, D20-FACTS, ...)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.rulesets.d20.brain import decide
from app.rulesets.d20.brain_types import Facts, Npc, Orders
from app.rulesets.d20.models import Combatant, Weapon
from app.rulesets.d20.reactions import Trigger, react

MACHETE = Weapon("Machete", "melee", "1d8")
CARBINE = Weapon("Carbine", "ranged", "1d10", short=8, long=20)
STATS = Combatant("Raider", attributes={"vigor": 2, "agility": 1}, skills={"blade_waltz": 2, "arrow_time": 1},
                  speed=6, weapons=(MACHETE, CARBINE))
BRUTE = replace(STATS, weapons=(MACHETE,))


def npc(role="hunter", stats=STATS, **kw) -> Npc:
    return Npc(stats, role, **kw)


def kinds(decision):
    return [(s.slot, s.action, s.target) for s in decision.steps if s.slot != "reaction"]


def test_D20_ROLE_HUNTER_closest_in_its_zone_first_even_without_line_of_sight():
    chars = [Facts("Ada", 3, line_of_sight=False), Facts("Bo", 2 + 8, line_of_sight=True)]
    d = decide(npc(stats=BRUTE), chars, Orders())
    assert kinds(d)[0] == ("move", "move", "Ada") and d.steps[0].rule == "D20-ROLE-HUNTER"
    assert kinds(d)[1] == ("action", "attack", "Ada")  # 2 squares brings it next to Ada


def test_D20_ROLE_HUNTER_otherwise_the_closest_visible_character():
    chars = [Facts("Ada", 15, line_of_sight=False), Facts("Bo", 12, line_of_sight=True)]
    d = decide(npc(stats=BRUTE), chars)
    assert kinds(d)[0] == ("move", "move", "Bo") and d.steps[0].squares == 6


def test_D20_ROLE_TIES_equal_squares_are_the_players_choice():
    d = decide(npc(), [Facts("Ada", 2, True), Facts("Bo", 2, True)])
    assert d.ties == ("Ada", "Bo")


def test_D20_HUNTER_RANDOM_nobody_in_zone_or_sight_moves_randomly_then_dashes_on():
    d = decide(npc(), [Facts("Ada", 30)], Orders(direction=5))
    assert [(s.action, s.direction, s.squares) for s in d.steps[:2]] == [("random_move", 5, 6), ("dash", 5, 6)]
    rolled = decide(npc(), [], Orders(), random.Random(3))
    assert 1 <= rolled.steps[0].direction <= 8


def test_D20_CONTACT_MELEE_next_to_a_character_it_stays_and_fights():
    d = decide(npc("patrol"), [Facts("Ada", 1, True)], Orders(waypoint="B", waypoint_distance=9))
    assert kinds(d) == [("action", "attack", "Ada")] and d.steps[0].rule == "D20-CONTACT-MELEE"
    move = next(u for u in d.unused if u.slot == "move")
    assert move.rule == "D20-AOO" and "Attack of Opportunity" in move.reason


def test_D20_ACTION_PRIORITY_a_move_that_reaches_is_followed_by_a_melee_attack_with_odds():
    d = decide(npc(), [Facts("Ada", 4, True, defense=14)])
    attack = d.step("action")
    assert attack.action == "attack" and attack.weapon == "Machete" and attack.rule == "D20-ACTION-PRIORITY"
    assert attack.odds["bonus"] == 2 + 2 + 2 and attack.odds["hit_on"] == 14 - 6
    assert attack.odds["p_hit"] == pytest.approx(13 / 20)


def test_D20_ATTACK_RANGED_after_closing_in_it_shoots_with_the_exact_odds():
    d = decide(npc(), [Facts("Ada", 12, True, cover="heavy", defense=13)])
    shot = d.step("action")
    assert (shot.action, shot.weapon, shot.odds["range"]) == ("attack", "Carbine", "short")
    assert shot.odds["p_crit"] == 0 and shot.odds["defense"] == 13  # D20-COVER heavy: +4, no crit
    assert shot.odds["hit_on"] == 17 - 4 and shot.odds["p_hit"] == pytest.approx(8 / 20)
    far = decide(npc(), [Facts("Ada", 24, True, defense=13)]).step("action")
    assert far.odds["range"] == "long" and "-2" in far.reason


def test_D20_DASH_FALLBACK_no_attack_possible_it_dashes_on():
    d = decide(npc(stats=BRUTE), [Facts("Ada", 14, True)])
    assert [(s.action, s.squares) for s in d.steps[:2]] == [("move", 6), ("dash", 6)]
    assert d.steps[1].rule == "D20-DASH-FALLBACK"


def test_D20_FACTS_a_shot_at_someone_else_after_a_move_is_conditional():
    orders = Orders(subject="Vault", subject_distance=10)
    d = decide(npc("sentry"), [Facts("Ada", 5, True)], orders)
    assert kinds(d)[0] == ("move", "move", "Vault") and d.steps[0].rule == "D20-SENTRY-RETURN"
    shot = d.step("action")
    assert shot.conditional and shot.rule == "D20-FACTS" and "confirm" in shot.condition


def test_D20_SENTRY_RETURN_far_from_its_subject_it_moves_and_dashes_back():
    d = decide(npc("sentry", stats=BRUTE), [], Orders(subject="Vault", subject_distance=20))
    assert [(s.action, s.target, s.squares) for s in d.steps[:2]] == [("move", "Vault", 6), ("dash", "Vault", 6)]


def test_D20_SENTRY_INTRUDER_charges_only_when_it_stays_within_one_move():
    near = decide(npc("sentry"), [Facts("Ada", 3, True)], Orders(subject="Vault", subject_distance=2))
    assert kinds(near)[:2] == [("move", "move", "Ada"), ("action", "attack", "Ada")]
    far = decide(npc("sentry"), [Facts("Ada", 3, True)], Orders(subject="Vault", subject_distance=5))
    assert kinds(far) == [("action", "attack", "Ada")] and far.step("action").weapon == "Carbine"
    assert far.step("action").rule == "D20-SENTRY-INTRUDER"
    exempt = decide(npc("sentry"), [Facts("Ada", 3, True)], Orders(subject="Vault", subject_distance=5, exempt=True))
    assert kinds(exempt)[0] == ("move", "move", "Ada")


def test_D20_SENTRY_HOLD_nothing_to_attack_it_holds_its_post_on_overwatch():
    d = decide(npc("sentry"), [Facts("Ada", 30, False)], Orders(subject="Vault", subject_distance=1))
    assert kinds(d) == [("action", "overwatch", "Vault")] and d.steps[0].rule == "D20-SENTRY-HOLD"
    unarmed = decide(npc("sentry", stats=BRUTE), [], Orders(subject="Vault", subject_distance=1))
    assert kinds(unarmed) == [] and {u.rule for u in unarmed.unused} >= {"D20-SENTRY-HOLD"}


def test_D20_ROLE_WORKER_moves_to_its_object_and_works_it():
    d = decide(npc("worker"), [], Orders(object="Console", object_distance=4))
    assert kinds(d) == [("move", "move", "Console"), ("action", "interact", "Console")]
    at = decide(npc("worker"), [Facts("Ada", 5, True)], Orders(object="Console", object_distance=0, object_minor=True))
    assert kinds(at) == [("minor", "interact", "Console"), ("action", "attack", "Ada")]


def test_D20_ROLE_WORKER_a_device_reached_by_a_dash_is_toggled_with_the_minor():
    d = decide(npc("worker", stats=BRUTE), [], Orders(object="Door", object_distance=10, object_minor=True))
    assert kinds(d) == [("move", "move", "Door"), ("action", "dash", "Door"), ("minor", "interact", "Door")]


def test_D20_ROLE_PATROL_toward_its_waypoint_reached_and_asks_for_the_next():
    d = decide(npc("patrol", stats=BRUTE), [], Orders(waypoint="B", waypoint_distance=9))
    assert [(s.action, s.squares) for s in d.steps[:2]] == [("move", 6), ("dash", 3)] and d.reached == ("B",)
    on = decide(npc("patrol"), [], Orders(waypoint="B", waypoint_distance=0, next_waypoint="C"))
    assert on.needs == ("next_waypoint_distance",) and kinds(on) == [] and on.reached == ("B",)
    onward = decide(npc("patrol"), [], Orders(waypoint="B", waypoint_distance=0, next_waypoint="C",
                                             next_waypoint_distance=4))
    assert kinds(onward)[0] == ("move", "move", "C")


def test_D20_FACTS_no_distance_no_move():
    d = decide(npc("worker"), [], Orders(object="Console"))
    assert not kinds(d) and next(u for u in d.unused if u.slot == "move").rule == "D20-FACTS"


def test_D20_COND_PRONE_the_npc_stands_with_its_minor_first():
    d = decide(npc(stats=STATS.with_conditions("prone")), [Facts("Ada", 3, True)])
    assert kinds(d)[0] == ("minor", "stand", None) and kinds(d)[1][0] == "move"
    stuck = decide(npc(stats=STATS.with_conditions("prone", "glitched")), [Facts("Ada", 3, True)])
    assert all(s.slot != "move" for s in stuck.steps)


def test_D20_COND_STUNNED_no_action_but_it_still_moves():
    d = decide(npc(stats=STATS.with_conditions("stunned")), [Facts("Ada", 5, True)])
    assert kinds(d) == [("move", "move", "Ada")]
    assert next(u for u in d.unused if u.slot == "action").rule == "D20-COND-STUNNED"


def test_D20_MINOR_DRAW_a_weapon_not_in_hand_is_drawn_with_the_minor():
    d = decide(npc(wielding="Carbine"), [Facts("Ada", 4, True)])
    assert kinds(d)[1:] == [("minor", "draw", None), ("action", "attack", "Ada")]
    assert d.step("action").weapon == "Machete"


def test_D20_DYING_a_dying_npc_has_no_turn():
    d = decide(npc(stats=replace(STATS, hp=0, dying=1)), [Facts("Ada", 1, True)])
    assert d.steps == () and all(u.rule == "D20-DYING" for u in d.unused)


def test_D20_AOO_leaving_a_threatened_square_without_disengaging_provokes():
    step = react(npc(), Trigger("leaves", "Ada"))
    assert step.action == "attack_of_opportunity" and step.rule == "D20-AOO"
    assert react(npc(), Trigger("leaves", "Ada", disengaged=True)) is None
    assert react(npc(), Trigger("leaves", "Ada", ability=True)) is None


def test_D20_PARRY_D20_INTERCEPT_need_the_feature_and_a_free_reaction():
    guard = npc(features=("parry", "intercept"))
    assert react(guard, Trigger("melee_attacked", "Ada")).rule == "D20-PARRY"
    assert react(guard, Trigger("ally_attacked", "Ada")).rule == "D20-INTERCEPT"
    assert react(npc(), Trigger("melee_attacked", "Ada")) is None


def test_D20_REACTION_one_per_round():
    spent = npc(stats=replace(STATS, reaction_used=True))
    assert react(spent, Trigger("leaves", "Ada")) is None
    assert decide(spent, []).step("reaction") is None
    assert decide(npc(), [Facts("Ada", 3, True)]).step("reaction").rule == "D20-AOO"


def test_D20_ZONE_is_counted_in_squares():
    outside = decide(npc(zone=2), [Facts("Ada", 3, False), Facts("Bo", 10, True)])
    assert kinds(outside)[0][2] == "Bo"


def test_D20_ACTIONS_every_step_the_brain_decides_is_an_action_or_minor_of_the_reference():
    from app.rulesets.d20.models import ACTIONS, MINORS

    decided = {"attack": "attack", "dash": "dash", "overwatch": "overwatch", "interact": "interact"}
    minors = {"stand": "stand", "draw": "draw_sling_weapon", "interact": "toggle_device"}
    cases = [decide(npc(), [Facts("Ada", 4, True)]), decide(npc(), [Facts("Ada", 40)], Orders(direction=1)),
             decide(npc("sentry"), [], Orders(subject="Vault", subject_distance=0)),
             decide(npc("worker", wielding="Carbine"), [Facts("Ada", 2, True)],
                    Orders(object="Door", object_distance=0, object_minor=True)),
             decide(npc(stats=STATS.with_conditions("prone")), [])]
    for d in cases:
        for s in d.steps:
            if s.slot == "action":
                assert decided[s.action] in ACTIONS
            elif s.slot == "minor":
                assert minors[s.action] in MINORS


def test_D20_ROLE_SENTRY_stays_within_one_move_of_its_subject():
    """A Sentry at its post never moves farther than one Move (Speed) from its subject."""
    for away in range(0, 7):
        for distance in range(1, 9):
            d = decide(npc("sentry"), [Facts("Ada", distance, True)], Orders(subject="Vault", subject_distance=away))
            move = d.step("move")
            if move is not None:
                assert away + move.squares <= STATS.speed


@pytest.mark.parametrize("distance, steps", [
    pytest.param(7, [("move", 6), ("attack", None)], id="D20-MOVE-a-walk-is-one-move-then-attack"),
    pytest.param(13, [("move", 6), ("dash", 6)], id="D20-MOVE-a-run-is-move-plus-dash"),
])
def test_D20_MOVE_walk_is_one_move_run_is_move_plus_dash(distance, steps):
    d = decide(npc(stats=BRUTE), [Facts("Ada", distance, True)])
    assert [(s.action, s.squares) for s in d.steps if s.slot != "reaction"] == steps


def test_D20_BRAIN_REACTION_the_first_trigger_takes_the_reaction():
    guard = npc(features=("parry",))
    first = react(guard, Trigger("melee_attacked", "Ada"))
    spent = npc(stats=replace(STATS, reaction_used=True), features=("parry",))
    assert first.rule == "D20-PARRY" and react(spent, Trigger("leaves", "Bo")) is None


def test_D20_ROLE_WORKER_at_its_object_it_works_it_first_even_with_a_character_next_to_it():
    d = decide(npc("worker"), [Facts("Ada", 1, True)], Orders(object="Console", object_distance=0))
    assert kinds(d) == [("action", "interact", "Console")]
    assert next(u for u in d.unused if u.slot == "move").rule == "D20-ROLE-WORKER"
    device = decide(npc("worker"), [Facts("Ada", 1, True)], Orders(object="Door", object_distance=0, object_minor=True))
    assert kinds(device) == [("minor", "interact", "Door"), ("action", "attack", "Ada")]


PISTOL = Weapon("Pistol", "ranged", "1d8", short=8, long=24)
GUNNER = Combatant("Gunner", attributes={"agility": 3, "vigor": 0}, skills={"arrow_time": 2}, speed=6,
                   weapons=(PISTOL,))


@pytest.mark.parametrize("away", [2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("defense", [12, None], ids=["DEF-given", "DEF-unknown"])
def test_D20_BRAIN_WEAPON_a_ranged_only_hunter_keeps_its_distance_and_shoots(away, defense):
    """Issue 20 D3: a gunner 2-7 squares away walked next to its target and punched it (unarmed
    1d4) instead of shooting: the reference's "Ranges: Short = normal" makes the shot the better
    attack, so it stays where it is and shoots (D20-BRAIN-WEAPON)."""
    d = decide(npc(stats=GUNNER), [Facts("Ada", away, True, defense=defense)])
    assert d.step("move") is None and next(u for u in d.unused if u.slot == "move").rule == "D20-BRAIN-WEAPON"
    shot = d.step("action")
    assert (shot.action, shot.target, shot.weapon, shot.rule) == ("attack", "Ada", "Pistol", "D20-BRAIN-WEAPON")
    if defense is not None:  # +7 vs DEF 12: hits on 5+, 16/20; 1d8+3 (a critical doubles the die)
        assert shot.odds["p_hit"] == pytest.approx(16 / 20) and shot.odds["range"] == "short"
        assert shot.odds["expected_damage"] == pytest.approx(0.75 * 7.5 + 0.05 * 12, abs=1e-3)


def test_D20_BRAIN_WEAPON_a_gunner_next_to_a_character_shoots_rather_than_punches():
    """Issue 20 D3: once adjacent it stayed in melee with its fists every round; a shot at Short
    range has no penalty in the reference, so it shoots without leaving its square (no AoO)."""
    d = decide(npc(stats=GUNNER), [Facts("Ada", 1, True, defense=12)])
    assert kinds(d) == [("action", "attack", "Ada")]
    assert d.steps[0].weapon == "Pistol" and d.steps[0].rule == "D20-BRAIN-WEAPON"
    assert "unarmed strike" in d.steps[0].reason  # it says what it compared


def test_D20_BRAIN_WEAPON_a_hunter_past_short_range_moves_only_into_short_range():
    d = decide(npc(stats=GUNNER), [Facts("Ada", 12, True, defense=12)])
    assert (d.step("move").squares, d.step("move").rule) == (4, "D20-BRAIN-WEAPON")
    assert d.step("action").odds["range"] == "short"


def test_D20_BRAIN_WEAPON_a_ranged_sentry_shoots_an_intruder_from_its_post_instead_of_charging():
    d = decide(npc("sentry", stats=GUNNER), [Facts("Ada", 3, True, defense=12)],
               Orders(subject="Gate", subject_distance=0))
    assert d.step("move") is None and d.step("action").weapon == "Pistol"
    assert d.step("action").rule == "D20-BRAIN-WEAPON" and "does better than a charge" in d.step("action").reason


def test_D20_BRAIN_WEAPON_melee_still_wins_when_it_does_more():
    """Raider's Machete (+6, 1d8+2) beats its Carbine (+4, 1d10+1) against DEF 14: it closes in."""
    d = decide(npc(), [Facts("Ada", 4, True, defense=14)])
    assert d.step("move").squares == 3 and d.step("action").weapon == "Machete"


def test_D20_FACTS_a_sentry_without_the_squares_to_its_subject_asks_for_them_and_assumes_nothing():
    """Issue 20 D6: the squares to its subject were taken as 0 when not given."""
    d = decide(npc("sentry", stats=GUNNER), [Facts("Ada", 5, True, defense=12)], Orders(subject="Gate"))
    assert d.needs == ("subject_distance",) and [s for s in d.steps if s.slot != "reaction"] == []
    assert next(u for u in d.unused if u.slot == "action").rule == "D20-FACTS"
    next_to = decide(npc("sentry", stats=BRUTE), [Facts("Ada", 1, True)], Orders(subject="Gate"))
    assert next_to.needs == () and next_to.step("action").rule == "D20-CONTACT-MELEE"  # it fights first
