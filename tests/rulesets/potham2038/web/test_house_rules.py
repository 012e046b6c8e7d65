"""The house rules page: faces, the Glitch table, zones, cover and the Danger limit per game
(rules.md *house* rules), with the defaults shown, errors next to their field and a reset."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.house_rules import HouseRules
from app.store import games
from tests.support.html import parse
from tests.support.turn_games import HX, make_game, roster_state


def house_form(house: HouseRules | None = None, **overrides: str) -> dict[str, str]:
    """The form exactly as the page fills it for `house`."""
    house = house or HouseRules()
    form = {f"dice_faces.{c}": ", ".join(f) for c, f in house.dice_faces.items()}
    for i, row in enumerate(house.glitch_table):
        form |= {f"glitch_table.{i}.{k}": str(v) for k, v in row.model_dump().items() if v is not None}
    form |= {"glitch_die": str(house.glitch_die), "character_zone": str(house.character_zone),
             "bot_zone": str(house.bot_zone), "danger_limit": str(house.danger_limit),
             "cover_dice.light": "1", "cover_dice.heavy": "2", "cover_colour": house.cover_colour,
             "dice_mode": house.dice_mode, "hack_help_dice": "1", "hack_help_colour": "white", "seen": "0"}
    return form | overrides


def saved_house(session, game) -> HouseRules:
    session.refresh(game)
    return games.current_state(session, game).house


def test_the_page_shows_every_house_rule_with_its_rules_md_default(client, session):
    game = make_game(session)
    r = client.get(f"/g/{game.edit_token}/house")
    assert r.status_code == 200
    page = parse(r.text)
    assert page.field("dice_faces.white").attrs["value"] == "blank, blank, blank, hit, hit, critical"
    assert page.field("danger_limit").attrs["value"] == "24"
    assert page.field("glitch_table.2.result").one("option", value="full_throttle").attrs.__contains__("selected")
    assert "Default: 2.0" in page.by_id("house-rules").text()
    for control in page.all("input") + page.all("select"):  # every input is labelled
        if control.attrs.get("type") in ("hidden",):
            continue
        named = control.attrs.get("aria-label") or page.all("label", **{"for": control.attrs.get("id", "-")})
        in_label = control.parent is not None and control.parent.tag == "label"
        assert named or in_label, control.attrs


def test_saving_changes_faces_glitch_table_zones_and_limit_as_one_logged_step(client, session):
    game = make_game(session)
    form = house_form(**{"dice_faces.red": "blank, hit, hit, hit, critical, critical", "danger_limit": "20",
                         "character_zone": "2.5", "glitch_die": "8", "glitch_table.3.low": "7",
                         "glitch_table.3.high": "8", "glitch_table.3.result": "no_effect",
                         "new_colour": "Green", "new_faces": "hit, hit, critical"})
    r = client.post(f"/g/{game.edit_token}/house", data=form, headers=HX)
    assert r.status_code == 200, r.text
    assert "House rules saved" in parse(r.text).one(cls="form-ok").text()
    house = saved_house(session, game)
    assert house.dice_faces["red"] == ["blank", "hit", "hit", "hit", "critical", "critical"]
    assert house.dice_faces["green"] == ["hit", "hit", "critical"]
    assert (house.danger_limit, house.character_zone, house.glitch_die) == (20, 2.5, 8)
    assert [(g.low, g.high, g.result) for g in house.glitch_table][-1] == (7, 8, "no_effect")
    assert game.seq == 1


@pytest.mark.parametrize("overrides, field, words", [
    ({"danger_limit": "0"}, "danger_limit", "greater than or equal to 1"),
    ({"character_zone": "far"}, "character_zone", "Enter a number"),
    ({"dice_faces.white": "blank, hit, wild"}, "dice_faces.white", "not wild"),
    ({"dice_faces.red": ""}, "dice_faces.red", "The game uses red dice"),
    ({"glitch_table.2.high": "9"}, "glitch_table.2.low", "(the Glitch die)"),
    ({"glitch_table.1.low": "2"}, "glitch_table.1.low", "overlaps"),
    ({"danger_limit": "5"}, "danger_limit", "already 6"),
], ids=["R-DANGER limit at least 1", "R-ZONE a number", "R-DICE known faces", "R-DICE colours in use stay",
        "R-GLITCH rows within the die", "R-GLITCH rows do not overlap", "R-DANGER limit not below Danger"])
def test_a_wrong_house_rule_is_shown_next_to_its_field_and_nothing_typed_is_lost(client, session, overrides, field, words):
    game = make_game(session, roster_state(danger=6))
    form = house_form(**{"dice_faces.black": "success, blank"}, **overrides)
    r = client.post(f"/g/{game.edit_token}/house", data=form, headers=HX)
    assert r.status_code == 422
    page = parse(r.text)
    error_id = "err-" + field.replace(".", "-")
    assert words in page.by_id(error_id).text()
    assert page.field("dice_faces.black").attrs["value"] == "success, blank"  # what was typed stays
    assert saved_house(session, game) == HouseRules() and game.seq == 0


def test_reset_brings_back_the_rules_md_defaults_but_keeps_who_rolls(client, session):
    house = HouseRules(danger_limit=12, character_zone=1, dice_mode="entered")
    game = make_game(session, roster_state(house=house))
    r = client.post(f"/g/{game.edit_token}/house/reset", data={"seen": "0"}, headers=HX)
    assert r.status_code == 200
    assert saved_house(session, game) == HouseRules(dice_mode="entered")


def test_reset_is_refused_when_the_roster_uses_a_colour_the_defaults_lack(client, session):
    house = HouseRules(dice_faces={**HouseRules().dice_faces, "green": ["hit"]})
    state = roster_state(house=house)
    state = state.model_copy(update={"characters": [state.characters[0].model_copy(update={"melee": {"green": 2}})]})
    game = make_game(session, state)
    r = client.post(f"/g/{game.edit_token}/house/reset", data={}, headers=HX)
    assert r.status_code == 400
    assert "green" in parse(r.text).one(cls="form-error").text()
    assert saved_house(session, game) == house


def test_house_rules_are_for_the_edit_link_only(client, session):
    game = make_game(session)
    assert client.get(f"/g/{game.view_token}/house").status_code == 403
    assert client.post(f"/g/{game.view_token}/house", data=house_form()).status_code == 403


def test_saving_without_javascript_redirects_to_the_page(client, session):
    game = make_game(session)
    r = client.post(f"/g/{game.edit_token}/house", data=house_form(), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("/house")
