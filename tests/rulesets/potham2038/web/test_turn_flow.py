"""The turn's flow in fewer taps (issue 18): the Event row at the end of Phase 1, Phase 4's checks
at the foot of a settled Phase 3, "Every check passed · end the turn", Phase 2 straight on to
Phase 4 when Phase 3 has nothing to resolve. Each such tap posts the engine's existing commands,
one logged step each: Undo takes them back one at a time, or the whole tap at once."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import MAX_TURN, DecidedAction, Decision
from tests.support.turn_games import HX, make_game, roster_state, with_bot
from tests.support.turn_play import Table


def api(table: Table) -> dict:
    return table.client.get(f"/api/games/{table.token}").json()


def kinds_since(table: Table, seq: int) -> list[str]:
    return [s["kind"] for s in table.client.get(f"/api/games/{table.token}/steps?since={seq}").json()]


def undo_last(table: Table) -> None:
    answer = table.client.post(f"/g/{table.token}/undo", data={"seen": api(table)["seq"], "panel": "turn"},
                               headers=HX)
    assert answer.status_code == 200, answer.text[:2000]
    table.page = table.panel()


def decided(state, bot_id: str, *melee_on: str):
    """`state` with `bot_id` activated this turn: a pending Melee on each Character named."""
    slots = [DecidedAction(slot=i + 1, family="attack", action="melee", phase=3, target_id=c, reason="In contact.")
             for i, c in enumerate(melee_on)]
    return state.model_copy(update={"decisions": [*state.decisions, Decision(bot_id=bot_id, turn=1, actions=slots)]})


# --- Phase 1: the Event drawn as Phase 1 ends ---------------------------------------------------


def test_R_EVENT_ONE_a_danger_button_at_the_end_of_phase_1_ends_it_and_records_the_event_in_phase_2(
        client, session):
    """Seed 000, Phase 2: "Draw one Event under Core timing": the Event is still Phase 2's."""
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    start = api(table)["seq"]
    assert table.page.by_id("section-event-ahead").has_id("event-danger-2")
    table.submit("event-quick", button="event-danger-2", **{"title": ["Event card", "Lockdown"], "marked.ada": "1"})
    state = api(table)
    assert (state["phase"], state["event"], state["danger"]) == (2, "Lockdown", 2)
    assert next(c for c in state["characters"] if c["id"] == "ada")["marked"] == 1
    assert kinds_since(table, start) == ["next_phase", "record_event"]  # each step logged as before
    assert not table.page.has_id("form-event-quick")  # one Event per turn: Phase 2 offers no second row


def test_a_stale_phase_1_event_tap_records_nothing_so_no_phase_is_skipped(client, session):
    """Phase 1 ended on another device (or another form) first: the Danger button's next_phase
    would now skip Phase 2. The tap records nothing (409) and the page shows Phase 2's row."""
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    Table(client, table.token).submit("next-1")
    answer = table.submit("event-quick", expect=409, button="event-danger-1")
    assert "nothing of this tap was recorded" in answer.by_id("panel-turn").text()
    state = api(table)
    assert (state["phase"], state["event"]) == (2, None)
    assert answer.has_id("event-danger-1")


def test_phase_1_still_offers_next_phase_for_a_player_who_draws_the_event_later(client, session):
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    table.submit("next-1")
    state = api(table)
    assert (state["phase"], state["event"]) == (2, None)
    assert table.page.has_id("event-danger-1")  # the same row, now in Phase 2


def test_an_event_name_too_long_at_the_end_of_phase_1_records_nothing_not_even_the_phase_change(
        client, session):
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    start = api(table)["seq"]
    answer = table.submit("event-quick", expect=422, button="event-danger-1", title=["Event card", "x" * 121])
    assert answer.by_id("event-quick-title").attrs.get("aria-invalid") == "true"
    assert answer.by_id("err-event-quick-title").text()
    assert (api(table)["seq"], api(table)["phase"]) == (start, 1)


def test_undo_after_the_phase_1_event_tap_goes_back_one_step_at_a_time(client, session):
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    table.submit("event-quick", button="event-danger-1")
    undo_last(table)
    state = api(table)
    assert (state["phase"], state["event"], state["danger"]) == (2, None, 0)  # the Event taken back
    undo_last(table)
    assert api(table)["phase"] == 1


def test_undo_the_whole_tap_takes_back_every_step_it_made_at_once(client, session):
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    start = api(table)["seq"]
    table.submit("event-quick", button="event-danger-1")
    button = table.page.by_id("undo-tap")
    assert "2 steps" in button.text()
    assert table.page.by_id("form-undo-tap").field("to_seq").attrs["value"] == str(start)
    table.submit("undo-tap")
    state = api(table)
    assert (state["phase"], state["event"], state["danger"]) == (1, None, 0)
    assert not table.page.has_id("undo-tap")  # a one-step answer offers only "Undo last step"


# --- Phase 4 in one tap ---------------------------------------------------------------------------


def test_R_END_CHECK_every_check_passed_and_end_the_turn_is_one_tap_of_one_step_per_check(client, session):
    table = Table(client, make_game(session, roster_state(phase=4, danger=2)).edit_token)
    start = api(table)["seq"]
    button = table.page.by_id("checks-end")
    assert "Every check passed (Sentry-1, Patrol-1)" in button.text() and "end the turn" in button.text()
    table.submit("checks-end")
    state = api(table)
    assert (state["turn"], state["phase"]) == (2, 1)
    assert kinds_since(table, start) == ["position_check", "position_check", "end_turn"]


def test_undo_after_every_check_passed_and_end_the_turn_restores_phase_4_step_by_step(client, session):
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    table.submit("checks-end")
    assert "3 steps" in table.page.by_id("undo-tap").text()
    undo_last(table)
    state = api(table)
    assert (state["turn"], state["phase"], state["position_checks"]) == (1, 4, {"sent": True, "patr": True})
    undo_last(table)
    assert api(table)["position_checks"] == {"sent": True}


def test_after_a_failed_check_the_one_tap_answers_every_other_check_and_ends_the_turn(client, session):
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    table.submit("check-sent", button=("passed", "false"))
    button = table.page.by_id("checks-end")
    assert button.text().startswith("Every other check passed (Patrol-1)")
    start = api(table)["seq"]
    table.submit("checks-end")
    assert kinds_since(table, start) == ["position_check", "end_turn"]
    assert api(table)["turn"] == 2


def test_a_refusal_inside_a_tap_keeps_the_steps_before_it_and_says_so(client, session):
    """The last turn a game may have: the checks are recorded, end_turn is refused."""
    table = Table(client, make_game(session, roster_state(phase=4, turn=MAX_TURN)).edit_token)
    answer = table.submit("checks-end", expect=400)
    assert "2 of the 3 steps of this tap were recorded" in answer.by_id("panel-turn").text()
    assert api(table)["position_checks"] == {"sent": True, "patr": True}
    assert answer.has_id("undo-tap")  # the two steps it made can go back together


# --- Phase 3 → 4 ----------------------------------------------------------------------------------


def test_a_settled_phase_3_offers_the_checks_and_the_end_without_a_next_phase_tap(client, session):
    table = Table(client, make_game(session, roster_state(phase=3)).edit_token)
    start = api(table)["seq"]
    assert table.page.by_id("phase-4-ahead").has_id("check-sent")
    assert table.page.has_id("form-next-3")  # still there: Phase 4 on its own
    table.submit("checks-end")
    assert kinds_since(table, start) == ["next_phase", "position_check", "position_check", "end_turn"]
    assert (api(table)["turn"], api(table)["phase"]) == (2, 1)


def test_R_GLITCH_a_check_failed_from_phase_3_goes_to_phase_4_and_rolls_the_glitch(client, session):
    table = Table(client, make_game(session, roster_state(phase=3)).edit_token)
    table.submit("check-sent", button=("passed", "false"), glitch_roll="1")
    state = api(table)
    assert (state["phase"], state["position_checks"]) == (4, {"sent": False})
    assert next(b for b in state["bots"] if b["id"] == "sent")["glitches"][0]["result"] == "reboot"


def test_with_no_check_due_a_settled_phase_3_ends_the_turn_in_one_tap(client, session):
    state = with_bot(with_bot(roster_state(phase=3), "sent", exempt=True), "patr", exempt=True)
    table = Table(client, make_game(session, state).edit_token)
    assert not table.page.has_id("checks-end")
    table.submit("end-turn")
    assert (api(table)["turn"], api(table)["phase"]) == (2, 1)


def test_phase_3_with_a_melee_to_resolve_offers_no_checks_yet(client, session):
    state = decided(roster_state(phase=3), "hunt", "ada")
    table = Table(client, make_game(session, state).edit_token)
    assert not table.page.has_id("phase-4-ahead") and not table.page.has_id("checks-end")
    assert "primary" in table.page.by_id("form-next-3").one("button").classes


# --- Phase 2 → 4 ----------------------------------------------------------------------------------


def activated(state, *melee_on: str):
    """Every bot activated this turn; Hunter-1 with a pending Melee on each Character named."""
    for bot in state.bots:
        state = decided(state, bot.id, *melee_on) if bot.id == "hunt" else decided(state, bot.id)
    return state.model_copy(update={"event": "Event card"})


@pytest.mark.parametrize("moves, onward", [
    ((), True),
    (("ada",), False),
], ids=["nothing to resolve", "a melee decided"])
def test_phase_2_goes_on_to_phase_4_in_one_tap_only_when_phase_3_has_nothing_to_resolve(
        client, session, moves, onward):
    table = Table(client, make_game(session, activated(roster_state(phase=2), *moves)).edit_token)
    assert table.page.has_id("to-phase-4") is onward
    assert table.page.has_id("form-next-2")  # Phase 3 stays one tap away (a melee the app does not know)
    if onward:  # what the tap passes by is said: the open slots Phase 3 would offer
        note = table.page.by_id("to-phase-4-note").text()
        assert "open slots could still act" in note and "Sentry-1" in note and "Hunter-1" in note
        start = api(table)["seq"]
        table.submit("to-phase-4")
        assert kinds_since(table, start) == ["next_phase", "next_phase"]
        assert api(table)["phase"] == 4


def test_phase_2_offers_no_way_on_to_phase_4_while_a_bot_is_still_to_activate(client, session):
    table = Table(client, make_game(session, roster_state(phase=2, event="Event card")).edit_token)
    assert not table.page.has_id("to-phase-4")
