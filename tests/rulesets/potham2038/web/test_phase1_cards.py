"""Real turns in a handful of taps (issue 18): each Character's card in Phase 1, the Event's name
and Marked on its one-tap row, dice by hand as chips, and a Character's starting sheet, through
the forms the page renders (tests/support/turn_play.py posts them as htmx does)."""

from __future__ import annotations

import pytest

from tests.support.html import form_items
from tests.support.turn_games import make_game, roster_state, with_character
from tests.support.turn_play import Table, as_data

HTMX = {"HX-Request": "true"}


def in_phase(client, session, phase, state=None, **changes) -> Table:
    return Table(client, make_game(session, (state or roster_state()).model_copy(update={"phase": phase, **changes})).edit_token)


def api(table: Table) -> dict:
    return table.client.get(f"/api/games/{table.token}").json()


def character(state: dict, character_id: str) -> dict:
    return next(c for c in state["characters"] if c["id"] == character_id)


def bot(state: dict, bot_id: str) -> dict:
    return next(b for b in state["bots"] if b["id"] == bot_id)


# --- Phase 1: the Character's own card -----------------------------------------------------


def test_each_living_character_has_a_card_with_its_actions(client, session):
    state = with_character(roster_state(), "bo", health=0)
    table = in_phase(client, session, 1, state)
    assert table.page.has_id("char-ada") and not table.page.has_id("char-bo")  # out of action: no card
    card = table.page.by_id("char-ada")
    for form in ("quick-move-ada", "quick-noise-ada", "quick-alarm-ada", "distract-ada", "cshoot-ada"):
        assert card.has_id(f"form-{form}"), form


def test_a_characters_shot_is_the_targets_chip_then_shoot_and_cover_defaults_to_none(client, session):
    table = in_phase(client, session, 1)
    form = table.page.by_id("form-cshoot-ada")
    assert [i.attrs["value"] for i in form.by_id("cshoot-ada-target_id").all("input")] == ["hunt", "sent", "work", "patr"]
    assert not any("checked" in i.attrs for i in form.by_id("cshoot-ada-target_id").all("input"))  # never assumed
    assert "checked" in form.by_id("cshoot-ada-cover-none").attrs
    table.submit("cshoot-ada", target_id="hunt", dice="entered", **{"attack.hits": "2", "defense.hits": "0"})
    assert bot(api(table), "hunt")["health"] == 2  # 2 hits against none, no cover (R-CMB-SHOOT)


def test_a_characters_shot_in_heavy_cover_is_one_more_chip(client, session):
    table = in_phase(client, session, 1)
    table.submit("cshoot-ada", target_id="sent", cover="heavy", dice="entered",
                 **{"attack.hits": "2", "defense.hits": "0"})
    log = table.panel("log").text()
    assert "heavy" in log.lower() and "Sentry-1" in log


def test_a_shot_without_a_target_is_refused_with_the_message_next_to_the_target_chips(client, session):
    table = in_phase(client, session, 1)
    answer = table.submit("cshoot-ada", expect=422)
    chips = answer.by_id("form-cshoot-ada").by_id("cshoot-ada-target_id")
    assert chips.attrs.get("aria-invalid") == "true"
    assert chips.one(cls="field-error").text()
    assert bot(api(table), "hunt")["health"] == 4  # nothing was shot


def test_the_shot_card_shows_the_odds_once_a_target_is_tapped(client, session):
    table = in_phase(client, session, 1)
    slot = table.page.by_id("cshoot-ada-odds")
    assert "Choose the target to see the odds" in slot.text()  # the card already names the shooter
    assert "shooter" not in slot.text()
    assert slot.attrs["hx-target"] == "this" and slot.attrs["hx-include"] == "closest form"
    fragment = client.get(f"/g/{table.token}/turn/odds",
                          params={"character_id": "ada", "target_id": "hunt", "cover": "light"})
    assert fragment.status_code == 200 and "damage" in fragment.text


def test_distracted_is_one_tap_on_the_bot_in_base_contact(client, session):
    """R-DISTRACTED: +1 Distracted per NPC in base contact."""
    table = in_phase(client, session, 1)
    table.submit("distract-ada", button="distract-ada-hunt")
    assert character(api(table), "ada")["distracted"] == 1


@pytest.mark.parametrize("button, marked, danger", [
    ("quick-alarm-bo-sent", 1, 1),  # one zone holds Bo: +1 Marked, Danger +1
    ("quick-alarm-bo-none", 0, 1),  # outside every zone: Danger +1 all the same
], ids=["R-ALARM-inside-one-zone", "R-ALARM-outside-every-zone"])
def test_an_alarm_is_one_tap_and_always_raises_danger(client, session, button, marked, danger):
    table = in_phase(client, session, 1)
    table.submit("quick-alarm-bo", button=button)
    state = api(table)
    assert (character(state, "bo")["marked"], state["danger"]) == (marked, danger)


# --- Phase 2: the Event's name and Marked on the one-tap row --------------------------------


def test_an_event_with_a_name_and_marked_is_typed_name_then_two_taps(client, session):
    table = in_phase(client, session, 2)
    form = table.page.by_id("form-event-quick")
    assert "checked" in form.by_id("event-quick-marked-ada-0").attrs  # no Marked unless tapped
    table.submit("event-quick", button="event-danger-2", **{"title": ["Event card", "Lockdown"], "marked.ada": "1"})
    state = api(table)
    assert (state["event"], state["danger"]) == ("Lockdown", 2)
    assert (character(state, "ada")["marked"], character(state, "bo")["marked"]) == (1, 0)


def test_an_event_left_unnamed_on_the_quick_row_is_still_the_event_card(client, session):
    table = in_phase(client, session, 2)
    table.submit("event-quick", button="event-danger-1")
    assert api(table)["event"] == "Event card"


def test_an_event_name_too_long_is_refused_next_to_the_name_field(client, session):
    table = in_phase(client, session, 2)
    answer = table.submit("event-quick", expect=422, button="event-danger-1", title=["Event card", "x" * 121])
    field = answer.by_id("event-quick-title")
    assert field.attrs.get("aria-invalid") == "true" and answer.by_id("err-event-quick-title").text()
    assert api(table)["event"] is None


# --- dice by hand: counts by tap --------------------------------------------------------------


def test_entered_dice_are_chips_of_counts_with_no_field_to_type(client, session):
    table = in_phase(client, session, 1)
    form = table.page.by_id("form-cshoot-ada")
    hits = form.by_id("cshoot-ada-attack-hits")
    assert [i.attrs["value"] for i in hits.all("input")] == [*(str(n) for n in range(7)), "more"]
    assert all(i.attrs["type"] == "radio" for i in form.all("input") if i.attrs.get("name", "").endswith(("hits", "criticals")))
    assert "checked" in form.by_id("cshoot-ada-attack-criticals-0").attrs  # no Critical unless tapped


def test_hits_start_at_zero_so_a_roll_of_no_hit_is_no_tap(client, session):
    table = in_phase(client, session, 1)
    for roll in ("attack", "defense"):
        assert "checked" in table.page.by_id(f"cshoot-ada-{roll}-hits-0").attrs
    table.submit("cshoot-ada", target_id="hunt", dice="entered", **{"attack.hits": "2"})
    assert bot(api(table), "hunt")["health"] == 2  # 2 Hits against the 0 shown: 2 damage (R-CMB-SHOOT)


def test_dice_by_hand_is_one_fold_on_the_card_whose_chips_mean_entered(client, session):
    """Issue 18: the chips one tap away (the fold "Dice by hand", no separate mode tap: opening it
    or tapping a chip means entered, static/table.js); the melee ticks fold apart."""
    table = in_phase(client, session, 1)
    card = table.page.by_id("char-ada")
    fold = card.by_id("cshoot-ada-dice")
    assert fold.tag == "details" and "data-by-hand" in fold.attrs and "open" not in fold.attrs
    assert fold.has_id("cshoot-ada-attack-hits") and not card.by_id("cshoot-ada-more").has_id("cshoot-ada-attack-hits")
    assert card.by_id("chack-ada-dice").has_id("chack-ada-rolls-attempt-hits")


def test_dice_by_hand_open_at_once_when_the_game_enters_every_roll(client, session):
    from app.rulesets.potham2038.house_rules import HouseRules
    state = roster_state().model_copy(update={"house": HouseRules(dice_mode="entered")})
    table = in_phase(client, session, 1, state)
    assert "open" in table.page.by_id("cshoot-ada-dice").attrs


@pytest.mark.parametrize("hits, health", [("8", 0), ("7", 0)])
def test_more_hits_than_the_chips_go_to_is_the_last_chip_and_its_count(client, session, hits, health):
    """Issue 18: past 6 Hits (a big pool, Cover or Distracted dice) the chip "7+" and the count."""
    table = in_phase(client, session, 1)
    assert table.page.has_id("cshoot-ada-attack-hits-more-count")
    table.submit("cshoot-ada", target_id="hunt", dice="entered",
                 **{"attack.hits": "more", "attack.hits_more": hits, "defense.hits": "0"})
    assert bot(api(table), "hunt")["health"] == health


def test_the_last_chip_without_its_count_is_refused_naming_the_roll_never_read_as_zero(client, session):
    table = in_phase(client, session, 1)
    answer = table.submit("cshoot-ada", expect=422, target_id="hunt", dice="entered",
                          **{"attack.hits": "more", "attack.hits_more": "", "defense.hits": "0"})
    assert answer.by_id("err-cshoot-ada-attack-hits").text() and bot(api(table), "hunt")["health"] == 4


def test_entered_dice_posted_without_the_hits_are_still_refused_never_read_as_zero(client, session):
    """The 0 shown is an answer the page gives; a posted roll that names no Hits stays a 422."""
    table = in_phase(client, session, 1)
    answer = table.submit("cshoot-ada", expect=422, target_id="hunt", dice="entered", **{"attack.hits": []})
    assert answer.by_id("cshoot-ada-attack-hits").attrs.get("aria-invalid") == "true"
    assert answer.by_id("err-cshoot-ada-attack-hits").text()


def test_a_critical_more_than_the_hits_is_refused_naming_the_roll(client, session):
    table = in_phase(client, session, 1)
    answer = table.submit("cshoot-ada", expect=422, target_id="hunt", dice="entered",
                          **{"attack.hits": "1", "attack.criticals": "2", "defense.hits": "0"})
    assert "Critical is also a Hit" in answer.by_id("err-cshoot-ada-attack").text()


def test_an_ai_bots_shot_takes_cover_and_the_out_of_ammo_die_as_chips(client, session):
    """R-CMB-AMMO: a Critical calls the Out of Ammo check; a Blank entered leaves it out of ammo."""
    table = in_phase(client, session, 2, activation_order=["sent"], event="Blackout")
    table.submit("ask", button="ask-zone-bo")  # Bo inside its zone, nobody in contact
    table.submit("ask", button="ask-band-run")  # its Vault 4-8" away: it walks back first
    table.submit("ask", button="ask-line_of_sight-bo")  # then shoots Bo
    table.submit("next-2")
    form = table.page.by_id("form-shoot-sent")
    assert [i.attrs["value"] for i in form.by_id("shoot-sent-cover").all("input")] == ["none", "light", "heavy"]
    table.open_dice("shoot-sent")  # the counts and the Out of Ammo die: behind "Dice by hand" (issue 21)
    assert form.has_id("shoot-sent-ammo_die-blank") and not form.all("select", name="ammo_die")
    table.submit("shoot-sent", button="shoot-sent-confirm", dice="entered", cover="light", ammo_die="blank",
                 **{"rolls.attack.hits": "2", "rolls.attack.criticals": "1", "rolls.defense.hits": "0"})
    assert bot(api(table), "sent")["out_of_ammo"] is True


# --- the roster: a Character's starting sheet -----------------------------------------------


def new_game(client) -> str:
    return client.post("/api/games", json={"name": "Night shift"}).json()["edit_token"]


def test_a_starting_sheet_fills_the_new_character_form(client):
    token = new_game(client)
    page = client.get(f"/g/{token}").text
    assert 'id="add-character-hacker"' in page and 'id="add-character-gunner"' in page
    form = client.get(f"/g/{token}/roster/characters/new", params={"sheet": "gunner"}, headers=HTMX).text
    assert 'name="sheet" value="gunner"' in form and 'value="3 red"' in form  # Rook's Shoot: 3 red


def test_a_character_from_a_starting_sheet_is_two_taps_and_named_after_it(client):
    token = new_game(client)
    form = {"sheet": "hacker", "name": "", "points": "45", "max_health": "3", "melee": "2 red", "shoot": "2 red",
            "defense": "2 white", "equipment_flags": "DIAGNOSTICS", "cover": "none", "seen": "0"}
    for _ in range(2):
        assert client.post(f"/g/{token}/roster/characters", data=form, headers=HTMX).status_code == 200
    characters = client.get(f"/api/games/{token}").json()["characters"]
    assert [c["name"] for c in characters] == ["Hacker-1", "Hacker-2"]
    assert characters[0]["equipment"] == ["DIAGNOSTICS"] and characters[0]["health"] == 3


@pytest.mark.parametrize("sheet", ["", "wizard"], ids=["no-sheet", "unknown-sheet"])
def test_a_character_without_a_name_or_a_known_sheet_is_refused_next_to_the_name(client, sheet):
    token = new_game(client)
    form = {"sheet": sheet, "name": "", "points": "0", "max_health": "3", "seen": "0"}
    r = client.post(f"/g/{token}/roster/characters", data=form, headers=HTMX)
    assert r.status_code == 422 and "Give a name of 1 to 80 characters." in r.text
    assert client.get(f"/api/games/{token}").json()["characters"] == []


def test_an_unknown_starting_sheet_shows_the_empty_form(client):
    token = new_game(client)
    form = client.get(f"/g/{token}/roster/characters/new", params={"sheet": "wizard"}, headers=HTMX)
    assert form.status_code == 200 and 'name="sheet"' not in form.text


def test_without_javascript_a_starting_sheet_link_opens_the_game_page_with_that_sheet(client):
    token = new_game(client)
    page = client.get(f"/g/{token}/roster/characters/new", params={"sheet": "hacker"}).text
    assert '<details class="add-model" id="add-character" open>' in page
    assert 'name="sheet" value="hacker"' in page and "DIAGNOSTICS" in page


# --- Phase 1: a hack against an AI-Bot's stat, on the card (R-HACK) ----------------------------


def hacker(**changes):
    """Ada with a Mission stat and DIAGNOSTICS (R-HACK-TECH: it helps against an NPC stat)."""
    return with_character(roster_state(), "ada", mission_stats={"Hacking": {"red": 2}},
                          equipment=["DIAGNOSTICS"], **changes)


def test_a_hack_offers_the_ai_bots_and_the_stats_that_exist_as_chips_and_no_typed_field(client, session):
    table = in_phase(client, session, 1, hacker())
    form = table.page.by_id("form-chack-ada")
    assert [i.attrs["value"] for i in form.by_id("chack-ada-bot_id").all("input")] == ["hunt", "sent", "work", "patr"]
    # R-HACK: the Character's stats with dice, and the AI-Bot's stats the Mission may name
    assert [i.attrs["value"] for i in form.by_id("chack-ada-stat").all("input")] == ["Melee", "Shoot", "Defense", "Hacking"]
    assert [i.attrs["value"] for i in form.by_id("chack-ada-opposing_stat").all("input")] == ["melee", "shoot", "defense"]
    chips = [i for g in ("bot_id", "stat", "opposing_stat") for i in form.by_id(f"chack-ada-{g}").all("input")]
    assert not any("checked" in i.attrs for i in chips)  # what the Mission names is never assumed
    typed = [i for i in form.all("input") if i.attrs.get("type", "text") in ("text", "number")]
    assert all(i.attrs["name"].endswith("_more") for i in typed)  # only a count past the last chip
    assert "checked" in form.by_id("chack-ada-diagnostics").attrs  # carried: ticked


def test_a_character_without_diagnostics_is_offered_no_diagnostics_box(client, session):
    table = in_phase(client, session, 1)
    assert table.page.has_id("form-chack-bo") and not table.page.has_id("chack-bo-diagnostics")


def test_a_hack_is_the_ai_bot_and_two_stat_chips_then_hack_rolled_against_that_bots_stat(client, session):
    """R-HACK: Ada's Hacking (2 red, +1 white from DIAGNOSTICS, R-HACK-HELP) against Sentry-1's
    Defense (2 white), dice entered: 2 Hits against 1, the attempt succeeds (R-HACK-ROLL)."""
    table = in_phase(client, session, 1, hacker())
    table.submit("chack-ada", bot_id="sent", stat="Hacking", opposing_stat="defense", dice="entered",
                 **{"rolls.attempt.hits": "2", "rolls.opposing.hits": "1"})
    log = table.panel("log").text()
    assert "DIAGNOSTICS helps" in log and "Ada's hacking attempt with Hacking" in log
    assert "succeeds: 2 against 1 (Sentry-1's Defense)" in log


def test_unticking_diagnostics_leaves_it_out_of_the_hack(client, session):
    table = in_phase(client, session, 1, hacker())
    table.submit("chack-ada", bot_id="sent", stat="Shoot", opposing_stat="melee", help=[])
    log = table.panel("log").text()
    assert "hacking attempt with Shoot" in log and "DIAGNOSTICS" not in log


@pytest.mark.parametrize("fill, field", [
    ({"stat": "Hacking", "opposing_stat": "defense"}, "bot_id"),
    ({"bot_id": "sent", "stat": "Hacking", "opposing_stat": "charm"}, "opposing_stat"),
], ids=["no-ai-bot", "a-stat-no-ai-bot-has"])
def test_a_hack_missing_its_ai_bot_or_naming_an_unknown_stat_is_a_422_next_to_those_chips(client, session, fill, field):
    table = in_phase(client, session, 1, hacker())
    answer = table.submit("chack-ada", expect=422, **fill)
    chips = answer.by_id("form-chack-ada").by_id(f"chack-ada-{field}")
    assert chips.attrs.get("aria-invalid") == "true" and chips.one(cls="field-error").text()
    assert "hacking attempt" not in table.panel("log").text()


def test_without_javascript_a_hack_posts_and_comes_back_to_the_page(client, session):
    table = in_phase(client, session, 1, hacker())
    form = table.page.by_id("form-chack-ada")
    items = [(k, v) for k, v in form_items(form, bot_id="sent", stat="Hacking", opposing_stat="defense")]
    r = client.post(form.attrs["action"], data=as_data(items), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{table.token}"
    assert "hacking attempt with Hacking" in client.get(f"/g/{table.token}").text


# --- Phase 4: the Glitch die rolled by hand ---------------------------------------------------


def test_a_glitch_die_of_more_than_12_faces_is_typed_in_a_fold_open_after_a_refusal(client, session):
    """R-END-CHECK: a failed check rolls a Glitch; a d20 entered by hand is typed (the faces of a
    d12 or less are one tap each: test_check_glitch_faces.py)."""
    state = roster_state()
    table = in_phase(client, session, 4, house=state.house.model_copy(update={"glitch_die": 20}))
    assert "open" not in table.page.by_id("check-sent-by-hand").attrs  # the app rolls unless opened
    answer = table.submit("check-sent", expect=422, glitch_roll="0", button=("passed", "false"))
    assert "open" in answer.by_id("check-sent-by-hand").attrs
    assert answer.by_id("check-sent-glitch_roll").attrs.get("aria-invalid") == "true"
    assert answer.by_id("err-check-sent-glitch_roll").text()


# --- a move into base contact, one tap (issue 18) ----------------------------------------------


def test_a_move_into_base_contact_is_one_tap_on_the_card_and_phase_3_lists_the_engagement(client, session):
    """R-ZONE: base contact is inside the zone, so +1 Marked (R-MARK-MOVE); R-LOS: the player's
    report is the fact Phase 3 lists, even for a bot asked nothing (R-CMB-WHO)."""
    table = in_phase(client, session, 1)
    button = table.page.by_id("quick-contact-ada-sent")
    assert button.attrs["aria-label"] == "Ada moved into base contact with Sentry-1 +1"
    table.submit("quick-contact-ada", button=("bot_id", "sent"))
    state = api(table)
    assert character(state, "ada")["marked"] == 1 and state["contacts_reported"] == ["sent:ada"]
    for _ in range(2):
        table.submit("next-1" if table.page.has_id("form-next-1") else "next-2")
    card = table.panel().by_id("engagement-sent-ada")
    assert "Resolve the melee" in card.text()


def test_a_contact_with_a_bot_already_inside_the_zone_adds_no_marked(client, session):
    table = in_phase(client, session, 1)
    table.submit("quick-contact-ada", button=("bot_id", "sent"), entered=["true", "false"])
    state = api(table)
    assert character(state, "ada")["marked"] == 0 and state["contacts_reported"] == ["sent:ada"]


def test_a_hack_preselects_the_only_ai_bot_reported_in_base_contact_shown_and_changeable(client, session):
    """R-LOS: the contact is the player's report this turn; with none, no AI-Bot is assumed."""
    table = in_phase(client, session, 1, hacker())
    assert not any("checked" in i.attrs for i in table.page.by_id("chack-ada-bot_id").all("input"))
    table.submit("quick-contact-ada", button=("bot_id", "sent"))
    chips = table.page.by_id("chack-ada-bot_id").all("input")
    assert [i.attrs["value"] for i in chips if "checked" in i.attrs] == ["sent"] and len(chips) == 4
