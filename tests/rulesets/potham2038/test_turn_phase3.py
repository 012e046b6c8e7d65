"""Phase 3 · Melee & Ranged Combat on the game state."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import DecidedAction, Decision
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    SENTRY,
    game,
    hits,
    play,
    refused,
    rules,
    run,
    texts,
)


def decided(bot_id="hunter", *actions: tuple[str, str, str | None]) -> Decision:
    """A stored decision with the given (family, action, target id) in slots 1, 2, …"""
    return Decision(bot_id=bot_id, turn=1, actions=[
        DecidedAction(slot=i, family=f, action=a, phase=3 if a in ("melee", "shoot") else 2, target_id=t,
                      status="pending" if a in ("melee", "shoot") else "done")
        for i, (f, a, t) in enumerate(actions, 1)])


def phase3(*models, decisions=(), **fields):
    return game(*(models or (ADA, HUNTER)), phase=3, decisions=list(decisions), **fields)


def melee(state, bot="hunter", character="ada", **fields):
    return run(state, {"type": "resolve_melee", "bot_id": bot, "character_id": character, **fields})


@pytest.mark.parametrize("bot_points, attacker, damaged", [(60, None, "ada"), (45, None, "ada"), (30, None, "hunter"),
                                                           (60, "character", "hunter")],
                         ids=["R-CMB-WHO-more-points", "R-CMB-WHO-tie-npc-attacks", "R-CMB-WHO-character-attacks",
                              "R-CMB-WHO-special-rule"])
def test_who_attacks_and_who_takes_the_damage(bot_points, attacker, damaged):
    state = phase3(ADA, HUNTER.model_copy(update={"points": bot_points}))
    fields = {"rolls": {"npc": hits(3), "character": hits(3)}}
    attack_side = attacker or ("character" if bot_points < 45 else "npc")
    fields["rolls"][attack_side] = hits(4)
    state, log = melee(state, attacker=attacker, **fields)
    hurt = [m.id for m in [*state.characters, *state.bots] if m.health < m.max_health]
    assert hurt == [damaged] and "R-CMB-DAMAGE" in rules(log)


@pytest.mark.parametrize("npc, character, ada_health", [(hits(3), hits(1), 3), (hits(3, 2), hits(1), 2),
                                                        (hits(1), hits(2), 5)],
                         ids=["R-CMB-DAMAGE-difference", "R-CMB-DAMAGE-criticals-add-one-in-total", "defended"])
def test_R_CMB_DAMAGE_melee_damage(npc, character, ada_health):
    state, _ = melee(phase3(), rolls={"npc": npc, "character": character})
    assert state.character("ada").health == ada_health


def test_R_CMB_TIE_a_melee_tie_pushes_the_defender_back_without_damage():
    state, log = melee(phase3(), rolls={"npc": hits(2), "character": hits(2)})
    assert state.character("ada").health == 5 and "Push back: move Ada" in texts(log)


@pytest.mark.parametrize("npc, character, hurt", [(hits(3), hits(1), "ada"), (hits(1), hits(3), "hunter")],
                         ids=["npc-wins", "character-wins"])
def test_R_CMB_TIE_a_counter_attack_lets_the_higher_melee_deal_damage(npc, character, hurt):
    state, log = melee(phase3(), counter_attack=True, rolls={"npc": npc, "character": character})
    damaged = [m.id for m in [*state.characters, *state.bots] if m.health < m.max_health]
    assert damaged == [hurt] and "counter-attacks" in texts(log)


def test_R_CMB_TIE_a_counter_attack_tie_pushes_the_lower_point_model():
    state, log = melee(phase3(), counter_attack=True, rolls={"npc": hits(2), "character": hits(2)})
    assert "Push back: move Ada" in texts(log)


def test_a_counter_attack_is_refused_when_the_character_attacks():
    refused(phase3(ADA, HUNTER.model_copy(update={"points": 10})), {
        "type": "resolve_melee", "bot_id": "hunter", "character_id": "ada", "counter_attack": True})


def test_R_CMB_DANGER_melee_raises_danger_once_per_phase():
    state = phase3(ADA, BEN, HUNTER, danger=2)
    state = play(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada"},
                 {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ben"})
    assert state.danger == 3 and state.phase3_melee


def test_R_CMB_DANGER_a_new_phase_3_can_raise_it_again():
    state = play(phase3(danger=2), {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada"},
                 {"type": "next_phase"}, {"type": "end_turn"}, {"type": "next_phase"}, {"type": "next_phase"},
                 {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada"})
    assert state.danger == 4


def test_R_CMB_ONCE_separated_models_do_not_fight_and_the_melee_action_is_skipped():
    state, log = melee(phase3(decisions=[decided("hunter", ("maneuver", "run", None), ("attack", "melee", "ada"))]),
                       in_contact=False)
    assert state.danger == 0 and state.decision("hunter").actions[1].status == "skipped"
    assert "no longer in base contact" in texts(log)


def test_R_CMB_ONCE_a_melee_resolves_the_bots_pending_attack_and_each_pair_fights_once():
    state, _ = melee(phase3(decisions=[decided("hunter", ("maneuver", "run", None), ("attack", "melee", "ada"))]))
    assert state.pending_actions() == []
    assert "already fought" in refused(state, {"type": "resolve_melee", "bot_id": "hunter",
                                               "character_id": "ada"}).reason


def npc_dice(log):
    return sum(1 for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "npc" and f["colour"] == "white")


def test_R_DISTRACTED_each_stack_adds_a_white_die_to_the_incoming_attack():
    _, log = melee(phase3(ADA.model_copy(update={"distracted": 2}), HUNTER))
    assert npc_dice(log) == 2


@pytest.mark.parametrize("special, marked, total", [([], 2, 2), (["Marked Target"], 2, 4), (["marked_target"], 0, 2)],
                         ids=["R-MARKED-TARGET-no-rule-no-bonus", "R-MARKED-TARGET-plus-one-per-stack", "no-stacks"])
def test_R_MARKED_TARGET_in_melee(special, marked, total):
    state = phase3(ADA.model_copy(update={"marked": marked}), HUNTER.model_copy(update={"special_rules": special}))
    _, log = melee(state, rolls={"npc": hits(2), "character": hits(0)})
    assert next(e.dice for e in log if e.dice)["attack_total"] == total


def shoot(state, **fields):
    body = {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True, "in_range": True}
    return run(state, {**body, **fields})


SHOOTER = [decided("hunter", ("maneuver", "walk", None), ("attack", "shoot", "ada"))]


def test_a_bot_shoots_with_its_decided_shoot_action():
    state, log = shoot(phase3(decisions=SHOOTER), rolls={"attack": hits(3), "defense": hits(1)})
    assert state.character("ada").health == 3 and state.decision("hunter").actions[1].status == "done"


def test_R_CMB_SHOOT_the_characters_cover_adds_defense_dice():
    _, log = shoot(phase3(ADA.model_copy(update={"cover": "light"}), HUNTER, decisions=SHOOTER))
    assert sum(1 for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "defense") == 2 + 1


@pytest.mark.parametrize("ammo_die, empty", [("blank", True), ("success", False)])
def test_R_CMB_AMMO_a_critical_triggers_the_check_even_when_the_attack_fails(ammo_die, empty):
    state, log = shoot(phase3(decisions=SHOOTER), rolls={"attack": hits(1, 1), "defense": hits(3)}, ammo_die=ammo_die)
    assert state.bot("hunter").out_of_ammo is empty and "R-CMB-AMMO" in rules(log)
    assert state.character("ada").health == 5


def test_R_CMB_AMMO_no_critical_no_check():
    state, log = shoot(phase3(decisions=SHOOTER), rolls={"attack": hits(2), "defense": hits(3)}, ammo_die="blank")
    assert not state.bot("hunter").out_of_ammo and "R-CMB-AMMO" not in rules(log)


def test_R_MARKED_TARGET_in_a_shoot():
    state = phase3(ADA.model_copy(update={"marked": 2}), HUNTER.model_copy(update={"special_rules": ["Marked Target"]}),
                   decisions=SHOOTER)
    _, log = shoot(state, rolls={"attack": hits(1), "defense": hits(0)})
    assert next(e.dice for e in log if e.dice)["attack_total"] == 3


def test_R_CMB_SHOOT_ACTION_a_decided_melee_may_become_a_shoot_once_contact_is_gone():
    """R-CMB-ORDER changed this test: the separation is reported first (it used to be implied by
    shooting, which made the result depend on click order)."""
    state = phase3(decisions=[decided("hunter", ("maneuver", "run", None), ("attack", "melee", "ada"))])
    state, _ = melee(state, in_contact=False)
    state, _ = shoot(state)
    assert state.pending_actions() == []
    assert [(a.action, a.status) for a in state.decision("hunter").actions] == [("run", "done"), ("shoot", "done")]


@pytest.mark.parametrize("state, fields, why", [
    (phase3(decisions=SHOOTER), {"line_of_sight": False}, "line of sight"),
    (phase3(decisions=SHOOTER), {"in_range": False}, "out of range"),
    (phase3(decisions=SHOOTER), {"in_contact": True}, "base contact"),
    (phase3(ADA, HUNTER.model_copy(update={"out_of_ammo": True}), decisions=SHOOTER), {}, "out of ammo"),
    (phase3(ADA, HUNTER.model_copy(update={"shoot_range": None}), decisions=SHOOTER), {}, "ranged weapon"),
    (phase3(), {}, "not activated"),
    (phase3(decisions=[decided("hunter", ("maneuver", "walk", None), ("scan", "scan", "ada"))]), {}, "no unused Attack"),
], ids=["no-line-of-sight", "out-of-range", "in-contact", "out-of-ammo", "no-weapon", "not-activated",
        "no-attack-action"])
def test_R_CMB_SHOOT_eligibility(state, fields, why):
    assert why in refused(state, {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada",
                                  "line_of_sight": True, "in_range": True, **fields}).reason


def test_R_CMB_SHOOT_ACTION_a_shot_is_spent_once():
    state, _ = shoot(phase3(decisions=SHOOTER))
    refused(state, {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True,
                    "in_range": True})


def test_R_CMB_TARGET_a_bot_shooting_into_a_melee_can_hit_another_bot():
    big = SENTRY.model_copy(update={"health": 9, "max_health": 9})
    state, log = shoot(phase3(ADA, HUNTER, big, decisions=SHOOTER), melee_with=["sentry"], black_die="blank",
                       rolls={"attack": hits(3), "defense": hits(0)})
    assert state.bot("sentry").health < 9 and state.character("ada").health == 5


@pytest.mark.parametrize("done, status", [(True, "done"), (False, "skipped")])
def test_R_ACT_FALLBACK_resolve_fallback_marks_an_action(done, status):
    state, _ = run(phase3(decisions=SHOOTER), {"type": "resolve_fallback", "bot_id": "hunter", "slot": 2, "done": done})
    assert state.decision("hunter").actions[1].status == status and state.pending_actions() == []


@pytest.mark.parametrize("slot", [1, 3], ids=["already-done", "no-such-slot"])
def test_R_ACT_FALLBACK_refusals(slot):
    refused(phase3(decisions=SHOOTER), {"type": "resolve_fallback", "bot_id": "hunter", "slot": slot})


def test_R_PHASE_LEAVE_leaving_phase_3_logs_what_was_left_unresolved():
    state, log = run(phase3(decisions=SHOOTER), {"type": "next_phase"})
    assert "Left unresolved" in texts(log) and state.phase == 4


def test_a_removed_bot_leaves_the_phase_3_list():
    state, _ = run(phase3(decisions=SHOOTER), {"type": "remove_bot", "id": "hunter"})
    assert state.pending_actions() == []


def test_R_GLITCH_a_bot_rebooted_this_turn_cannot_attack_in_melee():
    """R-CMB-WHO (third reading): a rebooted bot never attacks; naming it as attacker is refused."""
    rebooted = Decision(bot_id="hunter", turn=1, rebooted=True)
    assert "rebooted" in refused(phase3(decisions=[rebooted]), {"type": "resolve_melee", "bot_id": "hunter",
                                                                 "character_id": "ada", "attacker": "npc"}).reason
    state, _ = melee(phase3(decisions=[rebooted]), attacker="character",
                     rolls={"npc": hits(0), "character": hits(2)})
    assert state.bot("hunter").health < 4
