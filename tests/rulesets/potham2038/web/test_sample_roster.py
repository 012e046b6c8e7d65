"""The sample roster (issue 9): a first game in two taps, every model an ordinary roster step."""

from __future__ import annotations

from app.rulesets.potham2038.ruleset import BOTS, CHARACTERS


def test_start_a_sample_game_makes_a_game_with_two_characters_and_one_bot_per_role(client):
    home = client.get("/")
    assert 'action="/games/sample"' in home.text
    r = client.post("/games/sample", follow_redirects=False)
    assert r.status_code == 303
    token = r.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{token}").json()
    assert [c["name"] for c in state["characters"]] == [c["name"] for c in CHARACTERS]
    assert sorted(b["role"] for b in state["bots"]) == ["hunter", "patrol", "sentry", "worker"]
    assert (state["turn"], state["phase"]) == (1, 1)
    assert len(BOTS) == 4


def test_an_empty_game_takes_the_sample_roster_once_and_undo_takes_a_model_back(client):
    token = client.post("/api/games", json={"name": "Empty"}).json()["edit_token"]
    page = client.get(f"/g/{token}").text
    assert 'id="use-sample"' in page
    client.post(f"/g/{token}/roster/sample")
    client.post(f"/g/{token}/roster/sample")  # a second tap adds nothing: the roster is no longer empty
    state = client.get(f"/api/games/{token}").json()
    assert len(state["characters"]) == 2 and len(state["bots"]) == 4
    client.post(f"/api/games/{token}/undo", json={})
    assert len(client.get(f"/api/games/{token}").json()["bots"]) == 3  # each model is its own step


def test_plus_a_role_opens_the_form_with_that_roles_starting_sheet_and_a_blank_assignment(client):
    """Issue 9: "+ Sentry" shows the sample's Sentry (points, pools, range), so a bot like it takes
    no typing; its subject names something on this board, so it stays blank; the name offered is
    the role's next free one."""
    from tests.support.html import parse

    token = client.post("/api/games", json={"name": "Setup"}).json()["edit_token"]
    page = parse(client.get(f"/g/{token}").text)
    plus = [a for a in page.by_id("panel-roster").all("a") if a.attrs.get("data-role") == "sentry"][0]
    assert plus.attrs["hx-get"] == f"/g/{token}/roster/bots/new?role=sentry"
    form = parse(client.get(plus.attrs["hx-get"], headers={"HX-Request": "true"}).text).by_id("form-bot-new")
    sentry = next(b for b in BOTS if b["role"] == "sentry")
    assert form.field("points").attrs["value"] == str(sentry["points"])
    assert form.field("shoot_range").attrs["value"] == "18" and form.field("shoot").attrs["value"] == "2 red"
    assert form.field("subject").attrs["value"] == "" and form.field("name").attrs["value"] == "Sentry-1"
    assert "checked" in form.one("input", name="role", value="sentry").attrs
    hunter = parse(client.get(f"/g/{token}/roster/bots/new?role=nobody", headers={"HX-Request": "true"}).text)
    assert hunter.by_id("form-bot-new").field("points").attrs["value"] == "0"  # an unknown role: the blank sheet


def new_bot_form(client, token: str, role: str):
    from tests.support.html import parse

    answer = client.get(f"/g/{token}/roster/bots/new?role={role}", headers={"HX-Request": "true"})
    return parse(answer.text).by_id("form-bot-new")


def add_as_offered(client, token: str, form, **fill) -> int:
    from tests.support.html import form_items
    from tests.support.turn_play import as_data

    answer = client.post(form.attrs["action"], data=as_data(form_items(form, **fill)), headers={"HX-Request": "true"},
                         follow_redirects=False)
    assert answer.status_code in (200, 303), answer.text[:3000]
    return answer.status_code


def test_plus_hunter_on_the_sample_roster_offers_hunter_2_and_adds_it_untyped(client):
    """Issue 18: the sample's bots are numbered from 1 (Hunter-1), so the next Hunter is Hunter-2;
    a player who keeps the name offered types nothing."""
    token = client.post("/games/sample", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    form = new_bot_form(client, token, "hunter")
    assert form.field("name").attrs["value"] == "Hunter-2"
    assert add_as_offered(client, token, form) in (200, 303)
    names = [b["name"] for b in client.get(f"/api/games/{token}").json()["bots"]]
    assert names.count("Hunter-2") == 1 and names.count("Hunter-1") == 1
    assert new_bot_form(client, token, "hunter").field("name").attrs["value"] == "Hunter-3"


def test_the_name_offered_stays_editable_and_skips_a_name_taken_in_any_case(client):
    token = client.post("/games/sample", follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    assert add_as_offered(client, token, new_bot_form(client, token, "sentry"), name="sentry-2",
                          subject="Vault") in (200, 303)
    form = new_bot_form(client, token, "sentry")
    assert form.field("name").attrs["value"] == "Sentry-3"  # Sentry-1 and sentry-2 are taken
    assert add_as_offered(client, token, form, name="Vault guard", subject="Vault") in (200, 303)
    assert "Vault guard" in [b["name"] for b in client.get(f"/api/games/{token}").json()["bots"]]
