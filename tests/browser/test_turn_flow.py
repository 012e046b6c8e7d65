"""In real Chromium at 768×1024 (issue 18): the turn's one-tap flow controls and Undo after them.
The Event's Danger button at the end of Phase 1 (next_phase + record_event), "Every check
passed · end the turn" from a settled Phase 3 (next_phase, the checks, end_turn): each tap
leaves one logged step per command, "Undo last step" takes one back, "Undo the whole tap" all."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_turn_polish import command, new_game, open_page
from tests.support import http


def state(url: str, game: dict) -> dict:
    return http.get(f"{url}/api/games/{game['edit_token']}", timeout=10).json()


def tap(page, selector: str, heading: str) -> None:
    page.locator(selector).click()
    expect(page.locator("#turn-heading")).to_contain_text(heading)


def test_the_event_from_phase_1_and_its_undo_step_by_step_or_as_a_whole(browser, live_server):
    url = live_server.url
    game = new_game(url, "Flow")
    page = open_page(browser, url, game["edit_url"])
    expect(page.locator("#section-event-ahead")).to_be_visible()

    tap(page, "#section-event-ahead #event-danger-2", "Phase 2")
    assert (state(url, game)["event"], state(url, game)["danger"]) == ("Event card", 2)
    log = page.locator("#panel-log li.log-step")
    expect(log.nth(0)).to_contain_text("Event")  # one step: the phase change and the Event together
    expect(log.nth(0)).to_contain_text("Phase 2")
    expect(page.locator("#undo-tap")).to_have_count(0)

    # found in play (docs/rules.md § 5.6): "Undo last step" takes back the whole tap
    tap(page, "#undo-last", "Phase 1")
    assert (state(url, game)["phase"], state(url, game)["event"], state(url, game)["danger"]) == (1, None, 0)
    expect(page.locator("#section-event-ahead #event-danger-1")).to_be_visible()
    page.close()


def test_every_check_passed_and_the_end_of_the_turn_from_a_settled_phase_3_and_its_undo(browser, live_server):
    url = live_server.url
    game = new_game(url, "Flow end")
    for body in ({"type": "next_phase"}, {"type": "record_event", "title": "Quiet", "danger": 0},
                 {"type": "next_phase"}):  # no AI-Bot activated: Phase 3 has nothing to resolve
        command(url, game, body)
    due = [b["name"] for b in state(url, game)["bots"] if b["role"] in ("sentry", "patrol")]
    page = open_page(browser, url, game["edit_url"])
    button = page.locator("#phase-4-ahead #checks-end")
    expect(button).to_contain_text("end the turn")
    for name in due:
        expect(button).to_contain_text(name)

    tap(page, "#checks-end", "Turn 2 · Phase 1")
    expect(page.locator("#undo-tap")).to_contain_text(f"{len(due) + 2} steps")  # next_phase, checks, end_turn
    tap(page, "#undo-tap", "Turn 1 · Phase 3")  # the whole tap
    expect(page.locator("#phase-4-ahead article.check-card")).to_have_count(len(due))
    assert state(url, game)["position_checks"] == {}

    tap(page, "#checks-end", "Turn 2 · Phase 1")
    tap(page, "#undo-last", "Turn 1 · Phase 4")  # one step: the end of the turn; the checks stand
    assert sorted(state(url, game)["position_checks"].values()) == [True] * len(due)
    expect(page.locator("#end-turn")).to_be_enabled()
    page.close()
