"""Phase 3 as one list in resolution order (issue 15, "The page"), read from the panel the page
gets: engagements decided or not with who attacks preset (R-CMB-WHO, R-CMB-GANGUP,
R-GLITCH-REBOOT), then the shots, then every open slot with its legal re-decisions
(R-PHASE-MOVE); a target out of action is struck through and never named by a button
(R-CMB-TARGET-FACTS); the result replaces the form; Undo answers with the turn panel."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import DecidedAction, Decision
from tests.support.html import parse
from tests.support.turn_games import GLITCH_REBOOT, HX, make_game, roster_state, with_bot
from tests.support.turn_play import Table


def seen(**rows: tuple[float, bool, bool]) -> list[dict]:
    return [{"character_id": i, "distance": d, "line_of_sight": los, "base_contact": contact}
            for i, (d, los, contact) in rows.items()]


def send(table: Table, body: dict) -> None:
    r = table.client.post(f"/api/games/{table.token}/commands", json=body)
    assert r.status_code == 200, r.text


@pytest.fixture
def table(client, session):
    """Worker-1 rebooted; Hunter-1 touches Ada and Bo and fights Ada (tie broken by the player);
    Sentry-1 plans to shoot Ada; Worker-1 touches Bo; Patrol-1 walks on."""
    state = with_bot(roster_state(phase=2, activation_order=["hunt", "sent", "work", "patr"]), "work",
                     glitches=[GLITCH_REBOOT])
    t = Table(client, make_game(session, state).edit_token)
    send(t, {"type": "activate_bot", "bot_id": "hunt", "tie_choice": "ada",
             "characters": seen(ada=(0, True, True), bo=(0, True, True))})
    send(t, {"type": "activate_bot", "bot_id": "sent", "subject_distance": 7,
             "characters": seen(ada=(2, True, False), bo=(10, False, False))})
    send(t, {"type": "activate_bot", "bot_id": "work", "object_distance": 1,
             "characters": seen(ada=(12, False, False), bo=(0, True, True))})
    send(t, {"type": "activate_bot", "bot_id": "patr", "waypoint_distance": 2,
             "characters": seen(ada=(12, False, False), bo=(12, False, False))})
    send(t, {"type": "next_phase"})
    t.page = t.panel()
    return t


def card_ids(table: Table) -> list[str]:
    return [n.attrs["id"] for n in table.page.all("article", cls="p3-card")]


def sides(card) -> list[str]:
    return [n.attrs["value"] for n in card.all("input", name="attacker")]


def test_the_list_is_in_resolution_order_engagements_decided_or_not_then_shots_then_open_slots(table):
    ids = card_ids(table)
    assert ids[:4] == ["engagement-hunt-ada", "engagement-hunt-bo", "engagement-work-bo", "shot-sent"]
    assert all(i.startswith(("slot-", "other-")) for i in ids[4:])


def test_R_CMB_GANGUP_the_second_pairing_is_preset_to_the_character_and_the_bot_only_defends(table):
    decided, gang_up = table.page.by_id("engagement-hunt-ada"), table.page.by_id("engagement-hunt-bo")
    assert sides(decided) == ["npc", "character"]  # by points, and one tap changes it
    assert "checked" in decided.one("input", name="attacker", value="npc").attrs
    assert sides(gang_up) == ["character"] and "only Defends" in gang_up.text()


def test_R_CMB_WHO_a_rebooted_bot_is_attacked_and_its_odds_say_it_rolls_no_defense(table):
    card = table.page.by_id("engagement-work-bo")
    assert sides(card) == ["character"] and "rebooted" in card.text()
    assert "no Defense roll" in card.by_id("odds-melee-work-bo").text()


def test_R_CMB_GANGUP_shots_wait_for_undecided_engagements_too(table):
    table.submit("melee-hunt", dice="app")
    assert "Hunter-1 ⚔ Bo" in table.page.by_id("shots-held").text()
    assert all("disabled" in b.attrs for b in table.page.by_id("shot-sent").all("button", type="submit"))


def test_the_result_replaces_the_form_on_the_card(table):
    table.open_dice("melee-hunt")
    table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "1", "rolls.character.hits": "0"})
    card = table.page.by_id("engagement-hunt-ada")
    assert not card.all("form") and "Ada takes 1 damage" in card.one(cls="p3-result").text()


def test_R_CMB_TARGET_FACTS_a_target_out_of_action_is_struck_through_and_no_button_names_it(table):
    table.open_dice("melee-hunt")
    table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "3", "rolls.character.hits": "0"})
    shot = table.page.by_id("shot-sent")
    assert shot.one("s").text() == "Ada" and "Ada is out of action" in shot.text()
    assert not [b.text() for b in shot.all("button") if "Ada" in b.text()]
    assert "Scan Bo <b>: in sight and in its zone" in [b.text() for b in shot.all("button")]  # re-decide


def test_a_tap_whose_button_named_another_target_is_refused_and_nothing_is_shot(table):
    for pair in ("melee-hunt", "melee-hunt-bo", "melee-work-bo"):
        table.submit(pair, dice="app")
    seq = table.page.by_id("panel-turn").attrs["data-seq"]
    answer = table.submit("shoot-sent", expect=400, character_id="bo", _aim="ada",
                          button=("_confirm", "line_of_sight in_range"))
    assert "check the button's name" in answer.by_id("form-shoot-sent").one(cls="form-error").text()
    assert table.panel().by_id("panel-turn").attrs["data-seq"] == seq


def test_R_PHASE_MOVE_every_open_slot_offers_its_legal_re_decisions_never_a_move(client, session):
    walk = DecidedAction(slot=1, family="maneuver", action="walk", phase=2, move=3, reason="It walks on.",
                         status="done")
    state = roster_state(phase=3, decisions=[Decision(bot_id="patr", turn=1, actions=[walk])])
    table = Table(client, make_game(session, state).edit_token)
    slot = table.page.by_id("slot-patr-2")
    taps = [b.text() for b in slot.all("button")]
    assert "Scan Ada: in sight and in its zone" in taps and "Walk" not in " ".join(taps)
    answer = table.submit("scan-patr-2-ada")
    assert "Patrol-1 scans Ada" in answer.by_id("slot-patr-2").one(cls="p3-result").text()


def test_a_sentry_that_ran_out_of_ammo_with_an_open_slot_can_reload_from_the_page(client, session):
    """Issue 15: its shot came out Out of Ammo; slot 2 is open, so it may Reload (an Interact)."""
    shot = DecidedAction(slot=1, family="attack", action="shoot", phase=3, target="Ada", target_id="ada",
                         reason="It shot Ada.", status="done")
    state = with_bot(roster_state(phase=3, decisions=[Decision(bot_id="sent", turn=1, actions=[shot])]), "sent",
                     out_of_ammo=True)
    t = Table(client, make_game(session, state).edit_token)
    slot = t.page.by_id("slot-sent-2")
    assert "Reload" in [b.text() for b in slot.all("button")]
    t.submit("reload-sent-2")
    assert not t.client.get(f"/api/games/{t.token}").json()["bots"][1]["out_of_ammo"]
    assert "reloads" in t.page.by_id("slot-sent-2").one(cls="p3-result").text()


def test_undo_from_the_turn_bar_answers_with_the_turn_panel_and_the_log_out_of_band(table):
    table.submit("melee-hunt", dice="app")
    form = table.page.by_id("turn-bar").one("form")
    assert form.attrs["hx-target"] == "#panel-turn"
    r = table.client.post(form.attrs["hx-post"], data={"seen": table.page.by_id("panel-turn").attrs["data-seq"],
                                                       "panel": "turn"}, headers=HX)
    assert r.status_code == 200
    answer = parse(r.text)
    assert "hx-swap-oob" not in answer.by_id("panel-turn").attrs  # the turn panel, in place
    assert answer.by_id("panel-log").attrs.get("hx-swap-oob") == "true"  # the log follows out of band
    assert answer.by_id("panel-turn").has_id("form-melee-hunt")  # the melee is asked again


def test_R_PHASE_MOVE_an_open_slot_of_a_worker_may_become_an_interact_with_its_object(client, session):
    walk = DecidedAction(slot=1, family="maneuver", action="walk", phase=2, move=3, reason="It walks.",
                         status="done")
    state = roster_state(phase=3, decisions=[Decision(bot_id="work", turn=1, actions=[walk])])
    table = Table(client, make_game(session, state).edit_token)
    button = table.page.by_id("form-interact-work-2").one("button")
    assert button.text() == "Interact with Console: in base contact"
    answer = table.submit("interact-work-2")
    assert "Worker-1 interacts with Console" in answer.by_id("slot-work-2").one(cls="p3-result").text()


def test_a_melee_that_takes_ada_out_of_action_never_says_she_is_pushed_back_and_labels_each_sides_dice(table):
    """Issue 18 wording: R-CMB-PUSH pushes back a damaged model, not one out of action; the log
    shows the AI-Bot's and the Character's dice apart."""
    table.open_dice("melee-hunt")
    table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "3", "rolls.character.hits": "0"})
    result = table.page.by_id("engagement-hunt-ada").one(cls="p3-result").text()
    assert "Ada is out of action (not pushed back)" in result and "pushed back." not in result
    log = table.panel("log").all("li", cls="log-step")[0].text()  # newest first
    assert "Push back: move Ada" not in log
    assert "AI-Bot:" in log and "Character:" in log and log.index("AI-Bot:") < log.index("Character:")


def test_R_CMB_COUNTER_a_counter_attack_is_one_visible_chip_outside_the_fold(table):
    """Issue 18: one tap, not a fold then a tick; its odds and reading fold away below it."""
    card = table.page.by_id("engagement-hunt-ada")
    box = card.one("input", type="checkbox", name="counter_attack")
    folds, node = [], box.parent
    while node is not None and node is not card:
        folds.append(node.tag == "details")
        node = node.parent
    assert node is card and not any(folds)  # inside the card, inside no fold
    table.open_dice("melee-hunt")
    table.submit("melee-hunt", dice="entered", counter_attack="true",
                 **{"rolls.npc.hits": "1", "rolls.character.hits": "2"})
    assert "counter" in table.page.by_id("engagement-hunt-ada").text().lower()
