"""A failed position check with the Glitch die rolled at the table is one tap (issue 18): the
check card's row "No · the Glitch die shows: 1 2 3 4 5 6", its faces read from the game's Glitch
table (R-GLITCH, *house* die and rows), in Phase 4 and at the foot of a settled Phase 3."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.house_rules import GlitchRow
from tests.support.turn_games import make_game, roster_state
from tests.support.turn_play import Table


def api(table: Table) -> dict:
    return table.client.get(f"/api/games/{table.token}").json()


def kinds_since(table: Table, seq: int) -> list[str]:
    return [s["kind"] for s in table.client.get(f"/api/games/{table.token}/steps?since={seq}").json()]


def glitches(table: Table, bot_id: str) -> list[dict]:
    return next(b for b in api(table)["bots"] if b["id"] == bot_id)["glitches"]


def with_house(state, **house):
    return state.model_copy(update={"house": state.house.model_copy(update=house)})


def faces(table: Table, bot_id: str) -> list[tuple[str, str]]:
    """(value, text) of each face button of a check card's row."""
    row = table.page.by_id(f"check-{bot_id}-glitch_roll")
    return [(b.attrs["value"], b.text()) for b in row.all("button")]


def test_R_GLITCH_each_face_of_the_default_d6_names_its_row_of_the_glitch_table(client, session):
    """R-GLITCH: "the default is a d6: 1–2 Reboot, 3–4 Overcharged (+1 Health), 5–6 Full Throttle"."""
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    assert faces(table, "sent") == [("1", "1 Reboot"), ("2", "2 Reboot"), ("3", "3 Overcharged +1"),
                                    ("4", "4 Overcharged +1"), ("5", "5 Full Throttle"), ("6", "6 Full Throttle")]
    assert "No · the Glitch die (d6) shows:" in table.page.by_id("check-sent").text()
    # the app still rolls when the player says only "No"; the fold of old is gone for a d6
    assert table.page.has_id("check-sent-no-app") and not table.page.has_id("check-sent-by-hand")


@pytest.mark.parametrize("face, said", [("1", "Reboot"), ("4", "Overcharged: Health 3 → 4"), ("6", "Full Throttle")])
def test_R_END_CHECK_one_face_tap_in_phase_4_records_the_failed_check_with_that_die(client, session, face, said):
    """R-END-CHECK: "each failed Primary Directive position check gives one immediate Glitch"."""
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    start = api(table)["seq"]
    answer = table.submit("check-sent-face", button=f"check-sent-glitch_roll-{face}")
    state = api(table)
    assert kinds_since(table, start) == ["position_check"]
    assert (state["phase"], state["position_checks"]) == (4, {"sent": False})
    news = answer.by_id("turn-news").text()
    assert f"d6 = {face}" in news and said in news
    assert not answer.has_id("check-sent")  # answered: the card is gone, Patrol-1's remains
    assert answer.has_id("check-patr-glitch_roll-6")


def test_R_END_CHECK_a_face_tap_at_the_foot_of_a_settled_phase_3_goes_to_phase_4_first(client, session):
    table = Table(client, make_game(session, roster_state(phase=3)).edit_token)
    start = api(table)["seq"]
    assert table.page.by_id("phase-4-ahead").has_id("check-sent-glitch_roll-2")
    table.submit("check-sent-face", button="check-sent-glitch_roll-2")
    state = api(table)
    assert kinds_since(table, start) == ["next_phase", "position_check"]
    assert (state["phase"], state["position_checks"]) == (4, {"sent": False})
    assert [g["result"] for g in glitches(table, "sent")] == ["reboot"]


def test_R_GLITCH_a_house_d8_table_gives_eight_faces_each_named_after_its_own_row(client, session):
    """*house*: "the Glitch table (die, results, amounts, durations) is per game"; a face no row
    covers is "No effect" (an impossible result has no effect and is not rerolled)."""
    rows = [GlitchRow(low=1, high=3, result="full_throttle", duration=1),
            GlitchRow(low=4, high=7, result="reboot", duration=1)]
    table = Table(client, make_game(session, with_house(roster_state(phase=4), glitch_die=8,
                                                        glitch_table=rows)).edit_token)
    assert [text for _, text in faces(table, "sent")] == (
        [f"{n} Full Throttle" for n in (1, 2, 3)] + [f"{n} Reboot" for n in (4, 5, 6, 7)]
        + ["8 No effect"])
    table.submit("check-sent-face", button="check-sent-glitch_roll-5")
    assert [g["result"] for g in glitches(table, "sent")] == ["reboot"]


def test_a_glitch_die_of_more_than_12_faces_keeps_a_typed_field_and_no_face_row(client, session):
    table = Table(client, make_game(session, with_house(roster_state(phase=4), glitch_die=20)).edit_token)
    assert not table.page.has_id("form-check-sent-face") and table.page.has_id("check-sent-glitch_roll")
    assert table.page.by_id("check-sent-glitch_roll").tag == "input"
    answer = table.submit("check-sent", glitch_roll="17", button=("passed", "false"))
    assert "d20 = 17" in answer.by_id("turn-news").text()


def test_a_face_out_of_range_is_refused_next_to_the_row_and_nothing_is_recorded(client, session):
    """A post no button makes (a face beyond the die's): 422 by the field, the row marked."""
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    start = api(table)["seq"]
    answer = table.submit("check-sent-face", expect=422, glitch_roll="0")
    assert answer.by_id("check-sent-glitch_roll").attrs.get("aria-invalid") == "true"
    assert answer.by_id("err-check-sent-glitch_roll").text()
    assert api(table)["seq"] == start
