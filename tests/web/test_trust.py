"""Trust, second pass (issue 16): every input answers 2xx or 4xx, a restore is all or nothing,
every stale write is refused the same way, and a 500 carries the same headers as every answer.
Each test here reproduces an attack that answered 500 (or stored half a restore, or undid another
device's step) before the fix. On PostgreSQL (TEST_DATABASE_URL) they run against it too."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from app.store.tables import Game
from app.transfer import backup, exchange
from tests.web.test_admin import all_games, backup_of

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "exports"
HX = {"HX-Request": "true"}


def fixture(version: int) -> dict:
    return json.loads((FIXTURES / f"v{version}.json").read_text(encoding="utf-8"))


def exported(client, ruleset: str, version: int) -> dict:
    """A game of `ruleset` as the app exports it (version 3), or as an older format says it."""
    if ruleset == "potham-2038":
        return fixture(version)
    game = client.post("/api/games", json={"name": "Exported", "ruleset": ruleset}).json()
    doc = client.get(f"/api/games/{game['edit_token']}/export").json()
    return {**doc, "format_version": version}  # one step with its state: a valid version 2 too


DOCUMENTS = [("potham-2038", 1), ("potham-2038", 2), ("potham-2038", 3), ("zone", 2), ("zone", 3),
             ("d20", 2), ("d20", 3)]
TIMESTAMPS = {"naive": "2026-11-30T15:20:04", "date only": "2026-11-30",
              "before year 1 in UTC": "0001-01-01T00:00:00+01:00"}
PLACES = {"the game's": ("created_at",), "a step's": ("steps", 0, "created_at"), "the export's": ("exported_at",)}


def put(doc: dict, where: tuple, value) -> dict:
    doc = copy.deepcopy(doc)
    node = doc
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    return doc


@pytest.mark.parametrize("ruleset, version", DOCUMENTS, ids=[f"{r} v{v}" for r, v in DOCUMENTS])
@pytest.mark.parametrize("stamp", TIMESTAMPS.values(), ids=TIMESTAMPS.keys())
@pytest.mark.parametrize("where", PLACES.values(), ids=PLACES.keys())
def test_an_import_with_a_timestamp_without_its_timezone_is_422_naming_the_field(client, ruleset, version,
                                                                                  stamp, where):
    r = client.post("/api/games/import", json=put(exported(client, ruleset, version), where, stamp))
    assert r.status_code == 422, r.text
    assert ["body", *where] in [e["loc"] for e in r.json()["detail"]]


@pytest.mark.parametrize("stamp", TIMESTAMPS.values(), ids=TIMESTAMPS.keys())
def test_a_restore_with_one_timestamp_without_its_timezone_is_422_and_stores_no_game(client, admin_headers,
                                                                                     stamp):
    bad = put(fixture(3), ("steps", 2, "created_at"), stamp)
    r = client.post("/api/restore", content=json.dumps(backup_of(fixture(3), bad)), headers=admin_headers)
    assert r.status_code == 422, r.text
    assert ["body", "games", 1, "steps", 2, "created_at"] in [e["loc"] for e in r.json()["detail"]]
    assert all_games(client, admin_headers) == []


@pytest.mark.parametrize("ruleset", ["potham-2038", "zone", "d20"])
def test_a_nul_in_an_imported_steps_actor_is_422_naming_it(client, ruleset):
    """PostgreSQL text cannot hold a NUL: stored, it answered 500 there (SQLite kept it)."""
    r = client.post("/api/games/import", json=put(exported(client, ruleset, 3), ("steps", 0, "actor"), "pla\x00yer"))
    assert r.status_code == 422, r.text
    assert ["body", "steps", 0, "actor"] in [e["loc"] for e in r.json()["detail"]]


def test_a_nul_inside_the_json_of_a_step_is_stored_and_exported_as_it_was(client):
    """JSON columns escape a NUL (\\u0000): a log line may hold one on either database."""
    doc = put(fixture(3), ("steps", 1, "entries", 0, "text"), "A NUL \x00 here")
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 201, r.text
    again = client.get(f"/api/games/{r.json()['edit_token']}/export").json()
    assert again["steps"][1]["entries"][0]["text"] == "A NUL \x00 here"


def nested(depth: int) -> dict:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value  # type: ignore[return-value]


def test_an_import_nested_deeper_than_any_export_is_422_on_body(client):
    doc = put(fixture(3), ("steps", 1, "command", "note"), nested(900))
    r = client.post("/api/games/import", content=json.dumps(doc), headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body"] and "nested" in r.json()["detail"][0]["msg"]


def test_a_backup_nested_deeper_than_any_backup_is_422_on_body_and_restores_nothing(client, admin_headers):
    deep = b'{"format": "potham-2038-backup", "format_version": 1, "games": [' + b"[" * 20_000 + b"]" * 20_000 + b"]}"
    r = client.post("/api/restore", content=deep, headers=admin_headers)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body"] and "nested" in r.json()["detail"][0]["msg"]
    assert all_games(client, admin_headers) == []


def test_our_deepest_documents_nest_well_within_the_limit(client):
    """The limit refuses only what no version of the app wrote: a backup of every fixture and of a
    game of each ruleset restores."""
    docs = [fixture(v) for v in (1, 2, 3)] + [exported(client, r, 3) for r in ("zone", "d20")]
    file = io.BytesIO(json.dumps(backup_of(*docs)).encode())
    assert backup.validate(file) == len(docs)


def test_a_restore_that_fails_while_storing_stores_no_game_at_all(session, monkeypatch):
    """All or nothing: the restore used to commit each game, so a failure on the second left the
    first stored (and a retry duplicated it)."""
    stored = exchange.store
    calls = []

    def store_then_fail(session_, doc):
        calls.append(doc)
        if len(calls) == 2:
            raise RuntimeError("the disk is full")
        return stored(session_, doc)

    monkeypatch.setattr(exchange, "store", store_then_fail)
    file = io.BytesIO(json.dumps(backup_of(fixture(3), fixture(3))).encode())
    with pytest.raises(RuntimeError):
        backup.restore(session, file)
    session.rollback()
    assert len(calls) == 2
    assert len(session.exec(select(Game)).all()) == 0


def test_a_restore_stores_every_game_with_its_links(session):
    file = io.BytesIO(json.dumps(backup_of(fixture(3), fixture(2))).encode())
    restored = backup.restore(session, file)
    assert [g.seq for g in restored] == [len(fixture(3)["steps"]) - 1, len(fixture(2)["steps"]) - 1]
    assert len(session.exec(select(Game)).all()) == 2 and all(g.edit_token for g in restored)


# --- d20: a correction of someone not on the roster ------------------------------------------


def test_d20_adjust_of_someone_not_on_the_roster_is_refused_not_500_api_and_form(client):
    game = client.post("/api/games", json={"name": "Arena", "ruleset": "d20"}).json()
    r = client.post(f"/api/games/{game['edit_token']}/commands",
                    json={"type": "adjust", "member_id": "nobody", "hp": 3})
    assert r.status_code == 400, r.text
    form = client.post(f"/g/{game['edit_token']}/d20/roster",
                       data={"seen": "0", "type": "adjust", "member_id": "nobody", "hp": "3"}, headers=HX)
    assert 400 <= form.status_code < 500, form.text
    # and the connection carries on: the next request answers
    assert client.get(f"/api/games/{game['view_token']}").json()["seq"] == 0


# --- "Go back here" from a stale page ---------------------------------------------------------


def game_with(client, names: list[str]) -> dict:
    game = client.post("/api/games", json={"name": "Two devices"}).json()
    for name in names:
        r = client.post(f"/api/games/{game['edit_token']}/commands",
                        json={"type": "add_character", "character": {"name": name}})
        assert r.status_code == 200
    return game


def test_go_back_here_from_a_stale_page_is_409_saying_what_changed_and_undoes_nothing(client):
    game = game_with(client, ["Ada", "Bo"])  # the page saw step 2
    client.post(f"/api/games/{game['edit_token']}/commands",
                json={"type": "add_character", "character": {"name": "Cy"}})  # another device: step 3
    r = client.post(f"/api/games/{game['edit_token']}/undo", json={"to_seq": 1, "seen": 2})
    assert r.status_code == 409, r.text
    assert r.json()["seq"] == 3 and "step 3" in r.json()["detail"] and "Cy" in r.json()["detail"]
    page = client.post(f"/g/{game['edit_token']}/undo", data={"to_seq": "1", "seen": "2"}, headers=HX)
    assert page.status_code == 409
    assert "moved on since you looked" in page.text
    after = client.get(f"/api/games/{game['view_token']}").json()
    assert after["seq"] == 3 and [c["name"] for c in after["characters"]] == ["Ada", "Bo", "Cy"]


def test_go_back_here_from_an_up_to_date_page_still_goes_back(client):
    game = game_with(client, ["Ada", "Bo"])
    r = client.post(f"/api/games/{game['edit_token']}/undo", json={"to_seq": 1, "seen": 2})
    assert r.status_code == 200, r.text
    after = client.get(f"/api/games/{game['view_token']}").json()
    assert [c["name"] for c in after["characters"]] == ["Ada"]


# --- a 500 carries the same headers as every answer ------------------------------------------


def test_a_500_answer_carries_the_security_headers(engine):
    from app.bootstrap import create_app

    app = create_app(migrate_on_start=False, admin_token="x" * 30)

    @app.get("/api/boom")
    def boom():
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/boom")
        ok = client.get("/api/rulesets")
    assert r.status_code == 500
    for name in ("content-security-policy", "referrer-policy", "x-content-type-options", "cache-control"):
        assert r.headers.get(name) == ok.headers.get(name) and r.headers.get(name), name
