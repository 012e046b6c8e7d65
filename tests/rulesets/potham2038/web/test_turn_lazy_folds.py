"""The turn panel's folded forms are fetched when opened (issue 21): Phase 1's "A Character shoots",
"Distracted", "Hacking attempt" and "Luck Roll", and every phase's "Correct a value" and "Record a
Glitch" were a third of every turn panel, rendered on every step though rarely opened. The player sees the same forms with the same ids; a refused form, or the fold whose
step was just made, comes back open and whole; without JavaScript a fold is a link to the page
with it open."""

from __future__ import annotations

import pytest

from tests.support.html import parse
from tests.support.turn_games import make_game
from tests.support.turn_play import HX, Table

# fold -> the forms it holds
FOLDS = {"shoot": ["form-shoot"], "distracted": ["form-distracted", "form-contact"],
         "hack": ["form-hack"], "luck": ["form-luck"], "adjust": ["form-adjust"], "glitch": ["form-glitch"]}


@pytest.fixture
def table(client, session):
    return Table(client, make_game(session).edit_token)


@pytest.mark.parametrize("fold", FOLDS)
def test_a_closed_fold_carries_no_form_only_what_fetches_it_on_its_first_opening(table, fold):
    section = table.page.by_id(f"section-{fold}")
    assert "open" not in section.attrs and not section.all("form")
    lazy = section.one(cls="lazy-form")
    assert lazy.attrs["hx-get"] == f"/g/{table.token}/turn/folds/{fold}"
    assert lazy.attrs["hx-trigger"] == "toggle once from:closest details"
    assert (lazy.attrs["hx-target"], lazy.attrs["hx-swap"]) == ("this", "outerHTML")
    fetched = table.open(fold)
    assert [f.attrs["id"] for f in fetched.all("form")] == FOLDS[fold]
    for form in fetched.all("form"):
        assert form.attrs["hx-post"] == f"/g/{table.token}/turn" and form.attrs["hx-target"] == "#panel-turn"
        assert form.field("seen").attrs["value"] == "0"


@pytest.mark.parametrize("fold", FOLDS)
def test_without_javascript_a_fold_is_a_link_to_the_page_with_that_fold_open(client, table, fold):
    link = table.page.by_id(f"section-{fold}").one(cls="lazy-form").one("a").attrs["href"]
    assert link == f"/g/{table.token}/turn/folds/{fold}#section-{fold}"
    page = parse(client.get(link.split("#")[0]).text)
    assert page.has_id("panel-log") and "open" in page.by_id(f"section-{fold}").attrs
    assert [f.attrs["id"] for f in page.by_id(f"section-{fold}").all("form")] == FOLDS[fold]
    others = [f for f in FOLDS if f != fold]
    assert all(page.by_id(f"section-{f}").all(cls="lazy-form") for f in others)  # the rest stay folded


def test_a_refused_folded_form_comes_back_open_with_the_players_values(table):
    table.open("hack")
    answer = table.submit("hack", expect=422, character_id="ada", stat="Hacking", success_text="The door <opens>",
                          **{"opposing.red": "many"})
    section = answer.by_id("section-hack")
    assert "open" in section.attrs and not section.all(cls="lazy-form")
    form = section.by_id("form-hack")
    assert form.by_id("hack-opposing-red").attrs["value"] == "many" and form.one(cls="field-error").text()
    assert form.field("success_text").attrs["value"] == "The door <opens>"


def test_the_fold_whose_step_was_just_made_stays_open_and_the_others_stay_folded(table):
    table.open("luck")
    answer = table.submit("luck", character_id="ada", stat="Hacking", dice="entered", black_die="success")
    assert "open" in answer.by_id("section-luck").attrs and answer.by_id("section-luck").has_id("form-luck")
    assert answer.by_id("section-hack").one(cls="lazy-form") and not answer.has_id("form-hack")


def test_a_fetched_fold_shows_the_game_as_it_is_now(client, table):
    """A fold opened after other steps carries the step it was drawn at, like the panel it joins."""
    table.submit("noise", character_id="ada", kind="alarm")
    fetched = table.open("shoot")
    assert fetched.by_id("form-shoot").field("seen").attrs["value"] == "1"


def test_an_unknown_fold_is_a_404_and_the_watch_link_has_no_folds(client, session):
    game = make_game(session)
    assert client.get(f"/g/{game.edit_token}/turn/folds/move", headers=HX).status_code == 404
    assert client.get(f"/g/{game.view_token}/turn/folds/shoot", headers=HX).status_code == 403
    watch = parse(client.get(f"/v/{game.view_token}").text)
    assert not watch.all(cls="lazy-form") and not watch.has_id("section-shoot")
