"""No input ever answers 500: regressions for every crash the fuzzers found, and a bounded
property test over every command body (hypothesis, deterministic)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from tests.support.prebuilt import copied
from tests.support.routes import app_routes
from tests.support.turn_games import make_game, roster_state, with_bot

# `copied(session, make_game)`: the roster game of tests/support/turn_games.py, made once per
# worker and copied into each test's database (tests/support/prebuilt.py): the same rows with new
# links, a quarter of the CPU of making it (about 220 tests here start from it).


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
    token = copied(session, make_game).edit_token
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
    "a thousand faces": {"dice_faces": {"red": ["hit"] * 1000}},
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


@pytest.mark.parametrize("stacks", [101, 10**30], ids=["101", "10^30"])
def test_an_event_cannot_add_marked_stacks_the_odds_would_walk_for_ever(client, session, stacks):
    """A Marked Target bot's odds list every damage value: 10^30 Marked hung the game page."""
    state = with_bot(roster_state(phase=2), "hunt", special_rules=["Marked Target"])
    token = make_game(session, state).edit_token
    r = client.post(f"/api/games/{token}/commands",
                    json={"type": "record_event", "title": "Sirens", "marked": {"ada": stacks}})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "marked", "ada"]
    assert client.get(f"/g/{token}").status_code == 200



def test_R_MARK_CAP_an_import_with_more_marked_than_any_table_holds_is_a_422(client, session):
    token = copied(session, make_game).edit_token
    document = client.get(f"/api/games/{token}/export").json()
    document["steps"][-1]["state"]["characters"][0]["marked"] = 10**30
    r = client.post("/api/games/import", json=document)
    assert r.status_code == 422 and "marked" in r.json()["detail"][0]["loc"]

HUGE_SHEETS = {
    "a pool of a thousand colours": {"name": "Ada", "melee": {f"c{i}": 1 for i in range(1000)}},
    "a thousand mission stats": {"name": "Ada", "mission_stats": {f"Stat {i}": {} for i in range(1000)}},
}


@pytest.mark.parametrize("sheet", HUGE_SHEETS.values(), ids=HUGE_SHEETS.keys())
def test_a_character_sheet_no_table_could_hold_is_a_422(client, sheet):
    token = new_game(client)["edit_token"]
    r = client.post(f"/api/games/{token}/commands", json={"type": "add_character", "character": sheet})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][:3] == ["body", "character", list(sheet)[1]]

def json_post(client, path: str, raw: str):
    return client.post(path, content=raw, headers={"content-type": "application/json"})


def json_endpoints(token: str) -> list[str]:
    return ["/api/rules/activation", "/api/rules/melee", "/api/rules/shoot", "/api/rules/noise",
            "/api/rules/odds", "/api/games", f"/api/games/{token}/commands", f"/api/games/{token}/undo",
            f"/api/games/{token}/rename"]


def test_every_json_endpoint_refuses_a_body_of_several_megabytes_with_413_and_a_clear_message(client):
    token = new_game(client)["edit_token"]
    characters = [{"name": f"C{i}", "distance": 1} for i in range(100_000)]  # ~3 MB
    raw = json.dumps({"bot": {"name": "B", "role": "hunter", "walk": 4, "run": 8}, "characters": characters})
    for path in json_endpoints(token):
        r = json_post(client, path, raw)
        assert (path, r.status_code, r.json()) == (path, 413, {"detail": "The request body is larger than 1 MB."})
    assert client.get(f"/api/games/{token}").json()["seq"] == 0


def test_a_body_sent_in_chunks_without_a_length_is_cut_off_at_the_limit_too(client):
    token = new_game(client)["edit_token"]

    def chunks():
        yield b'{"type": "add_character", "character": {"name": "'
        for _ in range(2000):
            yield b"x" * 1024

    r = client.post(f"/api/games/{token}/commands", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than 1 MB" in r.json()["detail"]


def test_a_form_of_several_megabytes_gets_the_413_as_a_page_for_people(client):
    token = new_game(client)["edit_token"]
    r = client.post(f"/g/{token}/turn", content=urlencode([("type", "noise"), ("note", "x" * 3_000_000)]),
                    headers={"content-type": "application/x-www-form-urlencoded", "accept": "text/html"})
    assert r.status_code == 413 and "larger than 1 MB" in r.text and "<html" in r.text.lower()


def test_a_422_repeats_only_the_first_errors_and_no_big_input(client):
    pool = {f"c{i}": 1 for i in range(20_000)}  # every colour name breaks the colour pattern
    r = client.post("/api/rules/odds", json={"attack": {"pool": pool}, "defense": {"pool": {"x": ["y"] * 1000}}})
    detail = r.json()["detail"]
    assert r.status_code == 422 and len(detail) == 20 and len(r.content) < 10_000
    assert detail[0]["loc"] == ["body", "attack", "pool", "c0", "[key]"] and detail[0]["input"] == "c0"


@pytest.mark.parametrize("path, template", [
    ("/api/rules/activation", '{"bot": %s}'),
    ("/api/rules/odds", '{"attack": %s}'),
    ("/api/games", '{"name": %s}'),
    ("/api/games/import", '{"format": "potham-2038-game", "version": 1, "game": %s}'),
], ids=["activation", "odds", "new game", "import"])
@pytest.mark.parametrize("depth", [900, 5000])
def test_json_nested_thousands_deep_is_a_client_error_not_a_500(client, path, template, depth):
    r = json_post(client, path, template % ("[" * depth + "]" * depth))
    assert r.status_code in (400, 422) and "detail" in r.json()


def form_routes() -> list[str]:
    return sorted({path for path, methods in app_routes() if "POST" in methods and not path.startswith("/api/")})


SCRIPT = "<script>alert(1)</script>"
FIELDS = ["name", "type", "title", "note", "stat", "character_id", "bot_id", "target_id", "kind", "mode", "move",
          "seen", "to_seq", "points", "health", "melee", "special_rules", "waypoints", "subject", "new_colour",
          "new_faces", "dice_faces.red", "success_text", "characters.0.character_id", "bot_ids[]", "form"]


@pytest.mark.parametrize("path", form_routes())
@pytest.mark.parametrize("value", [SCRIPT, "", "-1", "1e999", "NaN", "9" * 5000, "🤖" * 100],
                         ids=["markup", "empty", "negative", "huge", "nan", "5000 digits", "emoji"])
def test_every_form_route_answers_hostile_fields_without_a_500_and_escapes_them(client, session, path, value):
    game = copied(session, make_game)
    filled = (path.replace("{token}", game.edit_token).replace("{slug}", "characters")
              .replace("{model_id}", "ada").replace("{which}", "watch"))
    for kind in ("noise", "adjust", "add_character"):
        items = [("type", kind), *[(name, value) for name in FIELDS], ("name", value)]
        for htmx in (True, False):
            r = form_post(client, filled, items, htmx)
            assert r.status_code < 500, (kind, htmx, r.text[-500:])
            assert SCRIPT not in r.text
