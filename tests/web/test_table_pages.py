"""At the table (issue 9): the page pieces that make a turn a handful of taps, through the same
forms the page renders (tests/support/turn_play.py posts them as htmx does)."""

from __future__ import annotations

import json

from tests.support.html import parse
from tests.support.turn_games import make_game, roster_state
from tests.support.turn_play import Table


def in_phase(client, session, phase, **changes) -> Table:
    return Table(client, make_game(session, roster_state(phase=phase, **changes)).edit_token)


def api(table: Table) -> dict:
    return table.client.get(f"/api/games/{table.token}").json()


def test_phase_1_an_entry_into_a_zone_is_one_tap_per_entry(client, session):
    """R-MARK-MOVE: each tap on "Hunter-1" under Ada's zone is one entry, +1 Marked on Ada."""
    table = in_phase(client, session, 1)
    table.submit("quick-move-ada", button=("entries[]", "hunt"))
    table.submit("quick-move-ada", button=("entries[]", "hunt"))  # a re-entry counts again
    assert next(c for c in api(table)["characters"] if c["id"] == "ada")["marked"] == 2


def test_phase_1_noise_inside_a_zone_is_one_tap(client, session):
    """R-NOISE: inside any zone, +1 Marked in total and Danger +1, however many zones hold it."""
    table = in_phase(client, session, 1)
    # the grid's Noise column: each AI-Bot's button submits Bo's Noise form (its `form` attribute)
    buttons = table.page.by_id("char-bo").all("button", form="form-quick-noise-bo")
    assert [b.attrs["value"] for b in buttons] == ["hunt", "sent", "work", "patr"]
    table.submit("quick-noise-bo", button=("bot_ids[]", "sent"))
    state = api(table)
    assert state["danger"] == 1 and next(c for c in state["characters"] if c["id"] == "bo")["marked"] == 1


def test_an_event_needs_no_typing_danger_has_a_stepper_and_an_untitled_event_has_a_name(client, session):
    table = in_phase(client, session, 2)
    form = table.page.by_id("form-event")
    steppers = form.all("button", data_for="event-danger")
    assert sorted(b.attrs["data-step"] for b in steppers) == ["-1", "1"]  # the keypad has no minus
    assert "data-low" not in form.one("button", data_for="event-danger", data_step="-1").attrs
    table.submit("event", danger="-1")
    state = api(table)
    assert state["event"] == "Event card" and state["danger"] == 0  # Danger never below 0 (R-DANGER)


def test_skipping_the_rest_of_phase_2_is_a_secondary_button_that_asks_first(client, session):
    table = in_phase(client, session, 2, event="Quiet")
    form = table.page.by_id("form-next-2")
    button = form.one("button")
    assert "primary" not in button.classes
    # htmx reads hx-confirm from the element that issues the request: the form, not the button
    assert "Hunter-1" in form.attrs["hx-confirm"] and "will not activate" in form.attrs["hx-confirm"]
    assert "hx-confirm" not in button.attrs


def test_the_odds_show_as_a_bar_chart_of_every_outcome(client, session):
    phase1 = in_phase(client, session, 1)
    shot = parse(client.get(f"/g/{phase1.token}/turn/odds", params={
        "character_id": "ada", "target_id": "hunt", "cover": "none"}).text)
    chart = shot.one("svg", cls="odds-chart")
    bars = chart.all("g")
    assert [b.all("text")[1].text() for b in bars][:3] == ["0", "tie", "1"]
    label = chart.attrs["aria-label"]
    total = sum(int(p.rstrip("%")) for p in label.replace(";", "").split() if p.rstrip("%").isdigit() and p.endswith("%"))
    assert 97 <= total <= 103  # rounded percentages of outcomes that add up to one


def test_the_danger_track_over_the_turns_appears_once_a_turn_has_ended(client, session):
    table = in_phase(client, session, 4, danger=3)
    assert not table.status().all("svg", cls="danger-chart")  # nothing to compare yet
    for check in list(table.page.all("form", cls="command-form")):
        if check.attrs["id"].startswith("form-check-") and not check.attrs["id"].endswith("-face"):  # not its Glitch faces
            table.submit(check.attrs["id"].removeprefix("form-"), button=("passed", "true"))
    table.submit("end-turn")
    chart = table.status().one("svg", cls="danger-chart")
    assert "turn 1 3" in chart.attrs["aria-label"] and "turn 2 (now) 3" in chart.attrs["aria-label"]


def test_a_model_is_duplicated_with_the_next_free_name(client, session):
    token = make_game(session, roster_state()).edit_token
    client.post(f"/g/{token}/roster/bots/hunt/duplicate", data={})
    client.post(f"/g/{token}/roster/characters/ada/duplicate", data={})
    state = client.get(f"/api/games/{token}").json()
    copy = next(b for b in state["bots"] if b["name"] == "Hunter-2")
    assert copy["melee"] == {"red": 3} and copy["role"] == "hunter" and copy["id"] != "hunt"
    assert any(c["name"] == "Ada 2" for c in state["characters"])


def test_the_app_installs_to_a_home_screen_and_can_keep_the_screen_awake(client, session):
    page = client.get(f"/g/{make_game(session, roster_state()).edit_token}").text
    assert 'rel="manifest" href="/static/manifest.webmanifest"' in page and 'rel="icon"' in page
    assert 'id="keep-awake"' in page and "/static/table.js" in page
    manifest = json.loads(client.get("/static/manifest.webmanifest").text)
    assert manifest["display"] == "standalone" and {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200
