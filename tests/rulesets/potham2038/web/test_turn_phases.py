"""The turn panel, phase by phase, played through its own forms (what the page sends)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.combat import who_attacks
from app.rulesets.potham2038.dice import attack_odds
from app.rulesets.potham2038.models import DecidedAction, Decision
from app.web.view import percent
from tests.support.html import parse
from tests.support.turn_games import make_game, roster_state, with_character
from tests.support.turn_play import Table, facts


@pytest.fixture
def table(client, session):
    return Table(client, make_game(session).edit_token)


def in_phase(client, session, phase, **changes):
    return Table(client, make_game(session, roster_state(phase=phase, **changes)).edit_token)


def labelled(page) -> list[str]:
    """Names of form controls without a label (for=, wrapping label or aria-label)."""
    ids = {n.attrs.get("for") for n in page.all("label")}
    missing = []
    for n in page.walk():
        if n.tag not in ("input", "select", "textarea") or n.attrs.get("type") == "hidden":
            continue
        wrapped, p = False, n.parent
        while p is not None:
            wrapped = wrapped or p.tag == "label"
            p = p.parent
        if not (wrapped or n.attrs.get("aria-label") or n.attrs.get("id") in ids):
            missing.append(n.attrs.get("name", "?"))
    return missing


@pytest.mark.parametrize("phase", [1, 2, 3, 4])
def test_every_input_of_every_phase_is_labelled(client, session, phase):
    table = in_phase(client, session, phase)
    page = table.page
    assert page.by_id("panel-turn").attrs["data-phase"] == str(phase)
    # the folded forms and the dice by hand fetched when opened too (issue 21)
    folds = [table.open_dice(lazy.parent.attrs["id"].removesuffix("-dice")) if "data-by-hand" in lazy.parent.attrs
             else table.open(lazy.parent.attrs["id"].removeprefix("section-")) for lazy in page.all(cls="lazy-form")]
    assert labelled(page) == [] and [labelled(fold) for fold in folds] == [[]] * len(folds)


@pytest.mark.parametrize("phase, heading", [(1, "Movement"), (2, "Activate next"), (3, "Engagements"),
                                            (4, "Position checks")])
def test_each_phase_has_its_own_partial(client, session, phase, heading):
    page = in_phase(client, session, phase).page
    assert page.has_id(f"phase-{phase}") and heading in page.by_id(f"phase-{phase}").text()


# --- Phase 1 ----------------------------------------------------------------------------------


def test_R_MARK_MOVE_each_zone_entry_re_entries_too_marks_the_moving_character(table):
    answer = table.submit("move", character_id="ada", **{"entries*hunt": "2", "entries*sent": "1"})
    assert "Marked 3" in answer.one("li", data_name="Ada").text()  # the status panel, out of band
    assert "Ada +3 Marked (now 3)" in answer.by_id("turn-news").text()
    assert "R-MARK-MOVE" in answer.by_id("panel-log").text()


@pytest.mark.parametrize("kind, zones, marked, danger", [("noise", 2, 1, 1), ("alarm", 2, 2, 1), ("noise", 0, 0, 0)],
                         ids=["R-NOISE one Marked in total", "R-ALARM one Marked per zone", "R-NOISE outside every zone"])
def test_noise_and_alarm_show_their_marked_and_danger_at_once(table, kind, zones, marked, danger):
    answer = table.submit("noise", character_id="bo", kind=kind, **{"bot_ids[]": ["hunt", "sent"][:zones]})
    assert f"Marked {marked}" in answer.one("li", data_name="Bo <b>").text()
    assert answer.by_id("status-danger").text() == str(danger)


def test_a_character_shoot_with_entered_dice_damages_the_bot(table):
    table.open("shoot")
    answer = table.submit("shoot", character_id="ada", target_id="work", dice="entered",
                          **{"attack.hits": "3", "attack.criticals": "1", "defense.hits": "1"})
    assert "Destroyed" in answer.one("li", data_name="Worker-1").text()  # 3 - 1 + 1 Critical = 3 damage
    assert "dice entered" in answer.by_id("step-1").text()


def test_a_character_shoot_rolled_by_the_app_ignores_typed_dice_and_shows_the_faces(table):
    table.open("shoot")
    answer = table.submit("shoot", character_id="ada", target_id="hunt", dice="app", **{"attack.hits": "9"})
    assert "dice rolled by the app" in answer.by_id("step-1").text()
    assert len(answer.by_id("step-1").all(cls="face")) == 2 + 2  # 2 red attack + 2 white defense
    assert "9 hits" not in answer.by_id("step-1").text()


@pytest.mark.parametrize("cover, defense", [("none", {"white": 2}), ("heavy", {"white": 4})],
                         ids=["R-CMB-SHOOT no cover", "R-CMB-SHOOT heavy cover adds two dice"])
def test_the_shoot_odds_follow_the_form_and_are_exact(client, table, cover, defense):
    r = client.get(f"/g/{table.token}/turn/odds", params={"character_id": "ada", "target_id": "hunt", "cover": cover})
    odds = attack_odds({"red": 2}, defense, melee=False)
    text = parse(r.text).text()
    assert f"damage: {percent(odds.p_damage)}" in text
    assert f"2 red against {sum(defense.values())} white" in text


def test_R_HACK_a_second_luck_roll_in_a_turn_is_refused_in_place_keeping_the_form(table):
    table.open("luck")
    table.submit("luck", character_id="ada", stat="Hacking", dice="entered", black_die="success")
    answer = table.submit("luck", expect=400, character_id="ada", stat="Hacking")
    form = answer.by_id("form-luck")
    assert "already made the Luck Roll" in form.one(cls="form-error").text()
    assert form.field("stat").attrs["value"] == "Hacking"
    assert answer.by_id("section-luck").attrs.__contains__("open")


def test_invoking_distracted_needs_a_bot_in_contact_named_next_to_the_field(table):
    table.open("distracted")
    answer = table.submit("distracted", expect=422, character_id="ada")
    assert answer.by_id("form-distracted").one(cls="field-error").text()


def test_a_hack_against_a_bot_rolls_both_pools(table):
    table.open("hack")
    table.submit("hack", character_id="ada", stat="Melee", bot_id="sent", dice="entered",
                 **{"opposing.red": "1", "rolls.attempt.hits": "2", "rolls.opposing.hits": "1"})
    assert "succeeds: 2 against 1" in table.page.by_id("turn-news").text()


def test_the_next_phase_button_moves_to_phase_2(table):
    answer = table.submit("next-1")
    assert answer.has_id("phase-2") and "Phase 2" in answer.by_id("status-phase").text()


# --- Phase 2 ----------------------------------------------------------------------------------


def test_recording_the_event_applies_its_danger_and_marked(client, session):
    table = in_phase(client, session, 2)
    answer = table.submit("event", title="Blackout", danger="2", **{"marked.ada": "1"})
    assert answer.by_id("status-danger").text() == "2"
    assert "Marked 1" in answer.one("li", data_name="Ada").text()
    assert "Event: Blackout" in answer.by_id("section-event").text()


def test_moving_a_bot_in_the_activation_order_is_a_proposal_until_used(client, session):
    table = in_phase(client, session, 2)
    answer = table.submit("order", button="order-up-patr")
    assert [li.attrs["data-bot"] for li in answer.one("ol", cls="order-list").all("li")] == \
        ["Hunter-1", "Sentry-1", "Patrol-1", "Worker-1"]
    assert "HX-Trigger" not in table.response.headers and table.panel("log").has_id("step-1") is False
    answer = table.submit("order")
    assert "Activation order: Hunter-1, Sentry-1, Patrol-1, Worker-1." in answer.by_id("turn-news").text()
    assert "Activate Hunter-1" in answer.by_id("activate-heading").text()


@pytest.mark.parametrize("bot_id, role_field", [("hunt", "direction"), ("sent", "subject_distance"),
                                                ("work", "object_distance"), ("patr", "waypoint_distance")],
                         ids=["R-ROLE-HUNTER", "R-ROLE-SENTRY", "R-ROLE-WORKER", "R-ROLE-PATROL"])
def test_the_board_facts_form_asks_each_characters_facts_and_the_roles_own(client, session, bot_id, role_field):
    state = roster_state(phase=2, activation_order=[bot_id])
    page = Table(client, make_game(session, state).edit_token).page
    form = page.by_id("form-activate")
    assert form.field("bot_id").attrs["value"] == bot_id
    assert form.field(role_field).attrs["inputmode"] in ("decimal", "numeric")
    assert [f.attrs["data-character"] for f in form.all("fieldset", cls="fact")] == ["Ada", "Bo <b>"]
    assert form.field("characters.0.distance").attrs["inputmode"] == "decimal"


def test_activating_a_bot_shows_its_decision_card_and_announces_it(client, session):
    table = in_phase(client, session, 2, activation_order=["hunt"])
    answer = table.submit("activate", **facts((0, True, True), (5, False, False)))
    card = answer.by_id("card-hunt")
    actions = card.all("li", cls="card-action")
    assert [a.attrs["data-action"] for a in actions] == ["melee", "scan"]
    assert "R-MARK-ACT" in card.text() and "Ada +2" in card.one(cls="card-marked").text()
    assert all(a.one(cls="reason").text() for a in actions)
    # said once, in one sentence, by the page's polite live region; the cards are not a live region
    # of their own (their whole text would be read out again)
    assert card.parent.attrs.get("aria-live") is None
    said = answer.by_id("turn-announcer").text()
    assert said.startswith("Activation: Hunter-1, action 1: melee") and said.endswith(".")
    assert all(a.one(cls="reason").text() not in said for a in actions)
    assert "Marked 2" in answer.one("li", data_name="Ada").text()


def test_a_bots_form_never_offers_an_earlier_answer(client, session):
    """Facts belong to one activation (issue 9): after an undo, or a turn later, the form is empty,
    so no stale distance, line of sight or contact is ever decided on by mistake."""
    table = in_phase(client, session, 2, activation_order=["sent", "hunt"])
    table.submit("activate", subject_distance="2.5", **facts((7.5, True, False), (12, False, False)))
    table.client.post(f"/api/games/{table.token}/undo", json={})  # Sentry-1 is asked again
    form = table.panel().by_id("form-activate")
    assert form.field("characters.0.distance").attrs["value"] == ""
    assert "checked" not in form.one("input", type="checkbox", name="characters.0.line_of_sight").attrs
    assert form.field("subject_distance").attrs["value"] == ""


def test_a_missing_distance_is_shown_next_to_its_field_and_the_rest_is_kept(client, session):
    table = in_phase(client, session, 2, activation_order=["sent"])
    answer = table.submit("activate", expect=422, subject_distance="3",
                          **{"characters.0.distance": "far", "characters.1.distance": "4"})
    form = answer.by_id("form-activate")
    assert "Enter a number, like 2.5." in form.by_id("err-activate-characters-0-distance").text()
    assert form.field("characters.0.distance").attrs["value"] == "far"
    assert form.field("characters.1.distance").attrs["value"] == "4"


def test_a_role_fact_left_out_is_refused_by_the_engine_in_place(client, session):
    table = in_phase(client, session, 2, activation_order=["sent"])
    answer = table.submit("activate", expect=400, **facts((3, True, False), (9, False, False)))
    assert "measure subject distance" in answer.by_id("form-activate").one(cls="form-error").text()


# --- Phase 3 ----------------------------------------------------------------------------------


def phase3(client, session, *, sentry_shoots=True):
    """Hunter-1 in contact with Ada (melee), Sentry-1 sees Bo (Shoot), Worker-1 interacts."""
    table = in_phase(client, session, 2, activation_order=["hunt", "sent", "work", "patr"])
    table.submit("activate", **facts((0, False, True), (6, False, False)))
    table.submit("activate", subject_distance="7", **facts((10, False, False), (2, sentry_shoots, False)))
    table.submit("activate", object_distance="1", **facts((12, False, False), (12, False, False)))
    table.submit("activate", waypoint_distance="2", **facts((12, False, False), (12, False, False)))
    table.submit("next-2")
    return table


def test_an_engagement_shows_who_attacks_why_and_the_exact_odds(client, session):
    table = phase3(client, session)
    eng = table.page.by_id("engagement-hunt-ada")
    _, why = who_attacks(60, 45)  # R-CMB-WHO, in the combat rules' own words
    assert "Hunter-1 attacks." in eng.text() and why in eng.text()
    odds = attack_odds({"red": 3}, {"white": 2}, melee=True)
    box = eng.by_id("odds-melee-hunt").one(cls="odds").text()  # the exchange's odds (the counter-attack's fold away)
    assert f"Hunter-1 deals damage: {percent(odds.p_damage)}" in box
    assert f"2 or more damage: {percent(odds.damage_at_least[2])}" in box
    assert "counter-attacks" in eng.text()


def test_R_CMB_DANGER_a_melee_with_entered_dice_applies_damage_and_danger_once(client, session):
    table = phase3(client, session)
    table.open_dice("melee-hunt")
    answer = table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "3", "rolls.npc.criticals": "1",
                                                          "rolls.character.hits": "1"})
    assert "Health 0/3" in answer.one("li", data_name="Ada").text()  # 3 - 1 + 1 = 3 damage
    assert answer.by_id("status-danger").text() == "1"
    assert "Danger +1 is paid" in answer.by_id("phase-3").text()
    table.open_dice("melee-other")
    answer = table.submit("melee-other", bot_id="sent", character_id="bo", dice="entered",
                          **{"rolls.npc.hits": "0", "rolls.character.hits": "0"})
    assert answer.by_id("status-danger").text() == "1"  # once per phase
    assert "pushed back" in answer.by_id("turn-news").text()


def test_a_bot_shoot_rolled_by_the_app_logs_its_faces(client, session):
    table = phase3(client, session)
    assert table.page.has_id("shot-sent")
    table.submit("melee-hunt", dice="app")  # R-CMB-ORDER: AI-Bot shots come after every melee
    # R-ACT-FACTS: the Sentry moved before this shot, so the form asks line of sight and range afresh
    answer = table.submit("shoot-sent", dice="app", line_of_sight="true", in_range="true")
    assert "dice rolled by the app" in answer.all("li", cls="log-step")[0].text()
    assert answer.all("li", cls="log-step")[0].all(cls="face")
    card = answer.by_id("shot-sent")  # the result replaces the form on the card (issue 15)
    assert not answer.has_id("form-shoot-sent") and card.one(cls="p3-result").all(cls="face")


def test_R_CMB_SHOOT_a_shot_without_line_of_sight_is_an_answer_not_an_error(client, session):
    """Found in play (docs/rules.md § 5.6): "Shoot as ticked" with line of sight unticked was a 400
    with no way on; it is recorded: the shot does not happen and the bot's Shoot is skipped."""
    table = phase3(client, session)
    table.submit("melee-hunt", dice="app")  # R-CMB-ORDER: AI-Bot shots come after every melee
    answer = table.submit("shoot-sent", line_of_sight="false")
    assert "cannot shoot: it has no line of sight" in answer.all("li", cls="log-step")[0].text()
    assert not answer.has_id("form-shoot-sent")


@pytest.mark.parametrize("done, word", [("true", "done"), ("false", "skipped")])
def test_R_ACT_FALLBACK_other_pending_actions_are_marked_done_or_skipped(client, session, done, word):
    smash = DecidedAction(slot=2, family="attack", action="smash", phase=3, target="Door", reason="It smashes.",
                          rule="R-ACT-TWO", status="pending")
    state = roster_state(phase=3, decisions=[Decision(bot_id="work", turn=1, actions=[smash])])
    table = Table(client, make_game(session, state).edit_token)
    assert "Smash" in table.page.one(cls="fallback", data_bot="Worker-1").text()
    answer = table.submit(f"fallback-work-2-{done}")
    assert f"action 2 (smash) is {word}" in answer.by_id("turn-news").text()
    assert not answer.all(cls="fallback", data_bot="Worker-1")


# --- Phase 4 ----------------------------------------------------------------------------------


def test_R_END_CHECK_a_failed_sentry_check_rolls_a_glitch_and_shows_it(client, session):
    table = in_phase(client, session, 4, house=roster_state().house.model_copy(update={"dice_mode": "entered"}))
    answer = table.submit("check-sent", glitch_roll="1", button=("passed", "false"))
    assert "Rebooted · 1 turn left" in answer.one("li", data_name="Sentry-1").text()
    assert "d6 = 1" in answer.by_id("turn-news").text()
    assert "Sentry-1: failed" in answer.one("ul", cls="check-results").text()


def test_R_GLITCH_a_glitch_die_rolled_at_the_table_is_entered_on_the_check_while_the_app_rolls_the_rest(client, session):
    """Issue 18: the Glitch die's field is on the check card in "App rolls" mode too (no mode switch)."""
    table = in_phase(client, session, 4)
    assert roster_state().house.dice_mode == "app"
    answer = table.submit("check-sent", glitch_roll="3", button=("passed", "false"))
    assert "d6 = 3" in answer.by_id("turn-news").text()
    assert "overcharged" in answer.by_id("turn-news").text().lower()  # 3-4 on the default table


def test_ending_the_turn_before_the_checks_is_refused_in_place(client, session):
    table = in_phase(client, session, 4)
    answer = table.submit("end-turn", expect=400)
    assert "Answer the position check first" in answer.by_id("form-end-turn").one(cls="form-error").text()


def test_R_MARK_CLEAR_ending_the_turn_removes_marked_and_advances(client, session):
    state = with_character(roster_state(phase=4), "ada", marked=3)
    table = Table(client, make_game(session, state).edit_token)
    table.submit("check-sent", button=("passed", "true"))
    table.submit("check-patr", button=("passed", "true"))
    answer = table.submit("end-turn")
    assert "Turn 2" in answer.by_id("status-turn").text() and answer.has_id("phase-1")
    assert "Marked 0" in answer.one("li", data_name="Ada").text()


@pytest.mark.parametrize("status, title", [("failed", "Mission failed"), ("ended", "The game is over")],
                         ids=["R-DANGER above the limit", "R-DANGER at the limit after the turn"])
def test_the_game_over_screen_sums_up(client, session, status, title):
    table = in_phase(client, session, 4, status=status, danger=24)
    over = table.page.by_id("game-over")
    assert title in over.text() and "24 / 24" in over.text()
    assert not table.page.has_id("phase-4")


def test_R_DANGER_final_turn_end_shows_the_game_over_screen(client, session):
    table = in_phase(client, session, 4, status="final_turn", danger=24)
    table.submit("check-sent", button=("passed", "true"))
    table.submit("check-patr", button=("passed", "true"))
    answer = table.submit("end-turn")
    assert "The game is over" in answer.by_id("game-over").text()


def test_without_javascript_a_refusal_answers_the_whole_page_with_the_message_in_its_form(client, session):
    game = make_game(session)
    data = {"type": "luck_roll", "form": "luck", "character_id": "ada", "stat": "Melee", "seen": "0"}
    r = client.post(f"/g/{game.edit_token}/turn", data=data)
    assert r.status_code == 400
    page = parse(r.text)
    assert "has dice in Melee" in page.by_id("form-luck").one(cls="form-error").text()
    assert page.by_id("form-luck").field("stat").attrs["value"] == "Melee" and page.has_id("panel-log")


def test_without_javascript_a_command_redirects_back_to_the_game(client, session):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/turn", data={"type": "next_phase"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{game.edit_token}"


def test_a_character_ticked_in_base_contact_needs_no_typed_distance(client, session):
    """Issue 9: base contact is 0" (R-ZONE, base edge to base edge), so the tick alone answers it."""
    table = in_phase(client, session, 2, activation_order=["hunt"])
    table.submit("activate", **{"characters.0.line_of_sight": "true", "characters.0.base_contact": "true",
                                "characters.1.distance": "8"})
    decision = client.get(f"/api/games/{table.token}").json()["decisions"][0]
    assert [a["action"] for a in decision["actions"]][0] == "melee"
