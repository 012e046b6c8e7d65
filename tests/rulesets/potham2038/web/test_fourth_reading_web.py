"""The fourth reading on the page (docs/rules.md § 5.6): the known melee pre-ticked on the Phase 1
shoot form, and the items found in play on the tablet: "no line of sight" as a one-tap answer,
Out of ammo and Knocked down in "Correct a value", every Character out of action, who attacks as
the rule's answer with an explicit override, cards that keep their place, dice entered by hand
labelled, a free Scan named on the Glitch form and a free Melee's second bout on its card."""

from __future__ import annotations

from tests.rulesets.potham2038.web.test_turn_phases import phase3
from tests.support.turn_games import make_game, roster_state, with_character
from tests.support.turn_play import Table


def api(table: Table) -> dict:
    return table.client.get(f"/api/games/{table.token}").json()


def send(table: Table, body: dict) -> None:
    r = table.client.post(f"/api/games/{table.token}/commands", json=body)
    assert r.status_code == 200, r.text
    table.page = table.panel()


def test_R_CMB_BLACK_KNOWN_the_phase_1_shoot_form_pre_ticks_the_known_melee(client, session):
    """Seed 001: "on Blank, attack the eligible model in that melee with the highest current
    Health": Bo walked into Hunter-1 this turn, so Ada's shot at Hunter-1 opens on that melee."""
    state = roster_state(phase=1)
    state = state.model_copy(update={"bots": [b for b in state.bots if b.id == "hunt"]})
    table = Table(client, make_game(session, state).edit_token)
    send(table, {"type": "character_contact", "character_id": "bo", "bot_id": "hunt"})
    form = table.page.by_id("form-cshoot-ada")
    ticked = [n.attrs["value"] for n in form.all("input", name="melee_with[]") if "checked" in n.attrs]
    assert ticked == ["bo"] and "open" in table.page.by_id("cshoot-ada-more").attrs
    answer = table.submit("cshoot-ada")
    assert "Shooting into a melee: the Black Die shows" in answer.by_id("turn-news").text()


def test_no_line_of_sight_is_an_answer_not_a_400(client, session):
    """Found in play: "Shoot as ticked" with line of sight unticked records that the bot cannot
    shoot; the Shoot is skipped and its slot offers a Scan (no movement in Phase 3)."""
    table = phase3(client, session)
    table.submit("melee-hunt", dice="app")  # R-CMB-ORDER: AI-Bot shots come after every melee
    answer = table.submit("shoot-sent", line_of_sight="false")
    assert "cannot shoot: it has no line of sight" in answer.by_id("turn-news").text()
    shoot = next(a for d in api(table)["decisions"] if d["bot_id"] == "sent" for a in d["actions"]
                 if a["action"] == "shoot")
    assert shoot["status"] == "skipped" and not answer.has_id("form-shoot-sent")
    assert answer.by_id("phase-3").all("form", cls="command-form")  # what the rules leave it is offered


def test_correct_a_value_sets_out_of_ammo_and_knocked_down(client, session):
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    table.open("adjust")
    table.submit("adjust", target_id="sent", out_of_ammo="true", knocked_down="true")
    sentry = next(b for b in api(table)["bots"] if b["id"] == "sent")
    assert sentry["out_of_ammo"] is True and sentry["knocked_down"] is True
    assert "Out of ammo" in table.chip("Sentry-1") and "Knocked down" in table.chip("Sentry-1")
    table.open("adjust")
    table.submit("adjust", target_id="sent", out_of_ammo="false")
    sentry = next(b for b in api(table)["bots"] if b["id"] == "sent")
    assert sentry["out_of_ammo"] is False and sentry["knocked_down"] is True  # left blank: kept


def test_every_character_out_of_action_the_page_says_so_and_offers_a_loss_or_undo(client, session):
    state = with_character(with_character(roster_state(phase=1), "ada", health=0), "bo", health=0)
    table = Table(client, make_game(session, state).edit_token)
    box = table.page.by_id("all-out")
    assert "Every Character is out of action" in box.text() and "undo" in box.text().lower()
    assert not table.page.has_id("char-ada")  # no Character cards to fill in
    assert "Out of action" in table.chip("Ada")
    answer = table.submit("end-game")
    assert api(table)["status"] == "failed" and "Mission lost" in answer.text()


def test_who_attacks_an_override_names_the_other_side_and_dice_by_hand_are_labelled(client, session):
    """R-CMB-WHO: "Use an applicable Special Rule first; otherwise the higher current total points
    … attacks": the override is explicit; entered dice read "AI-Bot: 1 hit", not "AI-Bot:"."""
    table = phase3(client, session)
    before = [n.attrs["id"] for n in table.page.all("article", cls="p3-card")]
    table.open_dice("melee-hunt")
    answer = table.submit("melee-hunt", dice="entered", attacker=["npc", "character"],
                          **{"rolls.npc.hits": "1", "rolls.character.hits": "3"})
    assert "a Special Rule" in answer.by_id("turn-news").text()
    result = answer.by_id("engagement-hunt-ada").one(cls="p3-result").text()
    assert "AI-Bot: 1 hit" in result and "Character: 3 hits" in result
    assert [n.attrs["id"] for n in answer.all("article", cls="p3-card")][:len(before)] == before


def test_the_cards_keep_their_place_when_a_result_takes_a_model_out_of_action(client, session):
    table = phase3(client, session)
    before = [n.attrs["id"] for n in table.page.all("article", cls="p3-card") if "engagement" in n.attrs["id"]]
    table.open_dice("melee-hunt")
    answer = table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "6", "rolls.character.hits": "0"})
    assert "Out of action" in answer.one("li", data_name="Ada").text()
    after = [n.attrs["id"] for n in answer.all("article", cls="p3-card") if "engagement" in n.attrs["id"]]
    assert after == before


def test_R_GLITCH_FREE_ACTS_the_glitch_form_names_a_free_scans_character(client, session):
    table = Table(client, make_game(session, roster_state(phase=2)).edit_token)
    table.open("glitch")
    table.submit("glitch", bot_id="hunt", result="free_action", action="scan", character_id="ada",
                 line_of_sight=["false", "true"], in_zone=["false", "true"])
    assert next(c for c in api(table)["characters"] if c["id"] == "ada")["marked"] == 1


def test_R_GLITCH_FREE_ACTS_a_free_melee_brings_the_fought_pair_back_with_its_form(client, session):
    table = phase3(client, session)
    send(table, {"type": "record_glitch", "bot_id": "hunt", "result": "free_action", "action": "melee"})
    table.open_dice("melee-hunt")
    table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "0", "rolls.character.hits": "1"})
    card = table.page.by_id("engagement-hunt-ada")
    assert card.has_id("form-melee-hunt") and "free Glitch Melee" in card.text()
