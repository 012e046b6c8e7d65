"""Phase 1 · Action: moves, Noise and Alarm, Character Shoot, Distracted, hacking, Luck Roll."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.rulesets.potham2038.models import Bot
from tests.rulesets.potham2038.turn_kit import (
    ADA,
    BEN,
    HUNTER,
    SENTRY,
    game,
    hits,
    refused,
    rules,
    run,
    texts,
)

OOW = Bot(id="oow", name="Relic", role="worker", special_rules=["OUT OF WARRANTY"], defense={"white": 1})


@pytest.mark.parametrize("entries, marked", [([], 0), (["hunter"], 1), (["hunter", "sentry"], 2),
                                             (["hunter", "hunter", "hunter"], 3)],
                         ids=["none", "one", "two-bots", "re-entries-count"])
def test_R_MARK_MOVE_each_zone_entry_marks_the_moving_character(entries, marked):
    state, log = run(game(ADA, HUNTER, SENTRY), {"type": "character_move", "character_id": "ada", "entries": entries})
    assert state.character("ada").marked == marked and "R-MARK-MOVE" in rules(log)


@pytest.mark.parametrize("kind, bots, marked, danger, rule", [
    ("noise", [], 0, 0, "R-NOISE"),
    ("noise", ["hunter"], 1, 1, "R-NOISE"),
    ("noise", ["hunter", "sentry"], 1, 1, "R-NOISE"),
    ("alarm", [], 0, 1, "R-ALARM"),
    ("alarm", ["hunter", "sentry"], 2, 1, "R-ALARM"),
], ids=["R-NOISE-outside", "R-NOISE-one-zone", "R-NOISE-two-zones-one-total", "R-ALARM-always-danger",
        "R-ALARM-per-zone"])
def test_noise_and_alarm(kind, bots, marked, danger, rule):
    state, log = run(game(ADA, HUNTER, SENTRY, danger=2),
                     {"type": "noise", "character_id": "ada", "kind": kind, "bot_ids": bots})
    assert (state.character("ada").marked, state.danger - 2) == (marked, danger) and rule in rules(log)


def shoot(state, **fields):
    return run(state, {"type": "character_shoot", "character_id": "ada", "target_id": "hunter", **fields})


@pytest.mark.parametrize("attack, defense, health", [(hits(3), hits(1), 2), (hits(3, 1), hits(1), 1),
                                                     (hits(2), hits(2), 4), (hits(0), hits(1), 4)],
                         ids=["R-CMB-DAMAGE-difference", "R-CMB-DAMAGE-critical-plus-one", "tie-no-damage",
                              "defended"])
def test_character_shoot_damages_the_bot(attack, defense, health):
    state, log = shoot(game(), attack=attack, defense=defense)
    assert state.bot("hunter").health == health
    assert all(e.dice["by"] == "entered" for e in log if e.dice)


def test_character_shoot_that_destroys_a_bot_says_so():
    state, log = shoot(game(), attack=hits(6), defense=hits(0))
    assert state.bot("hunter").health == 0 and "Destroyed" in texts(log)


def test_R_CMB_SHOOT_cover_adds_dice_to_the_rolled_defense_pool():
    _, log = shoot(game(), cover="heavy")
    defense_faces = [f for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "defense"]
    assert len(defense_faces) == 2 + 2 and "heavy cover" in texts(log)


def test_app_rolled_dice_are_recorded_face_by_face():
    _, log = shoot(game())
    record = next(e.dice for e in log if e.dice)
    assert record["by"] == "app" and len([f for f in record["faces"] if f["roll"] == "attack"]) == 2


@pytest.mark.parametrize("black_die, actual", [("success", "hunter"), ("blank", "sentry")])
def test_R_CMB_TARGET_shooting_into_a_melee_rolls_the_black_die(black_die, actual):
    big = SENTRY.model_copy(update={"health": 9, "max_health": 9})
    state, log = shoot(game(ADA, HUNTER, big), melee_with=["sentry"], black_die=black_die,
                       attack=hits(3), defense=hits(0))
    hurt = [b.id for b in state.bots if b.health < b.max_health]
    assert hurt == [actual] and "R-CMB-TARGET" in rules(log)


def test_R_CMB_TARGET_a_blank_can_hit_a_character_in_that_melee():
    ben = BEN.model_copy(update={"health": 9, "max_health": 9})
    state, _ = shoot(game(ADA, ben, HUNTER), melee_with=["ben"], black_die="blank", attack=hits(3), defense=hits(0))
    assert state.character("ben").health < 9 and state.bot("hunter").health == 4


def test_R_CMB_TARGET_tied_health_takes_the_players_choice():
    twin = SENTRY.model_copy(update={"health": 4})
    state, log = shoot(game(ADA, HUNTER, twin), melee_with=["sentry"], black_die="blank", tie_choice="sentry",
                       attack=hits(3), defense=hits(0))
    assert state.bot("sentry").health < 4 and "Tied" in texts(log)


def test_R_CMB_AMMO_a_characters_critical_only_reminds_the_player():
    _, log = shoot(game(), attack=hits(2, 1), defense=hits(0))
    assert "R-CMB-AMMO" in rules(log) and "does not track" in texts(log)


@pytest.mark.parametrize("state, fields", [
    (game(ADA.model_copy(update={"shoot": {}}), HUNTER), {}),
    (game(ADA, HUNTER.model_copy(update={"health": 0})), {}),
    (game(ADA.model_copy(update={"health": 0}), HUNTER), {}),
    (game(), {"target_id": "ada"}),
    (game(ADA, HUNTER, SENTRY), {"melee_with": ["ada"]}),
], ids=["no-shoot-dice", "target-destroyed", "shooter-out-of-action", "target-not-a-bot", "shooter-in-that-melee"])
def test_character_shoot_refusals(state, fields):
    refused(state, {"type": "character_shoot", "character_id": "ada", "target_id": "hunter", **fields})


def test_R_DISTRACTED_invoking_gives_one_stack_per_contacted_npc():
    state, log = run(game(ADA, HUNTER, SENTRY, turn=3),
                     {"type": "invoke_distracted", "character_id": "ada", "bot_ids": ["hunter", "sentry"]})
    ada = state.character("ada")
    assert (ada.distracted, ada.distracted_since, ada.distracted_last_gain) == (2, 3, 3)


def test_R_DISTRACTED_a_new_contact_while_active_adds_a_stack_and_refreshes_it():
    ada = ADA.model_copy(update={"distracted": 1, "distracted_since": 1, "distracted_last_gain": 1})
    state, _ = run(game(ada, HUNTER, phase=2, turn=2),
                   {"type": "distracted_contact", "character_id": "ada", "bot_id": "hunter"})
    assert (state.character("ada").distracted, state.character("ada").distracted_last_gain) == (2, 2)


def test_R_DISTRACTED_a_new_contact_needs_distracted_active():
    refused(game(), {"type": "distracted_contact", "character_id": "ada", "bot_id": "hunter"})


def hack(state, **fields):
    return run(state, {"type": "hack", "character_id": "ada", **fields})


@pytest.mark.parametrize("attempt, opposing, passed", [(hits(2), hits(1), True), (hits(1), hits(1), False),
                                                      (hits(0), hits(2), False)],
                         ids=["beats", "tie-fails", "loses"])
def test_R_HACK_ROLL_the_attempt_must_beat_the_opposition(attempt, opposing, passed):
    _, log = hack(game(), stat="hacking", opposing={"white": 2}, rolls={"attempt": attempt, "opposing": opposing},
                  success_text="The door opens.", failure_text="Locked.")
    assert ("succeeds" in texts(log)) is passed
    assert ("The door opens." if passed else "Locked.") in texts(log)


def attempt_dice(log):
    return sum(1 for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "attempt")


@pytest.mark.parametrize("help, bot, dice, rule", [
    ("none", None, 2, "R-HACK-ROLL"),
    ("diagnostics", "hunter", 3, "R-HACK-HELP"),
    ("tech_support", None, 3, "R-HACK-HELP"),
    ("diagnostics", "oow", 2, "R-HACK"),
    ("tech_support", "oow", 2, "R-HACK"),
], ids=["no-help", "R-HACK-HELP-diagnostics", "R-HACK-HELP-tech-support", "R-HACK-out-of-warranty-diagnostics",
        "R-HACK-out-of-warranty-tech-support"])
def test_hacking_help_and_out_of_warranty(help, bot, dice, rule):
    npc_stat = False if help == "tech_support" and bot else None  # R-HACK-TECH
    _, log = hack(game(ADA, HUNTER, OOW), stat="Hacking", help=help, bot_id=bot, npc_stat=npc_stat)
    assert attempt_dice(log) == dice and rule in rules(log) and "hacking attempt" in texts(log)


@pytest.mark.parametrize("fields", [
    {"stat": "Lockpicking"}, {}, {"stat": "Hacking", "help": "diagnostics"},
    {"stat": "Hacking", "pool": {"purple": 1}},
], ids=["no-dice-in-stat", "no-stat", "R-HACK-diagnostics-needs-an-npc", "unknown-colour"])
def test_R_HACK_refusals(fields):
    refused(game(), {"type": "hack", "character_id": "ada", **fields})


def test_R_HACK_help_needs_the_equipment():
    refused(game(BEN, HUNTER), {"type": "hack", "character_id": "ben", "pool": {"red": 1}, "help": "tech_support"})


@pytest.mark.parametrize("face, passed", [("success", True), ("blank", False)])
def test_R_HACK_luck_roll_once_per_turn(face, passed):
    state, log = run(game(), {"type": "luck_roll", "character_id": "ada", "stat": "Lockpicking", "black_die": face})
    assert state.character("ada").luck_roll_used and ("passed" in texts(log)) is passed
    assert "already" in refused(state, {"type": "luck_roll", "character_id": "ada", "stat": "Lockpicking"}).reason


def test_R_HACK_no_luck_roll_with_dice_in_the_stat():
    refused(game(), {"type": "luck_roll", "character_id": "ada", "stat": "hacking"})


@pytest.mark.parametrize("cover, dice", [("none", 1), ("light", 2), ("heavy", 3)])
def test_R_CMB_TARGET_COVER_a_shot_redirected_to_a_character_uses_that_characters_cover(cover, dice):
    ben = BEN.model_copy(update={"health": 9, "max_health": 9, "cover": cover})
    _, log = shoot(game(ADA, ben, HUNTER), melee_with=["ben"], black_die="blank", cover="heavy")
    assert sum(1 for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "defense") == dice


def opposing_dice(log):
    return sum(1 for e in log if e.dice for f in e.dice["faces"] if f["roll"] == "opposing")


@pytest.mark.parametrize("stat, dice", [("melee", 3), ("shoot", 2), ("defense", 2)])
def test_R_HACK_the_opposing_npc_stat_the_mission_names_is_rolled_off_that_ai_bots_sheet(stat, dice):
    """R-HACK, seed 000: "A Mission or Event supplies the Character stat, opposing NPC or target
    stat, and outcome." The NPC stat is named (a chip on the Character's card), its dice are the
    AI-Bot's own: Warden has Melee 3 red, Shoot 2 red, Defense 2 white."""
    _, log = hack(game(ADA, HUNTER), stat="Hacking", bot_id="hunter", opposing_stat=stat)
    assert opposing_dice(log) == dice and f"(Warden's {stat.title()})" in texts(log)


def test_R_HACK_an_opposing_npc_stat_without_its_ai_bot_is_refused_naming_the_ai_bot():
    with pytest.raises(ValidationError) as caught:
        hack(game(ADA, HUNTER), stat="Hacking", opposing_stat="defense")
    assert [e["loc"] for e in caught.value.errors()] == [("bot_id",)]


def test_R_HACK_an_opposing_npc_stat_and_opposing_dice_are_not_both_rolled():
    refused(game(ADA, HUNTER), {"type": "hack", "character_id": "ada", "stat": "Hacking", "bot_id": "hunter",
                                "opposing_stat": "defense", "opposing": {"white": 1}})
