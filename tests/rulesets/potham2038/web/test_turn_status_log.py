"""The always-visible status panel, the log with undo, the dice mode and refusals in place."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from app.store import games
from tests.support.html import parse
from tests.support.turn_games import GLITCH_REBOOT, HX, make_game, roster_state, with_bot, with_character


def panel(client, token, name):
    r = client.get(f"/g/{token}/panels/{name}")
    assert r.status_code == 200, r.text
    return parse(r.text)


@pytest.mark.parametrize("limit, danger", [(24, 0), (24, 9), (24, 24), (10, 4)],
                         ids=["R-DANGER empty", "R-DANGER alert band", "R-DANGER at the end", "R-DANGER house limit 10"])
def test_the_danger_track_draws_one_step_per_point_of_the_limit_with_bands_and_the_end(client, session, limit, danger):
    state = roster_state(danger=danger)
    state = state.model_copy(update={"house": state.house.model_copy(update={"danger_limit": limit})})
    game = make_game(session, state)
    page = panel(client, game.edit_token, "status")
    steps = page.all("span", cls="danger-step")
    assert len(steps) == limit
    assert sum("filled" in s.classes for s in steps) == danger
    assert "end" in steps[-1].classes and sum("end" in s.classes for s in steps) == 1
    assert {"calm", "alert", "critical"} <= set().union(*(s.classes for s in steps))
    assert page.by_id("status-danger").text() == str(danger)
    band = page.by_id("status-band").text()  # the band in words too, never colour alone (WCAG 1.4.1)
    assert band == {0: "Calm", 9: "Alert", 24: "End", 4: "Alert"}[danger]
    assert f"{danger} of {limit} steps filled, {band}" in page.one("div", cls="danger-track").attrs["aria-label"]


def test_the_status_panel_shows_turn_phase_and_every_models_conditions(client, session):
    state = roster_state(turn=3, phase=2)
    state = with_character(state, "ada", marked=2, distracted=1, luck_roll_used=True, health=2)
    state = with_bot(state, "hunt", knocked_down=True, out_of_ammo=True, glitches=[GLITCH_REBOOT])
    page = panel(client, make_game(session, state).edit_token, "status")
    assert "Turn 3" in page.by_id("status-turn").text()
    assert page.by_id("status-phase").text() == "Phase 2 · Event & NPC Movement"
    ada = page.one("li", data_name="Ada").text()
    assert all(s in ada for s in ("Health 2/3", "Marked 2", "Distracted 1", "Luck Roll used"))
    hunter = page.one("li", data_name="Hunter-1").text()
    assert all(s in hunter for s in ("Health 4/4", "Knocked down", "Out of ammo", "Rebooted · 1 turn left"))
    assert "Knocked down" not in page.one("li", data_name="Sentry-1").text()


def test_player_names_are_escaped_in_the_status_panel(client, session):
    r = client.get(f"/g/{make_game(session).edit_token}/panels/status")
    assert "Bo &lt;b&gt;" in r.text and "Bo <b>" not in r.text


@pytest.mark.parametrize("status, words", [("final_turn", "ends after this turn"), ("failed", "Immediate failure")],
                         ids=["R-DANGER final turn", "R-DANGER immediate failure"])
def test_the_status_panel_announces_the_end_of_the_game(client, session, status, words):
    page = panel(client, make_game(session, roster_state(status=status, danger=24)).edit_token, "status")
    assert words in page.one("p", cls="status-flag").text()


def add_character(client, token, name):
    r = client.post(f"/api/games/{token}/commands", json={"type": "add_character", "character": {"name": name}})
    assert r.status_code == 200


def test_the_log_labels_each_step_and_offers_undo_and_go_back(client, session):
    game = make_game(session)
    add_character(client, game.edit_token, "Cy")
    page = panel(client, game.edit_token, "log")
    steps = page.all("li", cls="log-step")
    assert [s.attrs["data-seq"] for s in steps] == ["1", "0"]  # newest first
    assert steps[0].one(cls="log-label").text() == "Character added"
    assert "Cy joins the game" in steps[0].text()
    assert panel(client, game.edit_token, "turn").has_id("undo-last")  # sticky under the turn (issue 9)
    assert "Go back here" in steps[1].text() and "Go back here" not in steps[0].text()


def test_undo_by_htmx_answers_the_log_and_the_other_turn_panels_out_of_band(client, session):
    game = make_game(session)
    add_character(client, game.edit_token, "Cy")
    r = client.post(f"/g/{game.edit_token}/undo", data={"seen": "1"}, headers=HX)
    assert r.status_code == 200
    page = parse(r.text)
    roots = [n for n in page.children if not isinstance(n, str)]
    assert [n.attrs["id"] for n in roots] == ["panel-log", "panel-turn", "panel-status", "turn-announcer"]
    assert all(n.attrs.get("hx-swap-oob") == "true" for n in roots[1:3]) and "hx-swap-oob" not in roots[0].attrs
    assert json.loads(r.headers["HX-Trigger"]) == {"game-step": {"seq": 2}} and r.headers["X-Game-Seq"] == "2"
    assert page.by_id("step-2").one(cls="log-label").text() == "Undo"
    session.refresh(game)
    assert [c.name for c in games.current_state(session, game).characters] == ["Ada", "Bo <b>"]


def test_going_back_to_an_entry_restores_that_state_as_a_new_step(client, session):
    game = make_game(session)
    for name in ("Cy", "Di", "Ed"):
        add_character(client, game.edit_token, name)
    r = client.post(f"/g/{game.edit_token}/undo", data={"to_seq": "1", "seen": "3"}, headers=HX)
    assert r.status_code == 200
    session.refresh(game)
    assert game.seq == 4
    assert [c.name for c in games.current_state(session, game).characters][-1] == "Cy"


@pytest.mark.parametrize("form, status, message", [
    ({}, 400, "Nothing to undo"),
    ({"to_seq": "9"}, 400, "no step 9"),
], ids=["nothing to undo", "no such step"])
def test_an_impossible_undo_is_a_message_in_the_log_panel(client, session, form, status, message):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/undo", data=form, headers=HX)
    assert r.status_code == status
    page = parse(r.text)
    assert message in page.by_id("panel-log").one(cls="form-error").text()
    assert "HX-Trigger" not in r.headers


def test_undo_after_someone_else_acted_is_a_409_with_the_fresh_log(client, session):
    game = make_game(session)
    add_character(client, game.edit_token, "Cy")
    add_character(client, game.edit_token, "Di")
    r = client.post(f"/g/{game.edit_token}/undo", data={"seen": "1"}, headers=HX)
    assert r.status_code == 409
    page = parse(r.text)
    assert "moved on" in page.by_id("panel-log").one(cls="form-error").text()
    assert page.has_id("step-2")


def test_a_watch_link_cannot_undo_nor_sees_the_buttons(client, session):
    game = make_game(session)
    add_character(client, game.edit_token, "Cy")
    assert client.post(f"/g/{game.view_token}/undo", data={}, headers=HX).status_code == 403
    r = client.get(f"/v/{game.view_token}/panels/log")
    assert "Undo" not in r.text and "Go back here" not in r.text
    r = client.get(f"/v/{game.view_token}/panels/turn")
    assert r.status_code == 200 and "<form" not in r.text


def test_undo_without_javascript_redirects_back_to_the_game(client, session):
    game = make_game(session)
    add_character(client, game.edit_token, "Cy")
    r = client.post(f"/g/{game.edit_token}/undo", data={}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{game.edit_token}"


@pytest.mark.parametrize("mode", ["entered", "app"])
def test_the_dice_mode_is_the_games_default_for_every_roll(client, session, mode):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/dice-mode", data={"mode": mode}, headers=HX)
    assert r.status_code == 200
    session.refresh(game)
    assert games.current_state(session, game).house.dice_mode == mode
    assert "checked" in parse(r.text).by_id("panel-turn").one("input", name="mode", value=mode).attrs


def test_an_unknown_dice_mode_is_refused_in_place(client, session):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/dice-mode", data={"mode": "loaded"}, headers=HX)
    assert r.status_code == 422
    assert "who rolls" in parse(r.text).by_id("panel-turn").one(cls="form-error").text()
    session.refresh(game)
    assert game.seq == 0


def test_a_command_the_engine_refuses_shows_its_reason_in_the_turn_panel(client, session):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/turn", data={"type": "remove_bot", "id": "nobody"}, headers=HX)
    assert r.status_code == 400
    assert "no longer in the game" in parse(r.text).by_id("panel-turn").one(cls="form-error").text()
    session.refresh(game)
    assert game.seq == 0


def test_a_command_with_a_bad_field_is_a_422_naming_it(client, session):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/turn", data={"type": "nonsense"}, headers=HX)
    assert r.status_code == 422
    assert parse(r.text).by_id("panel-turn").one(cls="form-error")


def test_an_undo_says_what_it_took_back_and_the_log_marks_the_undone_step(client, session):
    """Issue 9: "Undo · Noise (Bo) taken back, Danger 1 → 0." instead of "Undo: Undo: back to step
    N", and the undone step is struck through and tagged; going back to it makes it count again."""
    token = make_game(session, roster_state()).edit_token
    noise = {"type": "noise", "character_id": "bo", "kind": "noise", "bot_ids": ["hunt"]}
    assert client.post(f"/api/games/{token}/commands", json=noise).status_code == 200
    noise_seq = client.get(f"/api/games/{token}").json()["seq"]
    client.post(f"/g/{token}/undo", data={"seen": str(noise_seq)}, headers=HX)
    log = panel(client, token, "log")
    newest = log.all("li", cls="log-step")[0]
    assert newest.one(cls="log-label").text() == "Undo"
    assert "Noise (Bo <b>) taken back, Danger 1 → 0." in newest.text()  # the name escaped, as typed
    undone = log.by_id(f"step-{noise_seq}")
    assert "undone" in undone.classes and "undone" in undone.text()
    assert not any("undone" in s.classes for s in log.all("li", cls="log-step") if s.attrs["id"] != f"step-{noise_seq}")
    client.post(f"/g/{token}/undo", data={"to_seq": "1", "seen": str(noise_seq + 1)}, headers=HX)
    log = panel(client, token, "log")
    assert "Back to the game as it was after step 1, Danger 0 → 1." in log.all("li", cls="log-step")[0].text()
    assert "undone" not in log.by_id(f"step-{noise_seq}").classes  # back in the game's history


@pytest.mark.parametrize(("kind", "said"), [("noise", "Noise (Bo)"), ("alarm", "Alarm (Bo)")])
def test_an_undone_noise_step_says_whether_it_was_an_alarm(kind, said):
    """R-ALARM: 2038's web part reads the label of a "noise" step from its command."""
    import app.rulesets.potham2038.web  # noqa: F401  (registers 2038's labels, as the app does)
    from app.web.view import step_label, step_summary

    step = SimpleNamespace(kind="noise", command={"character_id": "c1", "kind": kind})
    assert step_summary(step, {"characters": [{"id": "c1", "name": "Bo"}]}) == said
    assert step_label(step) == "Noise / Alarm"
