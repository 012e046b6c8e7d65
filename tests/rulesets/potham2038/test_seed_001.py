"""Seed 001 (2038 Complete Combat Flowchart), sentence by sentence, black-box through the public
doors: `combat` / `shooting` (pure) and the turn commands (`engine.apply`). Test names and ids
quote the rule ids; docs/rules.md § "Seed 001, sentence by sentence" maps each sentence here.
"""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.combat import Fighter, resolve_melee, who_attacks
from app.rulesets.potham2038.dice import entered_roll
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import Bot, DecidedAction, Decision, GlitchEffect
from app.rulesets.potham2038.shooting import defense_pool_with_cover, resolve_shoot, shoot_target
from tests.rulesets.potham2038.turn_kit import ADA, BEN, HUNTER, SENTRY, game, hits, refused, rules, run

NPC, CHAR = Fighter("Warden", 60), Fighter("Ada", 45)


def r(h: int, c: int = 0):
    return entered_roll(h, c)


def phase3(*models, actions=("melee",), bot_id="hunter", **fields):
    """A Phase 3 state in which `bot_id` decided `actions` (pending) in Phase 2."""
    decided = [DecidedAction(slot=i + 1, family="attack" if a in ("melee", "shoot") else "maneuver", action=a,
                             phase=3 if a in ("melee", "shoot") else 2, target="Ada", target_id="ada",
                             status="pending" if a in ("melee", "shoot") else "done")
               for i, a in enumerate(actions)]
    state = game(*(models or (ADA, HUNTER)), phase=3, **fields)
    return state.model_copy(update={"decisions": [Decision(bot_id=bot_id, turn=1, actions=decided)]})


def melee_cmd(bot="hunter", char="ada", npc=1, ch=0, **extra):
    return {"type": "resolve_melee", "bot_id": bot, "character_id": char,
            "rolls": {"npc": hits(npc) if isinstance(npc, int) else npc,
                      "character": hits(ch) if isinstance(ch, int) else ch}, **extra}


def shoot_cmd(**extra):
    return {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True,
            "in_range": True, "rolls": {"attack": hits(2), "defense": hits(1)}, **extra}


# --- Phase 1 · Character Shoot -------------------------------------------------------------


def test_R_ACT_PHASE_a_character_shoots_in_phase_1_only():
    shot = {"type": "character_shoot", "character_id": "ada", "target_id": "hunter",
            "attack": hits(1), "defense": hits(0)}
    state, _ = run(game(ADA, HUNTER), shot)
    assert state.bot("hunter").health == HUNTER.health - 1
    for phase in (2, 3, 4):
        refused(game(ADA, HUNTER, phase=phase), shot)


def test_R_CMB_SHOOT_a_character_without_shoot_dice_cannot_shoot():
    refused(game(BEN, HUNTER), {"type": "character_shoot", "character_id": "ben", "target_id": "hunter"})


# --- Determine the actual target first (Black Die) -----------------------------------------


@pytest.mark.parametrize("die, melee_with, actual, ties", [
    ("success", [("Bolt", 9)], "Ada", []),
    ("blank", [("Bolt", 9)], "Bolt", []),
    ("blank", [("Bolt", 2)], "Ada", []),
    ("blank", [("Bolt", 5), ("Cog", 5)], "Ada", ["Ada", "Bolt", "Cog"]),
    ("blank", [("Bolt", 7), ("Cog", 7)], "Bolt", ["Bolt", "Cog"]),
    (None, [], "Ada", []),
], ids=["R-CMB-TARGET-success-intended", "R-CMB-TARGET-blank-highest-health",
        "R-CMB-TARGET-blank-intended-target-counts", "R-CMB-TARGET-tie-including-intended-listed",
        "R-CMB-TARGET-tie-listed", "R-CMB-TARGET-not-in-melee-no-die"])
def test_R_CMB_TARGET_black_die_picks_the_actual_target(die, melee_with, actual, ties):
    assert shoot_target("Ada", 5, melee_with, die) == (actual, ties)


def test_R_CMB_TARGET_the_player_chooses_among_ties():
    assert shoot_target("Ada", 5, [("Bolt", 5)], "blank", chosen="Bolt") == ("Bolt", ["Ada", "Bolt"])
    with pytest.raises(ValueError):
        shoot_target("Ada", 5, [("Bolt", 5), ("Cog", 1)], "blank", chosen="Cog")


def test_R_CMB_TARGET_in_the_game_a_blank_sends_the_bots_shot_to_the_healthiest_in_that_melee():
    guard = SENTRY.model_copy(update={"health": 9, "max_health": 9})
    state = phase3(ADA, HUNTER, guard, actions=("shoot",))
    state, log = run(state, shoot_cmd(melee_with=["sentry"], black_die="blank"))
    assert state.bot("sentry").health == 8 and state.character("ada").health == ADA.health
    assert "R-CMB-TARGET" in rules(log)


def test_R_CMB_TARGET_in_the_game_a_tie_is_the_players_choice():
    guard = SENTRY.model_copy(update={"health": ADA.health, "max_health": ADA.health})
    state = phase3(ADA, HUNTER, guard, actions=("shoot",))
    state, _ = run(state, shoot_cmd(melee_with=["sentry"], black_die="blank", tie_choice="sentry"))
    assert state.bot("sentry").health == ADA.health - 1 and state.character("ada").health == ADA.health


# --- Character Shoot vs target Defense: Cover ----------------------------------------------


@pytest.mark.parametrize("cover, added", [("none", 0), ("light", 1), ("heavy", 2)],
                         ids=["R-CMB-SHOOT-no-cover", "R-CMB-SHOOT-light-cover-plus-1", "R-CMB-SHOOT-heavy-cover-plus-2"])
def test_R_CMB_SHOOT_cover_adds_dice_to_the_defense_pool(cover, added):
    pool = defense_pool_with_cover({"white": 2}, cover, HouseRules())
    assert sum(pool.values()) == 2 + added


# --- Phase 3: Danger once ------------------------------------------------------------------


def test_R_CMB_DANGER_plus_one_once_per_phase_3_however_many_engagements():
    bots = [HUNTER, HUNTER.model_copy(update={"id": "h2", "name": "Warden-2"})]
    state = phase3(ADA, BEN, *bots)
    state, first = run(state, melee_cmd(npc=0, ch=2))  # defended: still a melee
    state, _ = run(state, melee_cmd(char="ben"))
    state, _ = run(state, melee_cmd(bot="h2"))
    assert state.danger == 1 and "R-CMB-DANGER" in rules(first)


def test_R_CMB_DANGER_again_in_the_next_turns_phase_3():
    state = phase3(ADA, HUNTER)
    state, _ = run(state, melee_cmd())
    state = state.model_copy(update={"phase": 4})
    state, _ = run(state, {"type": "end_turn"})
    state = state.model_copy(update={"phase": 3, "decisions": phase3().decisions})
    state, _ = run(state, melee_cmd())
    assert state.danger == 2


def test_R_CMB_DANGER_no_melee_no_danger():
    state, _ = run(phase3(), melee_cmd(in_contact=False))
    assert state.danger == 0


# --- Who attacks? --------------------------------------------------------------------------


@pytest.mark.parametrize("npc, char, special, side", [
    (60, 45, None, "npc"), (45, 60, None, "character"), (50, 50, None, "npc"),
    (60, 45, "character", "character"), (10, 45, "npc", "npc"),
], ids=["R-CMB-WHO-higher-points-npc", "R-CMB-WHO-higher-points-character", "R-CMB-WHO-tie-npc-attacks",
        "R-CMB-WHO-special-rule-first-character", "R-CMB-WHO-special-rule-first-npc"])
def test_R_CMB_WHO_who_attacks(npc, char, special, side):
    assert who_attacks(npc, char, special)[0] == side


# --- Attack or Defend ----------------------------------------------------------------------


def _npc_faces(log):
    return [f["colour"] for f in next(e for e in log if e.dice).dice["faces"] if f["roll"] == "npc"]


def test_R_CMB_ROLL_the_attacker_rolls_melee_and_the_defender_defense():
    bot = HUNTER.model_copy(update={"melee": {"red": 3}, "defense": {"white": 1}})
    _, log = run(phase3(ADA, bot), melee_cmd(npc=None, ch=0) | {"rolls": {"character": hits(0)}})
    assert _npc_faces(log) == ["red"] * 3  # the AI-Bot attacks: its Melee
    weak = bot.model_copy(update={"points": 10})
    _, log = run(phase3(ADA, weak), {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                                     "rolls": {"character": hits(0)}})
    assert _npc_faces(log) == ["white"]  # the Character attacks: the AI-Bot Defends


def test_R_CMB_TIE_a_counter_attack_rolls_melee_on_both_sides():
    _, log = run(phase3(), {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                            "counter_attack": True, "rolls": {"npc": hits(0)}})
    ada = [f["colour"] for f in next(e for e in log if e.dice).dice["faces"] if f["roll"] == "character"]
    assert ada == ["red", "red"]  # Ada's Melee (2 Red), not her Defense (2 White)


# --- Does Attack exceed Defense? -----------------------------------------------------------


@pytest.mark.parametrize("npc_roll, char_roll, outcome, damage, to", [
    (r(3), r(1), "damage", 2, "Ada"),
    (r(3, 1), r(1), "damage", 3, "Ada"),
    (r(3, 3), r(1), "damage", 3, "Ada"),
    (r(3), r(1, 1), "damage", 2, "Ada"),
    (r(2, 2), r(2), "tie", 0, None),
    (r(1, 1), r(3, 3), "defended", 0, None),
], ids=["R-CMB-DAMAGE-difference-in-hits", "R-CMB-DAMAGE-a-critical-plus-1", "R-CMB-DAMAGE-any-number-plus-1-total",
        "R-CMB-DAMAGE-defender-criticals-add-nothing", "R-CMB-TIE-no-damage-on-a-tie",
        "R-CMB-DAMAGE-failed-attack-no-damage"])
def test_R_CMB_DAMAGE_a_winning_attack_deals_the_difference(npc_roll, char_roll, outcome, damage, to):
    result = resolve_melee(NPC, CHAR, npc_roll, char_roll)
    assert (result.outcome, result.damage, result.damage_to) == (outcome, damage, to)


@pytest.mark.parametrize("npc_roll, char_roll, winner, damage", [
    (r(3, 1), r(1), "Ada", 3), (r(1), r(3, 2), "Warden", 3), (r(1, 1), r(2), "Warden", 1),
], ids=["R-CMB-DAMAGE-counter-npc-wins-with-critical", "R-CMB-DAMAGE-counter-character-wins-with-criticals",
        "R-CMB-DAMAGE-counter-losers-critical-adds-nothing"])
def test_R_CMB_DAMAGE_in_a_counter_attack_the_higher_melee_total_wins(npc_roll, char_roll, winner, damage):
    result = resolve_melee(NPC, CHAR, npc_roll, char_roll, counter_attack=True)
    assert (result.damage_to, result.damage) == (winner, damage)


def test_R_CMB_DAMAGE_a_counter_attack_win_hurts_the_npc_in_the_game():
    state, _ = run(phase3(), {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                              "counter_attack": True, "rolls": {"npc": hits(0), "character": hits(2)}})
    assert state.bot("hunter").health == HUNTER.health - 2 and state.character("ada").health == ADA.health


# --- Apply the Core outcome: ties and Push Back --------------------------------------------


@pytest.mark.parametrize("npc, char, attacker, counter, pushed", [
    (60, 45, None, False, "Ada"), (40, 45, None, False, "Warden"),
    (60, 45, None, True, "Ada"), (30, 45, "npc", True, "Warden"), (50, 50, None, True, "Ada"),
], ids=["R-CMB-TIE-push-the-defender-character", "R-CMB-TIE-push-the-defender-npc",
        "R-CMB-TIE-counter-push-the-lower-point-character", "R-CMB-TIE-counter-push-the-lower-point-npc",
        "R-CMB-TIE-counter-equal-points-push-the-character"])
def test_R_CMB_TIE_who_is_pushed_back(npc, char, attacker, counter, pushed):
    result = resolve_melee(Fighter("Warden", npc), Fighter("Ada", char), r(2, 1), r(2, 1),
                           attacker=attacker, counter_attack=counter)
    assert (result.outcome, result.damage, result.push_back) == ("tie", 0, pushed)


def test_R_CMB_ONCE_each_engagement_resolves_once_per_phase():
    state, _ = run(phase3(), melee_cmd())
    refused(state, melee_cmd())


# --- After melee: eligible NPC ranged attacks ----------------------------------------------


@pytest.mark.parametrize("change, bot_update", [
    ({"in_contact": True}, {}), ({"line_of_sight": False}, {}), ({"in_range": False}, {}),
    ({}, {"out_of_ammo": True}), ({}, {"shoot": {}, "shoot_range": None}),
], ids=["R-CMB-SHOOT-not-in-base-contact", "R-CMB-SHOOT-needs-line-of-sight", "R-CMB-SHOOT-needs-range",
        "R-CMB-SHOOT-needs-ammo", "R-CMB-SHOOT-needs-a-ranged-weapon"])
def test_R_CMB_SHOOT_an_ai_bot_shoots_only_when_eligible(change, bot_update):
    state = phase3(ADA, HUNTER.model_copy(update=bot_update), actions=("shoot",))
    refused(state, shoot_cmd(**change))


def test_R_CMB_SHOOT_one_action_per_family_no_shot_after_its_melee():
    state, _ = run(phase3(ADA, HUNTER, actions=("walk", "melee")), melee_cmd())
    refused(state, shoot_cmd())


def test_R_CMB_SHOOT_spends_its_normal_action_once():
    state, _ = run(phase3(ADA, HUNTER, actions=("shoot",)), shoot_cmd())
    refused(state, shoot_cmd())


@pytest.mark.parametrize("attack, defense, checked", [
    (hits(1, 1), hits(3), True), (hits(3, 1), hits(0), True), (hits(3), hits(0), False), (hits(2, 2), hits(2), True),
], ids=["R-CMB-AMMO-critical-on-a-failed-attack", "R-CMB-AMMO-critical-on-a-hit", "R-CMB-AMMO-no-critical-no-check",
        "R-CMB-AMMO-critical-on-a-tie"])
def test_R_CMB_AMMO_check_out_of_ammo_after_any_attacking_critical(attack, defense, checked):
    state, log = run(phase3(ADA, HUNTER, actions=("shoot",)),
                     shoot_cmd(rolls={"attack": attack, "defense": defense}, ammo_die="blank"))
    assert ("R-CMB-AMMO" in rules(log)) is checked
    assert state.bot("hunter").out_of_ammo is checked
    assert resolve_shoot("W", "Ada", 3, entered_roll(attack["hits"], attack["criticals"]),
                         entered_roll(defense["hits"], defense["criticals"])).out_of_ammo_check is checked


def test_R_CMB_AMMO_house_a_success_keeps_the_weapon_loaded():
    state, _ = run(phase3(ADA, HUNTER, actions=("shoot",)),
                   shoot_cmd(rolls={"attack": hits(1, 1), "defense": hits(3)}, ammo_die="success"))
    assert state.bot("hunter").out_of_ammo is False


def test_R_CMB_SHOOT_TIE_a_shoot_tie_does_no_damage():
    result = resolve_shoot("W", "Ada", 3, r(2), r(2))
    assert (result.outcome, result.damage) == ("defended", 0)


def test_R_MARKED_TARGET_a_shooting_npc_adds_the_actual_targets_stacks():
    result = resolve_shoot("W", "Ada", 3, r(1), r(1), marked={"Ada": 2}, marked_target=True)
    assert (result.attack_total, result.damage) == (3, 2)
    plain = resolve_shoot("W", "Ada", 3, r(1), r(1), marked={"Ada": 2})
    assert plain.damage == 0


# --- Resolve eligible fallback actions -----------------------------------------------------


def test_R_ACT_FALLBACK_a_pending_action_may_be_done_or_skipped():
    state = phase3(ADA, HUNTER, actions=("walk", "shoot"))
    done, _ = run(state, {"type": "resolve_fallback", "bot_id": "hunter", "slot": 2, "done": False})
    assert done.pending_actions() == []
    refused(done, {"type": "resolve_fallback", "bot_id": "hunter", "slot": 2})


def test_kit_bot_is_armed_as_these_tests_assume():
    assert isinstance(HUNTER, Bot) and HUNTER.shoot_range == 18 and HUNTER.points > ADA.points


# --- Reboot stops even free actions: a rebooted bot does not Defend ------------------------


REBOOTING = HUNTER.model_copy(update={"glitches": [GlitchEffect(result="reboot", turns_left=1)]})


def test_R_GLITCH_REBOOT_a_rebooted_bot_cannot_defend_against_a_characters_shot():
    state, log = run(game(ADA, REBOOTING), {"type": "character_shoot", "character_id": "ada", "target_id": "hunter",
                                            "attack": hits(1), "defense": hits(3)})
    assert state.bot("hunter").health == HUNTER.health - 1  # the entered Defense is not rolled at all
    assert "cannot Defend" in " ".join(e.text for e in log)


def test_R_GLITCH_REBOOT_a_bot_whose_activation_a_reboot_took_cannot_defend_in_melee():
    state = phase3(ADA, HUNTER.model_copy(update={"points": 10}), actions=())
    state = state.model_copy(update={"decisions": [Decision(bot_id="hunter", turn=1, rebooted=True)]})
    state, log = run(state, melee_cmd(npc=3, ch=1))
    assert state.bot("hunter").health == HUNTER.health - 1 and "R-GLITCH-REBOOT" in rules(log)
    refused(phase3(ADA, REBOOTING), melee_cmd() | {"attacker": "npc"})  # nor attack (R-CMB-WHO)


def test_R_GLITCH_REBOOT_a_bot_that_is_not_rebooted_defends():
    state, _ = run(game(ADA, HUNTER), {"type": "character_shoot", "character_id": "ada", "target_id": "hunter",
                                       "attack": hits(1), "defense": hits(3)})
    assert state.bot("hunter").health == HUNTER.health
