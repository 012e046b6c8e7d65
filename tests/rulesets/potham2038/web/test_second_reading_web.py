"""Rulings of the second reading on the game page (issue 8, Phase 3 / combat / Glitch side): the
odds describe the roll the button makes (R-CMB-WHO, R-GLITCH-REBOOT, R-SHOOT-COVER), Phase 3
holds AI-Bot shots until the melees are settled and offers a Shoot to a bot with an unused slot
(R-CMB-ORDER, R-CMB-SHOOT-ACTION), a Glitch can be recorded in any phase (R-GLITCH-ANY), a
second Event needs marking (R-EVENT-ONE), and the new house settings are on the house page."""

from __future__ import annotations

from app.rulesets.potham2038.models import DecidedAction, Decision
from app.rulesets.potham2038.web.odds import melee_odds, shoot_odds
from tests.rulesets.potham2038.web.test_house_rules import house_form, saved_house
from tests.support.html import parse
from tests.support.turn_games import GLITCH_REBOOT, HX, make_game, roster_state, with_bot
from tests.support.turn_play import Table


def test_R_GLITCH_REBOOT_the_odds_shown_say_a_rebooted_bot_rolls_no_defense():
    """2 Red against a rebooted bot's 3 White: 89% (8/9), not the 28% of a Defense roll."""
    awake = with_bot(roster_state(), "sent", defense={"white": 3})
    rebooted = with_bot(awake, "sent", glitches=[GLITCH_REBOOT])
    ada = awake.character("ada")
    assert melee_odds(awake, awake.bot("sent"), ada, "character")["normal"]["damage"] == "28%"
    odds = melee_odds(rebooted, rebooted.bot("sent"), ada, "character")["normal"]
    assert odds["damage"] == "89%" and "rebooted" in odds["defense"]
    assert shoot_odds(rebooted, ada, rebooted.bot("sent"))["damage"] == "89%"


def test_R_GLITCH_REBOOT_a_rebooted_bot_cannot_attack_and_the_odds_say_so():
    state = with_bot(roster_state(), "hunt", glitches=[GLITCH_REBOOT])
    odds = melee_odds(state, state.bot("hunt"), state.character("ada"))
    assert "cannot attack" in odds["normal"]["error"]


def test_R_CMB_WHO_the_engagement_odds_follow_the_attacker_chosen_on_the_form(client, session):
    """Item 9: the panel used to keep showing the points' attacker after a Special Rule changed it."""
    game = make_game(session, roster_state(phase=3))
    url = f"/g/{game.edit_token}/turn/melee-odds"
    by_points = parse(client.get(url, params={"bot_id": "hunt", "character_id": "ada"}, headers=HX).text)
    assert "Hunter-1 attacks." in by_points.text() and "3 red against 2 white" in by_points.text()
    ruled = parse(client.get(url, params={"bot_id": "hunt", "character_id": "ada", "attacker": "character"},
                             headers=HX).text)
    assert "Ada attacks." in ruled.text() and "2 red against 2 white" in ruled.text()


def phase3_state():
    """Hunter-1 decided a melee on Ada; Sentry-1 (18" gun) activated and decided nothing."""
    melee = DecidedAction(slot=1, family="attack", action="melee", phase=3, target="Ada", target_id="ada",
                          reason="In contact.", rule="R-CONTACT-MELEE")
    return roster_state(phase=3, decisions=[Decision(bot_id="hunt", turn=1, actions=[melee]),
                                            Decision(bot_id="sent", turn=1)])


def test_R_CMB_ORDER_phase_3_holds_shots_until_the_melee_then_an_unused_slot_may_shoot(client, session):
    table = Table(client, make_game(session, phase3_state()).edit_token)
    shot = table.page.by_id("shot-sent")
    assert "may shoot with an unused action" in shot.text()
    assert "Hunter-1 ⚔ Ada" in table.page.by_id("shots-held").text()
    buttons = shot.all("button", type="submit")
    assert buttons and all("disabled" in b.attrs for b in buttons)  # "Shoot" and the one-tap "Shoot: … in sight and in range now"
    table.submit("melee-hunt", dice="app")
    assert not table.page.has_id("shots-held")
    table.submit("shoot-sent", character_id="bo", line_of_sight="true", in_range="true", cover="heavy",
                 dice="app")
    log = table.panel("log").text()
    assert "Sentry-1" in log and "heavy cover" in log


def test_R_SHOOT_COVER_the_shot_odds_follow_the_cover_on_the_form(client, session):
    game = make_game(session, phase3_state())
    url = f"/g/{game.edit_token}/turn/shot-odds"
    bare = parse(client.get(url, params={"bot_id": "sent", "character_id": "ada", "cover": "none"}).text)
    heavy = parse(client.get(url, params={"bot_id": "sent", "character_id": "ada", "cover": "heavy"}).text)
    assert "against 2 white" in bare.text() and "against 4 white" in heavy.text()


def test_R_GLITCH_ANY_the_player_records_a_glitch_from_the_page_in_any_phase(client, session):
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    table.open("glitch")
    table.submit("glitch", bot_id="hunt", result="reboot", source="Event: Power surge")
    assert "Power surge" in table.panel("log").text()
    assert "rebooted" in table.status().text().lower() or "Reboot" in table.panel("log").text()


def test_R_EVENT_ONE_the_page_refuses_a_second_event_unless_marked_drawn_by_an_effect(client, session):
    table = Table(client, make_game(session, roster_state(phase=2)).edit_token)
    table.submit("event", title="Storm")
    answer = table.submit("event", expect=400, title="Blackout")
    assert "One Event per turn" in answer.by_id("form-event").one(cls="form-error").text()
    table.submit("event", title="Blackout", by_effect="true")
    assert "Drawn by an effect" in table.panel("log").text()


def test_R_CMB_PUSH_R_CMB_COUNTER_R_DISTRACTED_the_house_page_saves_the_new_settings(client, session):
    game = make_game(session)
    form = house_form(push_on_damage="false", counter_attack_rule="melee_as_defense", distracted_colour="red",
                      **{"glitch_table.3.low": "", "glitch_table.0.result": "free_action",
                         "glitch_table.0.action": "shoot"})
    r = client.post(f"/g/{game.edit_token}/house", data=form, headers=HX)
    assert r.status_code == 200, r.text
    house = saved_house(session, game)
    assert (house.push_on_damage, house.counter_attack_rule, house.distracted_colour) == (
        False, "melee_as_defense", "red")
    assert (house.glitch_table[0].result, house.glitch_table[0].action) == ("free_action", "shoot")


def test_R_GLITCH_REBOOT_R_CMB_PUSH_the_rules_api_takes_the_new_fields_and_keeps_its_names(client):
    odds = client.post("/api/rules/odds", json={"attack": {"pool": {"red": 2}},
                                                 "defense": {"pool": {"white": 3}, "rebooted": True}}).json()
    assert round(odds["p_damage"], 3) == 0.889
    body = {"npc": {"name": "Warden-2", "points": 60, "health": 4}, "character": {"name": "Ada", "points": 45},
            "rolls": {"npc": {"hits": 2, "criticals": 0}, "character": {"hits": 1, "criticals": 0}}}
    melee = client.post("/api/rules/melee", json=body).json()
    assert (melee["outcome"], melee["push_back"], melee["damage_push_back"]) == ("damage", None, "Ada")
    off = client.post("/api/rules/melee", json={**body, "push_on_damage": False}).json()
    assert off["damage_push_back"] is None
    rebooted = client.post("/api/rules/melee", json={**body, "attacker": "character",
                                                      "npc": {**body["npc"], "rebooted": True}}).json()
    assert rebooted["defense_total"] == 0
    # R-CMB-WHO (third reading): a rebooted bot never attacks, so by default the Character does
    by_default = client.post("/api/rules/melee", json={**body, "npc": {**body["npc"], "rebooted": True}})
    assert by_default.status_code == 200 and by_default.json()["attacker"] == "character"
    assert client.post("/api/rules/melee", json={**body, "attacker": "npc",
                                                 "npc": {**body["npc"], "rebooted": True}}).status_code == 422
