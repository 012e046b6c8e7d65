"""The admin link (issue 10 § 1 and § 3): every game, the backup of all games and its restore belong
to whoever runs the server; a restore works one game at a time, so a backup over 20 MB restores."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest
from sqlmodel import Session, SQLModel

from app.store import game_commands, games
from app.store.db import make_engine
from app.transfer import backup, exchange
from tests.conftest import ADMIN_TOKEN

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "exports" / "v1.json"
WRONG = {"Authorization": "Bearer " + "x" * len(ADMIN_TOKEN)}


def sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def backup_of(*documents: dict) -> dict:
    return {"format": backup.BACKUP_FORMAT, "format_version": 1, "games": list(documents)}


def new_game(client, name="Night shift") -> dict:
    return client.post("/api/games", json={"name": name}).json()


def all_games(client, admin_headers) -> list[dict]:
    return client.get("/api/games", headers=admin_headers).json()


# --- refused without the admin token, allowed with it --------------------------------------


@pytest.mark.parametrize("headers", [{}, WRONG, {"Authorization": ADMIN_TOKEN}],
                         ids=["no token", "wrong token", "not a bearer header"])
@pytest.mark.parametrize("method, path", [("get", "/api/games"), ("get", "/api/backup"), ("post", "/api/restore")])
def test_listing_backup_and_restore_are_403_without_the_admin_token(client, headers, method, path):
    new_game(client)
    r = client.request(method.upper(), path, headers=headers, content=json.dumps(backup_of(sample())))
    assert r.status_code == 403 and "admin" in r.json()["detail"]
    assert "edit_token" not in r.text


@pytest.mark.parametrize("path", ["", "/backup"])
def test_the_admin_pages_are_404_with_a_wrong_token(client, path):
    new_game(client)
    r = client.get(f"/admin/{'x' * len(ADMIN_TOKEN)}{path}", headers={"Accept": "text/html"})
    assert r.status_code == 404 and "/g/" not in r.text


def test_a_wrong_token_cannot_restore_from_the_admin_page(client, admin_headers):
    files = {"file": ("b.json", json.dumps(backup_of(sample())).encode(), "application/json")}
    r = client.post(f"/admin/{'x' * len(ADMIN_TOKEN)}/restore", files=files)
    assert r.status_code == 404 and len(all_games(client, admin_headers)) == 0


def test_the_admin_lists_every_game_with_both_links(client, admin_headers):
    made = [new_game(client, name) for name in ("One", "Two")]
    listed = all_games(client, admin_headers)
    assert {(g["name"], g["edit_url"], g["view_url"]) for g in listed} == {
        (m["name"], m["edit_url"], m["view_url"]) for m in made}
    page = client.get(f"/admin/{ADMIN_TOKEN}").text
    for m in made:
        assert f'href="{m["edit_url"]}"' in page and f'href="{m["view_url"]}"' in page


@pytest.mark.parametrize(("ruleset", "line"), [
    ("potham-2038", "Turn 1 · Phase 1 Action · Danger 0/"),  # its web part's ROW partial
    ("zone", "Round 1"), ("d20", "Round 1"),  # the generic line, as on the home page
])
def test_the_admin_row_shows_the_line_its_ruleset_gives(client, ruleset, line):
    made = client.post("/api/games", json={"name": "Row", "ruleset": ruleset}).json()
    page = client.get(f"/admin/{ADMIN_TOKEN}").text
    row = page[page.index(f'href="{made["edit_url"]}"'):]
    row = row[: row.index("</li>")]
    assert line in row and ("Danger" in row) == (ruleset == "potham-2038")


@pytest.mark.parametrize("url", ["/api/backup", f"/admin/{ADMIN_TOKEN}/backup"])
def test_the_backup_holds_every_game_and_restores_them_all_as_new_games(client, admin_headers, url):
    for name in ("One", "Two", "Three"):
        new_game(client, name)
    r = client.get(url, headers=admin_headers)
    assert r.status_code == 200 and r.headers["content-disposition"].startswith("attachment;")
    document = r.json()
    assert document["format"] == backup.BACKUP_FORMAT
    assert [g["name"] for g in document["games"]] == ["One", "Two", "Three"]
    restored = client.post("/api/restore", content=r.content, headers=admin_headers)
    assert restored.status_code == 201, restored.text
    assert [g["name"] for g in restored.json()["games"]] == ["One", "Two", "Three"]
    assert len(all_games(client, admin_headers)) == 6


def test_restoring_from_the_admin_page_goes_back_to_the_list(client, admin_headers):
    files = {"file": ("b.json", json.dumps(backup_of(sample(), sample())).encode(), "application/json")}
    r = client.post(f"/admin/{ADMIN_TOKEN}/restore", files=files, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/admin/{ADMIN_TOKEN}?restored=2"
    assert "Restored 2 games" in client.get(r.headers["location"]).text
    assert len(all_games(client, admin_headers)) == 2


# --- players import one game, never a whole backup -----------------------------------------


def test_a_players_import_of_a_backup_is_403_and_stores_nothing(client, admin_headers):
    r = client.post("/api/games/import", json=backup_of(sample()))
    assert r.status_code == 403 and "admin link" in r.json()["detail"]
    files = {"file": ("b.json", json.dumps(backup_of(sample())).encode(), "application/json")}
    page = client.post("/games/import", files=files)
    assert page.status_code == 403 and 'id="import-error"' in page.text and "admin link" in page.text
    assert all_games(client, admin_headers) == []


def test_a_player_still_imports_one_exported_game_and_holds_its_links(client):
    r = client.post("/games/import", files={"file": ("g.json", SAMPLE.read_bytes(), "application/json")})
    assert r.status_code == 200 and sample()["name"] in client.get("/").text


# --- bad backups: 422 naming the problem, nothing stored ------------------------------------

BAD_BACKUPS = [
    ("one bad game", lambda: backup_of(sample(), {**sample(), "seed": "many"}), ["body", "games", 1, "seed"]),
    ("no games", lambda: backup_of(), ["body", "games"]),
    ("not a backup", lambda: sample(), ["body", "format"]),
    ("a newer version", lambda: {**backup_of(sample()), "format_version": 9}, ["body", "format_version"]),
    ("not an object", lambda: [sample()], ["body"]),
    ("a game that is a number", lambda: backup_of(sample(), 7), ["body", "games", 1]),
]


@pytest.mark.parametrize("make, loc", [(m, loc) for _, m, loc in BAD_BACKUPS], ids=[b[0] for b in BAD_BACKUPS])
def test_a_bad_backup_is_422_naming_the_problem_and_restores_nothing(client, admin_headers, make, loc):
    r = client.post("/api/restore", content=json.dumps(make()), headers=admin_headers)
    assert r.status_code == 422, r.text
    assert loc in [e["loc"] for e in r.json()["detail"]]
    assert all_games(client, admin_headers) == []


@pytest.mark.parametrize("body", [b'{"format": "potham-2038-backup", "format_version": 1, "games": [{"a"',
                                  b"\xff\xfe", b""], ids=["cut short", "not UTF-8", "empty"])
def test_a_backup_that_is_not_json_is_422_on_body(client, admin_headers, body):
    r = client.post("/api/restore", content=body, headers=admin_headers)
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid"


def test_a_bad_upload_on_the_admin_page_shows_the_problem_next_to_the_field(client):
    files = {"file": ("b.json", b'{"format": "nope"}', "application/json")}
    r = client.post(f"/admin/{ADMIN_TOKEN}/restore", files=files)
    assert r.status_code == 422 and 'id="restore-error"' in r.text and "Not a backup" in r.text


def test_one_game_of_a_backup_larger_than_a_single_import_is_refused(monkeypatch):
    monkeypatch.setattr(backup, "MAX_GAME_BYTES", 10_000)
    monkeypatch.setattr(backup, "READ_AHEAD", 4096)
    file = io.BytesIO(json.dumps(backup_of(sample())).encode())
    with pytest.raises(exchange.Problem) as refused:
        backup.validate(file)
    assert refused.value.errors[0]["loc"] == ["body", "games", 0] and "larger than" in str(refused.value)


# --- a backup over 20 MB, in bounded memory -------------------------------------------------


@pytest.fixture(scope="module")
def big_backup(tmp_path_factory) -> tuple[Path, dict]:
    """A real game with a long roster and log, backed up eight times over: more than 20 MB, the
    limit of a single import (issue 10: "a backup larger than 20 MB cannot be restored"). Each
    game is written as a backup made before issue 11 § 3 wrote it (format 1: the full state at
    every step, several MB), as exports now carry deltas and would need a far longer game.
    Made once for the tests that read it (only read, never changed), in a database of its own:
    the restore under test goes to the test's database."""
    engine = make_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    try:
        with Session(engine) as session:
            return _big_backup(session, tmp_path_factory.mktemp("big-backup"))
    finally:
        engine.dispose()


def _big_backup(session: Session, tmp_path: Path) -> tuple[Path, dict]:
    game = games.create_game(session, "Long night")
    kit = [f"Gadget {n:02d} " + "x" * 60 for n in range(40)]
    for n in range(40):
        game_commands.run_command(session, game, {"type": "add_character", "character": {
            "name": f"Runner {n:02d}", "equipment": kit}})
    document = exchange.export_game(session, game)
    states = games.states_json(session, game, games.steps(session, game))
    document["format_version"] = 1
    for step in document["steps"]:
        step.pop("delta", None)
        step["state"] = states[step["seq"]]
    path = tmp_path / "backup.json"
    copies = 8
    path.write_bytes(json.dumps(backup_of(*[document] * copies)).encode())
    assert path.stat().st_size > exchange.MAX_BYTES
    return path, document


def test_a_backup_larger_than_20_mb_restores_every_game(client, admin_headers, big_backup):
    path, document = big_backup
    with path.open("rb") as body:
        r = client.post("/api/restore", content=body, headers=admin_headers)
    assert r.status_code == 201, r.text[:500]
    restored = r.json()["games"]
    assert len(restored) == 8 and {g["name"] for g in restored} == {"Long night"}
    again = client.get(f"/api/games/{restored[-1]['edit_token']}/export").json()
    assert len(again["steps"]) == len(document["steps"]) and again["steps"][-1]["state"] == document["steps"][-1]["state"]


def test_a_backup_is_read_one_game_at_a_time(big_backup):
    """The parser holds about one game at a time (the one read, the one being built): its peak
    memory while reading the whole 20+ MB backup of eight games stays under three times what one
    game takes once parsed, where holding the backup would take eight times."""
    path, document = big_backup
    raw = json.dumps(document)
    one_game = peak_memory(lambda: json.loads(raw))

    def read_all() -> int:
        with path.open("rb") as file:
            return sum(1 for _ in backup.backup_games(file))

    assert peak_memory(read_all) < 3 * one_game


def peak_memory(work) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
