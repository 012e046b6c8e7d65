"""A live refresh is one request (issue 11): `GET /g|v/{token}/panels?names=…` answers every
panel asked for from one context, and the log only the steps the page does not have yet."""

from __future__ import annotations

import pytest

from app.store import game_commands
from app.web.panels import LOG_LENGTH
from tests.support.html import parse
from tests.support.prebuilt import copied
from tests.support.turn_games import make_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def played(session):
    game = make_game(session)
    game_commands.run_command(session, game, {"type": "next_phase"})
    for n in range(2, LOG_LENGTH + 12):
        game_commands.run_command(session, game, {"type": "record_event", "title": f"Event {n}", "danger": 0,
                                          "by_effect": n > 2})  # R-EVENT-ONE: one drawn, the rest by effects
    session.refresh(game)
    return game


@pytest.fixture
def game(session):
    """A game of LOG_LENGTH + 11 steps: played once per worker, copied for each test."""
    return copied(session, played)


def panels_of(html: str) -> list[str]:
    return [n.attrs["data-panel"] for n in parse(html).walk() if "data-panel" in n.attrs]


def seqs(node) -> list[int]:
    return [int(li.attrs["data-seq"]) for li in node.all("li", cls="log-step")]


@pytest.mark.parametrize("base", ["g", "v"])
def test_one_request_answers_every_panel_asked_for_in_order(client, game, base):
    token = game.edit_token if base == "g" else game.view_token
    r = client.get(f"/{base}/{token}/panels", params={"names": "status,turn,roster,log"})
    assert r.status_code == 200 and r.headers["X-Game-Seq"] == str(game.seq)
    assert panels_of(r.text) == ["status", "turn", "roster", "log"]
    assert ("Undo last step" in r.text) == (base == "g")  # a watch link never gets controls


def test_the_watch_link_gets_no_controls_even_through_the_play_path_shape(client, game):
    r = client.get(f"/v/{game.edit_token}/panels", params={"names": "log,turn"})
    assert r.status_code == 200 and "Go back here" not in r.text


def test_the_log_refreshed_after_a_step_holds_only_the_steps_from_the_one_the_page_had(client, game):
    r = client.get(f"/v/{game.view_token}/panels", params={"names": "log", "after": game.seq - 3})
    log = parse(r.text).by_id("panel-log")
    assert log.attrs["data-log-from"] == str(game.seq - 3)
    assert seqs(log) == [game.seq, game.seq - 1, game.seq - 2, game.seq - 3]
    assert not log.all("li", cls="log-more")  # the page keeps its own "Show older"


def test_a_page_that_missed_more_than_a_log_page_gets_the_whole_newest_page(client, game):
    r = client.get(f"/g/{game.edit_token}/panels", params={"names": "log", "after": game.seq - LOG_LENGTH - 1})
    log = parse(r.text).by_id("panel-log")
    assert "data-log-from" not in log.attrs and len(seqs(log)) == min(LOG_LENGTH, game.seq + 1)


def test_a_log_showing_older_pages_is_refreshed_whole(client, game):
    r = client.get(f"/g/{game.edit_token}/panels", params={"names": "log", "before": 10, "after": game.seq})
    log = parse(r.text).by_id("panel-log")
    assert "data-log-from" not in log.attrs and seqs(log) == list(range(9, -1, -1))


def test_the_share_panel_is_not_refreshed_by_a_step_only_by_a_links_event(client, game):
    page = parse(client.get(f"/g/{game.edit_token}").text)
    assert page.by_id("panel-share").attrs["data-refresh"] == "links"
    assert all("data-refresh" not in page.by_id(f"panel-{n}").attrs for n in ("status", "turn", "roster", "log"))


@pytest.mark.parametrize("names", ["nope", "status,nope", "", "status;log", "x" * 300])
def test_unknown_or_malformed_panel_names_are_refused_not_500(client, game, names):
    r = client.get(f"/g/{game.edit_token}/panels", params={"names": names})
    assert r.status_code in (404, 422)


def test_pages_on_one_link_share_one_rendering_per_step_and_never_get_a_stale_one(client, game, monkeypatch):
    from app.web import panels

    rendered = []
    real = panels.game_context
    monkeypatch.setattr(panels, "game_context", lambda *a, **k: rendered.append(1) or real(*a, **k))
    url = f"/v/{game.view_token}/panels?names=status,log&after={game.seq - 1}"
    first, second = client.get(url), client.get(url)
    assert first.text == second.text and len(rendered) == 1
    client.post(f"/api/games/{game.edit_token}/commands",
                json={"type": "record_event", "title": "Fresh news", "danger": 0, "by_effect": True})
    third = client.get(url)
    assert len(rendered) == 2 and third.headers["X-Game-Seq"] == str(game.seq + 1) and "Fresh news" in third.text
    assert client.post(f"/api/games/{game.edit_token}/rename", json={"name": "Renamed table"}).status_code == 200
    client.get(url)
    assert len(rendered) == 3  # a rename is no step, but the answer is rendered again


def test_a_live_refresh_after_an_undo_sends_the_whole_log_so_the_undone_step_is_struck_everywhere(client, game):
    """A live refresh sends only the steps newer than the page's top one (live.js keeps the rest),
    but an undo changes an older step (it is struck through): then the whole newest page comes."""
    api = f"/api/games/{game.edit_token}"
    client.post(api + "/commands", json={"type": "record_event", "title": "Sirens", "danger": 0, "by_effect": True})
    top = client.get(api).json()["seq"]
    url = f"/v/{game.view_token}/panels?names=log&after={top}"
    assert "data-log-from" in client.get(url).text  # nothing changed an older step: only the new ones
    assert client.post(api + "/undo", json={}).status_code == 200
    page = parse(client.get(url).text)
    assert "data-log-from" not in page.by_id("panel-log").attrs
    assert "undone" in page.by_id(f"step-{top}").attrs["class"]
