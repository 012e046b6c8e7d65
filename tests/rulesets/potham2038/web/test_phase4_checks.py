"""Phase 4 in one tap (issue 18): "Every check passed" records each pending position check as
passed through the engine's own `position_check` (R-END-CHECK), posted as the page's form."""

from __future__ import annotations

from tests.support.turn_games import make_game, roster_state, with_bot
from tests.support.turn_play import Table


def api(table: Table) -> dict:
    return table.client.get(f"/api/games/{table.token}").json()


def test_R_END_CHECK_every_check_passed_is_one_tap_and_the_turn_can_end(client, session):
    table = Table(client, make_game(session, roster_state(phase=4, danger=2)).edit_token)
    before = api(table)["seq"]
    button = table.page.by_id("form-checks-passed").one("button")
    assert "Sentry-1" in button.text() and "Patrol-1" in button.text()
    assert "disabled" in table.page.by_id("end-turn").attrs  # checks due: the turn cannot end yet
    table.submit("checks-passed")
    state = api(table)
    assert state["position_checks"] == {"sent": True, "patr": True}
    assert all(b["glitches"] == [] for b in state["bots"])  # a pass rolls no Glitch
    assert state["seq"] == before + 2  # one position_check step per check: Undo takes back one
    assert not table.page.has_id("form-checks-passed") and "disabled" not in table.page.by_id("end-turn").attrs
    table.submit("end-turn")
    assert (api(table)["turn"], api(table)["phase"]) == (2, 1)


def test_every_check_passed_covers_only_the_checks_still_due(client, session):
    """An exempt Sentry is not checked; with one check left the card's own Yes is the one tap."""
    state = with_bot(roster_state(phase=4), "sent", exempt=True)
    table = Table(client, make_game(session, state).edit_token)
    assert not table.page.has_id("form-checks-passed")
    table.submit("check-patr", button=("passed", "true"))
    assert api(table)["position_checks"] == {"patr": True}


def test_every_check_passed_after_another_device_answered_one_records_nothing(client, session):
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    other = Table(client, table.token)
    other.submit("check-sent", button=("passed", "false"))  # failed on the other device
    answer = table.submit("checks-passed", expect=409)
    assert "changed since you looked" in answer.text()
    assert api(table)["position_checks"] == {"sent": False}  # the failure stands, Patrol-1 still asked
