"""The ruleset plug-in framework (issue 12, docs/api.md § Rulesets): a game has a ruleset, chosen at
creation, stored, answered, exported, shown on its page; the shell does not care which."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app import rulesets
from app.kernel.commands import Commands
from app.rulesets.potham2038.commands import POTHAM_COMMANDS
from tests.support.html import parse

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "exports"


def test_get_rulesets_lists_every_ruleset_with_potham_2038_the_default(client):
    listed = client.get("/api/rulesets").json()
    ids = [r["id"] for r in listed]
    assert ids == list(rulesets.RULESETS) and "potham-2038" in ids
    assert [r["id"] for r in listed if r["default"]] == ["potham-2038"]
    assert all(r["name"] for r in listed)


def test_a_new_game_is_potham_2038_unless_told_and_says_so(client):
    made = client.post("/api/games", json={"name": "Old habits"}).json()
    assert made["ruleset"] == "potham-2038"
    assert client.get(f"/api/games/{made['view_token']}").json()["ruleset"] == "potham-2038"


@pytest.mark.parametrize("ruleset", ["dnd-5e", "", "POTHAM-2038", 7])
def test_an_unknown_ruleset_is_a_422_naming_the_field(client, ruleset):
    r = client.post("/api/games", json={"name": "Nope", "ruleset": ruleset})
    assert r.status_code == 422
    assert [e["loc"] for e in r.json()["detail"]] == [["body", "ruleset"]]


@pytest.mark.parametrize("ruleset", sorted(rulesets.RULESETS))
def test_a_game_of_each_ruleset_keeps_it_through_page_export_import_and_duplicate(client, ruleset):
    made = client.post("/api/games", json={"name": "Kept", "ruleset": ruleset}).json()
    assert made["ruleset"] == ruleset
    page = parse(client.get(made["edit_url"]).text)
    assert page.by_id("game-ruleset").attrs["data-ruleset"] == ruleset
    assert rulesets.get(ruleset).name in page.by_id("game-ruleset").text()
    exported = client.get(f"/api/games/{made['edit_token']}/export").json()
    assert exported["ruleset"] == ruleset
    again = client.post("/api/games/import", json=exported).json()
    assert client.get(f"/api/games/{again['view_token']}").json()["ruleset"] == ruleset
    copy = client.post(f"/api/games/{made['edit_token']}/duplicate").json()
    assert client.get(f"/api/games/{copy['view_token']}").json()["ruleset"] == ruleset


def test_an_old_export_without_a_ruleset_imports_as_potham_2038(client):
    old = json.loads((SAMPLES / "v1.json").read_text(encoding="utf-8"))
    assert "ruleset" not in old
    made = client.post("/api/games/import", json=old).json()
    assert client.get(f"/api/games/{made['view_token']}").json()["ruleset"] == "potham-2038"


def test_an_export_of_an_unknown_ruleset_is_refused_naming_the_field(client):
    doc = json.loads((SAMPLES / "v2.json").read_text(encoding="utf-8")) | {"ruleset": "chess"}
    r = client.post("/api/games/import", json=doc)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "ruleset"]


def test_the_home_page_offers_every_ruleset_with_2038_chosen(client):
    page = parse(client.get("/").text)
    radios = page.all("input", type="radio", name="ruleset")
    assert [r.attrs["value"] for r in radios] == list(rulesets.RULESETS)
    assert [r.attrs["value"] for r in radios if "checked" in r.attrs] == ["potham-2038"]


def test_the_home_form_creates_a_game_of_the_chosen_ruleset_and_refuses_an_unknown_one(client):
    for ruleset in rulesets.RULESETS:
        r = client.post("/games", data={"name": f"By form {ruleset}", "ruleset": ruleset}, follow_redirects=False)
        assert r.status_code == 303
        token = r.headers["location"].rsplit("/", 1)[1]
        assert client.get(f"/api/games/{token}").json()["ruleset"] == ruleset
    r = client.post("/games", data={"name": "Bad", "ruleset": "<b>chess</b>"})
    assert r.status_code == 422
    page = parse(r.text)
    assert page.by_id("new-ruleset-error").text() and "<b>chess" not in r.text


def test_each_ruleset_has_its_own_command_namespace():
    """Two rulesets may both name a command `add_npc`: registering it in one leaves the other
    (and the 2038 registry) untouched."""
    mine, theirs = Commands(), Commands()
    from app.kernel.commands import Body

    mine.command("add_npc", Body)(lambda s, b, r: (s, []))
    theirs.command("add_npc", Body)(lambda s, b, r: (s, []))
    assert mine.names() == theirs.names() == ["add_npc"]
    assert "add_npc" not in POTHAM_COMMANDS.registry
    with pytest.raises(ValueError):
        mine.command("add_npc", Body)(lambda s, b, r: (s, []))


def test_a_2038_page_route_is_not_there_for_a_game_of_another_ruleset(client):
    others = [r for r in rulesets.RULESETS if r != "potham-2038"]
    for ruleset in others:
        made = client.post("/api/games", json={"name": "Other", "ruleset": ruleset}).json()
        assert client.get(f"{made['edit_url']}/house").status_code == 404
        assert client.get(f"{made['edit_url']}/roster/characters/new").status_code == 404


def test_a_rulesets_rule_badges_link_to_its_rule_page(client):
    for ruleset in rulesets.RULESETS.values():
        if ruleset.id == rulesets.DEFAULT:
            continue
        page = parse(client.get(f"/rules/{ruleset.id}").text)
        first = next(iter(ruleset.glossary))
        assert page.has_id(first) and ruleset.glossary[first] in page.by_id(first).text()


def test_a_ruleset_without_pages_of_its_own_gets_the_generic_page(engine, monkeypatch):
    """docs/rulesets.md: a ruleset with only an engine (no web module) is still playable through
    the API, and its game page, panels and rule ids page answer (never a 500)."""
    from fastapi.testclient import TestClient
    from pydantic import BaseModel
    from sqlmodel import Session

    from app.bootstrap import create_app
    from app.rulesets.base import Ruleset
    from app.store.db import get_session
    from tests.conftest import ADMIN_TOKEN

    class House(BaseModel):
        pass

    class Toy(BaseModel):
        round: int = 1
        house: House = House()
        characters: list = []

        def character(self, model_id):
            return None

        def bot(self, model_id):
            return None

    toy = Ruleset(id="toy-rules", name="Toy rules", summary="A test ruleset.", state=Toy, commands=Commands(),
                  columns=lambda s: {"turn": s.round}, glossary={"T-ONE": "The only rule."})
    monkeypatch.setitem(rulesets.RULESETS, "toy-rules", toy)
    app = create_app(migrate_on_start=False, admin_token=ADMIN_TOKEN)

    def override():
        with Session(engine) as session:
            yield session

    app.dependency_overrides[get_session] = override
    with TestClient(app) as client:
        made = client.post("/api/games", json={"name": "Toy", "ruleset": "toy-rules"}).json()
        page = client.get(made["edit_url"])
        assert page.status_code == 200 and "Toy rules" in page.text and "/api/games/" in page.text
        panels = client.get(f"{made['view_url']}/panels", params={"names": "status,turn,roster,log"})
        assert panels.status_code == 200 and "Round 1" in panels.text
        assert "The only rule." in client.get("/rules/toy-rules").text
