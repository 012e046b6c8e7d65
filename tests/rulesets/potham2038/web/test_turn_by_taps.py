"""Phase 2 by taps (issue 9, app/rulesets/potham2038/web/asking.py): each question a row of tap buttons, asked in the
order the rule needs it; the last tap records the activation the answers fix. Facts belong to
one activation (R-ACT-FACTS): nothing is carried from one to the next."""

from __future__ import annotations

import json

from app.rulesets.potham2038.models import GlitchEffect
from tests.support.turn_games import make_game, roster_state, with_bot
from tests.support.turn_play import Table


def in_phase2(client, session, order, state=None):
    state = state or roster_state()
    return Table(client, make_game(session, state.model_copy(update={"phase": 2, "activation_order": order,
                                                                       "event": "Blackout"})).edit_token)


def asked(table: Table) -> str:
    return table.page.by_id("ask-question").text()


def taps(table: Table) -> list[str]:
    return [b.text() for b in table.page.by_id("form-ask").all("button")]


def decision(table: Table, bot_id: str) -> list[tuple[str, str | None]]:
    state = table.client.get(f"/api/games/{table.token}").json()
    d = next(d for d in state["decisions"] if d["bot_id"] == bot_id)
    return [(a["action"], a.get("target_id")) for a in d["actions"]]


def test_R_CONTACT_MELEE_the_first_question_is_who_is_inside_the_zone_base_contact_in_the_same_tap(client, session):
    table = in_phase2(client, session, ["hunt"])
    assert asked(table).startswith('Who is inside Hunter-1\'s 3" zone?')
    assert taps(table) == ["Nobody inside; it sees nobody", "Nobody inside; it sees Ada", "Nobody inside; it sees Bo <b>",
                           "Nobody inside; it sees both", "Ada", "Ada, in base contact", "Bo <b>",
                           "Bo <b>, in base contact", "Both inside", "Both in base contact"]
    table.submit("ask", button="ask-contact-ada")  # one tap: Ada touches it, Bo is outside
    assert asked(table) == "Who can Hunter-1 see?"
    told = json.loads(table.page.by_id("form-ask").field("told").attrs["value"])
    assert told["contact"] == ["ada"] and told["zone"] == ["ada"]
    seq = table.page.by_id("panel-turn").attrs["data-seq"]
    answer = table.submit("ask", button="ask-line_of_sight-ada")  # the last tap records the activation
    assert int(answer.by_id("panel-turn").attrs["data-seq"]) == int(seq) + 1
    assert decision(table, "hunt") == [("melee", "ada"), ("scan", "ada")]
    assert answer.has_id("card-hunt")


def test_R_ROLE_WORKER_nobody_in_its_zone_then_its_object_as_a_band_two_taps(client, session):
    table = in_phase2(client, session, ["work"])
    table.submit("ask", button="ask-nobody")
    assert asked(table) == "How far is Console from Worker-1?"
    assert 'Within a Walk (4")' in taps(table)
    table.submit("ask", button="ask-band-walk")
    assert decision(table, "work") == [("walk", None), ("activate", None)]


def test_exact_inches_stay_a_typed_option_and_decide_the_same(client, session):
    table = in_phase2(client, session, ["work"])
    table.submit("ask", button="ask-nobody")
    table.submit("ask-inches", button=("measured", "Console"), inches="3")
    assert decision(table, "work") == [("walk", None), ("activate", None)]
    state = table.client.get(f"/api/games/{table.token}").json()
    assert [s["distance"] for s in state["decisions"][0]["seen"]] == [None, None]  # no Character distance invented


def test_inches_that_are_not_a_number_are_asked_again_with_the_answers_kept(client, session):
    table = in_phase2(client, session, ["work"])
    table.submit("ask", button="ask-nobody")
    answer = table.submit("ask-inches", expect=422, button=("measured", "Console"), inches="far")
    assert "Enter a number" in answer.by_id("panel-turn").text()
    assert asked(table) == "How far is Console from Worker-1?"  # the zone answer is kept
    assert json.loads(table.page.by_id("form-ask").field("told").attrs["value"])["zone"] == []


def test_R_ACT_FACTS_the_next_bot_starts_with_no_answer_of_the_last(client, session):
    table = in_phase2(client, session, ["hunt", "sent"])
    table.submit("ask", button="ask-contact-ada")
    table.submit("ask", button="ask-line_of_sight-ada")
    assert "Activate Sentry-1" in table.page.by_id("activate-heading").text()
    assert json.loads(table.page.by_id("form-ask").field("told").attrs["value"]) == {}
    assert asked(table).startswith('Who is inside Sentry-1\'s 3" zone?')


def test_several_characters_at_once_are_told_on_one_list(client, session):
    table = in_phase2(client, session, ["hunt"])
    table.submit("ask-several", button=("several", "zone"), **{"at.ada": "contact", "at.bo": "zone"})
    told = json.loads(table.page.by_id("form-ask").field("told").attrs["value"])
    assert told["contact"] == ["ada"] and sorted(told["zone"]) == ["ada", "bo"]


def test_a_rebooted_bot_is_decided_by_one_tap(client, session):
    state = with_bot(roster_state(), "hunt", glitches=[GlitchEffect(result="reboot", turns_left=1)])
    table = in_phase2(client, session, ["hunt"], state)
    assert taps(table) == ["Decide Hunter-1's actions"]
    table.submit("ask", button="ask-decide")
    assert decision(table, "hunt") == []


def test_a_tampered_answer_is_refused_in_place_never_a_500(client, session):
    table = in_phase2(client, session, ["work"])
    answer = table.submit("ask", expect=400, button=("reply", json.dumps({"bands": {"Console": "range"}})))
    assert "no such distance band" in answer.by_id("panel-turn").text()
    table.submit("ask", expect=200, button=("reply", "not json"))  # ignored: the same question again


def test_R_EVENT_ONE_an_event_that_only_moves_danger_is_one_tap(client, session):
    table = Table(client, make_game(session, roster_state(phase=2)).edit_token)
    table.submit("event-quick", button="event-danger-1")
    state = table.client.get(f"/api/games/{table.token}").json()
    assert (state["event"], state["danger"]) == ("Event card", 1)
    assert not table.page.has_id("form-event-quick")  # one Event per turn: the quick row is gone


def test_R_ACT_FACTS_a_shot_planned_before_a_move_is_confirmed_by_one_tap_that_says_both_facts(client, session):
    table = in_phase2(client, session, ["sent"])
    table.submit("ask", button="ask-zone-bo")  # Bo inside its zone, nobody in contact
    table.submit("ask", button="ask-band-run")  # its Vault 4-8" away: it walks back first
    table.submit("ask", button="ask-line_of_sight-bo")
    assert decision(table, "sent") == [("walk", None), ("shoot", "bo")]
    table.submit("next-2")
    shot = table.page.by_id("form-shoot-sent")
    assert "checked" not in shot.one("input", type="checkbox", name="line_of_sight").attrs  # asked afresh
    assert "in sight and in range now" in shot.by_id("shoot-sent-confirm").text()
    table.submit("shoot-sent", button="shoot-sent-confirm", dice="app")
    log = table.panel("log").text()
    assert "Sentry-1" in log and "Bo" in log
    state = table.client.get(f"/api/games/{table.token}").json()
    assert state["decisions"][0]["actions"][1]["status"] == "done"  # the shot was rolled, not refused


def test_a_confirm_button_confirms_only_the_facts_it_may(client, session):
    from app.rulesets.potham2038.web.turn import confirmed

    items = [("type", "bot_shoot"), ("line_of_sight", "false"), ("_confirm", "line_of_sight type in_range")]
    assert dict(confirmed(items)) == {"type": "bot_shoot", "_confirm": "line_of_sight type in_range",
                                      "line_of_sight": "true", "in_range": "true"}


def test_hostile_answers_are_refused_in_place_never_a_500(client, session):
    table = in_phase2(client, session, ["work"])
    url = f"/g/{table.token}/turn/ask"
    for data in ({"bot_id": "work", "told": "[1]", "reply": '{"zone": "x"}'},
                 {"bot_id": "work", "told": '{"zone": 5}', "reply": '{"bands": {"Console": "far"}}'},
                 {"bot_id": "nobody", "reply": '{"zone": []}'},
                 {"bot_id": "work", "measured": "Console", "inches": "-3"},
                 {"bot_id": "work", "several": "zone", "model[]": ["ada", "ghost"], "at.ghost": "contact"}):
        r = client.post(url, data=data, headers={"HX-Request": "true"})
        assert r.status_code in (400, 422), (data, r.status_code)
        assert "form-error" in r.text


def test_an_activation_already_made_is_not_asked_again(client, session):
    table = in_phase2(client, session, ["work", "hunt"])
    stale = table.page  # a second screen still showing Worker-1's first question
    table.submit("ask", button="ask-nobody")
    table.submit("ask", button="ask-band-walk")
    table.page = stale
    answer = table.submit("ask", expect=400, button="ask-nobody")
    assert "moved on" in answer.by_id("panel-turn").text()


def test_R_ROLE_HUNTER_nobody_in_its_zone_and_nobody_in_sight_is_one_tap_then_the_d8(client, session):
    """R-ROLE-HUNTER: with nobody inside its zone a Hunter goes for the closest Character in its
    line of sight, so "who can it see?" always comes next: the "Nobody" tap says it too (R-LOS)."""
    table = in_phase2(client, session, ["hunt"])
    table.submit("ask", button="ask-nobody-sees-nobody")
    assert "random direction" in asked(table)
    assert taps(table)[:3] == ["1 · ahead", "2 · ahead right", "3 · right"] and taps(table)[-1] == "Let the app roll"
    table.submit("ask", button="ask-direction-3")
    state = table.client.get(f"/api/games/{table.token}").json()
    assert [(a["action"], a["direction"]) for a in state["decisions"][0]["actions"]][:1] == [("random_move", 3)]


def test_R_ROLE_HUNTER_seeing_both_asks_which_is_closest_then_how_far(client, session):
    table = in_phase2(client, session, ["hunt"])
    table.submit("ask", button="ask-nobody-sees-everyone")
    assert asked(table) == "Which of them is closest to Hunter-1?"
    table.submit("ask", button="ask-closest-bo")
    assert asked(table) == "How far is Bo <b> from Hunter-1?"
    table.submit("ask", button="ask-band-walk")
    assert decision(table, "hunt")[0] == ("walk", "bo")


def test_without_javascript_each_tap_answers_the_page_and_the_last_one_records(client, session):
    game = make_game(session, roster_state(phase=2, activation_order=["work"], event="Blackout"))
    url = f"/g/{game.edit_token}/turn/ask"
    page = client.post(url, data={"bot_id": "work", "told": "{}", "reply": '{"contact": [], "zone": []}'})
    assert page.status_code == 200 and "How far is Console from Worker-1?" in page.text
    done = client.post(url, data={"bot_id": "work", "told": '{"contact": [], "zone": []}',
                                  "reply": '{"bands": {"Console": "walk"}}'}, follow_redirects=False)
    assert done.status_code == 303
    assert client.get(f"/api/games/{game.edit_token}").json()["decisions"][0]["bot_id"] == "work"


def test_a_game_of_another_ruleset_has_no_phase_2_questions(client):
    game = client.post("/api/games", json={"name": "Ruins", "ruleset": "zone"}).json()
    r = client.post(f"/g/{game['edit_token']}/turn/ask", data={"bot_id": "x", "reply": "{}"},
                    headers={"HX-Request": "true"})
    assert r.status_code == 404


def test_R_ACT_FACTS_a_worker_left_working_its_object_is_offered_still_in_contact_one_tap(client, session):
    """Issue 18: a Worker that worked Console last turn is offered "still in base contact" for
    Console; the tap is the player's report (inches 0), the bands stay for when it moved."""
    state = roster_state().model_copy(update={"worked_last_turn": {"work": "Console"}})
    table = in_phase2(client, session, ["work"], state)
    table.submit("ask", button="ask-nobody")
    assert asked(table) == "How far is Console from Worker-1?"
    assert taps(table)[0] == "Still in base contact with Console"
    assert 'Within a Walk (4")' in taps(table)  # never assumed: the other answers stay
    table.submit("ask", button="ask-still")
    assert decision(table, "work") == [("activate", None)]  # in contact: it works at once


def test_R_ACT_FACTS_no_still_in_contact_offer_without_last_turn_s_work(client, session):
    table = in_phase2(client, session, ["work"])
    table.submit("ask", button="ask-nobody")
    assert "Still in base contact with Console" not in taps(table)
    assert not table.page.by_id("form-ask").all("button", data_same="Console")


def test_R_ACT_FACTS_nobody_near_and_still_at_its_object_is_one_tap_for_the_whole_worker(client, session):
    state = roster_state().model_copy(update={"worked_last_turn": {"work": "Console"}})
    table = in_phase2(client, session, ["work"], state)
    assert taps(table)[:2] == ["Nobody", "Nobody, and still in base contact with Console"]
    table.submit("ask", button="ask-nobody-still")  # the player's report of both facts
    assert decision(table, "work") == [("activate", None)]


def test_R_ACT_FACTS_a_worker_with_no_gun_is_never_asked_who_it_sees_with_nobody_inside(client, session):
    """Nobody inside its zone, a Worker without a ranged weapon can neither Scan nor Shoot: its
    sight cannot change the decision, so the "Nobody" tap asks nothing about it."""
    table = in_phase2(client, session, ["work"])
    assert "Nobody" in taps(table) and not [t for t in taps(table) if "sees" in t]


def test_R_LOS_nobody_inside_and_who_it_sees_is_told_in_one_tap_for_a_sentry_with_a_gun(client, session):
    """R-ACT-SHOOT-ANY: a Sentry with a loaded gun shoots a Character in sight and range from its
    post or on its way back, so sight is asked on every path: one tap tells both facts."""
    table = in_phase2(client, session, ["sent"])
    table.submit("ask", button="ask-nobody-sees-ada")
    told = json.loads(table.page.by_id("form-ask").field("told").attrs["value"])
    assert (told["contact"], told["zone"], told["line_of_sight"]) == ([], [], ["ada"])
    assert asked(table) == "How far is Vault from Sentry-1?"


def test_R_ROLE_HUNTER_both_in_base_contact_is_one_tap_then_who_it_sees(client, session):
    """R-CONTACT-MELEE: both Characters touching it is one tap; sight is asked next because the
    second slot Scans one in sight inside its zone (R-SCAN, R-SLOT2-PRIORITY)."""
    table = in_phase2(client, session, ["hunt"])
    table.submit("ask", button="ask-contact-both")
    told = json.loads(table.page.by_id("form-ask").field("told").attrs["value"])
    assert (told["contact"], told["zone"], "line_of_sight" in told) == (["ada", "bo"], ["ada", "bo"], False)
    assert asked(table) == "Who can Hunter-1 see?"
    table.submit("ask", button="ask-line_of_sight-bo")
    assert decision(table, "hunt")[1] == ("scan", "bo")


def test_R_ROLE_PATROL_on_its_waypoint_and_the_next_one_s_band_is_one_tap(client, session):
    """R-ROLE-PATROL: standing on waypoint A it heads for B, whose distance is the next question
    then: "On A, B within a Walk (4")" tells both, and the activation is decided."""
    table = in_phase2(client, session, ["patr"])
    table.submit("ask", button="ask-nobody")
    assert asked(table) == "How far is A from Patrol-1?"
    assert 'On A, B within a Walk (4")' in taps(table) and 'Within a Walk (4")' in taps(table)
    table.submit("ask", button="ask-band-contact-then-walk")
    state = table.client.get(f"/api/games/{table.token}").json()
    actions = state["decisions"][0]["actions"]
    # up to 4": it gets there; R-PATROL-NEXT: with nothing to Shoot or Scan, the 50% Walk goes on toward C
    assert [(a["action"], a["fallback"], a["target"]) for a in actions] == [("walk", False, "B"), ("walk", True, "C")]
    assert "walks up to 4\" to B" in actions[0]["reason"]
    assert next(b for b in state["bots"] if b["id"] == "patr")["waypoint_index"] == 2  # A and B reached: on to C


def test_R_SENTRY_INTRUDER_the_subject_within_1_inch_is_a_tap_not_the_keyboard(client, session):
    """R-SENTRY-INTRUDER: with Ada inside its 3" zone a Sentry charges only when Vault + Ada ≤ its
    4" Walk, sure within 1" of Vault: the band row offers "Within 1"" and the charge is decided."""
    table = in_phase2(client, session, ["sent"])
    table.submit("ask", button="ask-zone-ada")
    assert asked(table) == "How far is Vault from Sentry-1?"
    assert taps(table)[:4] == ["In base contact", 'Within 1"', 'Within 2"', 'Inside its zone (3")']
    table.submit("ask", button="ask-band-zone-upto-1")
    assert decision(table, "sent") == [("walk", "ada"), ("melee", "ada")]
