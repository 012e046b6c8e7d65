"""The turn panel's folded forms are fetched when opened (issue 21), in Chromium: a fold opened by
hand shows its form, and keeps it open when another device's step replaces the panel (the page
reopens the folds it had open, and a reopened fold fetches its form again, at the new step)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_polish_controls import ids
from tests.browser.test_turn_polish import command, new_game, open_page


def test_a_fold_opened_by_hand_fetches_its_form_and_stays_open_across_another_devices_step(browser, live_server):
    url = live_server.url
    game = new_game(url)
    page = open_page(browser, url, game["edit_url"])
    fold = page.locator("#section-hack")
    expect(fold.locator(".lazy-form")).to_have_count(1)
    expect(fold.locator("form")).to_have_count(0)
    fold.locator("> summary").click()
    expect(fold.locator("#form-hack #hack-stat")).to_be_visible()
    shown = int(page.locator("#panel-turn").get_attribute("data-seq"))
    ada = next(iter(ids(url, game).values()))  # the first Character
    command(url, game, {"type": "noise", "character_id": ada, "kind": "noise", "bot_ids": []})
    expect(page.locator("#panel-turn")).to_have_attribute("data-seq", str(shown + 1))
    expect(page.locator("#section-hack")).to_have_attribute("open", "")
    expect(page.locator("#section-hack #form-hack input[name=seen]")).to_have_value(str(shown + 1))
    expect(page.locator("#section-luck form")).to_have_count(0)  # a closed fold stays a stand-in
    page.context.close()
