"""No edit silently overwritten (issue 10 § 2): two devices edit from the same page. A stale edit of
the same thing answers 409 with both versions and saves nothing; an edit of another thing applies.
Forms are posted as a browser would send them as rendered (hidden `seen` and `expect` included)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from app.rulesets.potham2038.house_rules import HouseRules
from tests.support.html import form_items, parse
from tests.support.turn_games import make_game, roster_state

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

HTMX = {"HX-Request": "true", "content-type": "application/x-www-form-urlencoded"}


def api_game(client) -> tuple[str, dict]:
    token = client.post("/api/games", json={"name": "Two devices", "seed": 3}).json()["edit_token"]
    for name in ("Ada", "Bo"):
        client.post(f"/api/games/{token}/commands", json={"type": "add_character", "character": {"name": name}})
    return token, client.get(f"/api/games/{token}").json()


def edit(client, token, game, character, **sheet):
    """An edit of `character` from a page that showed `game` (its step and that Character)."""
    body = {"type": "edit_character", "id": character["id"], "character": {"name": character["name"], **sheet},
            "seen": game["seq"], "expect": {character["id"]: character}}
    return client.post(f"/api/games/{token}/commands", json=body)


def character(client, token, id_):
    return next(c for c in client.get(f"/api/games/{token}").json()["characters"] if c["id"] == id_)


# --- the JSON API ----------------------------------------------------------------------------


def test_two_clients_editing_the_same_character_the_second_is_409_with_both_versions(client):
    token, game = api_game(client)
    ada = game["characters"][0]
    first = edit(client, token, game, ada, points=20)
    second = edit(client, token, game, ada, points=30, health=2)
    assert first.status_code == 200
    assert second.status_code == 409, second.text
    answer = second.json()
    assert answer["theirs"][ada["id"]]["points"] == 20 and answer["yours"][ada["id"]]["points"] == 30
    assert answer["yours"][ada["id"]]["health"] == 2
    assert "Ada: points is now 20 (yours: 30)" in answer["detail"]
    assert character(client, token, ada["id"])["points"] == 20  # the first edit is not lost
    assert client.get(f"/api/games/{token}").json()["seq"] == game["seq"] + 1


def test_two_clients_editing_different_characters_both_apply(client):
    token, game = api_game(client)
    ada, bo = game["characters"]
    assert edit(client, token, game, ada, points=20).status_code == 200
    assert edit(client, token, game, bo, points=30).status_code == 200
    assert character(client, token, ada["id"])["points"] == 20
    assert character(client, token, bo["id"])["points"] == 30


def test_a_stale_edit_applies_when_what_it_sets_did_not_change_meanwhile(client):
    """Marked is play, not the sheet: an edit made while a Character gained Marked still applies."""
    token, game = api_game(client)
    ada = game["characters"][0]
    client.post(f"/api/games/{token}/commands", json={"type": "adjust", "target_id": ada["id"], "marked": 2})
    assert edit(client, token, game, ada, points=20).status_code == 200
    assert character(client, token, ada["id"]) | {} == {**ada, "points": 20, "marked": 2}


def test_an_edit_that_does_not_say_what_it_saw_is_409_once_the_game_moved_on(client):
    token, game = api_game(client)
    ada, bo = game["characters"]
    assert edit(client, token, game, bo, points=5).status_code == 200
    body = {"type": "edit_character", "id": ada["id"], "character": {"name": "Ada", "points": 9}}
    stale = client.post(f"/api/games/{token}/commands", json={**body, "seen": game["seq"]})
    assert stale.status_code == 409 and "expect" in stale.json()["detail"]
    assert client.post(f"/api/games/{token}/commands", json={**body, "seen": game["seq"] + 1}).status_code == 200


def test_an_expect_that_leaves_out_a_value_the_edit_sets_is_a_422_naming_it(client):
    token, game = api_game(client)
    ada = game["characters"][0]
    body = {"type": "edit_character", "id": ada["id"], "character": {"name": "Ada"},
            "expect": {ada["id"]: {"name": "Ada"}}}
    r = client.post(f"/api/games/{token}/commands", json=body)
    assert r.status_code == 422
    assert ["body", "expect", ada["id"], "points"] in [e["loc"] for e in r.json()["detail"]]


@pytest.mark.parametrize("first, second, clash", [
    ({"target_id": "ada", "health": 1}, {"target_id": "ada", "health": 2}, True),
    ({"target_id": "ada", "health": 1}, {"target_id": "bo", "health": 2}, False),
    ({"target_id": "ada", "health": 1}, {"target_id": "ada", "marked": 2}, False),
    ({"danger": 3}, {"danger": 4}, True),
    ({"danger": 3}, {"target_id": "hunt", "knocked_down": True}, False),
], ids=["same health", "another model", "another value", "danger twice", "danger then a bot"])
def test_two_corrections_clash_only_on_the_same_value(client, session, first, second, clash):
    game = make_game(session)
    token, saw = game.edit_token, client.get(f"/api/games/{game.edit_token}").json()
    expect = {m["id"]: m for m in saw["characters"] + saw["bots"]} | {"game": {"danger": saw["danger"]}}
    for body, wanted in ((first, 200), (second, 409 if clash else 200)):
        r = client.post(f"/api/games/{token}/commands",
                        json={"type": "adjust", **body, "seen": saw["seq"], "expect": expect})
        assert r.status_code == wanted, r.text


def test_a_stale_activation_order_is_409(client, session):
    token = make_game(session, roster_state(phase=2)).edit_token
    saw = client.get(f"/api/games/{token}").json()
    expect = {"game": {"activation_order": saw["activation_order"]}}
    orders = (["hunt", "sent"], ["sent", "hunt"])
    answers = [client.post(f"/api/games/{token}/commands", json={"type": "set_activation_order", "bot_ids": o,
                                                               "expect": expect}) for o in orders]
    assert [a.status_code for a in answers] == [200, 409]
    assert client.get(f"/api/games/{token}").json()["activation_order"] == ["hunt", "sent"]


def test_the_house_rules_precondition_covers_every_field_of_the_house_rules():
    """Generic, not a list: a field added to HouseRules is protected without naming it."""
    from app.kernel import preconditions
    from app.rulesets.potham2038.commands import POTHAM_COMMANDS
    from app.rulesets.potham2038.models import GameState
    from app.rulesets.potham2038.roster import SetHouseRules

    values = preconditions.current(GameState(), "set_house_rules", SetHouseRules(house=HouseRules()),
                                   POTHAM_COMMANDS)
    assert set(values["house"]) == set(HouseRules.model_fields)


# --- the htmx forms: two pages opened on the same step ---------------------------------------


def edit_form(client, token, slug, model_id):
    html = client.get(f"/g/{token}/roster/{slug}/{model_id}/edit", headers={"HX-Request": "true"}).text
    return parse(html).one("form")


def send(client, url, items):
    """Post form items in order, as a browser does (repeated names included)."""
    return client.post(url, content=urlencode(items), headers=HTMX)


def post_form(client, token, form, **fill):
    return send(client, form.attrs["action"], form_items(form, **fill))


def test_two_pages_editing_the_same_character_the_second_sees_both_versions_and_keeps_its_typing(client, session):
    token = make_game(session).edit_token
    mine, theirs = edit_form(client, token, "characters", "ada"), edit_form(client, token, "characters", "ada")
    assert post_form(client, token, theirs, points="50", melee="3 red").status_code == 200
    r = post_form(client, token, mine, points="60", health="2")
    assert r.status_code == 409, r.text
    page = parse(r.text)
    assert "Changed on another device" in page.one(cls="form-error").text()
    rows = {tr.one("th").text(): (tr.one("td", cls="theirs").text(), tr.one("td", cls="yours").text())
            for tr in page.one("table", cls="both-versions").all("tr") if tr.all("td")}
    assert rows["Points"] == ("50", "60") and rows["Melee"] == ("3 red", "2 red")
    assert rows["Health"] == ("3", "2")
    assert page.field("points").attrs["value"] == "60"  # yours stays in the inputs
    assert client.get(f"/api/games/{token}").json()["characters"][0]["points"] == 50
    again = post_form(client, token, page.one("form"))  # saving again knowingly replaces theirs
    assert again.status_code == 200
    ada = client.get(f"/api/games/{token}").json()["characters"][0]
    assert (ada["points"], ada["health"], ada["melee"]) == (60, 2, {"red": 2})


def test_two_pages_editing_different_models_both_apply(client, session):
    token = make_game(session).edit_token
    ada, bo = edit_form(client, token, "characters", "ada"), edit_form(client, token, "characters", "bo")
    hunter = edit_form(client, token, "bots", "hunt")
    assert post_form(client, token, ada, points="51").status_code == 200
    assert post_form(client, token, bo, points="52").status_code == 200
    assert post_form(client, token, hunter, points="53").status_code == 200
    state = client.get(f"/api/games/{token}").json()
    assert [c["points"] for c in state["characters"]] == [51, 52] and state["bots"][0]["points"] == 53


def test_a_stale_bot_edit_is_409(client, session):
    token = make_game(session).edit_token
    first, second = edit_form(client, token, "bots", "sent"), edit_form(client, token, "bots", "sent")
    assert post_form(client, token, first, subject="Gate").status_code == 200
    r = post_form(client, token, second, subject="Door")
    assert r.status_code == 409 and "Gate" in r.text and 'value="Door"' in r.text


def test_a_422_keeps_what_the_form_first_saw_so_a_later_save_is_still_checked(client, session):
    token = make_game(session).edit_token
    mine, theirs = edit_form(client, token, "characters", "ada"), edit_form(client, token, "characters", "ada")
    wrong = post_form(client, token, mine, points="lots")
    assert wrong.status_code == 422
    assert post_form(client, token, theirs, points="50").status_code == 200
    assert post_form(client, token, parse(wrong.text).one("form"), points="60").status_code == 409


def house_form(client, token):
    return parse(client.get(f"/g/{token}/house").text).one("form", action=f"/g/{token}/house")


def test_two_pages_saving_house_rules_the_second_is_409_with_theirs_named_and_yours_kept(client, session):
    token = make_game(session).edit_token
    mine, theirs = house_form(client, token), house_form(client, token)
    assert post_form(client, token, theirs, glitch_die="8").status_code == 200
    r = send(client, f"/g/{token}/house", form_items(mine, danger_limit="30"))
    assert r.status_code == 409
    page = parse(r.text)
    assert "glitch die is now 8 (yours: 6)" in page.one(cls="form-error").text()
    assert page.field("danger_limit").attrs["value"] == "30"
    house = client.get(f"/api/games/{token}").json()["house"]
    assert (house["glitch_die"], house["danger_limit"]) == (8, 24)
    again = send(client, f"/g/{token}/house", form_items(page.one("form", action=f"/g/{token}/house")))
    assert again.status_code == 200
    assert client.get(f"/api/games/{token}").json()["house"]["danger_limit"] == 30


def turn_panel(client, token):
    return parse(client.get(f"/g/{token}/panels/turn").text)


def correction_form(client, token):
    """The "Correct a value" form as a page opening its fold gets it (fetched when opened, issue 21)."""
    assert turn_panel(client, token).by_id("section-adjust").one(cls="lazy-form")
    return parse(client.get(f"/g/{token}/turn/folds/adjust", headers={"HX-Request": "true"}).text).by_id("form-adjust")


def test_the_dice_mode_toggle_is_409_when_another_device_switched_it_meanwhile(client, session):
    token = make_game(session).edit_token
    mine, theirs = turn_panel(client, token).by_id("form-dice-mode"), turn_panel(client, token).by_id("form-dice-mode")
    assert send(client, f"/g/{token}/dice-mode", form_items(theirs, mode="entered")).status_code == 200
    r = send(client, f"/g/{token}/dice-mode", form_items(mine, mode="app"))
    assert r.status_code == 409 and "dice mode is now entered (yours: app)" in r.text
    assert client.get(f"/api/games/{token}").json()["house"]["dice_mode"] == "entered"


def test_the_dice_mode_toggle_still_applies_after_another_house_rule_changed(client, session):
    token = make_game(session).edit_token
    toggle = turn_panel(client, token).by_id("form-dice-mode")
    assert post_form(client, token, house_form(client, token), glitch_die="8").status_code == 200
    r = send(client, f"/g/{token}/dice-mode", form_items(toggle, mode="entered"))
    assert r.status_code == 200
    house = client.get(f"/api/games/{token}").json()["house"]
    assert (house["dice_mode"], house["glitch_die"]) == ("entered", 8)


def test_two_correction_forms_on_the_same_health_the_second_is_409_and_another_model_applies(client, session):
    token = make_game(session).edit_token
    first, second, third = (correction_form(client, token) for _ in range(3))
    url = f"/g/{token}/turn"
    assert send(client, url, form_items(first, target_id="ada", health="1")).status_code == 200
    clash = send(client, url, form_items(second, target_id="ada", health="2"))
    assert clash.status_code == 409 and "Ada: health is now 1 (yours: 2)" in clash.text
    other = send(client, url, form_items(third, target_id="bo", health="2"))
    assert other.status_code == 200
    assert [c["health"] for c in client.get(f"/api/games/{token}").json()["characters"]] == [1, 2]


def test_a_409_correction_form_expects_the_new_values_so_saving_again_applies(client, session):
    token = make_game(session).edit_token
    first, second = (correction_form(client, token) for _ in range(2))
    url = f"/g/{token}/turn"
    send(client, url, form_items(first, target_id="ada", health="1"))
    clash = send(client, url, form_items(second, target_id="ada", health="2"))
    form = parse(clash.text).by_id("form-adjust")
    assert json.loads(form.field("expect").attrs["value"])["ada"]["health"] == 1
    assert form.field("health").attrs["value"] == "2"  # yours kept
    assert send(client, url, form_items(form)).status_code == 200
    assert client.get(f"/api/games/{token}").json()["characters"][0]["health"] == 2
