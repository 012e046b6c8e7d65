"""The log's history: "Show older steps" reaches every step (htmx append, or `?before=N` without
JavaScript), each with its labels, and any of them can be gone back to."""

from __future__ import annotations

import pytest

from app.store import game_commands, games
from app.web.panels import LOG_LENGTH
from tests.support.html import parse
from tests.support.prebuilt import copied
from tests.support.turn_games import HX, make_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

STEPS = 2 * LOG_LENGTH + 15  # three pages: 40, 40, and the rest down to step 0


@pytest.fixture
def long_game(session):
    """A game with STEPS steps after its creation; each names its own Event. Played once per
    worker, copied for each test (tests/support/prebuilt.py)."""
    return copied(session, played)


def played(session):
    game = make_game(session)
    game_commands.run_command(session, game, {"type": "next_phase"})  # Phase 2: Events can be recorded
    for n in range(2, STEPS + 1):
        game_commands.run_command(session, game, {"type": "record_event", "title": f"Event {n}", "danger": 0,
                                          "by_effect": n > 2})  # R-EVENT-ONE: one drawn, the rest by effects
    session.refresh(game)
    assert game.seq == STEPS
    return game


def seqs(node) -> list[int]:
    return [int(li.attrs["data-seq"]) for li in node.all("li", cls="log-step")]


def test_the_log_shows_the_newest_page_and_a_show_older_link_that_works_with_and_without_htmx(client, long_game):
    page = parse(client.get(f"/g/{long_game.edit_token}/panels/log").text)
    assert seqs(page) == list(range(STEPS, STEPS - LOG_LENGTH, -1))
    more = page.one("li", cls="log-more").one("a")
    before = STEPS - LOG_LENGTH + 1
    assert more.attrs["hx-get"] == f"/g/{long_game.edit_token}/log?before={before}"
    assert more.attrs["href"] == f"/g/{long_game.edit_token}?before={before}#panel-log"
    assert more.attrs["hx-target"] == "closest li" and more.attrs["hx-swap"] == "outerHTML"


def test_show_older_answers_the_previous_page_of_steps_until_step_0(client, long_game):
    before, shown = STEPS - LOG_LENGTH + 1, []
    while before is not None:
        r = client.get(f"/g/{long_game.edit_token}/log", params={"before": before}, headers=HX)
        assert r.status_code == 200
        page = parse(r.text)
        assert all(n.tag == "li" for n in page.children if not isinstance(n, str))  # items to append
        shown += seqs(page)
        more = page.all("li", cls="log-more")
        before = int(more[0].one("a").attrs["hx-get"].rsplit("=", 1)[1]) if more else None
    assert shown == list(range(STEPS - LOG_LENGTH, -1, -1))  # every older step, once, down to 0


def test_an_older_step_keeps_its_labels_and_can_be_gone_back_to(client, session, long_game):
    r = client.get(f"/g/{long_game.edit_token}/log", params={"before": 6}, headers=HX)
    step = parse(r.text).by_id("step-5")
    assert step.one(cls="log-label").text() == "Event"
    assert "Event: Event 5." in step.text()
    form = step.one("form")
    assert form.attrs["hx-post"] == f"/g/{long_game.edit_token}/undo"
    assert form.field("to_seq").attrs["value"] == "5"
    back = client.post(f"/g/{long_game.edit_token}/undo", data={"to_seq": "5", "seen": str(STEPS)}, headers=HX)
    assert back.status_code == 200
    log = parse(back.text).by_id("panel-log")
    assert seqs(log)[0] == STEPS + 1 and 5 in seqs(log)  # the log stays open down to step 5
    assert log.attrs["data-query"] == "oldest=5"  # and a live refresh keeps it so
    session.refresh(long_game)
    assert games.current_state(session, long_game).event == "Event 5"


@pytest.mark.parametrize("path", ["/g/{edit}", "/v/{view}"], ids=["play page", "watch page"])
def test_without_javascript_before_opens_the_page_of_older_steps_with_a_way_back(client, long_game, path):
    url = path.format(edit=long_game.edit_token, view=long_game.view_token)
    page = parse(client.get(url, params={"before": 30}).text)
    log = page.by_id("panel-log")
    assert seqs(log) == list(range(29, -1, -1))
    assert log.attrs["data-query"] == "before=30"
    assert "Back to the newest steps" in log.text() and not log.all("li", cls="log-more")
    assert ("Go back here" in log.text()) == path.startswith("/g/")


def test_a_live_refresh_keeps_the_pages_the_player_opened(client, long_game):
    r = client.get(f"/v/{long_game.view_token}/panels/log", params={"oldest": 3})
    log = parse(r.text).by_id("panel-log")
    assert seqs(log) == list(range(STEPS, 2, -1)) and log.attrs["data-query"] == "oldest=3"
    newest = parse(client.get(f"/v/{long_game.view_token}/panels/log", params={"oldest": STEPS - 2}).text)
    assert "data-query" not in newest.by_id("panel-log").attrs  # the newest page reaches it anyway


@pytest.mark.parametrize("query", ["before=x", "oldest=", "before=1.5"])
def test_a_malformed_page_is_422_not_500(client, long_game, query):
    assert client.get(f"/g/{long_game.edit_token}/log?{query}").status_code == 422
    assert client.get(f"/g/{long_game.edit_token}/panels/log?{query}").status_code == 422


def test_a_short_log_has_no_show_older(client, session):
    page = parse(client.get(f"/g/{make_game(session).edit_token}/panels/log").text)
    assert seqs(page) == [0] and not page.all("li", cls="log-more")
