"""Issue 9 (engine part): distance bands and one question at a time (`questions.next_question`).

A decision made from bands must be one the rules fix from those facts; anything else is asked.
Each test plays the page: answer the question asked, call again."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate
from app.rulesets.potham2038.bands import band_of, bands
from app.rulesets.potham2038.questions import Question, next_question
from app.rulesets.potham2038.told import Answers, next_fact
from tests.rulesets.potham2038.turn_kit import ADA, BEN, PATROL, game, refused, run
from tests.rulesets.potham2038.turn_kit import HUNTER as HUNTER_BOT
from tests.support.band_taps import tell

HUNTER = Activator("Warden", "hunter", 4.0, 8.0, shoot_range=18.0)


def play(bot, names, directive, replies):
    """Answer each question with the next reply; the facts asked, in order, and the decision."""
    answers: dict = {}
    asked = []
    for reply in replies + [None]:
        result = next_question(bot, names, directive, answers)
        if not isinstance(result, Question):
            assert reply is None, f"decided before {reply!r} was asked: {asked}"
            return asked, result
        asked.append((result.fact, result.model))
        assert reply is not None, f"still asking {result.as_dict()} after {asked}"
        if result.fact == "band":  # a band's key, or inches: the option (or piece) they fall in
            tell(answers, result.model, band_option(result, reply))
        elif result.fact == "inches":
            answers.setdefault("inches", {})[result.model] = reply
        elif result.fact == "split":  # reply: "up_to" or "more_than" the figure asked
            answers.setdefault(reply, {})[result.model] = result.options[0]["inches"]
        else:
            answers[result.fact] = reply
    raise AssertionError("unreachable")


def band_option(question, reply):
    """The option a player taps: by its band key (one option only), or the one holding `reply`
    inches; (key, then) for a waypoint's option that tells the next one's band too."""
    reply, then = reply if isinstance(reply, tuple) else (reply, None)
    if isinstance(reply, str):
        found = [o for o in question.options if o["key"] == reply and (o.get("then") or {}).get("key") == then]
        assert len(found) == 1, f"{reply!r} is not one option of {question.as_dict()}"
        return found[0]
    return next(o for o in question.options if (o["key"] == "contact" and reply == 0) or (
        o["low"] < reply and (o["high"] is None or reply <= o["high"])))


def test_bands_follow_the_bots_own_thresholds_closest_first():
    assert [(b.key, b.low, b.high) for b in bands(HUNTER)] == [
        ("contact", 0, 0), ("zone", 0, 3), ("walk", 3, 4), ("run", 4, 8), ("range", 8, 18), ("farther", 18, 1000)]
    short = Activator("Nib", "hunter", 4.0, 8.0, control_zone=4.0, shoot_range=6.0)
    assert [b.key for b in bands(short)] == ["contact", "zone", "range", "run", "farther"]  # zone = Walk: one band
    assert "within a Walk" in bands(short)[1].label
    assert band_of(HUNTER, 3.5).key == "walk" and band_of(HUNTER, 0).key == "contact"


def test_R_ROLE_HUNTER_a_character_in_its_zone_needs_no_inches_walks_into_base_contact():
    asked, result = play(HUNTER, ["Ada", "Bo"], Directive(), [[], ["Ada"]])
    assert asked == [("contact", None), ("zone", None)]  # no line of sight, no distance asked
    assert [(a.action, a.target, a.move) for a in result.actions] == [("walk", "Ada", None), ("melee", "Ada", None)]
    assert 'up to 3"' in result.actions[0].reason and "into base contact" in result.actions[0].reason
    assert [m.character for m in result.marked] == ["Ada"]  # R-MARK-ACT from the zone tap


def test_R_ROLE_HUNTER_only_if_nobody_is_in_its_zone_who_can_it_see_which_is_closest_how_far():
    asked, result = play(HUNTER, ["Ada", "Bo"], Directive(), [[], [], ["Ada", "Bo"], "Bo", "range"])
    assert asked == [("contact", None), ("zone", None), ("line_of_sight", None), ("closest", None), ("band", "Bo")]
    assert [(a.action, a.target, a.move) for a in result.actions] == [("run", "Bo", 8.0), ("shoot", "Bo", None)]
    assert 'up to 10" away' in result.actions[1].reason  # (8, 18] less the 8" Run: no guessed inches


@pytest.mark.parametrize("distance, actions", [(30.0, ["run", "walk"]), (20.0, ["run", "shoot"])])
def test_R_ACT_FACTS_a_decision_no_band_fixes_offers_the_band_cut_at_the_figure_it_turns_on(distance, actions):
    """Issue 18 ("band, then measure it"): farther than 18", an 8" Run brings Ada in range only
    within 26" — so the band row itself offers "within 26"" and "farther than 26"" (one tap),
    never a band then the keyboard (R-ACT-FALLBACK, R-CMB-SHOOT)."""
    asked, result = play(HUNTER, ["Ada"], Directive(), [[], [], ["Ada"], distance])
    assert asked[-1] == ("band", "Ada") and len(asked) == 4
    assert [a.action for a in result.actions] == actions
    assert result.actions[1].fallback == (distance > 26)  # R-ACT-FALLBACK: out of range


def test_the_pieces_of_a_band_are_told_as_the_band_and_the_figure():
    asked = next_question(HUNTER, ["Ada"], Directive(), {"contact": [], "zone": [], "line_of_sight": ["Ada"]})
    farther = [o for o in asked.options if o["key"] == "farther"]
    assert [(o["label"], o.get("up_to"), o.get("more_than")) for o in farther] == [
        ('within 26"', 26.0, None), ('farther than 26"', None, 26.0)]


def test_typed_inches_still_decide_where_a_band_was_told():
    answers = {"contact": [], "zone": [], "line_of_sight": ["Ada"], "bands": {"Ada": "farther"}}
    asked = next_question(HUNTER, ["Ada"], Directive(), answers)
    assert asked.fact == "band" and [o.get("up_to") for o in asked.options] == [26.0, None]
    result = next_question(HUNTER, ["Ada"], Directive(), answers | {"inches": {"Ada": 30.0}})
    assert [a.action for a in result.actions] == ["run", "walk"] and result.actions[1].fallback


@pytest.mark.parametrize("distance", [19.0, 25.0, 26.0, 26.5, 30.0, 60.0])
def test_the_piece_tapped_reaches_the_inches_engine_decision(distance):
    """Either side of the figure, the decision is the one the measured inches give (no guess)."""
    asked, by_tap = play(HUNTER, ["Ada"], Directive(), [[], [], ["Ada"], distance])
    by_inches = activate(HUNTER, [Seen("Ada", distance, True, False)], Directive())
    assert asked[-1] == ("band", "Ada")
    assert [(a.action, a.target, a.fallback) for a in by_tap.actions] == [
        (a.action, a.target, a.fallback) for a in by_inches.actions]


def test_R_ACT_SHOOT_ANY_a_sentry_at_its_post_asked_only_what_the_rule_needs():
    sentry = Activator("Gate", "sentry", 4.0, 8.0, shoot_range=18.0)
    asked, result = play(sentry, ["Ada"], Directive(subject="Vault"), [[], [], "walk", ["Ada"], "range"])
    assert asked == [("contact", None), ("zone", None), ("band", "Vault"), ("line_of_sight", None), ("band", "Ada")]
    assert [a.action for a in result.actions] == ["shoot"] and [e.slot for e in result.empty] == [2]


def test_R_ROLE_PATROL_on_its_waypoint_the_next_waypoint_is_told_in_the_same_tap_then_a_conditional_shot():
    """R-ROLE-PATROL: standing on its waypoint it heads for the next one, whose distance is then
    the next question: "on B, C farther than 10"" tells both in one tap."""
    patrol = Activator("Beat", "patrol", 4.0, 8.0, shoot_range=12.0)
    asked, result = play(patrol, ["Bo"], Directive(waypoint="B", next_waypoint="C"),
                         [[], [], ("contact", "farther"), ["Bo"], "walk"])
    assert ("band", "C") not in asked and ("band", "B") in asked
    run, shot = result.actions
    assert (run.action, run.target, run.move) == ("run", "C", 8.0) and result.reached == ("B",)
    assert shot.conditional and 'more than 10"' in run.reason  # beyond a Run and the 50% Walk fallback


def test_a_rebooted_bot_needs_no_fact():
    asked, result = play(Activator("Warden", "hunter", 4.0, 8.0, rebooted=True), ["Ada"], Directive(), [])
    assert asked == [] and result.actions == ()


@pytest.mark.parametrize("distance", [0.0, 1.5, 3.0, 3.5, 6.0, 12.0, 18.0, 25.0, 40.0])
def test_with_inches_the_questions_reach_the_same_decision_as_the_inches_engine(distance):
    """Answering every distance question with the measured inches gives activate()'s answer."""
    facts = {"Ada": distance, "Bo": distance + 5}
    answers: dict = {"contact": [n for n, d in facts.items() if d == 0]}
    answers["zone"] = [n for n, d in facts.items() if 0 < d <= 3]
    answers["line_of_sight"] = ["Ada", "Bo"]
    answers["inches"] = facts
    result = next_question(HUNTER, ["Ada", "Bo"], Directive(), answers)
    expected = activate(HUNTER, [Seen(n, d, True, d == 0) for n, d in facts.items()], Directive())
    assert not isinstance(result, Question)
    assert [(a.action, a.target, a.move, a.reason) for a in result.actions] == [
        (a.action, a.target, a.move, a.reason) for a in expected.actions]


# --- in a game: told.next_fact and activate_bot with answers --------------------------------------


def test_in_a_game_the_page_asks_fact_by_fact_then_activate_bot_takes_the_answers():
    state = game(ADA, BEN, HUNTER_BOT, phase=2)
    first = next_fact(state, "hunter", Answers())
    assert first.fact == "contact" and [o["key"] for o in first.options] == ["Ada", "Ben"]
    told = {"contact": [], "zone": ["ada"]}
    decided = next_fact(state, "hunter", Answers(**told))
    assert [a.action for a in decided.actions] == ["walk", "melee"]
    state, log = run(state, {"type": "activate_bot", "bot_id": "hunter", "answers": told})
    decision = state.decision("hunter")
    assert [a.action for a in decision.actions] == ["walk", "melee"] and decision.actions[0].move is None
    assert state.character("ada").marked == 1 and state.character("ben").marked == 0  # R-MARK-ACT
    assert {s.character_id: s.distance for s in decision.seen} == {"ada": None, "ben": None}  # no guessed inches


def test_activate_bot_with_answers_refuses_while_a_fact_is_missing():
    state = game(ADA, HUNTER_BOT, phase=2)
    why = refused(state, {"type": "activate_bot", "bot_id": "hunter", "answers": {"contact": []}})
    assert "needs one more fact" in why.reason and "zone" in why.reason


def test_a_band_the_bot_does_not_have_is_refused():
    unarmed = HUNTER_BOT.model_copy(update={"shoot_range": None})
    state = game(ADA, unarmed, phase=2)
    why = refused(state, {"type": "activate_bot", "bot_id": "hunter",
                          "answers": {"contact": [], "zone": [], "line_of_sight": ["ada"], "bands": {"ada": "range"}}})
    assert "no such distance band" in why.reason


def test_only_the_games_characters_can_be_in_contact_in_the_zone_in_sight_or_closest():
    state = game(ADA, HUNTER_BOT, phase=2)
    for told in ({"contact": ["Vault"]}, {"contact": [], "zone": ["ghost"]}, {"closest": "nobody"}):
        why = refused(state, {"type": "activate_bot", "bot_id": "hunter", "answers": told})
        assert "Only the game's Characters" in why.reason


def test_R_ROLE_PATROL_by_taps_a_patrol_on_its_waypoint_heads_for_the_next_one():
    state = game(ADA, PATROL, phase=2)  # Route A B C, heading to A
    told = {"contact": [], "zone": [], "bands": {"A": "contact", "B": "reach"}, "line_of_sight": []}
    # within a Run and a half Walk: the Run and the 50% Walk fallback get there, no inches asked
    assert next_fact(state, "patrol", Answers(**told)).reached == ("A", "B")
    told["bands"]["B"] = "farther"  # beyond them: the fallback stops short of B, still no inches
    state, log = run(state, {"type": "activate_bot", "bot_id": "patrol", "answers": told})
    assert [(a.action, a.target) for a in state.decision("patrol").actions] == [("run", "B"), ("walk", "B")]
    assert state.bot("patrol").waypoint_index == 1


def test_a_waypoint_is_never_offered_the_weapon_range_band():
    """Issue 18: a waypoint is not shot at, so "within weapon range" cannot decide anything about it."""
    patrol = Activator("Beat", "patrol", 4.0, 8.0, shoot_range=12.0)
    assert [(b.key, b.high) for b in bands(patrol, aimed=False)] == [
        ("contact", 0), ("zone", 3), ("walk", 4), ("run", 8), ("reach", 10), ("farther", 1000)]
    asked = next_question(patrol, ["Bo"], Directive(waypoint="B"), {"contact": [], "zone": []})
    assert (asked.fact, asked.model) == ("band", "B")
    assert [o["key"] for o in asked.options if "then" not in o] == ["zone", "walk", "run", "reach", "farther"]
    assert {o["key"] for o in asked.options if "then" in o} == {"contact"}  # on B, and the next one's band
    assert all("weapon range" not in o["label"] for o in asked.options)
    asked, _ = play(patrol, ["Bo"], Directive(waypoint="B"), [[], [], "farther", ["Bo"], "range"])
    assert ("band", "Bo") in asked  # a Character still gets the range band


def test_the_range_band_told_for_a_waypoint_is_refused():
    state = game(ADA, PATROL.model_copy(update={"shoot_range": 12.0}), phase=2)
    why = refused(state, {"type": "activate_bot", "bot_id": "patrol",
                          "answers": {"contact": [], "zone": [], "bands": {"A": "range"}}})
    assert "no such distance band" in why.reason
