"""No input ever answers 500: regressions for every crash the fuzzers found, and a bounded
property test over every command body (hypothesis, deterministic)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.support.turn_games import make_game


def new_game(client) -> dict:
    return client.post("/api/games", json={"name": "Fuzz", "seed": 3}).json()


@pytest.mark.parametrize("path", ["/api/games/{token}/steps", "/g/{token}/changes", "/v/{view}/changes"])
@pytest.mark.parametrize("since", [str(2**63), str(-(2**70)), "-2", "1e3", "x"])
def test_a_step_number_out_of_range_is_a_422_naming_since(client, path, since):
    game = new_game(client)
    r = client.get(path.format(token=game["edit_token"], view=game["view_token"]), params={"since": since})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["query", "since"]


def form_post(client, path: str, items: list[tuple[str, str]], htmx: bool = True):
    headers = {"content-type": "application/x-www-form-urlencoded", **({"HX-Request": "true"} if htmx else {})}
    return client.post(path, content=urlencode(items), headers=headers)


# Field names the app's forms never send; each crashed form_to_body once (RecursionError,
# TypeError, AttributeError, ValueError from int("²") or int of 5000 digits).
HOSTILE_FIELDS = {
    "a path 1500 levels deep": [("a." * 1500 + "a", "1")],
    "a field inside a text field": [("note", "x"), ("note.y", "1")],
    "a list after a text field": [("note", "x"), ("note[]", "1")],
    "a field inside a list": [("bot_ids[]", "x"), ("bot_ids.y", "1")],
    "a superscript digit as a list index": [("a.²", "1")],
    "a repeat count in superscript digits": [("entries*x", "²")],
    "a repeat count of 5000 digits": [("entries*x", "9" * 5000)],
    "a repeat count after a text field": [("note", "x"), ("note*y", "2")],
}


@pytest.mark.parametrize("items", HOSTILE_FIELDS.values(), ids=HOSTILE_FIELDS.keys())
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_turn_form_with_hostile_field_names_is_refused_with_a_message_not_a_500(client, session, items, htmx):
    token = make_game(session).edit_token
    r = form_post(client, f"/g/{token}/turn", [("type", "adjust"), ("form", "adjust"), *items], htmx)
    assert r.status_code == 422
    assert "Please check the marked fields." in r.text
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


@pytest.mark.parametrize("items", [*HOSTILE_FIELDS.values(), [("dice_faces", "red")], [("dice_faces.0", "hit")]],
                         ids=[*HOSTILE_FIELDS.keys(), "dice faces as one text", "dice faces as a list"])
def test_a_house_rules_form_with_hostile_field_names_is_refused_with_a_message_not_a_500(client, items):
    token = new_game(client)["edit_token"]
    r = form_post(client, f"/g/{token}/house", [("glitch_die", "6"), *items])
    assert r.status_code == 422
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


HOSTILE_HOUSES = {
    "a colour with no faces (crashed every later roll and the game page)": {"dice_faces": {"red": []}},
    "a million faces": {"dice_faces": {"red": ["hit"] * 1_000_000}},
    "a thousand colours": {"dice_faces": {f"c{i}": ["hit"] for i in range(1000)}},
    "a billion cover dice": {"cover_dice": {"light": 10**9}},
    "a thousand Glitch rows": {"glitch_table": [{"low": 1, "high": 1, "result": "reboot"}] * 1000},
}


@pytest.mark.parametrize("house", HOSTILE_HOUSES.values(), ids=HOSTILE_HOUSES.keys())
def test_house_rules_no_real_table_could_hold_are_a_422_and_the_game_still_plays(client, house):
    token = new_game(client)["edit_token"]
    r = client.post(f"/api/games/{token}/commands", json={"type": "set_house_rules", "house": house})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][:3] == ["body", "house", next(iter(house))]
    assert client.get(f"/g/{token}").status_code == 200
