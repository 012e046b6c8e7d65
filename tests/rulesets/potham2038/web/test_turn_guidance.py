"""What tells a player who knows the rules but not the app what to do: the first-run steps, a
one-line hint atop each phase, and Phase 2's free choice of the next AI-Bot (R-ACT-ORDER)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import GameState
from tests.support.html import parse
from tests.support.turn_games import make_game, roster_state, with_bot
from tests.support.turn_play import Table, facts


def turn_panel(client, token, **params):
    r = client.get(f"/g/{token}/panels/turn", params=params)
    assert r.status_code == 200, r.text
    return parse(r.text)


# --- first run -----------------------------------------------------------------------------------

@pytest.mark.parametrize("state, done, primary", [
    (GameState(), [], "add-character"),
    (GameState(characters=roster_state().characters), ["characters"], "add-bot"),
    (GameState(bots=roster_state().bots), ["bots"], "add-character"),
], ids=["empty game", "Characters only", "AI-Bots only"])
def test_a_game_without_its_models_says_what_to_do_first_and_ticks_what_is_done(client, session, state, done, primary):
    page = turn_panel(client, make_game(session, state).edit_token)
    first = page.by_id("first-run")
    assert "Start here" in first.text() and "Phase 1" in first.text()
    steps = first.all("li")
    empty = not done  # an empty game also offers the sample roster (issue 9)
    assert [s.attrs["data-step"] for s in steps] == ["characters", "bots", *(["sample"] if empty else []), "play"]
    assert [s.attrs["data-step"] for s in steps if "done" in s.classes] == done
    buttons = {a.attrs["data-open"]: a for a in first.all("a")}
    assert buttons["add-character"].attrs["href"] == "#add-character" and buttons["add-bot"].attrs["href"] == "#add-bot"
    assert [k for k, a in buttons.items() if "primary" in a.classes] == [primary]
    assert not page.all("form", cls="command-form")  # no phase forms, no activations, before the roster


def test_the_add_forms_the_first_run_buttons_open_exist_on_the_page(client, session):
    page = parse(client.get(f"/g/{make_game(session, GameState()).edit_token}").text)
    assert page.by_id("add-character").tag == "details" and page.by_id("add-bot").tag == "details"


def test_a_watcher_of_an_empty_game_is_told_the_roster_is_being_set_up(client, session):
    game = make_game(session, GameState())
    page = parse(client.get(f"/v/{game.view_token}/panels/turn").text)
    assert "still setting up the roster" in page.text() and not page.has_id("first-run")


# --- one-line hints --------------------------------------------------------------------------------

@pytest.mark.parametrize("changes, words", [
    ({"phase": 1}, "move and act with each Character"),
    ({"phase": 2}, "draw an Event card"),
    ({"phase": 2, "event": "Blackout"}, "activate Hunter-1"),
    ({"phase": 3}, "nothing is waiting: answer the checks below"),
    ({"phase": 4}, "answer each position check"),
], ids=["phase 1", "phase 2 before the Event", "phase 2 next bot", "phase 3 empty", "phase 4 checks due"])
def test_each_phase_starts_with_one_line_saying_what_to_do_now(client, session, changes, words):
    hint = turn_panel(client, make_game(session, roster_state(**changes)).edit_token).by_id("phase-hint")
    assert hint.text().startswith("Now:") and words in hint.text()
    assert len(hint.text()) < 120  # a glance, not a paragraph


def test_phase_2_with_every_bot_destroyed_offers_no_activation_and_says_go_on(client, session):
    state = roster_state(phase=2)
    for bot in state.bots:
        state = with_bot(state, bot.id, health=0)
    page = turn_panel(client, make_game(session, state).edit_token)
    hint = page.by_id("phase-hint").text()
    assert "no AI-Bot is left to activate" in hint
    # Phase 3 has nothing to resolve: the hint names the tap on to Phase 4, not "Go to Phase 3"
    assert "go on to Phase 4" in hint and "Go to Phase 3" not in hint and page.has_id("to-phase-4")
    assert not page.has_id("form-activate") and not page.has_id("section-order") and not page.has_id("pick-bot")
    assert "Every AI-Bot has activated" not in page.text()
    assert page.has_id("form-next-2")


# --- R-ACT-ORDER: any bot not yet activated may go next ------------------------------------------

ORDER = ["hunt", "sent", "work", "patr"]


def test_R_ACT_ORDER_phase_2_offers_every_bot_still_to_go_with_the_planned_one_first(client, session):
    game = make_game(session, roster_state(phase=2, activation_order=ORDER))
    pick = turn_panel(client, game.edit_token).by_id("pick-bot")
    links = pick.one("ul", cls="pick-list").all("a")
    assert [a.attrs["id"] for a in links] == [f"pick-{b}" for b in ORDER]
    assert [a.attrs.get("aria-current") for a in links] == ["true", None, None, None]
    worker = pick.by_id("pick-work")
    assert worker.attrs["hx-get"] == f"/g/{game.edit_token}/panels/turn?bot=work"
    assert worker.attrs["href"] == f"/g/{game.edit_token}?bot=work#section-activate"  # works without JavaScript


@pytest.mark.parametrize("via", ["panel", "page"])
def test_R_ACT_ORDER_picking_a_later_bot_asks_its_facts_without_reordering(client, session, via):
    game = make_game(session, roster_state(phase=2, activation_order=ORDER))
    if via == "panel":
        page = turn_panel(client, game.edit_token, bot="work")
    else:
        page = parse(client.get(f"/g/{game.edit_token}", params={"bot": "work"}).text)
    assert page.by_id("form-activate").field("bot_id").attrs["value"] == "work"
    assert "Activate Worker-1" in page.by_id("activate-heading").text()
    assert page.by_id("pick-work").attrs.get("aria-current") == "true"
    assert page.by_id("panel-turn").attrs["data-query"] == "bot=work"  # a live refresh keeps the pick


def test_R_ACT_ORDER_a_picked_bot_activates_out_of_order_and_the_planned_next_comes_back(client, session):
    game = make_game(session, roster_state(phase=2, activation_order=ORDER, event="Blackout"))
    table = Table(client, game.edit_token)
    table.page = turn_panel(client, game.edit_token, bot="work")
    answer = table.submit("activate", object_distance="1", **facts((12, False, False), (12, False, False)))
    assert answer.by_id("card-work")
    assert answer.by_id("form-activate").field("bot_id").attrs["value"] == "hunt"
    assert [a.attrs["id"] for a in answer.by_id("pick-bot").one("ul", cls="pick-list").all("a")] == ["pick-hunt", "pick-sent", "pick-patr"]


def test_R_ACT_ORDER_a_refused_form_for_a_picked_bot_comes_back_for_that_bot(client, session):
    game = make_game(session, roster_state(phase=2, activation_order=ORDER))
    table = Table(client, game.edit_token)
    table.page = turn_panel(client, game.edit_token, bot="sent")
    answer = table.submit("activate", expect=400, **facts((3, True, False), (9, False, False)))
    form = answer.by_id("form-activate")
    assert form.field("bot_id").attrs["value"] == "sent" and "measure subject distance" in form.text()


@pytest.mark.parametrize("bot", ["nobody", "", "<script>"])
def test_R_ACT_ORDER_an_unknown_or_activated_pick_falls_back_to_the_planned_next(client, session, bot):
    game = make_game(session, roster_state(phase=2, activation_order=ORDER))
    r = client.get(f"/g/{game.edit_token}/panels/turn", params={"bot": bot})
    assert r.status_code == 200 and "<script>" not in r.text
    assert parse(r.text).by_id("form-activate").field("bot_id").attrs["value"] == "hunt"


def test_a_single_bot_left_needs_no_choice(client, session):
    state = roster_state(phase=2, activation_order=ORDER)
    for bot_id in ORDER[1:]:
        state = with_bot(state, bot_id, health=0)
    assert not turn_panel(client, make_game(session, state).edit_token).has_id("pick-bot")
