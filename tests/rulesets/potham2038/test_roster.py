"""Roster commands and the value types they build (models.py, roster.py)."""

from __future__ import annotations

from random import Random

import pytest
from pydantic import ValidationError

from app.kernel.commands import Refused
from app.rulesets.potham2038 import engine
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import Bot, GameState


def run(state: GameState, data: dict, seed: str = "s:1") -> GameState:
    name, body = engine.parse(data)
    return engine.apply(state, name, body, Random(seed))[0]


def test_default_house_rules_are_the_rules_md_dice_and_glitch_table():
    house = HouseRules()
    assert sorted(house.dice_faces["white"]) == ["blank"] * 3 + ["critical"] + ["hit"] * 2
    assert sorted(house.dice_faces["red"]) == ["blank"] * 2 + ["critical"] + ["hit"] * 3
    assert sorted(house.dice_faces["black"]) == ["blank"] * 3 + ["success"] * 3
    assert [(r.low, r.high, r.result) for r in house.glitch_table] == [
        (1, 2, "reboot"), (3, 4, "overcharged"), (5, 6, "full_throttle")]
    assert (house.character_zone, house.bot_zone, house.danger_limit) == (2.0, 3.0, 24)


def test_adding_a_bot_keeps_its_assignment_and_gives_it_an_id():
    state = run(GameState(), {"type": "add_bot", "bot": {
        "name": "Loop-3", "role": "patrol", "waypoints": ["A", "B", "C"], "patrol_mode": "route"}})
    bot = state.bots[0]
    assert (bot.name, bot.role, bot.waypoints, bot.patrol_mode) == ("Loop-3", "patrol", ["A", "B", "C"], "route")
    assert len(bot.id) == 10


def test_the_same_seed_gives_the_same_ids_so_a_replay_rebuilds_the_game():
    data = {"type": "add_character", "character": {"name": "Ada"}}
    assert run(GameState(), data, "7:1") == run(GameState(), data, "7:1")
    assert run(GameState(), data, "7:1") != run(GameState(), data, "7:2")


def test_editing_a_character_keeps_its_play_conditions():
    state = run(GameState(), {"type": "add_character", "character": {"name": "Ada", "health": 3, "max_health": 3}})
    ada = state.characters[0]
    state = state.model_copy(update={"characters": [ada.model_copy(update={"marked": 2})]})
    state = run(state, {"type": "edit_character", "id": ada.id, "character": {"name": "Ada L.", "health": 2, "max_health": 3}})
    assert (state.characters[0].name, state.characters[0].health, state.characters[0].marked) == ("Ada L.", 2, 2)


@pytest.mark.parametrize("command", [
    {"type": "add_character", "character": {"name": "Ada", "melee": {"purple": 2}}},
    {"type": "add_bot", "bot": {"name": "W", "role": "hunter", "shoot": {"red": 30, "white": 11}}},
    {"type": "remove_bot", "id": "nope"},
    {"type": "edit_character", "id": "nope", "character": {"name": "X"}},
], ids=["unknown colour", "more than 40 dice", "unknown bot", "unknown character"])
def test_illegal_roster_commands_are_refused_and_change_nothing(command):
    state = GameState()
    name, body = engine.parse(command)
    with pytest.raises(Refused):
        engine.apply(state, name, body, Random(1))
    assert state == GameState()


@pytest.mark.parametrize("bot, field", [
    ({"name": "", "role": "hunter"}, "name"),
    ({"name": "x" * 81, "role": "hunter"}, "name"),
    ({"name": "W", "role": "boss"}, "role"),
    ({"name": "W", "role": "hunter", "walk": -1}, "walk"),
    ({"name": "W", "role": "hunter", "control_zone": 1e9}, "control_zone"),
    ({"name": "W", "role": "hunter", "melee": {"red": 41}}, "melee"),
])
def test_bad_bot_sheets_fail_validation_naming_the_field(bot, field):
    with pytest.raises(ValidationError) as error:
        engine.parse({"type": "add_bot", "bot": bot})
    assert field in {str(part) for e in error.value.errors() for part in e["loc"]}


@pytest.mark.parametrize("rule", ["Marked Target", "marked_target", "MARKED TARGET"])
def test_special_rules_match_however_the_player_wrote_them(rule):
    assert Bot(id="b", name="W", role="hunter", special_rules=[rule]).has_rule("marked_target")


def test_a_saved_state_reads_back_exactly():
    state = run(GameState(), {"type": "add_bot", "bot": {"name": "Ω-1 <b>", "role": "sentry", "subject": "Vault"}})
    assert GameState.model_validate(state.model_dump(mode="json")) == state


def _roster(*names: tuple[str, str]) -> GameState:
    state = GameState()
    for n, (kind, name) in enumerate(names):
        body = {"name": name} if kind == "character" else {"name": name, "role": "hunter"}
        state = run(state, {"type": f"add_{kind}", kind: body}, f"s:{n}")  # a seed each: ids of their own
    return state


@pytest.mark.parametrize("kind, name", [
    ("bot", "Sentry-1"), ("bot", "sentry-1"), ("character", "SENTRY-1"), ("bot", "ada"), ("character", "Ada"),
], ids=["same bot name", "bot, other case", "character named as a bot", "bot named as a character",
        "same character name"])
def test_R_ROSTER_NAME_a_second_model_with_a_name_taken_is_refused_and_changes_nothing(kind, name):
    """R-ROSTER-NAME: targets, Marked stacks and the log name models, so no two share a name."""
    state = _roster(("character", "Ada"), ("bot", "Sentry-1"))
    body = {"name": name} if kind == "character" else {"name": name, "role": "hunter"}
    with pytest.raises(Refused) as refused:
        run(state, {"type": f"add_{kind}", kind: body})
    assert refused.value.rule == "R-ROSTER-NAME" and name in refused.value.reason
    assert [m.name for m in [*state.characters, *state.bots]] == ["Ada", "Sentry-1"]


def test_R_ROSTER_NAME_a_rename_onto_another_models_name_is_refused_a_free_one_or_its_own_is_not():
    state = _roster(("character", "Ada"), ("bot", "Sentry-1"))
    ada, bot = state.characters[0], state.bots[0]
    with pytest.raises(Refused):
        run(state, {"type": "edit_character", "id": ada.id, "character": {"name": "sentry-1"}})
    with pytest.raises(Refused):
        run(state, {"type": "edit_bot", "id": bot.id, "bot": {"name": "ADA", "role": "hunter"}})
    renamed = run(state, {"type": "edit_bot", "id": bot.id, "bot": {"name": "Sentry-9", "role": "hunter"}})
    assert renamed.bots[0].name == "Sentry-9"
    recased = run(state, {"type": "edit_character", "id": ada.id, "character": {"name": "ADA", "health": 3}})
    assert (recased.characters[0].name, recased.characters[0].health) == ("ADA", 3)


def test_R_ROSTER_NAME_an_older_game_with_two_of_one_name_can_still_edit_each_and_rename_one():
    state = _roster(("bot", "Sentry-1"), ("bot", "Sentry-2"))
    first, second = state.bots
    older = state.model_copy(update={"bots": [first, second.model_copy(update={"name": "Sentry-1"})]})
    kept = run(older, {"type": "edit_bot", "id": second.id, "bot": {"name": "Sentry-1", "role": "sentry",
                                                                      "subject": "Gate"}})
    assert [(b.name, b.role) for b in kept.bots] == [("Sentry-1", "hunter"), ("Sentry-1", "sentry")]
    fixed = run(older, {"type": "edit_bot", "id": second.id, "bot": {"name": "Sentry-3", "role": "hunter"}})
    assert [b.name for b in fixed.bots] == ["Sentry-1", "Sentry-3"]
