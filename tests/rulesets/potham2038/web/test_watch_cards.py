"""The watch link (the co-player's phone) shows each AI-Bot's decision card of the turn, read-only:
its actions and reasons as the player's page shows them, no control that could change the game,
the newest first; the turn panel it sits in is a step panel, so the live push carries each new
card (tests/browser/test_sharing.py covers the push itself)."""

from __future__ import annotations

from tests.support.html import parse
from tests.support.turn_games import make_game, roster_state
from tests.support.turn_play import Table, facts


def watched(client, session, activations: list[tuple[str, dict]]):
    state = roster_state(phase=2, activation_order=[bot for bot, _ in activations])
    game = make_game(session, state)
    table = Table(client, game.edit_token)
    for _bot, fill in activations:
        table.submit("activate", **fill)
    return game, table


def test_the_watch_page_shows_every_decision_card_of_the_turn_newest_first_and_read_only(client, session):
    game, table = watched(client, session, [
        ("hunt", facts((6, True, False), (20, False, False))),
        ("sent", {"subject_distance": "1", **facts((6, True, False), (20, False, False))}),
    ])
    page = parse(client.get(f"/v/{game.view_token}").text)
    cards = page.by_id("watch-cards")
    assert [c.attrs["data-bot"] for c in cards.all("article", cls="decision-card")] == ["Sentry-1", "Hunter-1"]
    player = table.page.by_id("card-sent")  # the same card as the player's page shows it
    assert [a.attrs["data-action"] for a in cards.by_id("card-sent").all("li", cls="card-action")] == \
        [a.attrs["data-action"] for a in player.all("li", cls="card-action")]
    assert "leaving its post" in cards.by_id("card-sent").text()  # the reasons too (R-ACT-SHOOT-ANY)
    assert not cards.all("form") and not cards.all("button") and not cards.all("input")


def test_the_watch_panel_says_when_no_ai_bot_has_activated_yet(client, session):
    game, _ = watched(client, session, [])
    page = parse(client.get(f"/v/{game.view_token}/panels/turn").text)
    assert not page.has_id("watch-cards") and "No AI-Bot has activated yet" in page.text()
