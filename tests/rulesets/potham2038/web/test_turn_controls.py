"""Turn controls that say what they can do: End turn disabled while position checks are due
(R-END-CHECK), one "Activate next" control with the planned order folded in (R-ACT-ORDER), and a
Character Shoot's odds at the model a Black Die Blank sends the shot to (R-CMB-TARGET)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.dice import attack_odds
from app.web.view import percent
from tests.support.html import parse
from tests.support.turn_games import make_game, roster_state
from tests.support.turn_play import Table, facts

ORDER = ["hunt", "sent", "work", "patr"]


# --- Phase 4: End turn waits for the position checks (R-END-CHECK) -----------------------------

def test_R_END_CHECK_end_turn_is_disabled_with_its_reason_while_checks_are_due(client, session):
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    button = table.page.by_id("end-turn")
    assert "disabled" in button.attrs and button.attrs["aria-describedby"] == "end-turn-wait"
    assert "Answer the position checks first" in table.page.by_id("end-turn-wait").text()
    table.submit("check-sent", button=("passed", "true"))
    assert "disabled" in table.page.by_id("end-turn").attrs  # one check still due
    table.submit("check-patr", button=("passed", "true"))
    assert "disabled" not in table.page.by_id("end-turn").attrs
    assert not table.page.has_id("end-turn-wait")


def test_R_END_CHECK_the_engine_still_refuses_a_forced_end_turn(client, session):
    table = Table(client, make_game(session, roster_state(phase=4)).edit_token)
    answer = table.submit("end-turn", expect=400)  # posted anyway (an old page, no JavaScript…)
    assert "Answer the position check first" in answer.by_id("form-end-turn").one(cls="form-error").text()
    assert "disabled" in answer.by_id("end-turn").attrs


# --- Phase 2: one control for who goes next (R-ACT-ORDER) --------------------------------------

def test_R_ACT_ORDER_before_the_first_activation_the_order_folds_into_the_activate_next_control(client, session):
    game = make_game(session, roster_state(phase=2, activation_order=ORDER))
    page = Table(client, game.edit_token).page
    pick = page.by_id("pick-bot")
    order = pick.by_id("section-order")  # inside the one control, not a second list beside it
    assert order.tag == "details" and "open" not in order.attrs
    assert order.one("summary").text() == "Change the planned order"
    assert [li.attrs["data-bot"] for li in order.all("li")] == ["Hunter-1", "Sentry-1", "Worker-1", "Patrol-1"]
    assert len(page.all(cls="order-list")) == 1


def test_R_ACT_ORDER_trying_an_order_keeps_it_open_and_using_it_folds_it_again(client, session):
    table = Table(client, make_game(session, roster_state(phase=2, activation_order=ORDER)).edit_token)
    answer = table.submit("order", button="order-up-patr")
    assert "open" in answer.by_id("section-order").attrs and "Not saved yet" in answer.by_id("section-order").text()
    answer = table.submit("order")
    assert "open" not in answer.by_id("section-order").attrs
    links = answer.by_id("pick-bot").one("ul", cls="pick-list").all("a")
    assert [a.attrs["id"] for a in links] == ["pick-hunt", "pick-sent", "pick-patr", "pick-work"]


def test_R_ACT_ORDER_after_the_first_activation_only_the_activate_next_buttons_remain(client, session):
    table = Table(client, make_game(session, roster_state(phase=2, activation_order=ORDER)).edit_token)
    table.submit("activate", **facts((12, False, False), (12, False, False)))
    assert table.page.has_id("pick-bot") and not table.page.has_id("section-order")


# --- Phase 1: Character Shoot odds when the target is in melee (R-CMB-TARGET) --------------------

def odds_text(client, token, **params) -> tuple[str, object]:
    r = client.get(f"/g/{token}/turn/odds", params=params)
    assert r.status_code == 200, r.text
    page = parse(r.text)
    return page.text(), page


@pytest.fixture
def token(client, session):
    return make_game(session).edit_token


def test_R_CMB_TARGET_not_in_melee_only_the_intended_targets_odds_show(client, token):
    text, page = odds_text(client, token, character_id="ada", target_id="hunt")
    assert not page.has_id("shoot-odds-blank") and "Black Die" not in text


def test_R_CMB_TARGET_a_blank_that_still_hits_the_healthiest_target_says_the_odds_are_the_same(client, token):
    text, page = odds_text(client, token, character_id="bo", target_id="hunt", **{"melee_with[]": ["ada"]})
    assert "Blank: it still hits Hunter-1" in page.by_id("shoot-odds-blank").text()  # Health 4 against Ada's 3


def test_R_CMB_TARGET_a_blank_sending_the_shot_to_a_healthier_character_shows_those_odds(client, token):
    # Sentry-1 (Health 3) in melee with Bo (Health 4): a Blank sends Ada's shot to Bo.
    text, page = odds_text(client, token, character_id="ada", target_id="sent", **{"melee_with[]": ["bo"]})
    blank = page.by_id("shoot-odds-blank").text()
    bo = attack_odds({"red": 2}, {"white": 2}, melee=False)
    assert "If the Black Die sends the shot to Bo <b>:" in blank  # escaped player text, read back as text
    assert f"damage: {percent(bo.p_damage)}" in blank
    assert "Black Die Success: the shot hits Sentry-1" in text


def test_R_CMB_TARGET_TIE_models_tied_for_highest_health_each_get_their_odds(client, token):
    text, page = odds_text(client, token, character_id="ada", target_id="hunt",
                           **{"melee_with[]": ["bo", "ada"], "tie_choice": "bo"})  # the shooter is left out
    blank = page.by_id("shoot-odds-blank")
    cases = [p.text() for p in blank.all("p", cls="odds-case")][1:]
    assert cases == ["If the Black Die sends the shot to Hunter-1:", "If the Black Die sends the shot to Bo <b> (your choice):"]
    assert len(blank.all(cls="odds")) == 2


def test_R_CMB_TARGET_the_phase_1_form_shows_the_odds_box_at_once(client, token):
    fold = Table(client, token).open("shoot")
    assert fold.by_id("form-shoot").one(cls="odds-slot").all(cls="odds")


def test_the_shoot_odds_slot_swaps_only_itself_not_the_turn_panel_its_form_targets(client, token):
    slot = Table(client, token).open("shoot").by_id("form-shoot").one(cls="odds-slot")
    assert slot.attrs["hx-target"] == "this" and slot.attrs["hx-swap"] == "innerHTML"
