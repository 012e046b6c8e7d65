"""Issue 8 on the Phase 2 page: every empty slot says why on the decision card, a conditional
shot says what Phase 3 will ask (R-ACT-FACTS), and a Patrol standing on its waypoint is asked
the distance to the next one (R-ROLE-PATROL)."""

from __future__ import annotations

from tests.support.turn_games import make_game, roster_state, with_bot
from tests.support.turn_play import Table, facts


def table_for(client, session, bot_id: str, **bot_changes) -> Table:
    state = with_bot(roster_state(phase=2, activation_order=[bot_id]), bot_id, **bot_changes)
    return Table(client, make_game(session, state).edit_token)


def test_R_ACT_SHOOT_ANY_the_card_shows_the_shot_and_why_the_other_slot_is_empty(client, session):
    table = table_for(client, session, "sent")
    answer = table.submit("activate", subject_distance="1", **facts((6, True, False), (20, False, False)))
    card = answer.by_id("card-sent")
    assert [a.attrs["data-action"] for a in card.all("li", cls="card-action") if "data-action" in a.attrs] == ["shoot"]
    empty = card.one("li", cls="empty-slot")
    assert empty.attrs["data-slot"] == "2" and "Action 2: none" in empty.text()
    assert "leaving its post" in empty.one(cls="reason").text()


def test_R_ACT_FACTS_a_conditional_shot_says_phase_3_will_ask_to_confirm(client, session):
    table = table_for(client, session, "patr", shoot={"red": 2}, shoot_range=12)
    answer = table.submit("activate", waypoint_distance="20", **facts((6, True, False), (30, False, False)))
    shot = answer.by_id("card-patr").one("li", data_action="shoot")
    assert "Only if confirmed: confirm line of sight and range in Phase 3" in shot.one(cls="condition").text()


def test_R_ROLE_PATROL_on_its_waypoint_the_form_asks_the_next_waypoints_distance(client, session):
    table = table_for(client, session, "patr")
    answer = table.submit("activate", expect=400, waypoint_distance="0", **facts((9, True, False), (30, False, False)))
    form = answer.by_id("form-activate")
    assert "heads for B next" in form.one(cls="form-error").text()
    assert form.field("next_waypoint_distance").attrs["id"] == "activate-next_waypoint_distance"
    assert "On A: distance to the next waypoint, B" in form.text()
    answer = table.submit("activate", next_waypoint_distance="12")
    card = answer.by_id("card-patr")
    assert [a.attrs["data-action"] for a in card.all("li", cls="card-action") if "data-action" in a.attrs] == [
        "run", "walk"]
    assert "toward B" in card.text()


def test_R_SCAN_the_card_names_a_scan_once_not_scan_scan(client, session):
    """Issue 9 wording: the action family is printed only when it adds something, so a Scan reads
    "Scan → Ada", while a Melee still says its family (Attack)."""
    table = table_for(client, session, "hunt")
    answer = table.submit("activate", **facts((0, True, True), (5, False, False)))
    card = answer.by_id("card-hunt")
    scan = " ".join(card.one("li", data_action="scan").text().split())
    melee = " ".join(card.one("li", data_action="melee").text().split())
    assert "Action 2: Scan → Ada" in scan and "Scan Scan" not in scan
    assert "Action 1: Melee Attack" in melee
