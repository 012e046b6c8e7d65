"""The roster's folded Add forms are fetched when opened (issue 21): every roster render carried
both blank forms (32 KB), though they are rarely opened. The player sees the same forms, with the
same ids, and a refused one comes back with what was typed."""

from __future__ import annotations

import pytest

from tests.support.html import parse

HTMX = {"HX-Request": "true"}

FOLDS = [("characters", "add-character", "new-character-form", "form-character-new"),
         ("bots", "add-bot", "new-bot-form", "form-bot-new")]


def new_game(client) -> str:
    return client.post("/api/games", json={"name": "Folded"}).json()["edit_token"]


@pytest.mark.parametrize("slug, fold, holder, form_id", FOLDS, ids=["character", "bot"])
def test_a_folded_add_form_is_fetched_on_its_first_opening_and_is_a_plain_link_without_javascript(
        client, slug, fold, holder, form_id):
    token = new_game(client)
    panel = parse(client.get(f"/g/{token}/panels/roster").text)
    assert not panel.has_id(form_id)  # not rendered with the panel
    lazy = panel.by_id(holder).one(cls="lazy-form")
    assert lazy.attrs["hx-get"] == f"/g/{token}/roster/{slug}/new"
    assert lazy.attrs["hx-trigger"] == "toggle once from:closest details"
    assert (lazy.attrs["hx-target"], lazy.attrs["hx-swap"]) == (f"#{holder}", "innerHTML")
    assert lazy.one("a").attrs["href"] == f"/g/{token}/roster/{slug}/new#{fold}"
    fetched = parse(client.get(lazy.attrs["hx-get"], headers=HTMX).text).by_id(form_id)
    assert fetched.attrs["hx-post"] == f"/g/{token}/roster/{slug}"
    assert fetched.field("seen").attrs["value"] == "0"
    without_js = parse(client.get(lazy.one("a").attrs["href"].split("#")[0]).text)
    assert "open" in without_js.by_id(fold).attrs and without_js.by_id(holder).has_id(form_id)


@pytest.mark.parametrize("slug, fold", [(s, f) for s, f, _, _ in FOLDS], ids=["character", "bot"])
def test_a_starting_sheet_link_wins_over_its_folds_own_fetch(client, slug, fold):
    """A "+ Sentry" click opens the fold too: the fold's fetch is dropped while the link's runs,
    and a link tapped while the fold's fetch runs replaces it (one request queue, the fold's)."""
    token = new_game(client)
    panel = parse(client.get(f"/g/{token}/panels/roster").text)
    links = [a for a in panel.all("a") if a.attrs.get("data-open") == fold]
    assert len(links) >= 2 and all(a.attrs["hx-sync"] == f"#{fold}:replace" for a in links)
    assert panel.by_id(fold).one(cls="lazy-form").attrs["hx-sync"] == f"#{fold}:drop"


def test_a_refused_add_comes_back_with_the_players_values_and_the_fold_still_fetches_later(client):
    token = new_game(client)
    refused = client.post(f"/g/{token}/roster/bots", headers=HTMX,
                          data={"name": "Warden-2", "role": "hunter", "melee": "3 purple", "seen": "0"})
    assert refused.status_code == 422
    form = parse(refused.text).by_id("form-bot-new")
    assert form.field("name").attrs["value"] == "Warden-2" and form.field("melee").attrs["value"] == "3 purple"
    assert form.by_id("bot-new-melee-error").text()
    assert parse(client.get(f"/g/{token}/panels/roster").text).by_id("add-bot").one(cls="lazy-form")


def test_the_watch_link_has_no_add_fold_at_all(client):
    game = client.post("/api/games", json={"name": "Folded"}).json()
    page = parse(client.get(f"/v/{game['view_token']}").text)
    assert not page.has_id("add-bot") and not page.has_id("add-character") and not page.all(cls="lazy-form")
