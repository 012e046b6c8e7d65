"""Export and import (app/transfer/exchange.py): every export ever produced imports back, field by field."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, SQLModel

from app.kernel.commands import Refused
from app.store import game_commands, games
from app.store.db import make_engine
from app.transfer import exchange
from tests.support.examples import examples

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "exports"


def sample(version: int) -> dict:
    return json.loads((SAMPLES / f"v{version}.json").read_text(encoding="utf-8"))


def comparable(document: dict) -> dict:
    """An export without the moment it was made."""
    return {k: v for k, v in document.items() if k != "exported_at"}


def new_game(client, name="Night shift"):
    return client.post("/api/games", json={"name": name}).json()


def count_games(client) -> int:
    """Every game on the server: only the admin may count them (tests/conftest.py's token)."""
    from tests.conftest import ADMIN_TOKEN

    return len(client.get("/api/games", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).json())


# --- versions and migrations -------------------------------------------------------------


def test_there_is_a_saved_sample_of_every_format_version():
    assert sorted(p.name for p in SAMPLES.glob("v*.json")) == [
        f"v{v}.json" for v in range(1, exchange.CURRENT_VERSION + 1)]


def test_there_is_one_migration_per_format_change():
    assert sorted(exchange.MIGRATIONS) == list(range(1, exchange.CURRENT_VERSION))


@pytest.mark.parametrize("version", range(1, exchange.CURRENT_VERSION + 1))
def test_every_saved_sample_imports_as_a_new_game_and_exports_as_the_current_version(client, version):
    document = sample(version)
    r = client.post("/api/games/import", json=document)
    assert r.status_code == 201, r.text
    again = client.get(f"/api/games/{r.json()['edit_token']}/export").json()
    assert again["format_version"] == exchange.CURRENT_VERSION
    assert again["name"] == document["name"] and again["seed"] == document["seed"]
    assert len(again["steps"]) == len(document["steps"])
    state = client.get(f"/api/games/{r.json()['view_token']}").json()
    assert state["seq"] == len(document["steps"]) - 1
    assert [c["name"] for c in state["characters"]] == [c["name"] for c in document["steps"][-1]["state"]["characters"]]


def test_the_migrations_run_in_order_from_an_old_version(monkeypatch):
    calls = []

    def one_to_two(doc):
        calls.append(1)
        return {**doc, "renamed": doc["name"]}

    def two_to_three(doc):
        calls.append(2)
        return {**doc, "format_version": 3}

    monkeypatch.setattr(exchange, "CURRENT_VERSION", 3)
    monkeypatch.setattr(exchange, "MIGRATIONS", {1: one_to_two, 2: two_to_three})
    upgraded = exchange.upgrade(sample(1))
    assert calls == [1, 2] and upgraded["format_version"] == 3 and upgraded["renamed"] == sample(1)["name"]


# --- round trip --------------------------------------------------------------------------

# Every name UTF-8 can encode: the surrogates (Cs) are the only code points it cannot, so excluding
# them is the same set of characters as codec="utf-8", without hypothesis encoding all 1.1 million
# code points first (2 s of CPU per worker wherever its .hypothesis cache is not there yet).
NAMES = st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(
    lambda s: s.strip())
ROLES = st.sampled_from(["hunter", "sentry", "worker", "patrol"])
POOLS = st.dictionaries(st.sampled_from(["white", "red"]), st.integers(0, 4), max_size=2)

MOVES = st.one_of(
    st.builds(lambda n, p: ("command", {"type": "add_character", "character": {"name": n, "melee": p}}), NAMES, POOLS),
    st.builds(lambda n, r, p: ("command", {"type": "add_bot", "bot": {"name": n, "role": r, "shoot": p}}),
              NAMES, ROLES, POOLS),
    st.builds(lambda i: ("remove_character", i), st.integers(0, 5)),
    st.builds(lambda i: ("remove_bot", i), st.integers(0, 5)),
    st.builds(lambda limit: ("command", {"type": "set_house_rules", "house": {"danger_limit": limit}}),
              st.integers(1, 100)),
    st.just(("undo", None)),
)


def play(session: Session, game, moves) -> None:
    """Random legal commands; refused ones (nothing to remove, nothing to undo) are skipped."""
    for kind, arg in moves:
        state = games.current_state(session, game)
        try:
            if kind == "command":
                game_commands.run_command(session, game, arg)
            elif kind == "undo":
                game_commands.undo(session, game)
            else:
                models = state.characters if kind == "remove_character" else state.bots
                if models:
                    game_commands.run_command(session, game, {"type": kind, "id": models[arg % len(models)].id})
        except Refused:
            session.rollback()


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=st.lists(MOVES, max_size=15), seed=st.integers(0, 2**31 - 1), name=NAMES)
def test_export_then_import_gives_back_the_same_game_field_by_field(moves, seed, name):
    engine = make_engine("sqlite://")
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        original = games.create_game(session, name.strip()[:80], seed)
        play(session, original, moves)
        exported = json.loads(json.dumps(exchange.export_game(session, original)))
        [copy_] = exchange.import_documents(session, exchange.parse_document(copy.deepcopy(exported)))
        again = exchange.export_game(session, copy_)
        assert comparable(again) == comparable(exported)
        for field in ("name", "seed", "seq", "turn", "phase", "danger", "status"):
            assert getattr(copy_, field) == getattr(original, field), field
        assert {copy_.edit_token, copy_.view_token}.isdisjoint({original.edit_token, original.view_token})
        assert games.current_state(session, copy_) == games.current_state(session, original)
    engine.dispose()


def test_an_export_never_contains_the_links(client):
    game = new_game(client)
    text = client.get(f"/api/games/{game['edit_token']}/export").text
    assert game["edit_token"] not in text and game["view_token"] not in text


def test_an_export_is_a_download_named_after_the_game(client):
    game = new_game(client, "Night shift / docks")
    r = client.get(f"/api/games/{game['view_token']}/export")
    assert r.headers["content-disposition"].startswith('attachment; filename="potham-night-shift-docks-')


# --- strict validation -------------------------------------------------------------------


def broken(change) -> dict:
    document = sample(1)
    change(document)
    return document


def set_path(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


BAD = [
    ("not an object", [], ["body"]),
    ("another format", broken(set_path(["format"], "chess-pgn")), ["body", "format"]),
    ("version zero", broken(set_path(["format_version"], 0)), ["body", "format_version"]),
    ("version from the future", broken(set_path(["format_version"], 99)), ["body", "format_version"]),
    ("negative seed", broken(set_path(["seed"], -1)), ["body", "seed"]),
    ("empty name", broken(set_path(["name"], "")), ["body", "name"]),
    ("no steps", broken(set_path(["steps"], [])), ["body", "steps"]),
    ("unknown field", broken(set_path(["tokens"], "x")), ["body", "tokens"]),
    ("a gap in the steps", broken(lambda d: d["steps"].pop(3)), ["body"]),
    ("step 0 is not the creation", broken(lambda d: d["steps"].pop(0)), ["body"]),
    ("a state with an unknown field", broken(set_path(["steps", 2, "state", "mana"], 3)),
     ["body", "steps", 2, "state", "mana"]),
    ("a state with negative danger", broken(set_path(["steps", 2, "state", "danger"], -1)),
     ["body", "steps", 2, "state", "danger"]),
    ("a bot with no role", broken(lambda d: d["steps"][-1]["state"]["bots"][0].pop("role")),
     ["body", "steps", 10, "state", "bots", 0, "role"]),
    ("a command that is not its step's kind", broken(set_path(["steps", 1, "command", "type"], "add_bot")),
     ["body", "steps", 1]),
    ("an unknown command", broken(lambda d: d["steps"][1].update(kind="launch_nukes", command={"type": "launch_nukes"})),
     ["body", "steps", 1]),
    ("a recorded command that is no longer valid", broken(set_path(["steps", 1, "command", "character"], {})),
     ["body", "steps", 1]),
    ("house rules unlike the latest step", broken(set_path(["house", "danger_limit"], 5)), ["body"]),
]


def broken_v3(change) -> dict:
    document = sample(3)
    change(document)
    return document


def first_delta(doc: dict) -> dict:
    return next(s for s in doc["steps"] if "delta" in s)


BAD_DELTAS = [  # issue 11 § 3: a step carries its state or its delta
    ("a step with neither state nor delta", broken_v3(lambda d: first_delta(d).pop("delta")), ["body", "steps", 1]),
    ("a step with both", broken_v3(lambda d: first_delta(d).update(state=d["steps"][0]["state"])),
     ["body", "steps", 1]),
    ("step 0 with a delta", broken_v3(lambda d: d["steps"][0].update(delta=[]) or
                                      d["steps"][0].pop("state")), ["body"]),
    ("a delta that does not fit", broken_v3(lambda d: first_delta(d).update(delta=[["del", ["mana"]]])), ["body"]),
    ("a delta giving a bad state", broken_v3(lambda d: first_delta(d).update(delta=[["set", ["danger"], -3]])),
     ["body"]),
    ("a delta that is not a list of edits", broken_v3(lambda d: first_delta(d).update(delta=[7])),
     ["body", "steps", 1, "delta", 0]),
    ("an undo whose delta does not restore its step", broken_v3(lambda d: next(
        s for s in d["steps"] if s["kind"] == "undo" and "delta" in s)["delta"].append(["set", ["event"], "x"])),
     ["body"]),
]
BAD += BAD_DELTAS


@pytest.mark.parametrize("document, loc", [(d, loc) for _, d, loc in BAD], ids=[b[0] for b in BAD])
def test_a_bad_document_is_422_naming_the_problem_and_stores_nothing(client, document, loc):
    before = count_games(client)
    r = client.post("/api/games/import", json=document)
    assert r.status_code == 422, r.text
    assert loc in [e["loc"] for e in r.json()["detail"]]
    assert count_games(client) == before


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe\x00", b""], ids=["broken JSON", "not UTF-8", "empty"])
def test_a_body_that_is_not_json_is_422_on_body(client, body):
    r = client.post("/api/games/import", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body"] and r.json()["detail"][0]["type"] == "json_invalid"


def test_a_document_over_the_size_limit_is_refused_before_reading_it_all(client, monkeypatch):
    monkeypatch.setattr(exchange, "MAX_BYTES", 10_000)
    r = client.post("/api/games/import", json=sample(1))
    assert r.status_code == 413 and "larger than" in r.json()["detail"]


# --- the home page -----------------------------------------------------------------------


def test_uploading_an_export_on_the_home_page_opens_the_new_game(client):
    files = {"file": ("night.json", json.dumps(sample(1)).encode(), "application/json")}
    r = client.post("/games/import", files=files, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/g/")
    assert "Night shift at Potham Docks" in client.get(r.headers["location"]).text


@pytest.mark.parametrize("files, message", [
    ({"file": ("x.json", b"[1, 2", "application/json")}, "Not valid JSON"),
    ({"file": ("x.json", json.dumps({"format": "nope"}).encode(), "application/json")}, "Not a game export"),
    ({}, "Choose an exported game"),
], ids=["broken file", "wrong format", "no file"])
def test_a_bad_upload_shows_the_problem_next_to_the_field(client, files, message):
    r = client.post("/games/import", files=files or {"other": ("", b"", "text/plain")})
    assert r.status_code == 422
    assert 'id="import-error"' in r.text and message in r.text


def test_the_home_page_offers_import_of_one_game_and_no_backup_of_all(client):
    """Issue 10: a backup of all games is the admin's; the home page only imports one game."""
    html = client.get("/").text
    assert 'action="/games/import"' in html and 'enctype="multipart/form-data"' in html
    assert "/api/backup" not in html and "/backup" not in html


def test_an_upload_over_the_size_limit_says_so_next_to_the_field(client, monkeypatch):
    monkeypatch.setattr(exchange, "MAX_BYTES", 10_000)
    files = {"file": ("big.json", json.dumps(sample(1)).encode(), "application/json")}
    r = client.post("/games/import", files=files)
    assert r.status_code == 413 and 'id="import-error"' in r.text and "larger than" in r.text


# --- a long game: compact, and every step comes back (issue 11 § 3) --------------------------


def test_a_long_game_exports_deltas_and_imports_back_with_every_steps_state(session):
    from app.store import steplog
    from tests.support.played import turn_cycle
    from tests.support.turn_games import make_game

    game = make_game(session)
    cycle = turn_cycle(games.current_state(session, game).bots)
    for n in range(2 * steplog.SNAPSHOT_EVERY + 5):
        game_commands.run_command(session, game, cycle[n % len(cycle)])
    game_commands.undo(session, game, to_seq=4)
    document = exchange.export_game(session, game)
    with_state = [s["seq"] for s in document["steps"] if "state" in s]
    assert with_state == [s.seq for s in games.steps(session, game) if s.state is not None]
    assert len(with_state) < len(document["steps"]) / 4
    (copy_,) = exchange.import_documents(session, [exchange.parse_game(json.loads(json.dumps(document)))])
    old, new = games.steps(session, game), games.steps(session, copy_)
    assert games.states_json(session, copy_, new) == games.states_json(session, game, old)
    assert [(s.state is None, s.delta) for s in new] == [(s.state is None, s.delta) for s in old]
