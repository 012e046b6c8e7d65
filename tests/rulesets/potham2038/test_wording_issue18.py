"""Issue 18, "Also found in play": wording that told the player something untrue.

Each test failed on the code before: "Event Event card", "direction 2 (given)" when the app
rolled, "Bo is pushed back" after Bo went out of action, and attacker and defender dice run
together in the log."""

from __future__ import annotations

from random import Random

import pytest

from app.rulesets.potham2038 import dice
from app.rulesets.potham2038.activation import Activator, Directive
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.play import dice_record
from app.rulesets.potham2038.questions import Question, next_question
from app.web.view import dice_rolls
from tests.rulesets.potham2038.turn_kit import ADA, HUNTER, game, hits, rules, run, texts


@pytest.mark.parametrize("title, said", [
    ("Event card", "Event card: Danger 0 → 1"),  # the page's default title
    ("Blackout", "Event Blackout: Danger 0 → 1"),
    ("event: riot", "event: riot: Danger 0 → 1"),
])
def test_R_DANGER_an_event_is_named_once_in_the_danger_line(title, said):
    _, log = run(game(ADA, HUNTER, phase=2), {"type": "record_event", "title": title, "danger": 1})
    assert said in texts(log) and "Event Event" not in texts(log)


@pytest.mark.parametrize("told, word", [("roll", "(rolled)"), (3, "direction 3 (given)")])
def test_R_ROLE_HUNTER_a_random_move_says_whether_the_app_rolled_its_direction(told, word):
    hunter = Activator("Warden", "hunter", 4.0, 8.0, shoot_range=18.0)
    answers = {"contact": [], "zone": [], "line_of_sight": [], "direction": told}
    result = next_question(hunter, ["Ada"], Directive(), answers, Random(7))
    assert not isinstance(result, Question)
    reason = result.actions[0].reason
    assert result.actions[0].action == "random_move" and word in reason
    assert ("(given)" in reason) is (told != "roll")


@pytest.mark.parametrize("npc_hits, out", [(7, True), (3, False)], ids=["out-of-action", "still-standing"])
def test_R_CMB_PUSH_a_model_the_damage_takes_out_of_action_is_not_pushed_back(npc_hits, out):
    """R-CMB-PUSH (house, on): the damaged loser is pushed back, but Ada at Health 0 is out of
    action: the log says so and asks for no push back."""
    state = game(ADA, HUNTER, phase=3, house=HouseRules(push_on_damage=True))
    state, log = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                             "rolls": {"npc": hits(npc_hits), "character": hits(1)}})
    assert (state.character("ada").health == 0) is out
    assert ("Ada is pushed back" in texts(log)) is not out
    assert ("Push back: move Ada" in texts(log)) is not out and ("R-CMB-PUSH" in rules(log)) is not out
    assert ("Ada is out of action (not pushed back)" in texts(log)) is out
    assert ("ada" in " ".join(state.separated)) is not out  # nobody left the melee by a push


def test_the_log_labels_each_sides_dice_apart():
    npc = dice.roll_pool({"red": 2}, Random(1))
    character = dice.roll_pool({"white": 3}, Random(2))
    shown = dice_rolls(dice_record(npc=npc, character=character) | {"attack_total": npc.hits})
    assert [(r["label"], len(r["faces"])) for r in shown] == [("AI-Bot", 2), ("Character", 3)]
    shot = dice_rolls(dice_record(attack=npc, defense=character))
    assert [r["label"] for r in shot] == ["Attack", "Defense"]
    assert [r["faces"] for r in shot] == [[f"{c} {f}" for c, f in npc.faces], [f"{c} {f}" for c, f in character.faces]]
